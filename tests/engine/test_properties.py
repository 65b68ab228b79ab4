"""Property-based tests over random play in every mode and player count.

Invariants: every card is in exactly one place; hands are full at the start of every turn; scores never
decrease; an illegal command changes nothing; a replay of the events equals the live state; every game ends.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from dixit_tui.engine import (
    Command,
    GiveClue,
    Phase,
    RemovePlayer,
    RuleError,
    Submit,
    VoidTurn,
    Vote,
    fold,
)
from dixit_tui.engine.random_play import random_command
from dixit_tui.engine.state import GameState
from tests.engine.helpers import CARDS, make_game, random_table_command

SETUPS = [
    *(("standard", "refresh", n) for n in range(3, 9)),
    *(("standard", "odyssey", n) for n in range(3, 13)),
    *(("party", "odyssey", n) for n in range(6, 13)),
    *(("team", "odyssey", n) for n in (6, 8, 10, 12)),
]
DECK = CARDS[:84]


def card_places(state: GameState) -> Counter[str]:
    places = Counter([*state.draw_pile, *state.discard])
    for seat in state.seats:
        places.update(state.hands[seat])
        places.update(state.given_by(seat))
    return places


def garbage_command(draw: st.DrawFn) -> Command:
    seat = draw(st.integers(-1, 13))
    card = draw(st.sampled_from([c.id for c in DECK] + ["nope", ""]))
    slots = tuple(draw(st.lists(st.integers(-1, 14), max_size=3)))
    commands: list[Command] = [
        GiveClue(seat, draw(st.text(max_size=90)), draw(st.sampled_from([card, None]))),
        Submit(seat, tuple(draw(st.lists(st.just(card), max_size=3)))),
        Vote(seat, slots, draw(st.sampled_from([None, 1, 20]))),
        VoidTurn(seat),
        RemovePlayer(seat, draw(st.integers(-1, 13))),
    ]
    return draw(st.sampled_from(commands))


class DixitMachine(RuleBasedStateMachine):
    @initialize(
        setup=st.sampled_from(SETUPS),
        seed=st.integers(0, 2**31),
        first=st.sampled_from(["first_clue", "random"]),
    )
    def start(self, setup: tuple[str, str, int], seed: int, first: str) -> None:
        mode, profile, players = setup
        self.game = make_game(players, mode, profile, seed=seed, first=first, target=12, cards=DECK)
        self.scores = self.game.state.scores

    @rule(seed=st.integers(0, 2**31))
    def legal_move(self, seed: int) -> None:
        command = random_command(self.game.state, random.Random(seed), revote=0.2)
        if command is not None:
            self.game.execute(command)

    @rule(seed=st.integers(0, 2**31), count=st.integers(1, 40))
    def burst_of_moves(self, seed: int, count: int) -> None:
        rng = random.Random(seed)
        for _ in range(count):
            command = random_command(self.game.state, rng)
            if command is None:
                return
            self.game.execute(command)

    @rule(data=st.data())
    def any_command(self, data: st.DataObject) -> None:
        command = data.draw(st.composite(garbage_command)())
        before, count = self.game.state, len(self.game.events)
        try:
            self.game.execute(command)
        except RuleError as err:
            assert err.message and err.code
            assert self.game.state == before and len(self.game.events) == count

    @rule(seed=st.integers(0, 2**31))
    def host_action(self, seed: int) -> None:
        rng = random.Random(seed)
        if rng.random() < 0.2:  # removals are rare at a real table
            command = random_table_command(self.game.state, rng)
            if command is not None:
                with contextlib.suppress(RuleError):
                    self.game.execute(command)

    @invariant()
    def every_card_in_exactly_one_place(self) -> None:
        assert card_places(self.game.state) == Counter(c.id for c in DECK)

    @invariant()
    def hands_are_full_when_a_turn_begins(self) -> None:
        state = self.game.state
        if state.phase is Phase.CLUE:
            assert all(len(state.hands[s]) == state.rules.hand_size for s in state.active_seats())

    @invariant()
    def scores_never_decrease(self) -> None:
        scores = self.game.state.scores
        assert all(a >= b for a, b in zip(scores, self.scores, strict=True))
        self.scores = scores

    def teardown(self) -> None:
        if hasattr(self, "game"):
            assert fold(self.game.events) == self.game.state  # a replay from scratch equals the live state


DixitMachine.TestCase.settings = settings(
    max_examples=120, stateful_step_count=80, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
TestDixitMachine = pytest.mark.slow(DixitMachine.TestCase)  # minutes: `-m "not slow"` skips it; CI runs it


@settings(max_examples=len(SETUPS) * 2, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**31))
def test_every_game_ends(setup: tuple[str, str, int], seed: int) -> None:
    mode, profile, players = setup
    game = make_game(players, mode, profile, seed=seed, cards=DECK)
    rng = random.Random(seed)
    for _ in range(5_000):
        command = random_command(game.state, rng)
        if command is None:
            break
        game.execute(command)
    state = game.state
    assert state.phase is Phase.OVER and state.winners
    best = max(state.scores[s] for s in state.active_seats())
    assert all(state.scores[w] == best for w in state.winners)
    if mode == "standard":
        assert best >= state.config.target
    else:
        assert all(t >= state.config.storytells for t in state.told)
