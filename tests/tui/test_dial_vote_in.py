"""Once the table has your vote, the dial says so (seen playing: after Enter voted for 2 the dial still read "Enter:
vote for 2", as if nothing had been sent, and a second Enter seemed needed). It says the vote is in and that the table
waits for the others; turned to another card, it says again what Enter would do."""

from __future__ import annotations

from contextlib import AsyncExitStack

from dixit_tui.tui import dial_picture
from dixit_tui.tui.vote_dial import Ballot, VoteDial
from dixit_tui.tui.widgets.cards import Board
from tests.tui.apps import ana_at_her_vote, dial_of, table_of
from tests.tui.fixtures import coordinator, settle
from tests.tui.pictures import picture_text


async def test_after_your_vote_the_dial_says_it_is_in() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ana, pa = await ana_at_her_vote(stack, coord, (100, 30))
        screen = table_of(ana)
        board, dial = screen.query_one(Board), dial_of(screen)
        slot = dial.pointer
        assert f"Enter: vote for {slot}" in picture_text(board.picture)
        await pa.press("enter")
        await settle(pa)
        shown = picture_text(board.picture)
        assert "Enter: vote" not in shown, shown
        assert f"Your vote for {slot} is in · waiting for the others" in shown, shown
        other = next(s for s in range(1, dial.slots + 1) if dial.allowed(s) and s != slot)
        await pa.press(str(other))  # turned away from the vote: Enter would change it
        await settle(pa)
        assert f"Enter: vote for {other}" in picture_text(board.picture)


def test_two_votes_and_the_red_marker_say_they_are_in_too() -> None:
    two = VoteDial(Ballot(8, votes_allowed=2, voted=(4, 2)))
    wanted = "Your votes for 2 and 4 are in · waiting for the others · you can change it"
    assert dial_picture.caption(two.look) == wanted
    red = VoteDial(Ballot(5, places_red=True, voted=(3,), voted_red=1))
    assert dial_picture.caption(red.look, 40) == "Green 3 and red 1 are in"
    red.turn(1)  # turned to another green vote: Enter starts it
    assert dial_picture.caption(red.look).startswith("Step 1 of 2: green vote 4")
