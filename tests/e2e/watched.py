"""A table watched over SSH, and the SSH driver of a terminal session: its frames drawn, held, released."""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from dixit_tui.coordinator import Coordinator, Identity, PlayerSession
from dixit_tui.ssh.driver import SSHDriver
from dixit_tui.tui.app import DixitApp
from tests.e2e.harness import PtyClient
from tests.e2e.tui_driver import TIMEOUT, key_of, wait_text
from tests.tui.fixtures import options
from tests.work_counters import Calls

INTERVAL = 30.0
"""Longer than any burst below, on any machine: a watcher draws the burst's start, then nothing until it is over."""


def driver_of(coord: Coordinator, name: str) -> SSHDriver:
    """The SSH driver of the terminal session called `name`."""
    for session in coord.sessions:
        app = getattr(session.sink, "__self__", None)
        if session.name == name and isinstance(app, DixitApp) and isinstance(app._driver, SSHDriver):
            return app._driver
    raise AssertionError(f"no terminal session {name!r}")


_counted: weakref.WeakKeyDictionary[SSHDriver, tuple[Calls, Calls]] = weakref.WeakKeyDictionary()


def _counters(driver: SSHDriver) -> tuple[Calls, Calls]:
    if driver not in _counted:
        _counted[driver] = (Calls(driver, "frame_drawn"), Calls(driver, "hold_frame"))
    return _counted[driver]


def frames_drawn(driver: SSHDriver) -> Calls:
    """The screen updates the session draws for its client (its driver's `frame_drawn`), counted from the first time
    a test asks."""
    return _counters(driver)[0]


def frames_held(driver: SSHDriver) -> Calls:
    """The drawings and update ticks the session puts off while it watches (its driver's `hold_frame`), counted from
    the first time a test asks."""
    return _counters(driver)[1]


def release(driver: SSHDriver) -> None:
    """Whatever the session holds back is drawn at once (as if its last frame were long ago): the held frame's
    timer goes off now."""
    driver._last_frame = -float("inf")
    if driver._due_handle is not None:
        driver._due_handle.cancel()
    driver._frame_due_now()


QUIET = 0.3
"""Seconds without a new frame (and nothing waiting to be written) after which a session counts as quiet."""


async def quiet(driver: SSHDriver) -> None:
    """Until the session has drawn everything it had to draw and has nothing pending (bounded): `QUIET` seconds
    without a new frame, looked at every 50 ms (a frame restarts the count)."""
    release(driver)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    drawn = frames_drawn(driver)
    frames, since = drawn.count, loop.time()
    while True:
        await asyncio.sleep(0.05)
        assert loop.time() < deadline, "the session never stopped drawing"
        if drawn.count != frames or driver._pending:
            frames, since = drawn.count, loop.time()
        elif loop.time() - since >= QUIET:
            return


async def watched_table(
    server: Any, coord: Coordinator, others: list[str], **table_options: Any
) -> tuple[list[PlayerSession], PtyClient]:
    """A table created by `host` (a session of the coordinator) with `others` seated, and `wes` watching it over SSH,
    its table screen shown: the sessions (host first) and wes's terminal."""
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options(**table_options))
    sessions = [host, *await seated(coord, view.code, others)]
    watcher = await PtyClient.connect(server.port, "wes", client_key=key_of("wes"), command=f"watch {view.code}")
    await wait_text(watcher, f"Dixit · table {view.code}")
    return sessions, watcher


async def seated(coord: Coordinator, code: str, names: list[str]) -> list[PlayerSession]:
    out = []
    for name in names:
        session = await coord.connect(Identity(name, key=f"key-{name}"), lambda update: None)
        await session.join(code)
        out.append(session)
    return out
