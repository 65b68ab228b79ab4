"""Copies of frozen states made cheaply, for the rules to fill in before anyone else sees them.

A GameState (and a Turn) keeps its fields in its __dict__; a copy is a new object with a copy of that dict. The
rules never change a state anyone else holds: `fold` and `step` copy the state they are given once, fold every
event of the call into that private copy (`apply_into`), and only then hand it out, frozen for good.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from dixit_tui.engine.state import MEMO_KEYS, GameState, Turn

_new = object.__new__
# A state forgets a remembered answer by holding None for it (GameState.waiting_for and the rest then work it out
# again), never by deleting it: every state of a game keeps its answers in the same places of its dict, which its
# copies and the attribute lookups go through quickly (a key deleted and added again would move and make holes).
FORGOTTEN = dict.fromkeys(MEMO_KEYS)
UNKNOWN = dict.fromkeys(("_active", *MEMO_KEYS))  # what a new state remembers: nothing yet
# A new GameState's or Turn's field dict is set through its class's own `__dict__` descriptor: the same as
# object.__setattr__(new, "__dict__", fields) without looking the descriptor up (and slicing the arguments) each time.
_SET_FIELDS: dict[type, Callable[[Any, dict[str, Any]], None]] = {
    cls: cls.__dict__["__dict__"].__set__ for cls in (GameState, Turn)
}
set_turn_fields = _SET_FIELDS[Turn]
T = TypeVar("T")


def copy_state(obj: T) -> T:
    """A shallow copy of a GameState or Turn that no one else holds yet (so it may still be filled in)."""
    cls = type(obj)
    new = _new(cls)
    _SET_FIELDS[cls](new, obj.__dict__.copy())
    return new


def evolve(obj: T, **changes: Any) -> T:
    """Like dataclasses.replace for a GameState or Turn, without re-running __init__."""
    cls = type(obj)
    new = _new(cls)
    fields_ = obj.__dict__.copy()
    fields_.update(changes)
    _SET_FIELDS[cls](new, fields_)
    return new
