"""The real dixit-tui server for end-to-end tests: what `dixit-tui serve` runs (the lobby app factory and the headless
command handler on one coordinator), in this process, on 127.0.0.1 with a port from the OS.

    async with dixit_server(tmp_path) as (server, coord):
        client = await PtyClient.connect(server.port, "ana")
        ...
        assert coord.tables[code].game is not None

The test shares the coordinator (to read the true game state) and sees each terminal session's app (`server.apps`).
With `--two-workers` (or DIXIT_TEST_TWO_WORKERS=1) it is two workers sharing one Redis instead: see shared_servers.py.
"""

from __future__ import annotations

import argparse
import random
import weakref
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from dixit_tui.coordinator import Coordinator
from dixit_tui.serve import (
    build_app_factory,
    build_command_handler,
    build_coordinator,
    parse_limits,
    session_gate,
)
from dixit_tui.ssh.server import DixitAcceptor
from dixit_tui.ssh.session_runner import AppFactory, SessionIdentity
from dixit_tui.ssh.terminal import TerminalInfo
from dixit_tui.store import SqliteStore
from dixit_tui.tui.app import DixitApp
from tests.e2e.harness import HOST, running_server
from tests.e2e.shared_servers import shared_dixit_server, two_workers_wanted

Wrap = Callable[[AppFactory, Coordinator], AppFactory]


@dataclass
class DixitServer:
    acceptor: DixitAcceptor
    apps: Mapping[str, DixitApp]  # the app of each terminal session still running, by SSH user name
    saved_in: tuple[str, ...] = ()  # where `dixit-tui replay` finds the saved games (with store=True)

    @property
    def port(self) -> int:
        return self.acceptor.port

    @property
    def connection_count(self) -> int:
        return self.acceptor.connection_count

    @property
    def session_count(self) -> int:
        return self.acceptor.session_count


Serve = Callable[[Path], AbstractAsyncContextManager[tuple[DixitServer, Coordinator]]]
"""What starts a server for a test: `dixit_server`, or the same on two workers (tests/redis/test_contract.py)."""


@asynccontextmanager
async def dixit_server(
    tmp_path: Path, *, seed: int = 7, wrap: Wrap | None = None, store: bool = False, **settings: Any
) -> AsyncIterator[tuple[DixitServer, Coordinator]]:
    """The real server and its coordinator. `settings` are coordinator settings as `dixit-tui serve` flags would give
    them (disconnect_grace=60.0, first_clue_grace=..., limit=[...]); `seed` seeds the coordinator's random source
    (table codes and each game's shuffle: the same on every run); `wrap` may replace the app factory (crash tests);
    `store` saves the games in tmp_path/data. On two workers (`--two-workers`) the games are saved in their Redis,
    and `wrap` wraps each worker's factory."""
    if two_workers_wanted():
        async with shared_dixit_server(tmp_path, seed=seed, wrap=wrap, **settings) as (two, coordinator):
            yield cast(DixitServer, two), coordinator
        return
    args = argparse.Namespace(
        **{"deck": [], "allow_seeded_tables": True, "disconnect_grace": 60.0, "host": HOST, "port": 0, **settings}
    )
    saved = await SqliteStore.open(tmp_path / "data") if store else None
    coordinator = build_coordinator(args, store=saved, rng=random.Random(seed))
    make_app = build_app_factory(args, coordinator)
    if wrap is not None:
        make_app = wrap(make_app, coordinator)
    apps: weakref.WeakValueDictionary[str, DixitApp] = weakref.WeakValueDictionary()

    def app_factory(identity: SessionIdentity, terminal: TerminalInfo) -> Any:
        app = make_app(identity, terminal)
        if isinstance(app, DixitApp):
            apps[identity.username] = app
        return app

    handler = build_command_handler(args, coordinator)
    try:
        limits = parse_limits(settings.get("limit", []))
        gate = session_gate(coordinator)  # as `serve`'s: each session reads the bans and the motd first
        ask_invite = coordinator.moderation.settings.invite_code is not None
        async with running_server(
            tmp_path, app_factory, command_handler=handler, limits=limits, gate=gate, ask_invite=ask_invite
        ) as acceptor:
            yield DixitServer(acceptor, apps, ("--data-dir", str(tmp_path / "data"))), coordinator
    finally:
        if saved is not None:
            await saved.close()
