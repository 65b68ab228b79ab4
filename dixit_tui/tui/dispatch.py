"""A message's handlers looked up once per (widget class, handler, message class), not once per message.

Textual finds the handlers of every message it dispatches by walking the receiver's class hierarchy (twenty to thirty
classes for a widget), looking in each class for `on_x`/`_on_x` and for `@on` handlers of each class of the message's
own hierarchy. The answer depends only on those classes, so it is kept process-wide: a dispatch walks only the classes
that have a handler. What stays per message is as Textual does it: the walk stops at the first class reached once a
handler called `prevent_default()`, `@on` handlers with selectors are matched against the message's widgets, and a
decorated handler runs once.

A class attribute named like a handler set or deleted later (a patch, a test's monkeypatch) forgets what was kept.

Switched off (tests/tui/patch_cost.py, 2026-12-07): a join +4.5% Python calls, an ordinary move at a table +5.8%
(the lookups +4.9% and +3.1%, the repaints without messages +2.2% of a move).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any

from textual import events
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


DIRECT_REPAINTS = "_dixit_direct_repaints"
"""Set (True) on an app whose widgets' repaints go straight to their screen (see `repaint_without_messages`)."""
_REPAINTS = "_dixit_repaints"
"""A screen's widgets asked to repaint since its last update tick (see `repaint_without_messages`)."""
_LAYOUTS = "_dixit_layouts"
"""A screen's widgets that asked for a layout since its last drawing (their Layout message may be on its way)."""
_POSTPONED = "_dixit_postponed"
"""Update ticks of a screen put off in a row because a layout asked for had not reached it yet."""
_MAX_POSTPONED = 3
"""Update ticks a screen puts off in a row at most, waiting for a layout asked for (then it draws what it has)."""
_LAYOUT_WAIT = 0.1
"""Seconds after which a screen that put its drawing off for a layout asked for ticks again, whatever came."""

_repaints_installed = False


def repaint_without_messages() -> None:
    """A widget's repaint (its content changed, not its size) in an app with `DIRECT_REPAINTS` reaches its screen
    without messages. Textual's way: the widget posts itself a Prompt (a step of its own task), its idle handler posts
    the screen an Update (a step of the screen's task), the screen's idle resumes its update timer; for each widget an
    update changes. Here the widget is noted on its screen and the update timer resumed at once; the timer's tick
    takes the noted widgets that still need a repaint into the screen's dirty widgets, as the Update handler does,
    then draws as before. Only for a mounted widget (not a screen) on its app's current screen, outside a batch
    update, once that screen has drawn (its update timer exists); any other refresh goes Textual's way.

    The regions a screen's compositor still has to draw (a frame not rendered while the app batched its updates, see
    `frame_patches`) resume its update timer at its idle, and its tick draws them: Textual's idle handler resumes the
    timer only for what Textual keeps (its dirty widgets were cleared as the frame was dropped), and the regions
    waited, undrawn, for some other change. Idempotent."""
    global _repaints_installed
    if _repaints_installed:
        return
    from textual.app import App
    from textual.screen import Screen

    refresh = Widget.refresh
    timer_update = Screen._on_timer_update
    on_idle = Screen._on_idle

    def direct_refresh(
        self: Widget, *regions: Any, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Widget:
        if self._is_mounted and not recompose and not isinstance(self, Screen):
            node = self._parent
            while node is not None and not isinstance(node, Screen):
                node = node._parent
            app = node._parent if node is not None else None
            if (
                isinstance(app, App)
                and getattr(app, DIRECT_REPAINTS, False)
                and not app._batch_count
                and node._Screen__update_timer is not None  # type: ignore[union-attr]
                and app._screen_stack
                and app._screen_stack[-1] is node
            ):
                assert isinstance(node, Screen)
                if layout:
                    # Textual's way (the layout reaches the screen in a Layout message), noted: the screen's next
                    # drawing waits for it, so that a repaint that reached it first is not drawn alone before it
                    layouts: set[Widget] | None = node.__dict__.get(_LAYOUTS)
                    if layouts is None:
                        layouts = node.__dict__[_LAYOUTS] = set()
                    layouts.add(self)
                    return refresh(self, *regions, repaint=repaint, layout=layout, recompose=recompose)
                if not repaint:
                    return refresh(self, *regions, repaint=repaint, layout=layout, recompose=recompose)
                # What Textual's refresh does for a repaint, but the widget's check_idle (its Prompt)
                self._layout_cache.clear()
                self._set_dirty(*regions)
                self.clear_cached_dimensions()
                self._rich_style_cache.clear()
                self._repaint_required = True
                noted: set[Widget] | None = node.__dict__.get(_REPAINTS)
                if noted is None:
                    noted = node.__dict__[_REPAINTS] = set()
                noted.add(self)
                node._update_timer.resume()
                return self
        return refresh(self, *regions, repaint=repaint, layout=layout, recompose=recompose)

    def timer_update_takes_repaints(self: Screen[Any]) -> None:
        noted: set[Widget] | None = self.__dict__.get(_REPAINTS)
        if noted:
            self.__dict__[_REPAINTS] = set()
            for widget in noted:
                # (as the widget's idle handler and the screen's Update handler would: a widget that has posted its
                # Update meanwhile, or gone, is not taken again)
                if widget._repaint_required and widget._parent is not None and not widget._closing:
                    widget._repaint_required = False
                    if widget.display and self in self._compositor:
                        self._dirty_widgets.add(widget)
        layouts: set[Widget] | None = self.__dict__.get(_LAYOUTS)
        if layouts:
            if any(w._layout_required and w._parent is not None and not w._closing for w in layouts):
                postponed = self.__dict__.get(_POSTPONED, 0)
                if postponed < _MAX_POSTPONED:
                    # A layout asked for is on its way: the screen's idle handler resumes the timer once it came
                    # (the screen's dirty widgets are waiting); the timer ticks again after a while whatever comes.
                    self.__dict__[_POSTPONED] = postponed + 1
                    timer = self._update_timer
                    timer.pause()
                    asyncio.get_running_loop().call_later(_LAYOUT_WAIT, timer.resume)
                    return
            layouts.clear()
        self.__dict__[_POSTPONED] = 0
        timer_update(self)
        if not self._dirty_widgets and regions_waiting(self):
            self._compositor_refresh()  # regions left to draw (a frame not rendered in a batch): drawn now

    def regions_waiting(screen: Screen[Any]) -> bool:
        """Whether the current screen's compositor has regions left to draw that nothing else will draw: a frame not
        rendered while the app batched its updates (for apps that repaint directly)."""
        app = screen.app
        return bool(
            screen._compositor._dirty_regions
            and getattr(app, DIRECT_REPAINTS, False)
            and not app._batch_count
            and screen.is_current
        )

    async def idle_knows_what_waits(self: Screen[Any], event: events.Idle) -> None:
        await on_idle(self, event)
        if regions_waiting(self):
            self._update_timer.resume()

    Widget.refresh = direct_refresh  # type: ignore[method-assign, assignment]
    Screen._on_timer_update = timer_update_takes_repaints  # type: ignore[method-assign]
    Screen._on_idle = idle_knows_what_waits  # type: ignore[method-assign]
    _repaints_installed = True
