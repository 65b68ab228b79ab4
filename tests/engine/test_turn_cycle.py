"""The turn cycle: first storyteller, refill and reshuffle at the boundary, endings and ties, void, removal."""

from __future__ import annotations

from collections import Counter

import pytest

from dixit_tui.engine import (
    ConfigError,
    GiveClue,
    Phase,
    RemovePlayer,
    VoidTurn,
    Vote,
)
from dixit_tui.engine.events import DrawPileReshuffled, GameEnded, TurnVoided
from dixit_tui.engine.state import GameState
from tests.engine.helpers import CARDS, cast, give_clue, make_game, play_turn, submit_all


def all_cards(state: GameState) -> Counter[str]:
    places = [*state.draw_pile, *state.discard]
    for seat in state.seats:
        places += [*state.hands[seat], *state.given_by(seat)]
    return Counter(places)


def test_first_accepted_clue_makes_its_author_storyteller() -> None:
    game = make_game(4)
    assert game.state.turn.storyteller is None
    assert game.state.waiting_for() == (0, 1, 2, 3)
    give_clue(game, 2)
    assert game.state.turn.storyteller == 2
    assert game.state.phase is Phase.SUBMIT
    with pytest.raises(Exception, match="already been given"):
        give_clue(game, 1)


def test_random_first_storyteller_is_seeded_and_only_they_may_clue() -> None:
    a, b = make_game(5, first="random", seed=3), make_game(5, first="random", seed=3)
    teller = a.state.turn.storyteller
    assert teller is not None and teller == b.state.turn.storyteller
    other = (teller + 1) % 5
    with pytest.raises(Exception, match="Only the storyteller"):
        a.execute(GiveClue(other, "x", a.state.hands[other][0]))


def test_next_storyteller_is_the_next_seat_and_hands_are_refilled() -> None:
    game = make_game(3)
    play_turn(game, 2, {0: 2, 1: 2})
    assert game.state.turn.storyteller == 0 and game.state.turn.number == 2
    assert [len(h) for h in game.state.hands] == [7, 7, 7]  # the storyteller drew 1, the others 2


def test_refill_exactly_enough_then_reshuffle_at_the_boundary() -> None:
    # 4 players x 6 = 24 dealt from 28: the pile holds exactly the 4 cards turn 1 needs.
    game = make_game(4, cards=CARDS[:28])
    assert len(game.state.draw_pile) == 4
    before = len(game.events)
    play_turn(game, 0, {1: 0, 2: 0, 3: 1})
    assert not any(isinstance(e, DrawPileReshuffled) for e in game.events[before:])
    assert game.state.draw_pile == () and len(game.state.discard) == 4
    before = len(game.events)
    play_turn(game, 1, {0: 1, 2: 1, 3: 0})
    shuffles = [e for e in game.events[before:] if isinstance(e, DrawPileReshuffled)]
    assert len(shuffles) == 1 and len(shuffles[0].order) == 8  # both turns' discards
    assert len(game.state.draw_pile) == 4 and game.state.discard == ()
    assert all(len(h) == 6 for h in game.state.hands)
    assert all_cards(game.state) == Counter(c.id for c in CARDS[:28])


def test_reshuffle_takes_the_remaining_pile_with_the_discards() -> None:
    game = make_game(4, cards=CARDS[:25])  # one card left in the pile, four needed
    leftover = game.state.draw_pile
    play_turn(game, 0, {1: 0, 2: 0, 3: 1})
    shuffle = next(e for e in game.events if isinstance(e, DrawPileReshuffled))
    assert set(leftover) <= set(shuffle.order) and len(shuffle.order) == 5
    assert len(game.state.draw_pile) == 1


def test_deck_too_small_is_refused_with_the_numbers() -> None:
    with pytest.raises(ConfigError, match="23 cards but 4 players x 6 cards need 24"):
        make_game(4, cards=CARDS[:23])


@pytest.mark.parametrize(
    ("mode", "profile", "players"),
    [
        ("standard", "refresh", 2),
        ("standard", "refresh", 9),
        ("standard", "odyssey", 13),
        ("party", "odyssey", 5),
        ("team", "odyssey", 7),
        ("team", "odyssey", 4),
    ],
)
def test_player_counts_outside_the_mode_are_refused(mode: str, profile: str, players: int) -> None:
    with pytest.raises(ConfigError):
        make_game(players, mode, profile, cards=CARDS)


def test_all_find_rounds_end_in_a_shared_win_at_the_target() -> None:
    game = make_game(4, target=10)
    for turn in range(6):
        teller = turn % 4
        play_turn(game, teller, {v: teller for v in range(4) if v != teller})
    assert game.state.scores == (8, 8, 10, 10)
    assert game.state.phase is Phase.OVER
    assert game.state.winners == (2, 3)
    assert isinstance(game.events[-1], GameEnded)


def test_the_game_does_not_end_before_the_target() -> None:
    game = make_game(4, target=10)
    for turn in range(5):
        teller = turn % 4
        play_turn(game, teller, {v: teller for v in range(4) if v != teller})
    assert max(game.state.scores) == 8 and game.state.phase is Phase.CLUE


@pytest.mark.parametrize(("mode", "players", "storytells"), [("party", 6, 1), ("party", 7, 2), ("team", 6, 1)])
def test_party_and_team_end_when_everyone_has_told_n_times(mode: str, players: int, storytells: int) -> None:
    game = make_game(players, mode, storytells=storytells)
    for turn in range(players * storytells):
        assert game.state.phase is Phase.CLUE
        teller = turn % players
        give_clue(game, teller)
        submit_all(game)
        for seat in game.state.voters():
            slot = 1 if 1 not in game.state.forbidden_slots(seat) else 2
            red = 1 if mode == "party" and seat == teller else None
            game.execute(Vote(seat, (slot,), red))
    assert game.state.phase is Phase.OVER
    assert game.state.told == (storytells,) * players


def test_party_hands_pass_to_the_next_seat() -> None:
    game = make_game(6, "party")
    give_clue(game, 0)
    submit_all(game)
    kept = {s: set(game.state.hands[s]) for s in range(6)}
    cast(game, {s: s for s in range(6)}, red=0)
    for seat in range(6):
        assert kept[seat] <= set(game.state.hands[(seat + 1) % 6])
    assert all(len(h) == 5 for h in game.state.hands)


def test_void_returns_every_card_and_keeps_scores_and_storyteller() -> None:
    game = make_game(4)
    play_turn(game, 0, {1: 0, 2: 1, 3: 2})
    hands = [set(h) for h in game.state.hands]
    scores = game.state.scores
    give_clue(game, 1)
    submit_all(game)
    cast(game, {0: 1, 2: 1})
    game.execute(VoidTurn(0))
    state = game.state
    assert isinstance(game.events[-1], TurnVoided)
    assert [set(h) for h in state.hands] == hands
    assert state.scores == scores and state.turn.storyteller == 1 and state.turn.number == 2
    assert state.phase is Phase.CLUE and state.turn.votes == {} and state.turn.board == ()


def test_void_needs_the_host_and_a_turn_in_progress() -> None:
    game = make_game(4)
    with pytest.raises(Exception, match="Nothing to void"):
        game.execute(VoidTurn(0))
    give_clue(game, 2)
    with pytest.raises(Exception, match="host"):
        game.execute(VoidTurn(1))


def test_removing_a_player_mid_vote_voids_the_turn_and_skips_their_seat() -> None:
    game = make_game(5)
    give_clue(game, 1)
    submit_all(game)
    cast(game, {0: 1})
    game.execute(RemovePlayer(0, 2))
    state = game.state
    assert not state.active[2] and state.hands[2] == ()
    assert state.phase is Phase.CLUE and state.turn.storyteller == 1
    assert all(len(state.hands[s]) == 6 for s in (0, 1, 3, 4))
    assert 2 not in state.waiting_for()
    assert all_cards(state) == Counter(c.id for c in CARDS[:84])
    play_turn(game, 1, {0: 1, 3: 1, 4: 0})
    assert game.state.turn.storyteller == 3  # seat 2 is skipped


def test_removing_the_storyteller_and_host_passes_both_on() -> None:
    game = make_game(4)
    give_clue(game, 0)
    game.execute(RemovePlayer(0, 0))  # the host leaves for good
    assert game.state.host == 1 and game.state.turn.storyteller == 1


def test_removal_below_the_minimum_ends_the_game() -> None:
    game = make_game(3)
    play_turn(game, 0, {1: 0, 2: 1})
    game.execute(RemovePlayer(1, 1))
    assert game.state.phase is Phase.OVER
    assert game.state.winners == (0,)


def test_only_the_host_removes_someone_else() -> None:
    game = make_game(4)
    with pytest.raises(Exception, match="host"):
        game.execute(RemovePlayer(1, 2))


def test_team_lone_member_votes_and_never_submits() -> None:
    game = make_game(8, "team")  # teams {0,4} {1,5} {2,6} {3,7}
    game.execute(RemovePlayer(0, 5))
    give_clue(game, 0)
    assert 1 not in game.state.waiting_for()  # the lone member of team 1 votes instead
    submit_all(game)
    assert 1 in game.state.voters()


def test_party_ends_at_once_when_the_last_one_yet_to_tell_leaves() -> None:
    game = make_game(7, "party")
    for teller in range(6):
        give_clue(game, teller)
        submit_all(game)
        cast(game, {s: (s + 1) % 7 for s in range(7)}, red=0)
    assert game.state.phase is Phase.CLUE and game.state.turn.storyteller == 6
    game.execute(RemovePlayer(0, 6))
    assert game.state.phase is Phase.OVER
    assert all(game.state.told[s] == 1 for s in game.state.active_seats())
