"""Short codes that are easy to read aloud on a call: no 0/O, no 1/I/L."""

from __future__ import annotations

import random
import secrets
from collections.abc import Container

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
RECONNECT_GROUPS = 4  # of 3 characters: 31**12, about 7.9e17 codes (docs/operations.md has the figures)


def new_code(rng: random.Random, taken: Container[str], length: int = 4) -> str:
    for _ in range(10_000):
        code = "".join(rng.choice(ALPHABET) for _ in range(length))
        if code not in taken:
            return code
    raise RuntimeError("no free code")  # pragma: no cover - 31^4 codes


GAME_ID_LENGTH = 8  # characters after a game's table code in its id (31**8, about 8.5e11, per code)


def new_game_suffix() -> str:
    """What follows a table's code in its game's id (`K7QF` + `X2M9PQRT`): unique among the games of that code."""
    return "".join(secrets.choice(ALPHABET) for _ in range(GAME_ID_LENGTH))


def new_reconnect_code() -> str:
    """A seat's reconnect code, `ABC-DEF-GHJ-KMN`, from the operating system's secure random source (never from a
    table's seeded random: a known seed must not reveal anyone's code). Older tables keep their `ABC-DEF` codes."""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(3 * RECONNECT_GROUPS))
    return "-".join(raw[i : i + 3] for i in range(0, len(raw), 3))


def normalize_code(text: str) -> str:
    """What a player typed, made comparable: case, spaces and dashes do not matter."""
    return "".join(ch for ch in text.upper() if ch.isalnum())
