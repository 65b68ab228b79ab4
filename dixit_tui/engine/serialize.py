"""Events to and from plain JSON-able dicts, for the event store. Unknown fields are ignored on the way in."""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any

from dixit_tui.engine.events import EVENT_TYPES, Event

_BY_NAME: dict[str, type] = {cls.__name__: cls for cls in EVENT_TYPES}


_PLAIN = (str, int, float, bool, type(None))
_NAMES: dict[type, tuple[str, ...] | None] = {}  # a type's dataclass field names (None: not a dataclass)


def _names(cls: type) -> tuple[str, ...] | None:
    if cls not in _NAMES:
        _NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls)) if dataclasses.is_dataclass(cls) else None
    return _NAMES[cls]


def encode(value: Any) -> Any:
    cls = type(value)
    if cls in _PLAIN:
        return value
    names = _names(cls)
    if names is not None:
        return {name: encode(getattr(value, name)) for name in names}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): encode(v) for k, v in value.items()}
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    return {"type": type(event).__name__, **encode(event)}


def event_from_dict(data: Mapping[str, Any]) -> Event:
    cls = _BY_NAME.get(str(data.get("type")))
    if cls is None:
        raise ValueError(f"unknown event type {data.get('type')!r}")
    return typing.cast(Event, _decode(cls, data))


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode(tp: Any, value: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _decode(inner[0], value)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v) for v in value)
        return tuple(_decode(a, v) for a, v in zip(args, value, strict=True))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        names = {f.name for f in dataclasses.fields(tp)}
        return tp(**{k: _decode(hints[k], v) for k, v in value.items() if k in names})
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(value)
    return value
