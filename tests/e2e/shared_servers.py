"""The real dixit-tui server as two workers that share their tables through one real redis-server: what
`dixit-tui serve --redis URL --workers 2` runs, here in this process so a test can look at the coordinators.

Both workers listen on the same port (SO_REUSEPORT, as `serve --workers 2` does), so the kernel spreads a test's SSH
clients over the two. `tests.e2e.servers.dixit_server` starts this instead of the embedded server when the suite
runs with `--two-workers` (or DIXIT_TEST_TWO_WORKERS=1):

    ./dev test tests/e2e --two-workers

The coordinator a test gets is `BothWorkers`: the first worker's coordinator, except that `tables` reads each table
from its most advanced replica (a change a client saw was made by one of the two: the other's replica may be a few
milliseconds behind), with both workers' sessions at it, and `sessions` and the reconnect guard's counts are both
workers'.
"""

from __future__ import annotations

import argparse
import os
import random
import weakref
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest

from dixit_tui.bots.player import revive_bot
from dixit_tui.coordinator import Coordinator
from dixit_tui.coordinator.shared import RemoteSeat, SharedTables
from dixit_tui.serve import (
    build_app_factory,
    build_command_handler,
    build_coordinator,
    parse_limits,
    session_gate,
)
from dixit_tui.ssh.server import DixitAcceptor, start_server
from dixit_tui.ssh.session_runner import AppFactory, SessionIdentity
from dixit_tui.ssh.terminal import TerminalInfo
from dixit_tui.store.redis_store import RedisStore
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.shared_work import share_per_process_work
from tests.e2e.harness import HOST
from tests.redis_server import REDIS_SERVER, RedisServer

ENV = "DIXIT_TEST_TWO_WORKERS"


ONCE = "same_on_two_workers"
"""The marker of an end-to-end test that starts no server `--two-workers` changes (a server process of its own, or
`running_server` with an app of its own): the two-worker pass skips it, as it would only repeat it; the main pass
checks that it never asks two_workers_wanted() (tests/e2e/conftest.py), so a test that comes to use `dixit_server`
cannot keep the marker and leave the two-worker pass without it."""

asked = 0  # how many times two_workers_wanted() was asked in this process (read by the check above)


def two_workers_wanted() -> bool:
    """Whether `dixit_server` starts two workers on Redis (`--two-workers`, or DIXIT_TEST_TWO_WORKERS=1)."""
    global asked
    asked += 1
    return os.environ.get(ENV, "") not in ("", "0")


def skip_on_two_workers(reason: str) -> None:
    """Skip the running test when the suite runs on two workers: `reason` says what it needs of one process."""
    if two_workers_wanted():
        pytest.skip(f"not on two workers: {reason}")


async def _revive(coordinator: Coordinator, seat_code: str, name: str) -> object:
    return await revive_bot(coordinator, seat_code, name, rng=random.Random(seat_code))


def _seq(table: Any) -> int:
    return int(getattr(table.lock, "seq", 0))


def _local(session: Any) -> bool:
    return session is not None and not isinstance(session, RemoteSeat)


class SeatView:
    """A seat of a `TableView`: the freshest replica's, with the session of the worker its player is connected to
    (the other worker's replica has a stand-in for it, `RemoteSeat`)."""

    def __init__(self, seat: Any, replicas: list[Any]) -> None:
        self._seat = seat
        self._replicas = replicas

    @property
    def session(self) -> Any:
        for replica in self._replicas:
            for seat in replica.seats:
                if seat.code == self._seat.code and _local(seat.session):
                    return seat.session
        return self._seat.session

    def __getattr__(self, name: str) -> Any:
        return getattr(self._seat, name)


class TableView:
    """A table open at the two workers, as a test looks at it: each read goes to its most advanced replica at that
    moment that is not in the middle of a change (the first worker's on a tie); its seats' sessions and its
    spectators are both workers' own."""

    def __init__(self, code: str, coordinators: list[Coordinator], last: Any) -> None:
        self._code = code
        self._coordinators = coordinators
        self._last = last  # the freshest replica seen, kept when the table has closed at both workers

    def _replicas(self) -> list[Any]:
        replicas = [c.tables[self._code] for c in self._coordinators if self._code in c.tables]
        return replicas or [self._last]

    def _fresh(self) -> Any:
        replicas = self._replicas()
        # a replica whose lock is held is in the middle of a change: its game may be ahead of what was saved and shown
        # (the other replica is read meanwhile, as at one worker, where a change is saved and shown at once)
        settled = [r for r in replicas if not r.lock.locked()] or replicas
        self._last = max(settled, key=_seq)  # max keeps the first of equals
        return self._last

    @property
    def seats(self) -> list[SeatView]:
        replicas = self._replicas()
        return [SeatView(seat, replicas) for seat in self._fresh().seats]

    @property
    def spectators(self) -> set[Any]:
        return {s for replica in self._replicas() for s in replica.spectators if _local(s)}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._fresh(), name)


class FreshestTables(Mapping[str, Any]):
    """Every table open at either worker, as a `TableView`."""

    def __init__(self, coordinators: list[Coordinator]) -> None:
        self._coordinators = coordinators

    def __getitem__(self, code: str) -> Any:
        replicas = [c.tables[code] for c in self._coordinators if code in c.tables]
        if not replicas:
            raise KeyError(code)
        return TableView(code, self._coordinators, replicas[0])

    def __iter__(self) -> Iterator[str]:
        seen: dict[str, None] = {}
        for coordinator in self._coordinators:
            seen.update(dict.fromkeys(coordinator.tables))
        return iter(seen)

    def __len__(self) -> int:
        return len(set().union(*(c.tables for c in self._coordinators)))


class BothWorkers:
    """The first worker's coordinator, for a test to look at and to connect sessions to, with both workers' tables
    (the freshest replica of each) and sessions. A spy the test sets on its `broadcast` (the
    hidden information test's recorder of what each change was) sees each change once, when the first worker to
    show it does (that moment is what "before the reveal" means when players sit at two workers)."""

    def __init__(self, coordinators: list[Coordinator]) -> None:
        object.__setattr__(self, "_coordinators", coordinators)

    @property
    def workers(self) -> list[Coordinator]:
        return cast(list[Coordinator], self._coordinators)

    @property
    def tables(self) -> FreshestTables:
        return FreshestTables(self._coordinators)

    @property
    def sessions(self) -> set[Any]:
        return set().union(*(c.sessions for c in self._coordinators))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._coordinators[0], name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "store":
            pytest.skip("not on two workers: the test gives one worker a store of its own (the workers share Redis)")
        if name != "broadcast":
            setattr(self._coordinators[0], name, value)
            return
        first_shown: dict[tuple[str, int], int] = {}  # (table, record) -> the worker that showed it first

        for index, coordinator in enumerate(self._coordinators):

            def broadcast(
                table: Any,
                updates: Any = (),
                index: int = index,
                plain: Any = coordinator.broadcast,
                *,
                first: Any = None,
            ) -> Any:
                if first_shown.setdefault((table.code, getattr(table.lock, "seq", 0)), index) == index:
                    # the spy records this change (and shows it, through either worker)
                    value(table, updates, first=first)
                else:
                    plain(table, updates, first=first)  # shown by the other worker first: already recorded

            setattr(coordinator, name, broadcast)


@asynccontextmanager
async def two_workers(
    tmp_path: Path,
    url: str,
    args: argparse.Namespace,
    apps: Any = None,
    *,
    seed: int | None = None,
    wrap: Callable[[AppFactory, Coordinator], AppFactory] | None = None,
) -> AsyncIterator[tuple[list[DixitAcceptor], BothWorkers]]:
    """Two workers (coordinator, shared tables, SSH server) on one port: (their SSH servers, both coordinators).
    `apps` (a mutable mapping) gets each terminal session's app by SSH user name; `seed` seeds both coordinators'
    random source alike (a table's code and shuffle are the same whichever worker creates it); `wrap` replaces each
    worker's app factory (given that worker's coordinator), as in `tests.e2e.servers.dixit_server`."""
    async with AsyncExitStack() as stack:
        port = 0
        coordinators: list[Coordinator] = []
        servers: list[DixitAcceptor] = []
        for name in ("wa", "wb"):
            store = await RedisStore.open(url)
            shared = SharedTables(store, worker=name, tick=0.2, revive=_revive)
            rng = random.Random(seed) if seed is not None else None
            coordinator = build_coordinator(args, store=shared.saving, sharing=shared, rng=rng)
            await shared.start()
            stack.push_async_callback(store.close)
            stack.push_async_callback(shared.stop)
            make_app = build_app_factory(args, coordinator)
            if wrap is not None:
                make_app = wrap(make_app, coordinator)

            def app_factory(identity: SessionIdentity, terminal: TerminalInfo, make_app: Any = make_app) -> Any:
                app = make_app(identity, terminal)
                if apps is not None and isinstance(app, DixitApp):
                    apps[identity.username] = app
                return app

            handler = build_command_handler(args, coordinator)
            limits = parse_limits(getattr(args, "limit", None) or [])  # the same SSH limits as one server's
            server = await start_server(  # the gate as `serve`'s: each session reads the bans and the motd first
                HOST,
                port,
                tmp_path / "keys",
                app_factory,
                command_handler=handler,
                limits=limits,
                reuse_port=True,
                gate=session_gate(coordinator),
                ask_invite=coordinator.moderation.settings.invite_code is not None,
                app_setup=(share_per_process_work,),
            )
            stack.push_async_callback(server.shutdown, 5.0)
            port = server.port
            coordinators.append(coordinator)
            servers.append(server)
        yield servers, BothWorkers(coordinators)


@dataclass
class TwoServers:
    """What `tests.e2e.servers.DixitServer` gives a test, for both workers."""

    servers: list[DixitAcceptor]
    apps: Mapping[str, DixitApp]  # each terminal session's app still running, on either worker, by SSH user name
    saved_in: tuple[str, ...] = ()  # where `dixit-tui replay` finds the saved games: their Redis

    @property
    def port(self) -> int:
        return self.servers[0].port

    @property
    def connection_count(self) -> int:
        return sum(s.connection_count for s in self.servers)

    @property
    def session_count(self) -> int:
        return sum(s.session_count for s in self.servers)


@asynccontextmanager
async def shared_dixit_server(
    tmp_path: Path,
    *,
    seed: int = 7,
    url: str | None = None,
    wrap: Callable[[AppFactory, Coordinator], AppFactory] | None = None,
    **settings: Any,
) -> AsyncIterator[tuple[TwoServers, Coordinator]]:
    """`tests.e2e.servers.dixit_server` as two workers on one Redis: the redis-server at `url`, or one of its own
    in tmp_path/redis (skips when redis-server is not installed)."""
    args = argparse.Namespace(
        **{"deck": [], "allow_seeded_tables": True, "disconnect_grace": 60.0, "host": HOST, "port": 0, **settings}
    )
    apps: weakref.WeakValueDictionary[str, DixitApp] = weakref.WeakValueDictionary()
    async with AsyncExitStack() as stack:
        if url is None:
            if REDIS_SERVER is None:
                pytest.skip("two workers need redis-server, which is not installed: apt-get install redis-server")
            redis = RedisServer(tmp_path / "redis")
            redis.start()
            stack.callback(redis.stop)
            url = redis.url
        servers, coordinator = await stack.enter_async_context(
            two_workers(tmp_path, url, args, apps, seed=seed, wrap=wrap)
        )
        yield TwoServers(servers, apps, ("--redis", url)), cast(Coordinator, coordinator)
