"""The recap of the last turn, opened with r by a player who came back (a new app, no reveal seen), shows every
card's text: the texts come with the reveal itself, not from an update only the apps present at the reveal got."""

from __future__ import annotations

from contextlib import AsyncExitStack

from dixit_tui.tui.widgets.recap import RecapScreen
from tests.tui.apps import open_apps, session_of
from tests.tui.fixtures import coordinator, deck_texts, options, phase_of, play_until, screen_text, seat_many, settle


async def test_the_recap_after_a_reconnect_shows_the_card_texts() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        others = [s for s, _ in await seat_many(coord, ["ben", "cara"], view.code)]
        await session_of(ana).start()
        sessions = [session_of(ana), *others]
        await play_until(sessions, lambda: phase_of(others[0])[1:] == (2, "clue"))
        await pa.exit(None)  # ana's terminal goes away...

    async with AsyncExitStack() as stack:  # ...and she comes back: `ssh -t ... join CODE` with her key
        ((again, pb),) = await open_apps(stack, coord, ["ana"], view.code)
        await settle(pb)
        await pb.press("r")
        await settle(pb)
        assert isinstance(again.screen, RecapScreen)
        shown = screen_text(again)
        last = coord.tables[view.code].game
        assert last is not None and last.state.history
        board = [slot.card for slot in last.state.history[-1].slots]
        texts = deck_texts()
        assert "(card text not available)" not in shown
        assert all(texts[card][:20] in shown.replace("\n", " ") for card in board[:2])
