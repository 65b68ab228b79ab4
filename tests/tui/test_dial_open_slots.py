"""The vote dial takes the slots open to the vote from the player's view (its legal moves): the others are
forbidden, and the pointer never rests on them."""

from __future__ import annotations

from dixit_tui.engine import GiveClue, view_for
from dixit_tui.tui.vote_dial import Ballot, VoteDial
from tests.engine.helpers import make_game, submit_all


def test_the_dial_opens_the_views_vote_slots_only() -> None:
    game = make_game(3)
    game.execute(GiveClue(0, "hush", game.state.hands[0][0]))
    submit_all(game)
    view = view_for(game.state, 1)
    dial = VoteDial(Ballot(len(view.board), open_slots=view.vote_slots, board="b1"))
    assert dial.forbidden == frozenset(view.forbidden_slots) and len(dial.forbidden) == 2
    assert [s for s in range(1, 6) if dial.allowed(s)] == list(view.vote_slots)
    assert dial.pointer == view.vote_slots[0]
    dial.configure(Ballot(5, open_slots=(4,), board="b2"))
    assert dial.pointer == 4 and dial.forbidden == frozenset({1, 2, 3, 5})
    dial.configure(Ballot(5, forbidden=(2,), board="b3"))  # without open slots: the forbidden ones, as before
    assert dial.forbidden == frozenset({2}) and dial.pointer == 1
