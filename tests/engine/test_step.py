"""`step` (decide and fold in one go) and what the engine remembers per state: the same states and answers as
decide + fold from scratch, and one state copy per command, whatever number of events it causes."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from dixit_tui.engine import GameState, Phase, decide, fold, step, view_for
from dixit_tui.engine import draft as draft_module
from dixit_tui.engine import folding as folding_module
from dixit_tui.engine import rules as rules_module
from dixit_tui.engine.random_play import random_command
from tests.engine.helpers import CARDS, make_game, random_table_command

SETUPS = [("standard", "refresh", 3), ("standard", "refresh", 8), ("standard", "odyssey", 9), ("party", "odyssey", 7)]
SETUPS += [("team", "odyssey", 8)]


def fresh(state: GameState) -> GameState:
    """The same fields in a new state that has remembered nothing yet."""
    return GameState(**{f.name: getattr(state, f.name) for f in fields(GameState)})


def assert_same_answers(state: GameState) -> None:
    plain = fresh(state)
    assert state.waiting_for() == plain.waiting_for()
    if state.phase is Phase.VOTE:
        assert state.voter_tuple() == plain.voter_tuple()
    assert state.active_seats() == plain.active_seats()
    for seat in state.seats:
        assert state.forbidden_slots(seat) == plain.forbidden_slots(seat)
        assert state.may_submit(seat) == (seat in plain.waiting_for() and plain.phase is Phase.SUBMIT)
    for seat in (*state.seats, None):
        assert view_for(state, seat) == view_for(plain, seat)


@pytest.mark.parametrize(("mode", "profile", "players"), SETUPS)
def test_step_equals_decide_then_fold_and_remembered_answers_are_right(mode: str, profile: str, players: int) -> None:
    for seed in range(3):
        game = make_game(players, mode, profile, seed=seed, target=12, cards=CARDS[:96])
        rng = random.Random(seed)
        state = game.state
        for _ in range(2000):
            if state.phase is Phase.OVER:
                break
            assert_same_answers(state)  # asked before the move, as the players and the rules ask
            rare = rng.random() < 0.02
            command = random_table_command(state, rng) if rare else random_command(state, rng, revote=0.2)
            assert command is not None
            events, after = step(state, command)
            assert events == decide(state, command)
            assert after == fold(events, state)
            assert_same_answers(after)
            game.events.extend(events)
            state = after
        assert state.phase is Phase.OVER
        assert fold(game.events) == state  # a replay from scratch equals the live state


def test_one_state_copy_per_command_and_per_fold(monkeypatch: pytest.MonkeyPatch) -> None:
    copies = 0
    real_copy = folding_module.copy_state

    def counting_copy(obj: object) -> object:
        nonlocal copies
        if isinstance(obj, GameState):
            copies += 1
        return real_copy(obj)

    for module in (rules_module, draft_module, folding_module):  # each copies through its own name
        monkeypatch.setattr(module, "copy_state", counting_copy)
    game = make_game(8, seed=4)
    rng = random.Random(4)
    state = game.state
    ends = 0
    while state.phase is not Phase.OVER:
        command = random_command(state, rng)
        assert command is not None
        copies = 0
        events, state = step(state, command)
        assert copies == 1, (command, events)  # the whole end of a turn (score, draws, next turn) included
        ends += len(events) > 5
        game.events.extend(events)
    assert ends >= 5
    copies = 0
    fold(game.events[1:], fold(game.events[:1]))
    assert copies == 1  # a whole game's events folded into one copy of the starting state
