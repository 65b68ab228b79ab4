"""The engine's random generator: seeded from the game's seed and a draw counter, so a game repeats from its seed;
its outcomes are written into the events, so a replay never needs it."""

from __future__ import annotations

import _random
import random
from collections.abc import Callable, Iterable
from hashlib import sha512 as _sha512

_new_random = random.Random.__new__  # the bare generator, not seeded yet
_seed_random = _random.Random.seed  # the generator's own seeding from an int, which random.Random.seed ends with


def rng_for(seed: int, draws: int) -> random.Random:
    """random.Random(f"dixit:{seed}:{draws}"): the same generator, seeded with the int Random.seed makes of that
    string, without the Python-level __init__ and seed calls."""
    key = f"dixit:{seed}:{draws}".encode()
    rng: random.Random = _new_random(random.Random)
    _seed_random(rng, int.from_bytes(key + _sha512(key).digest()))
    rng.gauss_next = None  # type: ignore[attr-defined]  # as Random.__init__ leaves it
    return rng


def below(bits: Callable[[int], int], n: int) -> int:
    """A random int in [0, n) from a Mersenne Twister's getrandbits, drawn exactly as random.Random's randrange(n),
    choice and shuffle draw in CPython (without their Python-level calls)."""
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def shuffled(items: Iterable[str], seed: int, draws: int) -> tuple[str, ...]:
    """The items in random.Random.shuffle's order for this seed and draw (the same Fisher-Yates draws, inline)."""
    out = list(items)
    bits = rng_for(seed, draws).getrandbits
    # random.shuffle swaps out[i] with out[below(i + 1)] for every i from the last index down to 1. below(n) draws
    # k = n.bit_length() bits, the same k for every n from low = 2 ** (k - 1) to 2 * low - 1: a run of i each.
    top = len(out) - 1
    k = len(out).bit_length()
    while k > 1:
        low = 1 << (k - 1)
        for i in range(top, low - 2, -1):
            j = bits(k)
            while j > i:
                j = bits(k)
            out[i], out[j] = out[j], out[i]
        top = low - 2
        k -= 1
    return tuple(out)
