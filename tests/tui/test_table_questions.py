"""Questions in the table's lobby and at game over (Pilot): Start withdrawn when the number of players changes,
and adding a bot asks first, so plain typing ("brb") adds none."""

from __future__ import annotations

from contextlib import AsyncExitStack

from dixit_tui.tui.widgets.confirm import ConfirmScreen
from tests.tui.apps import open_apps, session_of
from tests.tui.fixtures import coordinator, options, screen_text, seat, seat_many, settle


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
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        table = coord.tables[view.code]
        await settle(pa)
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
