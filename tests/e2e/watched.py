"""A table watched over SSH, and the SSH driver of a terminal session: its frames drawn, its updates held, released,
everything it was caused to draw drawn and on its terminal (`all_drawn`, no clock)."""

from __future__ import annotations

import asyncio
import gc
import itertools
import weakref
from typing import Any

from textual import events, messages
from textual.message import Message
from textual.message_pump import MessagePump

from dixit_tui.coordinator import Coordinator, Identity, PlayerSession, TableView
from dixit_tui.ssh.driver import SSHDriver
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.update_pacing import UpdatePacing
from tests.e2e.harness import PtyClient, wait_for
from tests.e2e.tui_driver import TIMEOUT, key_of, wait_text
from tests.tui.fixtures import options

INTERVAL = 30.0
"""Longer than any burst below, on any machine: a watcher draws the burst's start, then nothing until it is over."""


def session_driver(app: Any) -> SSHDriver:
    """The SSH driver of a terminal session's app."""
    driver = app._driver
    assert isinstance(driver, SSHDriver), driver
    return driver


def driver_of(coord: Coordinator, name: str) -> SSHDriver:
    """The SSH driver of the terminal session called `name`."""
    for session in coord.sessions:
        app = getattr(session.sink, "__self__", None)
        if session.name == name and isinstance(app, DixitApp) and isinstance(app._driver, SSHDriver):
            return app._driver
    raise AssertionError(f"no terminal session {name!r}")


_of_client: weakref.WeakKeyDictionary[PtyClient, SSHDriver] = weakref.WeakKeyDictionary()


def driver_for(client: PtyClient) -> SSHDriver:
    """The SSH driver (in this process) of the terminal session `client` is connected to: the one whose channel's
    peer is the client's end of its connection (for helpers that have only the client: no server, no name)."""
    if client not in _of_client:
        end = client.conn.get_extra_info("sockname")[:2]
        found = [
            o
            for o in gc.get_objects()
            if isinstance(o, SSHDriver) and o._channel.get_extra_info("peername", ("", 0))[:2] == end
        ]
        assert len(found) == 1, f"{len(found)} terminal sessions for the client at {end}"
        _of_client[client] = found[0]
    return _of_client[client]


async def drawn(client: PtyClient) -> None:
    """Until `client`'s session has drawn everything it was caused to draw, and all of it is on `client`
    (`all_drawn`)."""
    await all_drawn(driver_for(client), client)


_keys: weakref.WeakKeyDictionary[SSHDriver, list[int]] = weakref.WeakKeyDictionary()


def keys_handed(driver: SSHDriver) -> list[int]:
    """The keys the session's driver has handed to its app, counted (in `[0]`) from the first time a test asks."""
    if driver not in _keys:
        count = _keys[driver] = [0]
        process = driver.process_message

        def counted(message: Message) -> None:
            if isinstance(message, events.Key):
                count[0] += 1
            process(message)

        driver.process_message = counted  # type: ignore[method-assign]
    return _keys[driver]


def _gate_idle(app: Any) -> bool:
    """Whether the app's key gate (dixit_tui/textual_host/key_order.py) has no key on its way nor waiting."""
    gate = app._key_gate
    return not gate._waiting and gate._going is None and gate._let_go is None


async def typed(client: PtyClient, keys: str) -> None:
    """`keys` (printable characters: a key each) sent, then until the session's app has handled every one of them and
    drawn all they caused (`drawn`): a quiet screen is no proof that keys were read, on a loaded machine. Handled:
    handed to the app by the driver, then through its key gate, which lets one key at a time on its way (a key that
    does nothing draws nothing: the round trips of `all_drawn` alone could end while keys still wait there)."""
    driver = driver_for(client)
    count = keys_handed(driver)
    until = count[0] + len(keys)
    client.send(keys)
    await wait_for(lambda: count[0] >= until, TIMEOUT, f"the {len(keys)} keys of {keys!r} handed to the app")
    for _ in range(20 * len(keys) + 20):
        await _round_trip(driver._app)  # (every key handed before it is at the gate: gone on, or waiting)
        if _gate_idle(driver._app):
            break
    else:
        raise AssertionError(f"the keys of {keys!r} never all went through the app's key gate")
    await drawn(client)


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


_SETTLES = "_posted_to_settle"
"""The mark (an attribute) on the messages `release` and `all_drawn` post."""


def settles(message: Message) -> bool:
    """Whether `message` is one of those `release` and `all_drawn` post (counts of an app's messages leave them out:
    they are the test's, not the app's work)."""
    return getattr(message, _SETTLES, False)


def _post(pump: MessagePump, message: Message) -> None:
    setattr(message, _SETTLES, True)
    pump.post_message(message)


def release(driver: SSHDriver) -> None:
    """Whatever the session holds back is taken at once (as if its last take were long ago), on its app's queue."""
    pacing = pacing_of(driver)
    pacing._taken_at = -float("inf")  # (the next update too is taken at once)
    _post(driver._app, events.Callback(callback=pacing.take_held))


_STILL_ROUNDS = 2
"""Round trips in a row that must draw nothing: the first one's callback runs once every message queued before it
is handled and its frames drawn; the second once whatever those handlers queued in turn is too."""

_marks = itertools.count(1)


async def _round_trip(app: Any) -> None:
    """Back once the app has handled every message queued to it before this one and its screen has drawn what they
    changed (what Textual's `call_after_refresh` does, with messages of ours: `settles`)."""
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def arrived() -> None:
        if not done.done():
            done.set_result(None)

    def after_the_app() -> None:  # (in the app's task: every message queued to it before is handled)
        screen = app.screen
        screen._callbacks.append((arrived, app))  # run once the screen is idle, after drawing what is dirty
        _post(screen, messages.Prompt())  # (as `Screen._invoke_later` does, with a Prompt of ours)

    _post(app, events.Callback(callback=after_the_app))
    await asyncio.wait_for(done, TIMEOUT)


async def all_drawn(
    driver: SSHDriver, client: PtyClient | None = None, *, rounds: int = 50, like: PlayerSession | None = None
) -> None:
    """Until the session has drawn everything it was caused to draw before this call, and (with `client`, its
    terminal) until all of it has reached that terminal: deterministic, no time counted. What the app holds back
    is taken at once (`release`); round trips through the app (`_round_trip`) go on until `_STILL_ROUNDS` in a row
    draw nothing, with nothing waiting to be written or held (at most `rounds`: else "it never stopped drawing").
    Then a marker written to the channel after every frame (an OSC title: nothing on the screen) comes back on
    `client`: what came before it has come.

    `like`: first until the app has taken its table's view where `like`'s stands (its phase, turn, who it waits
    for, its log). A move made on one worker reaches a session of the other one through Redis, after the move's call
    returned: nothing of it is in the app yet to be drawn (on two workers the settle returned before the move's frame,
    which was counted with the next move's: one CI run)."""
    if like is not None:
        await _caught_up(driver, like)
    still = 0
    for _ in range(rounds):
        writes = driver.writes
        release(driver)
        await _round_trip(driver._app)
        if driver.writes == writes and not driver._pending and not pacing_of(driver).held:
            still += 1
            if still == _STILL_ROUNDS:
                break
        else:
            still = 0
    else:
        raise AssertionError("the session never stopped drawing")
    if client is not None:
        mark = f"\x1b]2;settled {next(_marks)}\x07".encode()
        start = len(client.raw)
        driver._channel.write(mark)  # (not through the driver: its writes and frames are what tests count)
        await client.wait_until(lambda: mark in client.raw[start:], TIMEOUT, "the settle marker")


def _where(view: TableView | None) -> tuple[object, ...] | None:
    """Where a table's game stands, as every view of it says alike (a seat's, a spectator's, on either worker)."""
    if view is None:
        return None
    game = view.game
    return (view.code, view.status, view.log_total, game and (game.phase, game.turn, game.waiting_for))


async def _caught_up(driver: SSHDriver, session: PlayerSession) -> None:
    """Until `driver`'s app has taken its table's view where `session`'s stands now (polled: the update travels
    through Redis on two workers; bounded by TIMEOUT)."""
    app: Any = driver._app
    wanted = _where(session.view())
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while _where(app.table_view) != wanted and loop.time() < deadline:
        release(driver)
        await _round_trip(app)
        if _where(app.table_view) != wanted:
            await asyncio.sleep(0.01)
    assert _where(app.table_view) == wanted, (
        f"the session never took the view where {wanted} (it has {_where(app.table_view)})"
    )


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
