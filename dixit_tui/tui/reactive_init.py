"""A new widget's reactive attributes set up from a plan made once per widget class, not worked out per attribute.

When a widget mounts, Textual sets each reactive attribute of its class to its default (`Reactive._initialize_object`,
some 18 per widget, about 500 per joining session), each by a call that builds the attribute's internal name, looks a
compute method up and checks whether the default is a factory. For most attributes (a plain default, no watcher run at
initialisation, no class toggled) that comes down to storing the default: what the plan stores directly. The others go
through Textual's own code, in the same order as before.
"""

from __future__ import annotations

from typing import Any

from textual.reactive import Reactive

_plans: dict[type, tuple[tuple[str, Reactive[Any], str | None, object], ...]] = {}
"""Per class: (name, reactive, its internal name if its default is merely stored, else None, the default)."""
stored = 0
"""Reactive attributes given their default straight from a plan since the process started: for tests."""

_installed = False
_INITIALIZE = Reactive._initialize_reactive


def _plan(cls: type) -> tuple[tuple[str, Reactive[Any], str | None, object], ...]:
    plain = "__getattr__" not in dir(cls) and getattr(cls, "__setattr__", object.__setattr__) is object.__setattr__
    steps: list[tuple[str, Reactive[Any], str | None, object]] = []
    for name, reactive in cls._reactives.items():  # type: ignore[attr-defined]
        default = reactive._default
        internal = f"_reactive_{name}"
        simple = (
            plain
            and type(reactive)._initialize_reactive is _INITIALIZE
            and not reactive._init
            and reactive._toggle_class is None
            and not callable(default)
            and not hasattr(cls, internal)
        )
        steps.append((name, reactive, internal if simple else None, default))
    return tuple(steps)


def plan_reactive_setup() -> None:
    """Idempotent."""
    global _installed
    if _installed:
        return

    initialize_object = Reactive._initialize_object.__func__  # type: ignore[attr-defined]

    def planned_initialize_object(cls: type[Reactive[Any]], obj: Any) -> None:
        global stored
        values = getattr(obj, "__dict__", None)
        if values is None:  # (no instance dict: Textual's way)
            initialize_object(cls, obj)
            return
        plan = _plans.get(type(obj))
        if plan is None:
            plan = _plans[type(obj)] = _plan(type(obj))
        for name, reactive, internal, default in plan:
            if internal is None:
                reactive._initialize_reactive(obj, name)
            elif internal not in values:  # (as `hasattr`: a value set already is kept)
                values[internal] = default
                stored += 1

    Reactive._initialize_object = classmethod(planned_initialize_object)  # type: ignore[method-assign,assignment]
    _installed = True
