"""Random legal play: used by the simulator, the property tests and the simplest bots."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import count
from typing import TypeVar

from dixit_tui.engine.commands import Command, GiveClue, RemovePlayer, Submit, VoidTurn, Vote
from dixit_tui.engine.config import Mode
from dixit_tui.engine.state import GameState, Phase

T = TypeVar("T")

_WORDS = (
    "echo",
    "patience",
    "home",
    "too late",
    "a secret",
    "Monday",
    "the last one",
    "tide",
    "hush",
    "falling",
)


def _sample(rng: random.Random, items: Sequence[T], k: int) -> tuple[T, ...]:
    """rng.sample, quicker for one item: sample(items, 1) draws exactly as choice(items) does."""
    return (rng.choice(items),) if k == 1 else tuple(rng.sample(items, k))


def command_for(state: GameState, seat: int, rng: random.Random) -> Command | None:
    """A random legal command for `seat` in this phase, or None if the seat has nothing to do."""
    if state.phase is Phase.CLUE:
        if seat not in state.waiting_for():
            return None
        allowed = [c for c in state.hands[seat] if c != state.turn.voided_card]
        card = None if state.config.mode is Mode.PARTY else rng.choice(allowed)
        return GiveClue(seat, rng.choice(_WORDS), card)
    if state.phase is Phase.SUBMIT:
        if not state.may_submit(seat):
            return None
        want = state.rules.submit_count if state.config.mode is Mode.STANDARD else 1
        return Submit(seat, _sample(rng, state.hands[seat], want))
    if state.phase is Phase.VOTE:
        if seat not in state.voter_tuple():
            return None
        forbidden = set(state.forbidden_slots(seat))
        open_slots = [s for s in range(1, len(state.turn.board) + 1) if s not in forbidden]
        k = rng.randint(1, min(state.rules.votes_allowed, len(open_slots)))
        red = None
        if state.config.mode is Mode.PARTY and seat == state.turn.storyteller:
            red = rng.randint(1, len(state.turn.board))
        return Vote(seat, _sample(rng, open_slots, k), red)
    return None


def random_command(state: GameState, rng: random.Random, *, revote: float = 0.1) -> Command | None:
    """A random legal move by one of the seats the phase waits for (sometimes a voter changing their vote)."""
    waiting = list(state.waiting_for())
    if not waiting:
        return None
    if state.phase is Phase.VOTE and state.turn.votes and rng.random() < revote:
        seat = rng.choice(sorted(state.turn.votes))
    else:
        seat = rng.choice(waiting)
    return command_for(state, seat, rng)


def random_table_command(state: GameState, rng: random.Random) -> Command | None:
    """A rarer host action: void the turn, or remove a player."""
    if state.phase is Phase.OVER:
        return None
    if rng.random() < 0.5 and state.phase is not Phase.CLUE:
        return VoidTurn(state.host)
    target = rng.choice(state.active_seats())
    return RemovePlayer(state.host, target)


def play_out(state: GameState, rng: random.Random, max_commands: int = 100_000) -> tuple[GameState, int]:
    """Play random legal moves until the game ends. Returns the final state and the number of commands."""
    from dixit_tui.engine.game import step

    for n in count():
        if state.phase is Phase.OVER or n >= max_commands:
            return state, n
        command = random_command(state, rng)
        assert command is not None, "a running game always waits for someone"
        state = step(state, command)[1]
    raise AssertionError("unreachable")  # pragma: no cover
