"""A message's handlers looked up once per (widget class, handler, message class), not once per message.

Textual finds the handlers of every message it dispatches by walking the receiver's class hierarchy (twenty to thirty
classes for a widget), looking in each class for `on_x`/`_on_x` and for `@on` handlers of each class of the message's
own hierarchy. The answer depends only on those classes, so it is kept process-wide: a dispatch walks only the classes
that have a handler. What stays per message is as Textual does it: the walk stops at the first class reached once a
handler called `prevent_default()`, `@on` handlers with selectors are matched against the message's widgets, and a
decorated handler runs once.

A class attribute named like a handler set or deleted later (a patch, a test's monkeypatch) forgets what was kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from textual._on import OnNoWidget
from textual.css.match import match
from textual.css.model import SelectorSet
from textual.message import Message
from textual.message_pump import MessagePump, _MessagePumpMeta
from textual.widget import Widget

Decorated = tuple[tuple[Callable[..., Any], dict[str, tuple[SelectorSet, ...]]], ...]
Plan = tuple[tuple[type, Decorated, Callable[..., Any] | None], ...]

_plans: dict[tuple[type, str, type], Plan] = {}
plans_made = 0
"""Handler lookups made by walking a class hierarchy (what was not known yet): for tests."""

_installed = False


def _plan(pump: type, method_name: str, message: type) -> Plan:
    """Each class of `pump`'s hierarchy that has a handler for `message`, in order: its `@on` handlers for the
    message's classes, and its handler by name (unless that is an `@on` handler)."""
    message_mro = [kind for kind in message.__mro__ if issubclass(kind, Message)]
    plan = []
    for cls in pump.__mro__:
        decorated_handlers = cls.__dict__.get("_decorated_handlers")
        decorated: list[tuple[Callable[..., Any], dict[str, tuple[SelectorSet, ...]]]] = []
        if decorated_handlers:
            for message_class in message_mro:
                decorated.extend(decorated_handlers.get(message_class, []))
        method = cls.__dict__.get(f"_{method_name}") or cls.__dict__.get(method_name)
        named = method if method is not None and not getattr(method, "_textual_on", None) else None
        if decorated or named is not None:
            plan.append((cls, tuple(decorated), named))
    return tuple(plan)


def _handler_named(name: str) -> bool:
    return name.startswith(("on_", "_on_")) or name == "_decorated_handlers"


def share_dispatch_lookups() -> None:
    """Make every message pump of this process look its handlers up once per classes. Idempotent."""
    global _installed
    if _installed:
        return

    def get_dispatch_methods(
        self: MessagePump, method_name: str, message: Message
    ) -> Iterable[tuple[type, Callable[..., Any]]]:
        global plans_made
        key = (type(self), method_name, type(message))
        plan = _plans.get(key)
        if plan is None:
            plans_made += 1
            plan = _plans[key] = _plan(*key)
        methods_dispatched: set[Callable[..., Any]] = set()
        for cls, decorated, named in plan:
            if message._no_default_action:  # (no handler ran since the classes skipped here were checked)
                break
            for method, selectors in decorated:
                if method in methods_dispatched:
                    continue
                if not selectors:
                    yield cls, method.__get__(self, cls)
                    methods_dispatched.add(method)
                else:
                    if not message._sender:
                        continue
                    for attribute, selector in selectors.items():
                        node = getattr(message, attribute)
                        if node is None:
                            break
                        if not isinstance(node, Widget):
                            raise OnNoWidget(f"on decorator can't match against {attribute!r} as it is not a widget.")
                        if not match(selector, node):
                            break
                    else:
                        yield cls, method.__get__(self, cls)
                        methods_dispatched.add(method)
            if named is not None:
                yield cls, named.__get__(self, cls)

    def setattr_forgets(cls: type, name: str, value: Any) -> None:
        if _handler_named(name):
            _plans.clear()
        type.__setattr__(cls, name, value)

    def delattr_forgets(cls: type, name: str) -> None:
        if _handler_named(name):
            _plans.clear()
        type.__delattr__(cls, name)

    _MessagePumpMeta.__setattr__ = setattr_forgets  # type: ignore[method-assign,assignment]
    _MessagePumpMeta.__delattr__ = delattr_forgets  # type: ignore[method-assign,assignment]
    MessagePump._get_dispatch_methods = get_dispatch_methods  # type: ignore[method-assign]
    _installed = True
