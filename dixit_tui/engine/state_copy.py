"""Copies of frozen states made cheaply, for the rules to fill in before anyone else sees them.

A GameState (and a Turn) keeps its fields in its __dict__; a copy is a new object with a copy of that dict. The
rules never change a state anyone else holds: `fold` and `step` copy the state they are given once, fold every
event of the call into that private copy (`apply_into`), and only then hand it out, frozen for good.
"""

from __future__ import annotations

from typing import Any, TypeVar

from dixit_tui.engine.state import MEMO_KEYS

_new = object.__new__
_set = object.__setattr__  # a frozen dataclass refuses its own
# A state forgets a remembered answer by holding None for it (GameState.waiting_for and the rest then work it out
# again), never by deleting it: every state of a game keeps its answers in the same places of its dict, which its
# copies and the attribute lookups go through quickly (a key deleted and added again would move and make holes).
FORGOTTEN = dict.fromkeys(MEMO_KEYS)
UNKNOWN = dict.fromkeys(("_active", *MEMO_KEYS))  # what a new state remembers: nothing yet
T = TypeVar("T")


def copy_state(obj: T) -> T:
    """A shallow copy of a GameState or Turn that no one else holds yet (so it may still be filled in)."""
    new = _new(type(obj))
    _set(new, "__dict__", obj.__dict__.copy())
    return new


def evolve(obj: T, **changes: Any) -> T:
    """Like dataclasses.replace for a GameState or Turn, without re-running __init__."""
    new = _new(type(obj))
    fields_ = obj.__dict__.copy()
    fields_.update(changes)
    _set(new, "__dict__", fields_)
    return new
