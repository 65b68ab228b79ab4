"""Table-driven scoring for each mode and profile: bonus (capped or not), 7+ extra, 3 players, party, team."""

from __future__ import annotations

import pytest

from dixit_tui.engine import BadVote
from dixit_tui.engine.scoring import score_party, score_units
from tests.engine.helpers import cast, deltas, give_clue, make_game, play_turn, points_of, submit_all

# (players, profile, votes {voter: target(s)}, expected deltas) with seat 0 telling.
STANDARD_CASES = [
    # refresh has no bonus cap: four votes on seat 1's card are +4
    (
        8,
        "refresh",
        {1: 0, 2: 1, 3: 1, 4: 1, 5: 1, 6: 0, 7: 0},
        {0: 3, 1: 7, 2: 0, 3: 0, 4: 0, 5: 0, 6: 3, 7: 3},
    ),
    # odyssey caps the bonus at 3, and each single-vote finder at 7+ scores +1 extra
    (
        8,
        "odyssey",
        {1: 0, 2: 1, 3: 1, 4: 1, 5: 1, 6: 0, 7: 0},
        {0: 3, 1: 7, 2: 0, 3: 0, 4: 0, 5: 0, 6: 4, 7: 4},
    ),
    # a finder who used two votes gets no extra; the second vote is a bonus for its card's owner
    (
        8,
        "odyssey",
        {1: [0, 2], 2: 1, 3: 1, 4: 1, 5: 1, 6: 0, 7: 0},
        {0: 3, 1: 6, 2: 1, 3: 0, 4: 0, 5: 0, 6: 4, 7: 4},
    ),
    # the 7+ extra applies when everyone found it too (DECISION): 2 + 1 each
    (7, "odyssey", {1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0}, {0: 0, 1: 3, 2: 3, 3: 3, 4: 3, 5: 3, 6: 3}),
    # ... and when everyone found it, two-vote finders get just 2 (plus bonus on their own card)
    (
        7,
        "odyssey",
        {1: [0, 2], 2: [0, 1], 3: 0, 4: 0, 5: 0, 6: 0},
        {0: 0, 1: 3, 2: 3, 3: 3, 4: 3, 5: 3, 6: 3},
    ),
    # nobody found it at 7+: +2 each, bonuses, no extra
    (7, "odyssey", {1: 2, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1}, {0: 0, 1: 5, 2: 3, 3: 2, 4: 2, 5: 2, 6: 2}),
    # odyssey 4-6: one vote, cap 3, no extra
    (6, "odyssey", {1: 0, 2: 1, 3: 1, 4: 1, 5: 1}, {0: 3, 1: 6, 2: 0, 3: 0, 4: 0, 5: 0}),
    (6, "refresh", {1: 0, 2: 1, 3: 1, 4: 1, 5: 1}, {0: 3, 1: 7, 2: 0, 3: 0, 4: 0, 5: 0}),
    # 3 players: a vote on either of a player's two cards is their bonus
    (3, "refresh", {1: (2, 1), 2: 0}, {0: 3, 1: 0, 2: 4}),
    (3, "refresh", {1: (2, 0), 2: (1, 1)}, {0: 0, 1: 3, 2: 3}),
    (3, "odyssey", {1: 0, 2: 0}, {0: 0, 1: 2, 2: 2}),
]


@pytest.mark.parametrize(("players", "profile", "votes", "expected"), STANDARD_CASES)
def test_standard_scoring(players: int, profile: str, votes: dict, expected: dict[int, int]) -> None:
    game = make_game(players, profile=profile)
    assert deltas(play_turn(game, 0, votes)) == expected
    assert game.state.scores == tuple(expected[s] for s in range(players))


def test_the_storyteller_never_scores_bonus() -> None:
    _, units = score_units(
        seats=[0, 1, 2, 3],
        storyteller=0,
        teller_slot=1,
        owners={1: 0, 2: 1, 3: 2, 4: 3},
        votes={1: (1,), 2: (1,), 3: (2,)},
        bonus_cap=None,
        single_vote_extra=False,
    )
    (pass1, _, bonus, _), (_, _, ben_bonus, _) = units[0], units[1]  # (pass1, bonus_raw, bonus, extra)
    assert bonus == 0 and pass1 == 3
    assert ben_bonus == 1


def test_cap_is_shown_in_the_breakdown() -> None:
    reveal = play_turn(make_game(8, profile="odyssey"), 0, {1: 0, 2: 1, 3: 1, 4: 1, 5: 1, 6: 0, 7: 0})
    ben = points_of(reveal, 1)
    assert ben is not None
    assert (ben.pass1, ben.bonus_raw, ben.bonus, ben.extra, ben.delta) == (3, 4, 3, 1, 7)


# --- party: seats 0..5, seat 0 tells and places the red marker --------------------------------------------------

PARTY_CASES = [
    # three on seat 3's card, two on seat 4's (4 votes for itself: allowed), one alone; red on seat 1's card
    ({0: 3, 1: 3, 2: 3, 3: 4, 4: 4, 5: 5}, 1, {0: 3, 1: 3, 2: 3, 3: 2, 4: 2, 5: 0}),
    # red on the popular card: everyone on it scores 0
    ({0: 3, 1: 3, 2: 3, 3: 4, 4: 4, 5: 5}, 3, {0: 0, 1: 0, 2: 0, 3: 2, 4: 2, 5: 0}),
    # everyone on one card: 6 players, capped at 5
    ({0: 2, 1: 2, 2: 2, 3: 2, 4: 2, 5: 2}, 0, {0: 5, 1: 5, 2: 5, 3: 5, 4: 5, 5: 5}),
    # everyone alone (each on their own card): 0
    ({0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5}, 1, {s: 0 for s in range(6)}),
]


@pytest.mark.parametrize(("votes", "red", "expected"), PARTY_CASES)
def test_party_scoring(votes: dict[int, int], red: int, expected: dict[int, int]) -> None:
    game = make_game(6, "party")
    reveal = play_turn(game, 0, votes, red=red)
    assert deltas(reveal) == expected
    assert reveal.outcome == "party"
    red_slots = [s.slot for s in reveal.slots if s.red]
    assert len(red_slots) == 1 and reveal.slots[red_slots[0] - 1].owner == red


def test_party_function_directly() -> None:
    assert score_party({0: 1, 1: 1, 2: 2}, red_slot=3) == {0: 2, 1: 2, 2: 0}


# --- team: 6 players, teams {0,3} {1,4} {2,5}; 12 players, teams {i, i+6} --------------------------------------


def test_team_some_find() -> None:
    game = make_game(6, "team")
    # seat 0 tells, teammate 3 submits; seats 1 and 2 submit first for their teams, 4 and 5 vote
    reveal = play_turn(game, 0, {4: 0, 5: 1}, submit_order=[3, 1, 2])
    assert deltas(reveal) == {0: 3, 3: 3, 1: 4, 4: 4, 2: 0, 5: 0}
    assert game.state.scores == (3, 4, 0, 3, 4, 0)


def test_team_votes_on_the_teammates_card_are_the_storytellers_teams_bonus() -> None:
    reveal = play_turn(make_game(6, "team"), 0, {4: 3, 5: 3}, submit_order=[3, 1, 2])
    assert deltas(reveal) == {0: 2, 3: 2, 1: 2, 4: 2, 2: 2, 5: 2}
    assert reveal.outcome == "none"


def test_team_bonus_capped_at_three_per_team() -> None:
    game = make_game(12, "team")
    reveal = play_turn(game, 0, {v: 6 for v in range(7, 12)}, submit_order=[6, 1, 2, 3, 4, 5])
    teller = points_of(reveal, 0)
    assert teller is not None and (teller.pass1, teller.bonus_raw, teller.bonus) == (0, 5, 3)
    assert deltas(reveal) == {0: 3, 6: 3, **{s: 2 for s in (1, 2, 3, 4, 5, 7, 8, 9, 10, 11)}}


def test_team_no_single_vote_extra_and_one_vote() -> None:
    game = make_game(12, "team")
    assert game.state.rules.votes_allowed == 1 and not game.state.rules.single_vote_extra


def test_team_voter_cannot_vote_for_their_teams_card() -> None:
    game = make_game(6, "team")
    give_clue(game, 0)
    submit_all(game, [3, 1, 2])
    before = game.state
    with pytest.raises(BadVote, match="team"):
        cast(game, {4: 1})
    assert game.state == before
