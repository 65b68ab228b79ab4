"""A table watched over SSH, and the SSH driver of a terminal session: its frames drawn, its updates held, released."""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from dixit_tui.coordinator import Coordinator, Identity, PlayerSession
from dixit_tui.ssh.driver import SSHDriver
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.update_pacing import UpdatePacing
from tests.e2e.harness import PtyClient
from tests.e2e.tui_driver import TIMEOUT, key_of, wait_text
from tests.tui.fixtures import options

INTERVAL = 30.0
"""Longer than any burst below, on any machine: a watcher draws the burst's start, then nothing until it is over."""


def driver_of(coord: Coordinator, name: str) -> SSHDriver:
    """The SSH driver of the terminal session called `name`."""
    for session in coord.sessions:
        app = getattr(session.sink, "__self__", None)
        if session.name == name and isinstance(app, DixitApp) and isinstance(app._driver, SSHDriver):
            return app._driver
    raise AssertionError(f"no terminal session {name!r}")


class Frames:
    """The screen updates a session's app draws for its client, counted from the test's side: each display of its
    screen (Textual's `post_display_hook`, called after each) that wrote to the driver."""

    def __init__(self, driver: SSHDriver) -> None:
        self.count = 0
        app: Any = driver._app
        hook = app.post_display_hook
        seen = [driver.writes]

        def counted() -> None:
            hook()
            if driver.writes != seen[0]:
                seen[0] = driver.writes
                self.count += 1

        app.post_display_hook = counted


_counted: weakref.WeakKeyDictionary[SSHDriver, Frames] = weakref.WeakKeyDictionary()


def frames_drawn(driver: SSHDriver) -> Frames:
    """The screen updates the session draws for its client, counted from the first time a test asks."""
    if driver not in _counted:
        _counted[driver] = Frames(driver)
    return _counted[driver]


def pacing_of(driver: SSHDriver) -> UpdatePacing:
    """The coordinator updates the session's app holds while it watches."""
    app = driver._app
    assert isinstance(app, DixitApp)
    return app.update_pacing


def release(driver: SSHDriver) -> None:
    """Whatever the session holds back is taken at once (as if its last take were long ago), on its app's queue."""
    pacing = pacing_of(driver)
    pacing._taken_at = -float("inf")  # (the next update too is taken at once)
    driver._app.call_later(pacing.take_held)


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
        if drawn.count != frames or driver._pending or pacing_of(driver).held:
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
