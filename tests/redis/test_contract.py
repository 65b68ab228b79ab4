"""Same contract on two workers: end-to-end tests of the embedded server, run unchanged against two workers that
share one real redis-server. Both listen on the same port (SO_REUSEPORT, as `serve --workers 2` does; here in one
process, so the tests can look at a coordinator), so the kernel spreads each test's SSH clients over the two."""

from __future__ import annotations

import argparse
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest

from dixit_tui.bots.player import revive_bot
from dixit_tui.coordinator import Coordinator
from dixit_tui.coordinator.shared import SharedTables
from dixit_tui.ssh.serve import build_app_factory, build_command_handler, build_coordinator
from dixit_tui.ssh.server import start_server
from dixit_tui.ssh.session import SessionIdentity
from dixit_tui.ssh.terminal import TerminalInfo
from dixit_tui.store.redis_store import RedisStore
from tests.e2e import test_headless_ssh as headless
from tests.e2e import test_hidden_information as hidden
from tests.e2e.harness import HOST
from tests.redis_server import RedisServer

pytestmark = [pytest.mark.e2e]


async def _revive(coordinator: Coordinator, seat_code: str, name: str) -> object:
    return await revive_bot(coordinator, seat_code, name, rng=random.Random(seat_code))


class BothWorkers:
    """The first worker's coordinator, for a test to look at; a spy the test sets on its `broadcast` (the hidden
    information test's recorder of what each change was) sees each change once, when the first worker shows it
    (that moment is what "before the reveal" means when players sit at two workers)."""

    def __init__(self, coordinators: list[Coordinator]) -> None:
        object.__setattr__(self, "_coordinators", coordinators)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._coordinators[0], name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name != "broadcast":
            setattr(self._coordinators[0], name, value)
            return
        first_shown: dict[tuple[str, int], int] = {}  # (table, record) -> the worker that showed it first

        for index, coordinator in enumerate(self._coordinators):

            def broadcast(table: Any, updates: Any = (), index: int = index, plain: Any = coordinator.broadcast) -> Any:
                if first_shown.setdefault((table.code, getattr(table.lock, "seq", 0)), index) == index:
                    value(table, updates)  # the spy records this change (and shows it, through either worker)
                else:
                    plain(table, updates)  # shown by the other worker first: already recorded

            setattr(coordinator, name, broadcast)


@asynccontextmanager
async def two_workers(
    tmp_path: Path, url: str, args: argparse.Namespace, apps: dict[str, Any] | None = None
) -> AsyncIterator[tuple[int, Coordinator]]:
    """Two workers (coordinator, shared tables, SSH server) on one port: (port, both workers' coordinators)."""
    async with AsyncExitStack() as stack:
        port = 0
        coordinators: list[Coordinator] = []
        for name in ("wa", "wb"):
            coordinator = build_coordinator(args)
            store = await RedisStore.open(url)
            shared = SharedTables(coordinator, store, worker=name, tick=0.2)
            shared.revive = _revive
            await shared.start()
            stack.push_async_callback(store.close)
            stack.push_async_callback(shared.stop)
            make_app = build_app_factory(args, coordinator)

            def app_factory(identity: SessionIdentity, terminal: TerminalInfo, make_app: Any = make_app) -> Any:
                app = make_app(identity, terminal)
                if apps is not None:
                    apps[identity.username] = app
                return app

            handler = build_command_handler(args, coordinator)
            server = await start_server(
                HOST, port, tmp_path / "keys", app_factory, command_handler=handler, reuse_port=True
            )
            stack.push_async_callback(server.shutdown, 5.0)
            port = server.port
            coordinators.append(coordinator)
        yield port, cast(Coordinator, BothWorkers(coordinators))


@dataclass
class TwoServers:
    port: int
    apps: Mapping[str, Any]  # each terminal session's app, on either worker, by SSH user name


def shared_server(url: str) -> Callable[..., Any]:
    """`tests.e2e.servers.dixit_server`, as two workers on one Redis."""

    @asynccontextmanager
    async def dixit_server(
        tmp_path: Path, *, seed: int = 7, **settings: Any
    ) -> AsyncIterator[tuple[TwoServers, Coordinator]]:
        args = argparse.Namespace(
            **{"deck": [], "allow_seeded_tables": True, "disconnect_grace": 60.0, "host": HOST, "port": 0, **settings}
        )
        apps: dict[str, Any] = {}
        async with two_workers(tmp_path, url, args, apps) as (port, coordinator):
            yield TwoServers(port, apps), coordinator

    return dixit_server


HEADLESS: list[Callable[[Path], Awaitable[None]]] = [
    headless.test_three_json_clients_play_a_whole_refresh_game,
    headless.test_a_spectator_never_receives_a_hand,
    headless.test_random_bytes_and_json_get_only_errors_and_leave_the_game_alone,
    headless.test_the_docs_example_bot_plays_a_whole_game,
]


@pytest.mark.timeout(180)
@pytest.mark.parametrize("test", HEADLESS, ids=[t.__name__ for t in HEADLESS])
async def test_the_headless_protocol_on_two_workers(
    test: Callable[[Path], Awaitable[None]], redis_server: RedisServer, tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setattr(headless, "dixit_server", shared_server(redis_server.url))
    await test(tmp_path)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("mode", hidden.MODES, ids=[m.id for m in hidden.MODES])
async def test_nothing_hidden_reaches_anyone_on_two_workers(
    mode: Any, redis_server: RedisServer, tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setattr(hidden, "dixit_server", shared_server(redis_server.url))
    await hidden.test_nothing_hidden_reaches_anyone_before_the_reveal(tmp_path, mode)
