"""Short codes that are easy to read aloud on a call: no 0/O, no 1/I/L."""

from __future__ import annotations

import random
from collections.abc import Container

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def new_code(rng: random.Random, taken: Container[str], length: int = 4) -> str:
    for _ in range(10_000):
        code = "".join(rng.choice(ALPHABET) for _ in range(length))
        if code not in taken:
            return code
    raise RuntimeError("no free code")  # pragma: no cover - 31^4 codes


def new_reconnect_code(rng: random.Random) -> str:
    raw = "".join(rng.choice(ALPHABET) for _ in range(6))
    return f"{raw[:3]}-{raw[3:]}"


def normalize_code(text: str) -> str:
    """What a player typed, made comparable: case, spaces and dashes do not matter."""
    return "".join(ch for ch in text.upper() if ch.isalnum())
