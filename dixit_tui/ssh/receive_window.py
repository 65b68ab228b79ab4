"""A session's SSH receive window stays shut while input it has not taken is still queued in its channel.

asyncssh re-opens a channel's receive window (MSG_CHANNEL_WINDOW_ADJUST back to the full window) as soon as it hands
one packet to the session (`SSHChannel._deliver_data`), even when more packets wait behind it because the session
paused reading. A session that reads slower than its client writes (a `json` session busy answering a flood of
lines) then paused and resumed over and over, and each resume let the client send one more whole window into the
channel's queue: memory grew without bound (a `yes | ssh HOST json` flood held 569 MB after 20 s).

`install` makes the window re-open only once the channel's queue is empty: a session then holds at most its stream's
buffer (one window) and the channel's queue (at most one window). Only server channels are changed.
`tests/ssh/test_receive_window.py` checks what a real client can queue, and fails when an asyncssh upgrade changes
the method this relies on.
"""

from __future__ import annotations

from typing import Any

from asyncssh.channel import SSHServerChannel

_installed = False


def install() -> None:
    """Keep a server channel's receive window shut while packets wait in its queue (see the module's docstring)."""
    global _installed
    if _installed:
        return
    _installed = True
    deliver = SSHServerChannel._deliver_data

    def deliver_keeping_the_window_shut(self: Any, data: Any, datatype: Any) -> None:
        if not self._recv_buf:
            deliver(self, data, datatype)
            return
        window = self._recv_window  # more waits behind this packet: no window adjust now
        self._recv_window = self._init_recv_window
        try:
            deliver(self, data, datatype)
        finally:
            self._recv_window = window

    SSHServerChannel._deliver_data = deliver_keeping_the_window_shut  # type: ignore[method-assign]
