"""Random legal play: used by the simulator, the property tests and the simplest bots."""

from __future__ import annotations

import random
from collections.abc import Callable

from dixit_tui.engine.commands import Command, GiveClue, Submit, Vote
from dixit_tui.engine.config import PARTY
from dixit_tui.engine.legal import clue_cards, clue_needs_card, places_red, submit_count, vote_slots
from dixit_tui.engine.rng import below
from dixit_tui.engine.rules import step
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


def _command(state: GameState, phase: Phase, seat: int, rng: random.Random, bits: Callable[[int], int]) -> Command:
    """A random legal command for `seat`, known to act now in `phase` (`bits` is rng.getrandbits). Every draw is
    the one rng.choice(items) (items[below(n)]), rng.randint(1, n) (1 + below(n)) or rng.sample would make;
    rng.sample(items, 1) draws as choice does. The draws of every card and vote are below(bits, n) written out:
    `k = n.bit_length()`, then bits(k) until it is below n (a call less per draw; the simulator makes dozens a
    turn)."""
    if phase is CLUE:
        if not clue_needs_card(state):
            return GiveClue(seat, _WORDS[below(bits, len(_WORDS))], None)
        allowed = clue_cards(state, seat)
        card = allowed[below(bits, len(allowed))]
        return GiveClue(seat, _WORDS[below(bits, len(_WORDS))], card)
    if phase is SUBMIT:
        hand = state.hands[seat]
        if submit_count(state) != 1:
            return Submit(seat, tuple(rng.sample(hand, submit_count(state))))
        n = len(hand)
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return Submit(seat, (hand[r],))
    open_slots = vote_slots(state, seat)
    n = len(open_slots)
    votes = min(state.rules.votes_allowed, n)  # 1 + below(bits, votes) of them
    if votes == 1:  # below(bits, 1): bits(1) until it gives 0
        while bits(1):
            pass
        many = 1
    else:
        many = 1 + below(bits, votes)
    red = 1 + below(bits, len(state.turn.board)) if state.config.mode is PARTY and places_red(state, seat) else None
    if many != 1:
        return Vote(seat, tuple(rng.sample(open_slots, many)), red)
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return Vote(seat, (open_slots[r],), red)


def random_command(state: GameState, rng: random.Random, *, revote: float = 0.1) -> Command | None:
    """A random legal move by one of the seats the phase waits for (sometimes a voter changing their vote)."""
    waiting = state._waiting  # state.waiting_for(), read straight from the state when remembered
    if waiting is None:
        waiting = state.waiting_for()
    if not waiting:
        return None
    phase = state.phase
    bits = rng.getrandbits
    if phase is VOTE and state.turn.votes and rng.random() < revote:
        voted = sorted(state.turn.votes)  # a voter: may vote again
        seat = voted[below(bits, len(voted))]
    else:
        n = len(waiting)  # waiting[below(bits, n)]
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        seat = waiting[r]
    return _command(state, phase, seat, rng, bits)


def play_out(state: GameState, rng: random.Random, max_commands: int = 100_000) -> tuple[GameState, int]:
    """Play random legal moves until the game ends. Returns the final state and the number of commands."""
    n = 0
    while state.phase is not OVER and n < max_commands:
        command = random_command(state, rng)
        assert command is not None, "a running game always waits for someone"
        state = step(state, command)[1]
        n += 1
    return state, n
