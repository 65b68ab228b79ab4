"""engine/legal.py: what a seat may do now, in every phase and mode, and the engine accepts exactly that."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from dixit_tui.engine import (
    GameState,
    GiveClue,
    Phase,
    RuleError,
    Submit,
    VoidTurn,
    Vote,
    decide,
    legal_moves,
    view_for,
)
from dixit_tui.engine.game import Game
from dixit_tui.engine.legal import NOTHING
from dixit_tui.engine.random_play import random_command
from tests.engine.helpers import give_clue, make_game, slot_of, submit_all


def accepted(state: GameState, command: GiveClue | Submit | Vote) -> bool:
    try:
        decide(state, command)
    except RuleError:
        return False
    return True


def told(game: Game, teller: int = 0) -> None:
    """Turn 1's clue, by `teller` (the first clue is open to everyone)."""
    give_clue(game, teller)


# --- each phase and mode --------------------------------------------------------------------------------------


def test_standard_first_clue_is_open_to_every_seat_with_any_card() -> None:
    game = make_game(4)
    state = game.state
    for seat in state.seats:
        moves = legal_moves(state, seat)
        assert moves.clue and moves.clue_needs_card and moves.clue_cards == state.hands[seat]
        assert moves.voided_card is None and not moves.submit_count and not moves.vote and not moves.places_red
    assert legal_moves(state, None) is NOTHING  # a spectator
    assert legal_moves(state, 99) is NOTHING


def test_standard_submit_and_vote() -> None:
    game = make_game(4)
    told(game, 0)
    state = game.state
    assert legal_moves(state, 0) == NOTHING  # the storyteller's card is in
    for seat in (1, 2, 3):
        moves = legal_moves(state, seat)
        assert not moves.clue and moves.submit_count == 1 and moves.submit_cards == state.hands[seat]
    submit_all(game)
    state = game.state
    assert legal_moves(state, 0) == NOTHING  # the storyteller does not vote
    for seat in (1, 2, 3):
        moves = legal_moves(state, seat)
        own = slot_of(game, seat)
        assert moves.vote and moves.votes_allowed == 1 and not moves.places_red
        assert moves.vote_slots == tuple(s for s in range(1, 5) if s != own)
        assert view_for(state, seat).forbidden_slots == (own,)


def test_three_players_give_two_cards() -> None:
    game = make_game(3)
    told(game, 1)
    assert [legal_moves(game.state, s).submit_count for s in range(3)] == [2, 0, 2]
    submit_all(game)
    moves = legal_moves(game.state, 0)
    assert len(moves.vote_slots) == 3  # five cards, two of them its own


def test_a_voter_may_change_the_vote_until_the_last_one_is_in() -> None:
    game = make_game(4)
    told(game, 0)
    submit_all(game)
    game.execute(Vote(1, (legal_moves(game.state, 1).vote_slots[0],)))
    assert 1 not in game.state.waiting_for() and legal_moves(game.state, 1).vote


def test_odyssey_seven_players_vote_twice_on_different_cards() -> None:
    game = make_game(7, profile="odyssey")
    told(game, 0)
    submit_all(game)
    state = game.state
    moves = legal_moves(state, 3)
    assert moves.votes_allowed == 2 and len(moves.vote_slots) == 6
    assert accepted(state, Vote(3, moves.vote_slots[:2]))
    assert not accepted(state, Vote(3, (moves.vote_slots[0],) * 2))
    assert legal_moves(make_game(6, profile="odyssey").state, 0).votes_allowed == 0  # no vote in the clue phase
    game6 = make_game(6, profile="odyssey")
    told(game6, 0)
    submit_all(game6)
    assert legal_moves(game6.state, 3).votes_allowed == 1


def test_party_teller_tells_blind_gives_a_card_and_places_red() -> None:
    game = make_game(6, "party", first="random")
    state = game.state
    teller = state.turn.storyteller
    assert teller is not None
    moves = legal_moves(state, teller)
    assert moves.clue and not moves.clue_needs_card and moves.clue_cards == ()
    assert view_for(state, teller).hand == ()  # the hand stays hidden
    other = (teller + 1) % 6
    assert legal_moves(state, other) == legal_moves(state, None) and not legal_moves(state, other).clue_needs_card
    game.execute(GiveClue(teller, "far away", None))
    state = game.state
    assert all(legal_moves(state, s).submit_count == 1 for s in state.seats)  # the storyteller too
    submit_all(game)
    state = game.state
    for seat in state.seats:
        moves = legal_moves(state, seat)
        assert moves.vote and moves.vote_slots == tuple(range(1, 7))  # party: even your own card
        assert moves.places_red is (seat == teller)
        assert moves.red_slots == (tuple(range(1, 7)) if seat == teller else ())


def test_team_forbids_the_teams_cards_and_the_telling_team_does_not_vote() -> None:
    game = make_game(6, "team")
    told(game, 0)  # seats 0 and 3 are a team
    state = game.state
    assert legal_moves(state, 0) == NOTHING and legal_moves(state, 3).submit_count == 1
    submit_all(game)
    state = game.state
    assert legal_moves(state, 0) == NOTHING and legal_moves(state, 3) == NOTHING
    for seat in state.voter_tuple():
        moves = legal_moves(state, seat)
        team_slots = {slot_of(game, s) for s in state.teammates(seat) if state.given_by(s)}
        board = range(1, len(state.turn.board) + 1)
        assert team_slots and moves.vote_slots == tuple(s for s in board if s not in team_slots)


def test_over_nobody_moves() -> None:
    game = make_game(3, target=10)
    rng = random.Random(3)
    while game.state.phase is not Phase.OVER:
        command = random_command(game.state, rng)
        assert command is not None
        game.execute(command)
    assert all(legal_moves(game.state, s) == NOTHING for s in game.state.seats)


# --- the voided card -------------------------------------------------------------------------------------------


def test_after_a_void_the_storyteller_may_not_tell_with_the_voided_card() -> None:
    game = make_game(4)
    card = game.state.hands[2][3]
    game.execute(GiveClue(2, "first try", card))
    game.execute(VoidTurn(game.state.host))
    state = game.state
    assert state.phase is Phase.CLUE and card in state.hands[2]
    moves = legal_moves(state, 2)
    assert moves.clue and moves.voided_card == card
    assert card not in moves.clue_cards and set(moves.clue_cards) == set(state.hands[2]) - {card}
    assert view_for(state, 2).voided_card == card and view_for(state, 2).clue_cards == moves.clue_cards
    for seat in (0, 1, 3, None):  # nobody else learns which card it was
        assert view_for(state, seat).voided_card is None and view_for(state, seat).clue_cards == ()
    assert not accepted(state, GiveClue(2, "again", card))
    assert all(accepted(state, GiveClue(2, "again", c)) for c in moves.clue_cards)


# --- the engine accepts exactly the legal moves -----------------------------------------------------------------


def _check_state(state: GameState) -> int:
    """Every move legal_moves allows is accepted; the moves next to them it leaves out are refused."""
    checked = 0
    for seat in state.seats:
        moves = legal_moves(state, seat)
        hand = state.hands[seat]
        if state.phase is Phase.CLUE:
            for card in hand if moves.clue_needs_card else (None,):
                ok = accepted(state, GiveClue(seat, "hush", card))
                assert ok == (moves.clue and (card is None or card in moves.clue_cards)), (seat, card)
                checked += 1
        elif state.phase is Phase.SUBMIT:
            for cards in combinations(hand, max(moves.submit_count, 1)):
                assert accepted(state, Submit(seat, cards)) == bool(moves.submit_count), (seat, cards)
                checked += 1
        elif state.phase is Phase.VOTE:
            board = range(1, len(state.turn.board) + 1)
            red = 1 if moves.places_red else None
            for slot in board:
                ok = accepted(state, Vote(seat, (slot,), red))
                assert ok == (moves.vote and slot in moves.vote_slots), (seat, slot)
                checked += 1
            if moves.votes_allowed == 2 and len(moves.vote_slots) >= 2:
                assert accepted(state, Vote(seat, moves.vote_slots[:2], red))
            elif moves.vote and len(moves.vote_slots) >= 2:
                assert not accepted(state, Vote(seat, moves.vote_slots[:2], red))
            if moves.vote and not moves.places_red:
                assert not accepted(state, Vote(seat, moves.vote_slots[:1], 1))
    return checked


@pytest.mark.parametrize(
    "n, mode, profile",
    [
        (3, "standard", "refresh"),
        (5, "standard", "refresh"),
        (8, "standard", "odyssey"),
        (6, "party", "odyssey"),
        (6, "team", "odyssey"),
        (8, "team", "odyssey"),
    ],
)
def test_the_engine_accepts_exactly_the_legal_moves(n: int, mode: str, profile: str) -> None:
    rng = random.Random(n)
    game = make_game(n, mode, profile, target=12)
    checked = 0
    voided: set[int] = set()
    for _ in range(400):
        state = game.state
        if state.phase is Phase.OVER:
            break
        checked += _check_state(state)
        if state.phase is Phase.SUBMIT and state.turn.number % 2 and state.turn.number not in voided:
            game.execute(VoidTurn(state.host))  # odd turns are told twice: a voided card to leave out
            voided.add(state.turn.number)
            continue
        command = random_command(state, rng)
        assert command is not None
        game.execute(command)
    assert checked > 100 and voided
