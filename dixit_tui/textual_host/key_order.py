"""Keys act in the order they were typed, also when several arrive at once.

Textual hands a key to the focused widget straight away, but looks up its bindings (all but the priority ones) only
once the key has bubbled back up to the app, one container at a time. A key typed right behind it went straight to
the focused widget meanwhile. Over SSH, keys typed fast (or over a slow link) arrive together: a text box got the `8`
of "Ctrl+U 8" before Ctrl+U emptied it, "Backspace x" deleted the x, "Home x" typed the x at the end, and
"Tab x" typed it into the box being left.

`KeyGate` lets one key (or paste) at a time on its way; those that come meanwhile wait, in order, and the next goes
once the one before is done: stopped by a widget, or handled at the app. The gate knows that by following the key
up: a callback queued right behind it at each node it reaches. A key whose turn comes after the screen it was typed
at has gone (the key before it opened or closed one) is dropped: a key acts only on the screen it was typed at.

Touches: `MessagePump._parent` (the node a key bubbles to next), `Message._sender` and `Message._stop_propagation`
(where Textual stops a bubbling message: `MessagePump._on_message`), read. Why: Textual has no public way to know
when a key is done with; the gate follows it up the same way Textual sends it.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual import events

if TYPE_CHECKING:
    from textual.app import App
    from textual.message_pump import MessagePump

log = logging.getLogger(__name__)

GIVE_UP = 1.0
"""Seconds after which a key not seen done lets the next one go (its trail was lost: a widget closed under it)."""

Typed = events.Key | events.Paste


class KeyGate:
    """One app's keys and pastes from the terminal, let through one at a time (see the module's text)."""

    def __init__(self, app: App[Any]) -> None:
        self._app = app
        self._waiting: deque[Typed] = deque()
        self._going: Typed | None = None  # on its way through the widgets
        self._let_go: Typed | None = None  # its turn came: back in the app's queue
        self._give_up: asyncio.TimerHandle | None = None
        self._when_done: list[Callable[[], object]] = []  # to run once no key is on its way nor waits

    @property
    def busy(self) -> bool:
        """Whether a key (or paste) from the terminal is on its way, or waits for its turn."""
        return self._going is not None or self._let_go is not None or bool(self._waiting)

    def when_done(self, callback: Callable[[], object]) -> None:
        """Run `callback` (in the app's queue) once the keys on their way and waiting now, and any that come before
        they are done, are done."""
        if callback not in self._when_done:
            self._when_done.append(callback)

    def admit(self, event: Typed) -> bool:
        """True if `event`, just come from the terminal (or whose turn came), goes on now; False if it waits."""
        if event is self._let_go:
            self._let_go = None
            return True
        if self._going is not None or self._let_go is not None or self._waiting:
            self._waiting.append(event)
            return False
        return True

    def follow(self, event: Typed, target: MessagePump) -> None:
        """`event` was handed to `target` (the focused widget, or the screen): the next waits until it is done."""
        self._going = event
        if not target.call_later(self._step, event, target):
            self.done()
            return
        loop = asyncio.get_running_loop()
        # (in an empty context: the handle must not keep the session's objects alive, see ssh/driver.py's drain timer)
        self._give_up = loop.call_later(GIVE_UP, self._lost, event, context=contextvars.Context())

    def done(self) -> None:
        """The event on its way (if any) is done, or never went: the next waiting one goes, back through the app."""
        self._going = None
        self._stop_waiting_to_give_up()
        if not self._waiting:
            callbacks, self._when_done = self._when_done, []
            for callback in callbacks:
                self._app.call_later(callback)
            return
        following = self._waiting.popleft()
        self._let_go = following
        if not self._app.post_message(following):  # the app is closing
            self.close()

    def close(self) -> None:
        self._waiting.clear()
        self._when_done.clear()
        self._going = self._let_go = None
        self._stop_waiting_to_give_up()

    def _stop_waiting_to_give_up(self) -> None:
        if self._give_up is not None:
            self._give_up.cancel()
            self._give_up = None

    def _step(self, event: Typed, node: MessagePump) -> None:
        """Runs in `node`'s queue right behind `event`: by now `node` has handled it and passed it up, or not."""
        if event is not self._going:
            return
        parent = node._parent
        if (
            node is self._app
            or parent is None
            or not event.bubble
            # (Textual stops a message at its sender's parent, after that parent has it)
            or (event._stop_propagation and event._sender is not parent)
            or not (node.is_parent_active and node.is_attached)
            or not parent.call_later(self._step, event, parent)
        ):
            self.done()  # stopped here, handled at the app, or gone with its node

    def _lost(self, event: Typed) -> None:
        self._give_up = None
        if event is self._going:
            log.debug("key %r not seen done after %.1f s: the next one goes", event, GIVE_UP)
            self.done()
