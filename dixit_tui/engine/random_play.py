"""Random legal play: used by the simulator, the property tests and the simplest bots."""

from __future__ import annotations

import random
from itertools import count

from dixit_tui.engine.commands import Command, GiveClue, RemovePlayer, Submit, VoidTurn, Vote
from dixit_tui.engine.game import below, step
from dixit_tui.engine.legal import acts, clue_cards, clue_needs_card, places_red, submit_count, vote_slots
from dixit_tui.engine.state import CLUE, OVER, SUBMIT, VOTE, GameState, Phase

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


def command_for(state: GameState, seat: int, rng: random.Random) -> Command | None:
    """A random legal command for `seat` in this phase, or None if the seat has nothing to do."""
    return _command(state, state.phase, seat, rng) if acts(state, seat) else None


def _command(state: GameState, phase: Phase, seat: int, rng: random.Random) -> Command:
    """command_for, for a seat known to act now. Every draw is the one rng.choice(items) (items[below(n)]),
    rng.randint(1, n) (1 + below(n)) or rng.sample would make; rng.sample(items, 1) draws as choice does."""
    bits = rng.getrandbits
    if phase is CLUE:
        if not clue_needs_card(state):
            return GiveClue(seat, _WORDS[below(bits, len(_WORDS))], None)
        allowed = clue_cards(state, seat)
        card = allowed[below(bits, len(allowed))]
        return GiveClue(seat, _WORDS[below(bits, len(_WORDS))], card)
    if phase is SUBMIT:
        hand = state.hands[seat]
        want = submit_count(state)
        return Submit(seat, (hand[below(bits, len(hand))],) if want == 1 else tuple(rng.sample(hand, want)))
    open_slots = vote_slots(state, seat)
    k = 1 + below(bits, min(state.rules.votes_allowed, len(open_slots)))
    red = 1 + below(bits, len(state.turn.board)) if places_red(state, seat) else None
    chosen = (open_slots[below(bits, len(open_slots))],) if k == 1 else tuple(rng.sample(open_slots, k))
    return Vote(seat, chosen, red)


def random_command(state: GameState, rng: random.Random, *, revote: float = 0.1) -> Command | None:
    """A random legal move by one of the seats the phase waits for (sometimes a voter changing their vote)."""
    waiting = state.waiting_for()
    if not waiting:
        return None
    phase = state.phase
    if phase is VOTE and state.turn.votes and rng.random() < revote:
        voted = sorted(state.turn.votes)  # a voter: may vote again
        seat = voted[below(rng.getrandbits, len(voted))]
    else:
        seat = waiting[below(rng.getrandbits, len(waiting))]
    return _command(state, phase, seat, rng)


def random_table_command(state: GameState, rng: random.Random) -> Command | None:
    """A rarer host action: void the turn, or remove a player."""
    if state.phase is OVER:
        return None
    if rng.random() < 0.5 and state.phase is not CLUE:
        return VoidTurn(state.host)
    target = rng.choice(state.active_seats())
    return RemovePlayer(state.host, target)


def play_out(state: GameState, rng: random.Random, max_commands: int = 100_000) -> tuple[GameState, int]:
    """Play random legal moves until the game ends. Returns the final state and the number of commands."""
    for n in count():
        if state.phase is OVER or n >= max_commands:
            return state, n
        command = random_command(state, rng)
        assert command is not None, "a running game always waits for someone"
        state = step(state, command)[1]
    raise AssertionError("unreachable")  # pragma: no cover
