"""Every worked example of the rules specification (docs/rules.md restates it), each as its own test (seats: 0 =
the storyteller of the example)."""

from __future__ import annotations

from tests.engine.helpers import deltas, make_game, play_turn

# --- 000 section 06, refresh, 4 players: Alice (0) tells; Bob 1, Chloe 2, David 3 -----------------------------


def test_000_two_find_david_votes_bobs_card() -> None:
    reveal = play_turn(make_game(4), 0, {1: 0, 2: 0, 3: 1})
    assert deltas(reveal) == {0: 3, 1: 4, 2: 3, 3: 0}
    assert reveal.outcome == "some"


def test_000_two_find_david_votes_another_card() -> None:
    # Alice 3, Bob 3, Chloe 3 from pass 1, David 0; the owner of slot 4 gets its +1 bonus.
    reveal = play_turn(make_game(4), 0, {1: 0, 2: 0, 3: 2})
    assert deltas(reveal) == {0: 3, 1: 3, 2: 4, 3: 0}
    assert [p.pass1 for p in reveal.points] == [3, 3, 3, 0]


def test_000_all_three_find() -> None:
    reveal = play_turn(make_game(4), 0, {1: 0, 2: 0, 3: 0})
    assert deltas(reveal) == {0: 0, 1: 2, 2: 2, 3: 2}
    assert reveal.outcome == "all"


def test_000_nobody_finds_others_two_plus_bonuses() -> None:
    reveal = play_turn(make_game(4), 0, {1: 2, 2: 3, 3: 1})
    assert deltas(reveal) == {0: 0, 1: 3, 2: 3, 3: 3}
    assert reveal.outcome == "none"
    assert [p.pass1 for p in reveal.points] == [0, 2, 2, 2]


# --- 001, refresh, 4 players: Ana (0) tells; Ben 1, Cara 2, Dev 3 ----------------------------------------------


def test_001_ben_finds_cara_votes_ben_dev_votes_cara() -> None:
    reveal = play_turn(make_game(4), 0, {1: 0, 2: 1, 3: 2})
    assert deltas(reveal) == {0: 3, 1: 4, 2: 1, 3: 0}


def test_001_all_find_ana() -> None:
    reveal = play_turn(make_game(4), 0, {1: 0, 2: 0, 3: 0})
    assert deltas(reveal) == {0: 0, 1: 2, 2: 2, 3: 2}


def test_001_nobody_finds_ben_two_votes_cara_one() -> None:
    reveal = play_turn(make_game(4), 0, {1: 2, 2: 1, 3: 1})
    assert deltas(reveal) == {0: 0, 1: 4, 2: 3, 3: 2}


def test_scores_move_by_the_whole_turn_total() -> None:
    game = make_game(4)
    play_turn(game, 0, {1: 0, 2: 1, 3: 2})
    assert game.state.scores == (3, 4, 1, 0)
