"""Questions in the table's lobby and at game over (Pilot): Start withdrawn when the number of players changes,
and adding a bot asks first, so plain typing ("brb") adds none."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import pytest
from textual.pilot import Pilot

from dixit_tui.coordinator.player_session import SessionTable
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.widgets import confirm
from dixit_tui.tui.widgets.confirm import ConfirmScreen
from tests.tui.apps import open_apps, session_of
from tests.tui.fixtures import coordinator, options, screen_text, seat, seat_many, settle
from tests.tui.keys import keys_at_once


class Clock:
    """The confirmation guard's clock, moved by the test: keys typed "0.5 s apart" without sleeping."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def guard_clock(monkeypatch: pytest.MonkeyPatch, shipped_guard: float) -> Clock:
    """The shipped confirmation guard, on a clock the test moves."""
    clock = Clock()
    monkeypatch.setattr(ConfirmScreen, "GUARD", shipped_guard)
    monkeypatch.setattr(confirm, "clock", clock)
    return clock


@asynccontextmanager
async def ana_at_a_new_table() -> AsyncIterator[tuple[DixitApp, Pilot[Any], SessionTable]]:
    """ana's app, at the lobby of the table she just created (alone): the app, its pilot, the table."""
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        table = coord.tables[view.code]
        await settle(pa)
        yield ana, pa, table


async def test_the_start_question_is_withdrawn_when_someone_joins_meanwhile() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        await seat_many(coord, ["ben", "cara"], view.code)
        await settle(pa)
        await pa.press("s")
        await settle(pa)
        assert "Start the game with 3 players?" in screen_text(ana)
        await seat(coord, "dev", view.code)  # a fourth player sits down while the question is open
        await settle(pa)
        assert not isinstance(ana.screen, ConfirmScreen)
        assert "the table now has 4 players" in screen_text(ana)
        await pa.press("y")  # a `y` typed a moment later answers nothing
        await settle(pa)
        table = coord.tables[view.code]
        assert table.game is None
        await pa.press("s")
        await settle(pa)
        assert "Start the game with 4 players?" in screen_text(ana)
        await pa.press("y")
        await settle(pa)
        assert table.game is not None


async def test_typing_brb_in_the_lobby_adds_no_bot_and_b_then_y_adds_one() -> None:
    async with ana_at_a_new_table() as (ana, pa, table):
        await pa.press(*"brb")
        await settle(pa)
        assert len(table.seats) == 1  # nobody added: `b` only asks
        assert "Add a bot?" in screen_text(ana)
        await pa.press("escape")
        await settle(pa)
        assert not isinstance(ana.screen, ConfirmScreen)
        await pa.press("b")
        await settle(pa)
        await pa.press("y")
        await settle(pa)
        assert [s.bot for s in table.seats] == [False, True]


async def test_b_then_y_half_a_second_later_adds_a_bot_with_the_guard_on(guard_clock: Clock) -> None:
    """Found playtesting: `b`, then `y` 0.5 s later, always got "Too soon: press y again to add" (the guard was 0.6 s
    from the dialog's opening). It counts from the dialog's first frame and is as long as a person's quickest
    reaction plus a long link's round trip: a `y` typed at once is still refused, a deliberate one answers."""
    async with ana_at_a_new_table() as (ana, pa, table):
        await pa.press("b")
        await settle(pa)
        assert "y works in a moment" in screen_text(ana)
        guard_clock.now += 0.2  # too soon to have read it
        await pa.press("y")
        await settle(pa)
        assert "Too soon: press y again to add" in screen_text(ana) and len(table.seats) == 1
        await pa.press("escape")
        await settle(pa)
        await pa.press("b")
        await settle(pa)
        guard_clock.now += 0.5
        await pa.press("y")
        await settle(pa)
        assert not isinstance(ana.screen, ConfirmScreen)
        assert [s.bot for s in table.seats] == [False, True]


async def test_keys_typed_in_one_burst_with_b_are_told_once_not_dropped_silently(guard_clock: Clock) -> None:
    """Found playtesting: `b y b y` in one burst left "Add a bot?" open and dropped the rest without a word. The keys
    behind the `b` were typed before the question showed: they still never answer it, and the dialog says so, once."""
    async with ana_at_a_new_table() as (ana, pa, table):
        keys_at_once(ana, ["b", "y", "b", "y"])
        await settle(pa)
        dialog = ana.screen
        assert isinstance(dialog, ConfirmScreen) and not dialog.again and len(table.seats) == 1
        assert screen_text(ana).count("y came before this showed and did nothing: press y again to add") == 1
        guard_clock.now += 0.5
        await pa.press("y")
        await settle(pa)
        assert [s.bot for s in table.seats] == [False, True]
