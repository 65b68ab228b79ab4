"""The per-player view shows only what that seat may see."""

from __future__ import annotations

import json

from dixit_tui.engine import Game, Vote, view_for
from dixit_tui.protocol.views import game_fields
from tests.engine.helpers import cast, give_clue, make_game, slot_of, submit_all


def visible_text(game: Game, seat: int | None) -> str:
    return json.dumps(game_fields(game.view(seat)))


def test_own_hand_only() -> None:
    game = make_game(4)
    for seat in range(4):
        view = game.view(seat)
        assert [c.card for c in view.hand] == list(game.state.hands[seat])
        text = visible_text(game, seat)
        for other in range(4):
            if other != seat:
                assert not any(card in text for card in game.state.hands[other])


def test_spectator_sees_no_hand_but_sees_the_board() -> None:
    game = make_game(4)
    give_clue(game, 0)
    submit_all(game)
    view = game.view(None)
    assert view.hand == () and view.you is None and not view.can_vote
    assert len(view.board) == 4
    text = visible_text(game, None)
    assert not any(card in text for seat in range(4) for card in game.state.hands[seat])


def test_no_owner_and_no_other_vote_before_the_reveal() -> None:
    game = make_game(5)
    give_clue(game, 0)
    game.execute(__import__("dixit_tui.engine", fromlist=["Submit"]).Submit(1, game.state.hands[1][:1]))
    # during submissions nobody sees the storyteller's card or the submitted one, except their owners
    text = visible_text(game, 2)
    assert game.state.turn.clue_card is not None  # given above
    assert game.state.turn.clue_card not in text and game.state.turn.submissions[1][0] not in text
    assert game.view(1).your_cards == game.state.turn.submissions[1]
    submit_all(game)
    cast(game, {1: 0, 2: 1})
    for seat in range(5):
        data = game_fields(game.view(seat))
        assert "owner" not in json.dumps(data["board"])
        assert data["your_votes"] == list(game.state.turn.votes.get(seat, ()))
    assert game.view(3).your_votes == ()
    assert game.view(0).waiting_for == (3, 4)


def test_forbidden_slots_are_your_own_cards_only() -> None:
    game = make_game(3)
    give_clue(game, 0)
    submit_all(game)
    view = game.view(1)
    assert sorted(view.forbidden_slots) == sorted([slot_of(game, (1, 0)), slot_of(game, (1, 1))])
    assert game.view(0).forbidden_slots == (slot_of(game, 0),)


def test_party_hands_hidden_during_a_blind_clue() -> None:
    game = make_game(6, "party")
    assert all(game.view(s).hand == () and game.view(s).hand_hidden for s in range(6))
    give_clue(game, 2)
    assert all(len(game.view(s).hand) == 5 for s in range(6))
    submit_all(game)
    cast(game, {s: (s + 1) % 6 for s in range(6)}, red=0)
    teller = game.state.turn.storyteller
    assert teller == 3
    assert game.view(teller).hand == () and game.view(teller).hand_hidden
    assert all(len(game.view(s).hand) == 5 for s in range(6) if s != teller)
    assert game.view(0).forbidden_slots == ()


def test_party_storyteller_places_red_and_sees_it() -> None:
    game = make_game(6, "party")
    give_clue(game, 0)
    submit_all(game)
    assert game.view(0).places_red and not game.view(1).places_red
    game.execute(Vote(0, (1,), red=2))
    assert game.view(0).your_red == 2 and game.view(1).your_red is None


def test_reveal_is_public_after_scoring() -> None:
    game = make_game(4)
    give_clue(game, 0)
    submit_all(game)
    cast(game, {1: 0, 2: 1, 3: 2})
    reveal = game.view(None).last_reveal
    assert reveal is not None and reveal.turn == 1
    assert {s.owner for s in reveal.slots} == {0, 1, 2, 3}
    assert view_for(game.state, 2).last_reveal == reveal


def test_waiting_for_and_roles() -> None:
    game = make_game(4)
    assert all(game.view(s).can_clue for s in range(4))
    give_clue(game, 1)
    assert game.view(1).submit_count == 0 and game.view(0).submit_count == 1
    assert game.view(0).waiting_for == (0, 2, 3)
