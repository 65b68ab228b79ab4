"""Messages that nobody would act on are not sent (each one costs its receiver a step of its task, a dispatch and an
Idle run after it).

- A layout tells each widget it showed, hid or resized (Show, Hide, Resize). Most widgets of a table screen have no
  handler for a Resize, and Textual's own Show and Hide handlers act only for a widget with scroll bars (which get
  the event too) or, for a Hide, the focused widget: a phase change sent a dozen of them per screen for nothing.
  Such an event is not posted when its widget has no other handler for it and nothing waits for the widget's Idle
  (no refresh, layout, scroll or restyle asked for: whatever asks later prompts the widget itself, as it would have).
- A message that bubbles (a focus moving, an option highlighted) went up through every container of the screen in
  turn, each dispatching it to no handler and running an Idle: it is posted straight to the first ancestor that has
  a handler for it (or handles every event, as the app does), as it would have reached it, the same way (an ancestor
  that is the message's sender's parent still ends it; a node closing or detached still stops it).

Not for a node whose messages are watched (a message hook, a subscriber to its `message_signal`). Idempotent.
"""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.message_pump import MessagePump, message_hook_context_var
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList

from dixit_tui.tui import dispatch

skipped: dict[str, int] = {"Resize": 0, "Show": 0, "Hide": 0, "hops": 0}
"""Events not posted and bubbling steps skipped since the process started (for tests)."""

_installed = False
_SIZE_EVENTS = (events.Resize, events.Show, events.Hide)
_IDLE = events.Idle()
_QUICK_BUBBLES = (events.DescendantFocus, events.DescendantBlur, OptionList.OptionHighlighted)
"""Bubbling messages that skip the nodes without a handler (others, keys and selections among them, keep their pace
through every container: what a key typed in a burst acts on depends on it)."""


def _handlers(pump: MessagePump | Widget, message: Message) -> dispatch.Plan:
    """The classes of `pump` with a handler for `message` (Textual's lookup, kept per classes)."""
    key = (type(pump), message.handler_name, type(message))
    plan = dispatch._plans.get(key)
    if plan is None:
        plan = dispatch._plans[key] = dispatch._plan(*key)
    return plan


def _watched(pump: MessagePump) -> bool:
    if pump.message_signal._subscriptions:
        return True
    try:
        message_hook_context_var.get()
    except LookupError:
        return False
    return True


def _default_events(pump: MessagePump) -> bool:
    return type(pump).on_event is MessagePump.on_event


def _waits_for_idle(widget: Widget) -> bool:
    """True if the Idle that a message would make `widget` run has something to do (or is not Textual's own)."""
    own = (Widget._on_idle, Screen.__dict__["_on_idle"])  # (a screen's: draw what waits, or run its callbacks)
    if any(decorated or named not in own for _, decorated, named in _handlers(widget, _IDLE)):
        return True
    if isinstance(widget, Screen) and (widget._dirty_widgets or widget._callbacks or widget._compositor._dirty_regions):
        return True
    return bool(
        widget._repaint_required
        or widget._layout_required
        or widget._scroll_required
        or widget._refresh_styles_required
        or widget._recompose_required
        or widget._next_callbacks
    )


def _moot(widget: Widget, event: Message) -> bool:
    """True if `event` (a Resize, Show or Hide) would make `widget` do nothing."""
    if not _default_events(widget) or _waits_for_idle(widget) or _watched(widget):
        return False
    plan = _handlers(widget, event)
    if isinstance(event, events.Resize):
        return not plan
    own = Widget._on_show if isinstance(event, events.Show) else Widget._on_hide
    if any(decorated or named is not own for _, decorated, named in plan):
        return False  # (a handler of the widget's own class)
    if widget.show_vertical_scrollbar or widget.show_horizontal_scrollbar:
        return False
    return not (isinstance(event, events.Hide) and widget.has_focus)


def install_quiet_messages() -> None:
    global _installed
    if _installed:
        return
    post_message = Widget.post_message

    def post_unless_moot(self: Widget, message: Message) -> bool:
        if type(message) in _SIZE_EVENTS and self._parent is not None and _moot(self, message):
            skipped[type(message).__name__] += 1
            return True
        return post_message(self, message)

    def bubble_to_handler(self: Message, widget: MessagePump) -> None:
        self._no_default_action = False
        node = widget
        while (
            type(self) in _QUICK_BUBBLES
            and _default_events(node)
            and not _handlers(node, self)
            and not _watched(node)
            and not (isinstance(node, Widget) and _waits_for_idle(node))
            and node._parent is not None
            and self._sender is not node._parent
            and not (node._closing or node._closed)
            and node.check_message_enabled(self)
            and node.is_parent_active
            and node.is_attached
        ):
            # (what `node` would do: dispatch the message to no handler, then bubble it to its parent)
            self._prevent.update(node._get_prevented_messages())
            skipped["hops"] += 1
            node = node._parent
        node.post_message(self)

    Widget.post_message = post_unless_moot  # type: ignore[method-assign]
    Message._bubble_to = bubble_to_handler  # type: ignore[method-assign]
    _installed = True


_reflow_installed = False


def keep_full_map_after_reflow() -> None:
    """A layout (`Compositor.reflow`) arranges every widget of the screen, visible or not, and keeps that arrangement
    as the screen's full map; but a flag set before it (a widget that changed while off the visible map, a scroll)
    still said the full map was out of date, and the next question about any widget's region (a Resize handler
    reading its size) arranged the whole screen a second time to get the same map. Idempotent."""
    global _reflow_installed
    if _reflow_installed:
        return
    from textual._compositor import Compositor, ReflowResult
    from textual.geometry import Size

    reflow = Compositor.reflow

    def reflow_keeps_full_map(self: Compositor, parent: Widget, size: Size) -> ReflowResult:
        result = reflow(self, parent, size)
        self._full_map_invalidated = False  # (the map just made is the full map, of this root at this size)
        return result

    Compositor.reflow = reflow_keeps_full_map  # type: ignore[method-assign]
    _reflow_installed = True
