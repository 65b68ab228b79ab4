"""A session's SSH receive window stays shut while input it has not taken is still queued in its channel.

asyncssh re-opens the window as soon as it hands one packet to the session (`SSHChannel._deliver_data`), even with
more queued behind it: a session reading slower than its client writes let in one more window at each resume, and
memory grew without bound (`yes | ssh HOST json` held 569 MB after 20 s). Now a session holds at most two windows.
`tests/ssh/test_receive_window.py` fails when an asyncssh upgrade changes the method this relies on.
"""

from __future__ import annotations

import functools
from typing import Any

from asyncssh.channel import SSHServerChannel


@functools.cache
def install() -> None:
    """Keep a server channel's receive window shut while packets wait in its queue (see the module's docstring)."""
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
