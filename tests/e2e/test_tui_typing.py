"""Keys typed while the table moves on underneath, over real SSH: typed words never become moves, questions never
stack nor outlive their phase, and no key ends a session.

One player (ben, or ana in the party test) is a real SSH terminal (asyncssh + pyte); the others are sessions of the
same coordinator, whose moves the test makes at a chosen moment: right after some keys and before others, so the
keys reach the server after the phase changed (the move is made in this process at once; the keys go over TCP).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from dixit_tui.coordinator import Identity, PlayerSession
from dixit_tui.coordinator.table import Table
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.widgets.confirm import ConfirmScreen
from tests.e2e.harness import TIMEOUT, PtyClient, wait_for
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import (
    footer,
    join_by_code,
    key_of,
    open_lobby,
    press,
    settle_screen,
    text,
    wait_footer,
    wait_gone,
    wait_status,
    wait_text,
)
from tests.e2e.watched import drawn
from tests.tui.fixtures import Recorder, default_move, options
from tests.work_counters import wrapped_methods

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

INTERNAL_ERROR = "internal error"


@asynccontextmanager
async def table_with(
    tmp_path: Path, others: list[str], you: str, *, mode: str = "standard", you_last: bool = False
) -> AsyncIterator[tuple[PtyClient, Table, list[PlayerSession]]]:
    """A table created by `others[0]` (a session of the coordinator), the others seated, and `you` on a real SSH
    terminal, seated second (or last). Not started."""
    async with dixit_server(tmp_path) as (server, coord):
        sessions = [await coord.connect(Identity(name, key=f"key-{name}"), Recorder()) for name in others]
        view = await sessions[0].create(options(mode=mode) if mode != "standard" else options(target=10))
        code = view.code
        client = await open_lobby(server.port, you, key_of(you))
        later = sessions[1:]
        if you_last:
            for session in later:
                await session.join(code)
            later = []
        await join_by_code(client, code)
        for session in later:
            await session.join(code)
        await wait_text(client, f"{len(others) + 1} seated")
        try:
            yield client, coord.tables[code], sessions
        finally:
            await client.close()


def seat_of(table: Table, name: str) -> int:
    return next(i for i, s in enumerate(table.seats) if s.name == name)


def given(table: Table, seat: int) -> tuple[str, ...]:
    assert table.game is not None
    return tuple(table.game.state.given_by(seat))


def alive(client: PtyClient) -> None:
    assert not client.closed and INTERNAL_ERROR not in client.raw_text(), client.screen_text()


async def test_typing_a_clue_when_another_gives_the_first_one(tmp_path: Path) -> None:
    """ben types a first clue; cara gives hers first: his text stays in the box (not sent, shown as kept), a notice
    says why, and the keyboard goes back to his hand (the clue box takes nothing now: `2` typed next moves the hand's
    cursor, it does not go into the box). No card is given by itself, no crash."""
    async with table_with(tmp_path, ["ana", "cara", "dev"], "ben") as (client, table, (ana, cara, _dev)):
        await ana.start()
        await wait_status(client, "Anyone may give the first clue")
        await wait_footer(client, "⏎ Choose card")
        await press(client, "2", "enter")
        await wait_text(client, "Card 2 chosen")
        await wait_footer(client, "esc Back to the table")  # the clue box has the focus
        await press(client, "yellow")
        await wait_text(client, "yellow")
        assert await default_move(cara, clue="first")  # cara wins the race
        await wait_text(client, "Clue: “first”")
        await wait_text(client, "cara gave the first clue;", "text is kept")  # a notice (it may wrap)
        await wait_footer(client, "⏎ Choose card")  # the keyboard is back at the hand
        await press(client, "2")
        await settle_screen(client)
        alive(client)
        screen = text(client)
        assert "Kept:  yellow" in screen, screen  # kept, as typed, not focused
        box = _app_of(table, "ben").screen.query_one("#clue-input", Input)
        assert not box.has_focus and box.value == "yellow"
        assert "Give this card?" not in screen and "Leave table" not in screen
        ben = seat_of(table, "ben")
        assert given(table, ben) == ()
        assert "ben gave a card" not in screen
        # a card is given on purpose: Enter, read, y
        await press(client, "enter")
        await wait_text(client, "Give this card?")
        await press(client, "y")
        await wait_status(client, "Your card is in")
        assert len(given(table, ben)) == 1
        alive(client)


async def test_quick_keys_at_the_hand_open_one_question_and_never_answer_it(tmp_path: Path) -> None:
    """Enter, Enter, y typed at once at the hand: one "Give this card?" opens (never two), and the `y` typed
    before it opened does not answer it. Then the host voids the turn: the question closes and says why."""
    async with table_with(tmp_path, ["ana", "cara", "dev"], "ben") as (client, table, (ana, cara, _dev)):
        await ana.start()
        assert await default_move(cara, clue="first")
        await wait_status(client, "Choose a card that fits the clue")
        await wait_footer(client, "⏎ Choose card")
        await press(client, "enter", "enter", "y", " ", "l")
        await wait_text(client, "Give this card?")
        await settle_screen(client)
        alive(client)
        ben = seat_of(table, "ben")
        assert given(table, ben) == ()
        app_screens = [type(s).__name__ for s in _app_of(table, "ben").screen_stack]
        assert app_screens.count("ConfirmScreen") == 1, app_screens
        # the table moves past the question: the host voids the turn
        await ana.void()
        await wait_gone(client, "Give this card?")
        await wait_text(client, "“Give this card?” was closed:", "voided")  # a notice (it may wrap)
        assert given(table, ben) == ()
        alive(client)


async def test_a_confirmation_waits_until_the_typing_stops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the typing guard on: the dialog opens on its safe button; `y` typed while keys keep coming is ignored;
    once the dialog says it is ready (after a quiet moment), `y` gives the card."""
    monkeypatch.setattr(ConfirmScreen, "GUARD", 60.0, raising=False)  # never ready during the first part
    async with table_with(tmp_path, ["ana", "cara", "dev"], "ben") as (client, table, (ana, cara, _dev)):
        await ana.start()
        assert await default_move(cara, clue="first")
        # (the hand says "⏎ Choose card" before the clue too, when anyone may give it: wait for the clue's phase)
        await wait_status(client, "Choose a card that fits the clue")
        await wait_footer(client, "⏎ Choose card")
        await press(client, "enter")
        await wait_text(client, "Give this card?", "y works in a moment")
        refused: list[ConfirmScreen] = []  # the confirming keys the dialog's guard refuses (too soon), counted

        def counted(real: Any) -> Any:
            def refuse(screen: ConfirmScreen) -> None:
                refused.append(screen)
                real(screen)

            return refuse

        with wrapped_methods() as wrap:
            wrap(ConfirmScreen, "_refuse", counted)
            await press(client, "y", "y")
            # both handled (counted), then all they caused drawn: a quiet screen is no proof the keys were read
            await wait_for(lambda: len(refused) == 2, TIMEOUT, "both y keys to be refused")
            await drawn(client)
        ben = seat_of(table, "ben")
        assert given(table, ben) == ()
        dialog = _app_of(table, "ben").screen
        assert isinstance(dialog, ConfirmScreen) and refused == [dialog, dialog] and dialog.again
        assert dialog.focused is not None and dialog.focused.id == "no"  # the safe button
        # Enter on the safe button: nothing given
        await press(client, "enter")
        await wait_gone(client, "Give this card?")
        assert given(table, ben) == ()
        monkeypatch.setattr(ConfirmScreen, "GUARD", 0.3, raising=False)
        await press(client, "enter")
        await wait_text(client, "Give this card?")
        await wait_text(client, "y: Give it")  # ready: the hint says so
        await press(client, "y")
        await wait_status(client, "Your card is in")
        assert len(given(table, ben)) == 1
        alive(client)


async def test_party_storyteller_is_not_put_into_the_clue_box_after_the_recap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ana (last seat) tells in turn 2 of a party game. When she closes turn 1's recap, hotkeys typed then stay
    hotkeys ("lyc": Leave opens and is not confirmed, nothing is sent as a clue); Enter opens the clue box."""
    names = ["bo", "cy", "di", "ed", "fa"]
    async with table_with(tmp_path, names, "ana", mode="party", you_last=True) as (client, table, sessions):
        await sessions[0].start()
        assert table.game is not None
        assert await default_move(sessions[4], clue="first")  # fa (seat 4) tells turn 1: ana tells turn 2
        for session in sessions:
            await default_move(session)
        await wait_status(client, "Everyone gives a card")
        await wait_footer(client, "⏎ Choose card")
        await press(client, "enter")
        await wait_text(client, "Give this card?")
        await press(client, "y")
        await wait_status(client, "Vote")
        monkeypatch.setattr(ConfirmScreen, "GUARD", 60.0, raising=False)
        for session in sessions:
            await default_move(session)
        await wait_footer(client, "⏎ Vote")
        await press(client, "enter")  # green on the pointer; ana does not tell: no red marker
        await wait_text(client, "Turn 1 (r: recap)")
        await press(client, "r")
        await wait_footer(client, "⏎ Close")
        await press(client, "enter")
        await client.wait_until(lambda: "⏎ Close" not in footer(client), 20, "the recap to close")
        await press(client, "lyc", "enter")  # what old versions sent as a clue
        await wait_text(client, "Leave table")  # `l` is a hotkey, as the footer says; y comes too soon to leave
        await settle_screen(client)
        assert table.game.state.turn.number == 2 and table.game.state.turn.clue is None  # nothing sent
        assert table.seats[seat_of(table, "ana")].connected
        assert "Leave table" in text(client)  # the Enter typed before it opened did not answer it either
        await press(client, "escape")
        await wait_gone(client, "Leave table")
        await wait_status(client, "You are the storyteller: press Enter to type your clue")
        assert "Type your clue" in footer(client)
        await press(client, "enter")
        await wait_footer(client, "esc Back to the table")
        await press(client, "moon", "enter")
        await wait_text(client, "Clue: “moon”")
        assert table.game.state.turn.clue == "moon"
        alive(client)


def _app_of(table: Table, name: str) -> DixitApp:
    """The DixitApp of the SSH player `name`: the owner of the sink its session delivers to."""
    session = table.seats[seat_of(table, name)].session
    assert session is not None
    app = getattr(session.sink, "__self__", None)
    assert isinstance(app, DixitApp), session.sink
    return app


@pytest.mark.parametrize("gap", [0.0, 0.03])
async def test_esc_then_a_digit_at_once_leaves_the_clue_box_first(tmp_path: Path, gap: float) -> None:
    """Esc then `3` typed at once (or 30 ms apart, as a person does) from the clue box: the Esc leaves the box
    before the `3` is handled, so the `3` highlights card 3 of the hand instead of landing in the text."""
    async with table_with(tmp_path, ["ana", "cara", "dev"], "ben") as (client, table, (ana, _cara, _dev)):
        await ana.start()
        await wait_footer(client, "⏎ Choose card")
        await press(client, "2", "enter")
        await wait_footer(client, "esc Back to the table")  # the clue box has the focus
        await press(client, "moon")
        await wait_text(client, "moon")
        client.send("\x1b")
        await asyncio.sleep(gap)
        client.send("3")
        app = _app_of(table, "ben")
        hand = app.screen.query_one("#main-view")
        for _ in range(200):  # until both keys are handled (bounded: a busy machine may take a while)
            await asyncio.sleep(0.05)
            if app.focused is hand and getattr(hand, "highlighted", None) == 2:
                break
        await settle_screen(client)
        alive(client)
        box = app.screen.query_one("#clue-input", Input)
        assert box.value == "moon", box.value
        assert app.focused is hand and getattr(hand, "highlighted", None) == 2, (app.focused, text(client))
