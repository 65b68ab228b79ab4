"""The private parts of asyncio (CPython) and asyncssh the server patches or reads, listed as Textual's are in
`internals.py`, with the version each was checked against, and fingerprinted the same way by `check.py` (at
`dixit-tui serve`'s start and in `tests/test_textual_internals.py`) in the installed asyncssh's source and in the
running Python's standard library.

Touches nothing itself: pure data. asyncio's parts are fingerprinted against CPython 3.11 (the one version CI runs):
on another Python they are reported as differing, which says to re-check `work_share.py` there, not that it fails.
"""

from __future__ import annotations

from dixit_tui.textual_host.internals import Internal

ASYNCSSH_CHECKED_WITH = "2.24.1"
PYTHON_CHECKED_WITH = "3.11.7"

ASYNCIO_INTERNALS: tuple[Internal, ...] = (
    Internal(
        "asyncio/events.py",
        "Handle._run",
        "patched: each callback's and task step's time counted for the session whose app it runs, and a step of a "
        "session over its share put behind other work",
        "dixit_tui/textual_host/work_share.py",
        "ca93f9e79902ae84",
    ),
    Internal(
        "asyncio/events.py",
        "Handle.__init__",
        "read: _context (whose app), _loop, _cancelled",
        "dixit_tui/textual_host/work_share.py",
        "b7bf38d8a973919a",
    ),
    Internal(
        "asyncio/base_events.py",
        "BaseEventLoop._run_once",
        "read: runs the handles of its _ready deque through Handle._run (a step put back is appended to it)",
        "dixit_tui/textual_host/work_share.py",
        "b7f2771edf072efb",
    ),
)

ASYNCSSH_INTERNALS: tuple[Internal, ...] = (
    Internal(
        "asyncssh/connection.py",
        "SSHConnection.send_packet",
        "patched on SSHServerConnection: the empty MSG_IGNORE ahead of each packet left out (not CBC)",
        "dixit_tui/ssh/ignore_packets.py",
        "da99a112a4a93e88",
    ),
    Internal(
        "asyncssh/connection.py",
        "SSHConnection._send",
        "replaced on one connection while a frame is written: its packets gathered into one socket write",
        "dixit_tui/ssh/driver.py",
        "3a5aa77295dbd67e",
    ),
    Internal(
        "asyncssh/connection.py",
        "SSHConnection.__init__",
        "read: _enc_alg_sc (the cipher), _transport (its write buffer), _inpbuf (emptied for a flood)",
        "dixit_tui/ssh/ignore_packets.py, dixit_tui/ssh/guard.py, dixit_tui/ssh/server.py",
        "8c2d77b0ec1bf981",
    ),
    Internal(
        "asyncssh/channel.py",
        "SSHChannel._deliver_data",
        "patched on SSHServerChannel: the receive window re-opened only once the channel's queue is empty",
        "dixit_tui/ssh/receive_window.py",
        "24b767662a69bbc8",
    ),
    Internal(
        "asyncssh/channel.py",
        "SSHChannel.__init__",
        "read: _recv_buf, _recv_window, _init_recv_window",
        "dixit_tui/ssh/receive_window.py",
        "4c3378e4f605ce56",
    ),
)

ASYNCIO_MODULES: dict[str, str] = {
    "asyncio/events.py": "c0cec01aeee27010",
    "asyncio/base_events.py": "f2acc35cc35011f8",
}
"""Each asyncio module's whole file at PYTHON_CHECKED_WITH."""
ASYNCSSH_MODULES: dict[str, str] = {
    "asyncssh/connection.py": "8fd28630b87c21d6",
    "asyncssh/channel.py": "d918ecd3d2b9eeeb",
}
"""Each asyncssh module's whole file at ASYNCSSH_CHECKED_WITH."""
