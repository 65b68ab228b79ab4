"""A dial refusal's hint ("Enter did nothing: card 2 is yours, so it was not chosen. The dial is on 1: ...") is the
table's own line above the dial, not a toast: when the dial moves it goes alone (clearing it cleared every toast on
screen, a chat notice or "You started a rematch" too), and it never covers the key bar (a toast of its length did, at
100 columns)."""

from __future__ import annotations

from contextlib import AsyncExitStack

from dixit_tui.tui.widgets.cards import Board
from dixit_tui.tui.widgets.keybar import KeyBar
from tests.tui.apps import ana_at_her_vote, dial_of, notes, table_of
from tests.tui.fixtures import coordinator, screen_text, settle


async def test_the_refusal_hint_goes_alone_and_leaves_the_key_bar_whole() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ana, pa = await ana_at_her_vote(stack, coord, (100, 30))
        screen = table_of(ana)
        dial, board = dial_of(screen), screen.query_one(Board)  # the hint: the note under the board
        assert board.dial is dial and board.note is None
        own = min(dial.forbidden)
        other = next(s for s in range(dial.slots, 0, -1) if s not in dial.forbidden and s != dial.pointer)
        ana.notify("You started a rematch.", markup=False, timeout=600)  # another notice on screen
        await pa.press(str(own), "enter")
        await settle(pa)
        hint = f"Enter did nothing: card {own} is yours, so it was not chosen. The dial is on {dial.pointer}"
        assert board.note is not None and hint in board.note.plain
        assert hint not in " ".join(notes(ana))  # not a toast
        bar = screen.query_one(KeyBar)
        assert not board.region.overlaps(bar.region), (board.region, bar.region)
        assert "⏎ Vote" in screen_text(ana).splitlines()[-1]  # the key bar's line shows its keys
        await pa.press(str(other))  # the dial moves: the hint goes, and only the hint
        await settle(pa)
        assert board.note is None
        assert hint not in screen_text(ana)
        assert notes(ana) == ["You started a rematch."]
        assert dial.pointer == other
