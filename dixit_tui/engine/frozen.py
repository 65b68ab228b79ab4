"""Quicker constructors for the engine's frozen dataclasses (events, commands, reveals, turns).

A frozen dataclass's generated __init__ stores each field with a call to object.__setattr__ (its own __setattr__
refuses): for a Points of eight fields that is about four times the cost of an ordinary class's __init__, and the
engine builds dozens of such objects per turn. `quick_init` gives the class an __init__ with the same parameters
and defaults that stores the fields directly: through each slot's descriptor (slots=True) or as the whole __dict__
at once. Everything else (immutability, equality, hashing, repr, fields, replace, pickling) stays the dataclass's.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


class _Factory:
    """The default of a parameter whose field has a default_factory (shown as dataclasses show it)."""

    def __repr__(self) -> str:
        return "<factory>"


_NO_VALUE = _Factory()


def quick_init(cls: type[T]) -> type[T]:
    """Replace the generated __init__ of the frozen dataclass `cls` (applied after @dataclass)."""
    params = dataclasses.fields(cls)  # type: ignore[arg-type]
    if not cls.__dict__["__dataclass_params__"].frozen or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: quick_init is for frozen dataclasses without __post_init__")
    slotted = "__slots__" in cls.__dict__
    names: dict[str, Any] = {"_set": object.__setattr__, "_NO_VALUE": _NO_VALUE}
    args: list[str] = []
    body: list[str] = []
    for f in params:
        if not f.init or f.kw_only:
            raise TypeError(f"{cls.__name__}.{f.name}: quick_init needs every field a positional parameter")
        if f.default is not dataclasses.MISSING:
            names[f"_d_{f.name}"] = f.default
            args.append(f"{f.name}=_d_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            names[f"_f_{f.name}"] = f.default_factory
            args.append(f"{f.name}=_NO_VALUE")
            body.append(f"    if {f.name} is _NO_VALUE:\n        {f.name} = _f_{f.name}()")
        else:
            args.append(f.name)
    if slotted:
        for f in params:
            names[f"_s_{f.name}"] = getattr(cls, f.name).__set__
            body.append(f"    _s_{f.name}(self, {f.name})")
    else:
        body.append("    _set(self, '__dict__', {" + ", ".join(f"{f.name!r}: {f.name}" for f in params) + "})")
    source = f"def __init__(self, {', '.join(args)}):\n" + "\n".join(body or ["    pass"]) + "\n"
    exec(source, names)
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__init__.__doc__
    init.__annotations__ = dict(cls.__init__.__annotations__)
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
