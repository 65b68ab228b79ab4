"""The engine's random generator: seeded from the game's seed and a draw counter, so a game repeats from its seed;
its outcomes are written into the events, so a replay never needs it."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable


def rng_for(seed: int, draws: int) -> random.Random:
    """The generator of this game's draw number `draws`."""
    return random.Random(f"dixit:{seed}:{draws}")


def below(bits: Callable[[int], int], n: int) -> int:
    """A random int in [0, n) from a Mersenne Twister's getrandbits, drawn exactly as random.Random's randrange(n),
    choice and shuffle draw in CPython (without their Python-level calls)."""
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def shuffled(items: Iterable[str], seed: int, draws: int) -> tuple[str, ...]:
    """The items shuffled by this game's draw number `draws`."""
    out = list(items)
    rng_for(seed, draws).shuffle(out)
    return tuple(out)
