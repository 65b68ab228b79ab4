"""Same contract on two workers: end-to-end tests of the embedded server, run unchanged against two workers that
share one real redis-server. Both listen on the same port (SO_REUSEPORT, as `serve --workers 2` does; here in one
process, so the tests can look at a coordinator), so the kernel spreads each test's SSH clients over the two.

These are the protocol and hidden-information tests, run in every `./dev test`; the whole end-to-end suite runs this
way with `./dev test tests/e2e --two-workers` (tests/e2e/shared_servers.py), as CI does."""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio.client import Pipeline
from redis.exceptions import ConnectionError as RedisConnectionError

from dixit_tui.coordinator import ChatUpdate, Coordinator, Identity, NoticeUpdate, StateUpdate, TableOptions
from dixit_tui.coordinator.shared import SharedTables
from dixit_tui.store.redis_store import RedisStore
from tests.e2e import headless_games, hidden_games
from tests.e2e.shared_servers import shared_dixit_server
from tests.redis_server import RedisServer

pytestmark = [pytest.mark.e2e]


async def until(condition: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    """Wait (bounded) for something another worker does to reach this one."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def shared_server(url: str) -> Callable[..., Any]:
    """`tests.e2e.servers.dixit_server`, as two workers on the redis-server at `url`."""
    return functools.partial(shared_dixit_server, url=url)


HEADLESS: list[Callable[[Path, Any], Awaitable[None]]] = [
    headless_games.three_json_clients_play_a_whole_refresh_game,
    headless_games.a_spectator_never_receives_a_hand,
    headless_games.random_bytes_and_json_get_only_errors_and_leave_the_game_alone,
    headless_games.the_docs_example_bot_plays_a_whole_game,
]


@pytest.mark.timeout(180)
@pytest.mark.parametrize("test", HEADLESS, ids=[f"test_{t.__name__}" for t in HEADLESS])
async def test_the_headless_protocol_on_two_workers(
    test: Callable[[Path, Any], Awaitable[None]], redis_server: RedisServer, tmp_path: Path
) -> None:
    await test(tmp_path, shared_server(redis_server.url))


@pytest.mark.timeout(300)
@pytest.mark.parametrize("mode", hidden_games.MODES, ids=[m.id for m in hidden_games.MODES])
async def test_nothing_hidden_reaches_anyone_on_two_workers(
    mode: Any, redis_server: RedisServer, tmp_path: Path
) -> None:
    await hidden_games.nothing_hidden_reaches_anyone(tmp_path, mode, shared_server(redis_server.url))


# --- what a player receives is the same whichever worker made the change ----------------------------------------------


@asynccontextmanager
async def coordinators(url: str) -> AsyncIterator[tuple[Coordinator, Coordinator]]:
    """Two workers' coordinators (no SSH) sharing the redis-server at `url`."""
    async with AsyncExitStack() as stack:
        pair: list[Coordinator] = []
        for name in ("wa", "wb"):
            store = await RedisStore.open(url)
            shared = SharedTables(store, worker=name, tick=0.1)
            coordinator = Coordinator(
                rng=random.Random(name), allow_seeded_tables=True, store=shared.saving, sharing=shared
            )
            await shared.start()
            stack.push_async_callback(store.close)
            stack.push_async_callback(shared.stop)
            pair.append(coordinator)
        yield pair[0], pair[1]


def read_chat(updates: list[object], start: int, text: str | None = None) -> bool:
    return any(isinstance(u, ChatUpdate) and text in (None, u.line.text) for u in updates[start:])


async def test_a_chat_line_from_another_worker_reaches_a_player_as_the_chat_line_alone(
    redis_server: RedisServer,
) -> None:
    """At one worker a chat line comes to the others at the table as a chat update and nothing else (no state: the
    view did not change); a line said at the other worker must come the same way."""
    async with coordinators(redis_server.url) as (a, b):
        ana: list[object] = []
        ana_session = await a.connect(Identity("ana", "SHA256:ana"), ana.append)
        view = await ana_session.create(TableOptions())
        ben_session = await b.connect(Identity("ben", "SHA256:ben"), lambda update: None)
        cy: list[object] = []
        cy_session = await a.connect(Identity("cy", "SHA256:cy"), cy.append)
        await ben_session.join(view.code)
        await cy_session.join(view.code)

        def sees_everyone(updates: list[object]) -> bool:
            last = next((u for u in reversed(updates) if isinstance(u, StateUpdate)), None)
            return last is not None and last.view is not None and sum(s.connected for s in last.view.seats) == 3

        async def marker(text: str, start: int) -> None:
            """A line said at the other worker (ben's) reaches ana once her worker has read everything said and done
            before it (its records and who is connected where, in one catch-up): what came before it has come."""
            await ben_session.chat(text)
            await until(functools.partial(read_chat, ana, start, text), f"ana to read {text!r}")

        await until(lambda: sees_everyone(ana) and sees_everyone(cy), "ana and cy to see all three seated")
        await marker("presence settled", len(ana))
        for speaker, line in ((cy_session, "from this worker"), (ben_session, "from the other worker")):
            start = len(ana)
            await speaker.chat(line)
            await until(functools.partial(read_chat, ana, start, line), f"ana to read {line!r}")
            await marker(f"after {line}", start)  # anything else the line brings ana would come before this one
            assert [type(u).__name__ for u in ana[start:]] == ["ChatUpdate", "ChatUpdate"], line


async def test_a_tick_that_fails_while_loading_its_scripts_gives_its_redis_connection_back(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pipeline with scripts first checks them with Redis on a connection it keeps until it is reset; when that
    check fails (Redis lost, or the task cancelled, as at shutdown), redis-py does not reset it: the connection would
    be held until the pipeline is collected (which logs "Unclosed Pipeline client" as an error)."""
    async with coordinators(redis_server.url) as (a, _b):
        shared = a.sharing
        assert isinstance(shared, SharedTables)
        ana = await a.connect(Identity("ana", "SHA256:ana"), lambda update: None)
        await ana.create(TableOptions())  # the tick renews its lease and ana's seat: with scripts
        pool = shared.store.client.connection_pool
        await shared.tick()
        in_use = len(pool._in_use_connections)

        async def lost(self: Pipeline) -> None:
            await self.immediate_execute_command("PING")  # takes a connection, as SCRIPT EXISTS does
            raise RedisConnectionError("Redis went away")

        monkeypatch.setattr(Pipeline, "load_scripts", lost)
        await shared.tick()  # (logged; the next tick tries again)
        monkeypatch.undo()
        # at once (a pipeline kept in a reference cycle gives its connection back only when the collector runs);
        # the listeners may have given one of theirs back meanwhile, never taken one more
        assert len(pool._in_use_connections) <= in_use


async def test_a_rematch_started_at_another_worker_says_who_started_it_and_the_old_code_leads_to_it(
    redis_server: RedisServer,
) -> None:
    """What `rematch` records at the host's worker (the new table, and the old table's note naming it): a player at
    the other worker moves with the same notice as at one worker ("ana started a rematch: table NEW."), and `join
    OLD` there finds the new table once the old one is gone, as at the host's worker."""
    async with coordinators(redis_server.url) as (a, b):
        ana = await a.connect(Identity("ana", "SHA256:ana"), lambda update: None)
        view = await ana.create(TableOptions())
        ben_updates: list[object] = []
        ben = await b.connect(Identity("ben", "SHA256:ben"), ben_updates.append)
        await ben.join(view.code)
        old = a.tables[view.code]
        await until(lambda: len(old.seats) == 2, "ben's seat at worker A")
        async with old.lock:  # (as PlayerSession.rematch does, once the game is over)
            new, _moved = a.rematch_table(old)
            async with new.lock:
                old.announce(f"ana started a rematch: table {new.code}.")
                old.pending[-1]["rematch"] = new.code
                await a.commit(new)
            await a.changed(old, lobby=True)

        def notices() -> list[str]:
            return [u.text for u in ben_updates if isinstance(u, NoticeUpdate)]

        await until(lambda: ben.table is not None and ben.table.code == new.code, "ben to move to the rematch")
        await until(lambda: bool(notices()), "ben's notice")
        assert notices() == [f"ana started a rematch: table {new.code}."]
        assert b.rematches.get(view.code) == new.code
