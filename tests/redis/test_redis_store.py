"""The shared store on a real redis-server: compare-and-append, durability across a Redis crash, clear errors when
Redis is gone, change notices, and a coordinator that restores its tables from Redis exactly as from SQLite."""

from __future__ import annotations

import asyncio
import contextvars
import gc
import random

import pytest

from dixit_tui.coordinator import Coordinator, TableError
from dixit_tui.store.base import StoreError
from dixit_tui.store.redis_store import RedisStore, StoreConflict, StoreUnavailable
from tests.redis_server import RedisServer, free_port
from tests.store.tables import Client, comparable, last_view, play_some, views_after_restart


async def test_records_come_back_in_order_with_snapshot_and_closed_flag(redis_server: RedisServer) -> None:
    store = await RedisStore.open(redis_server.url)
    await store.append("ABCD", [{"t": "create", "n": 1}, {"t": "seat", "n": 2}])
    await store.snapshot("ABCD", {"whole": "table"})
    await store.append("ABCD", [{"t": "move", "n": 3}])
    await store.append("WXYZ", [{"t": "create"}, {"t": "closed"}])
    await store.close()

    store = await RedisStore.open(redis_server.url)
    tables = {t.code: t for t in await store.load()}
    assert tables["ABCD"].snapshot == {"whole": "table"}
    assert tables["ABCD"].records == [{"t": "move", "n": 3}]
    assert not tables["ABCD"].closed and "WXYZ" not in tables  # a closed table is not read at start-up
    assert [r["n"] for r in await store.history("ABCD")] == [1, 2, 3]
    await store.append("ABCD", [{"t": "move", "n": 4}])  # a restarted process appends after what it loaded
    assert [r["n"] for r in await store.history("ABCD")] == [1, 2, 3, 4]
    await store.close()


async def test_only_one_of_two_writers_of_the_same_version_wins(redis_server: RedisServer) -> None:
    a = await RedisStore.open(redis_server.url)
    b = await RedisStore.open(redis_server.url)
    assert await a.append_at("ABCD", 0, [{"t": "create"}]) == 1
    results = await asyncio.gather(
        a.append_at("ABCD", 1, [{"t": "by", "who": "a"}, {"t": "by", "who": "a"}]),
        b.append_at("ABCD", 1, [{"t": "by", "who": "b"}]),
        return_exceptions=True,
    )
    wins = [r for r in results if isinstance(r, int)]
    losses = [r for r in results if isinstance(r, StoreConflict)]
    assert len(wins) == 1 and len(losses) == 1
    winner = "a" if isinstance(results[0], int) else "b"
    history = await b.history("ABCD")
    assert {r.get("who") for r in history[1:]} == {winner}  # nothing of the loser, not even part of it
    assert losses[0].current == len(history)
    # the loser re-reads what is new and appends after it
    new = await b.read_after("ABCD", 1)
    assert [seq for seq, _ in new] == list(range(2, len(history) + 1))
    assert await b.append_at("ABCD", losses[0].current, [{"t": "by", "who": "again"}]) == len(history) + 1
    await a.close()
    await b.close()


async def test_what_was_acknowledged_survives_a_redis_crash(redis_server: RedisServer) -> None:
    store = await RedisStore.open(redis_server.url)
    for i in range(50):
        await store.append("ABCD", [{"t": "move", "n": i}])
    redis_server.kill()  # SIGKILL: the append-only file, fsynced on every write, is all that is left
    with pytest.raises(StoreUnavailable):
        await store.append("ABCD", [{"t": "move", "n": 50}])
    redis_server.start()
    assert [r["n"] for r in await store.history("ABCD")] == list(range(50))  # and nothing of the failed one
    await store.append("ABCD", [{"t": "move", "n": 50}])  # the same client carries on once Redis is back
    assert len(await store.history("ABCD")) == 51
    await store.close()


async def test_an_unreachable_redis_is_a_clear_error() -> None:
    with pytest.raises(StoreUnavailable, match=r"cannot reach Redis at redis://127\.0\.0\.1"):
        await RedisStore.open(f"redis://127.0.0.1:{free_port()}/0", timeout=2.0)
    with pytest.raises(StoreError, match="not a Redis address"):
        await RedisStore.open("http://example.invalid/")


async def test_other_processes_hear_of_every_append(redis_server: RedisServer) -> None:
    writer = await RedisStore.open(redis_server.url)
    reader = await RedisStore.open(redis_server.url)
    heard: list[tuple[str, int]] = []
    subscribed = asyncio.Event()

    async def listen() -> None:
        changes = reader.changes()
        first = asyncio.ensure_future(anext(changes))
        for _ in range(500):  # the subscription is made when the first item is asked for: until Redis counts it
            if dict(await writer.client.pubsub_numsub(writer.channel)).get(writer.channel, 0):
                break
            await asyncio.sleep(0.01)
        subscribed.set()
        heard.append(await first)
        async for change in changes:
            heard.append(change)
            if len(heard) == 3:
                return

    task = asyncio.create_task(listen())
    await subscribed.wait()
    await writer.append("ABCD", [{"t": "a"}])
    await writer.append("ABCD", [{"t": "b"}, {"t": "c"}])
    await writer.append("WXYZ", [{"t": "a"}])
    await asyncio.wait_for(task, 10)
    assert heard == [("ABCD", 1), ("ABCD", 3), ("WXYZ", 1)]
    await writer.close()
    await reader.close()


@pytest.mark.parametrize(("moves", "snapshot_every"), [(25, 1000), (200, 7)])
async def test_a_coordinator_restores_its_tables_from_redis_exactly(
    redis_server: RedisServer, moves: int, snapshot_every: int
) -> None:
    store = await RedisStore.open(redis_server.url)
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, store=store, snapshot_every=snapshot_every)
    code, clients = await play_some(coord, moves, seed=moves)
    before = [comparable(last_view(c)) for c, _ in clients]
    await store.close()
    redis_server.kill()  # the server and Redis both die
    redis_server.start()

    store = await RedisStore.open(redis_server.url)
    again = Coordinator(rng=random.Random(2), store=store)
    assert await again.restore() == 1
    assert await views_after_restart(again, code) == before
    await store.close()


async def test_a_lease_has_one_holder_until_it_expires(redis_server: RedisServer) -> None:
    a = await RedisStore.open(redis_server.url)
    b = await RedisStore.open(redis_server.url)
    assert await a.take_lease("server", "a", 0.5) == "a"
    assert await b.take_lease("server", "b", 0.5) == "a"  # taken
    assert await a.take_lease("server", "a", 0.5) == "a"  # renewed by its holder
    for _ in range(500):  # a holder that stops renewing loses it (Redis expires it: its own clock)
        await asyncio.sleep(0.02)
        if await b.take_lease("server", "b", 5.0) == "b":
            break
    assert await a.take_lease("server", "a", 5.0) == "b"
    await a.release_lease("server", "a")  # not a's to give up: nothing happens
    assert await a.take_lease("server", "a", 5.0) == "b"
    await b.release_lease("server", "b")
    assert await a.take_lease("server", "a", 5.0) == "a"
    await a.close()
    await b.close()


async def test_redis_down_refuses_the_change_and_the_table_comes_back_as_saved(redis_server: RedisServer) -> None:
    store = await RedisStore.open(redis_server.url, timeout=2.0)
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, store=store)
    code, clients = await play_some(coord, 9, seed=3)
    before = [comparable(last_view(c)) for c, _ in clients]
    redis_server.kill()

    # whoever acts next is refused with the reason; every player is sent to the lobby, the change is not shown
    def can_act(c: Client) -> bool:
        g = last_view(c).game
        return g is not None and bool(g.can_clue or g.submit_count or (g.can_vote and not g.your_votes))

    client, session = next((c, s) for c, s in clients if can_act(c))
    game = last_view(client).game
    assert game is not None
    with pytest.raises(TableError, match="could not save that, so nothing changed"):
        if game.can_clue:
            await session.clue("lost", game.hand[0].card)
        elif game.submit_count:
            await session.submit([h.card for h in game.hand[: game.submit_count]])
        else:
            await session.vote([b.slot for b in game.board if b.slot not in game.forbidden_slots][:1])
    assert code not in coord.tables
    assert all(c.views[-1] is None for c, _ in clients)
    with pytest.raises(TableError, match="cannot reach its storage"):
        await clients[0][1].join(code)

    redis_server.start()
    after = []
    for c, s in clients:  # each comes back with its key, to the table as it was last saved
        await s.join(code)
        after.append(comparable(last_view(c)))
    assert after == before
    await store.close()


async def test_a_connection_opened_during_a_players_call_does_not_keep_that_players_objects_alive(
    redis_server: RedisServer,
) -> None:
    """The pool opens connections on demand, during whichever call needs one. A socket's read callback copies the
    context it was opened in: opened during a call from a player's session, it would keep that session's app
    (Textual's `active_app`) alive for as long as the connection lives (found by the two-worker leak test)."""

    class App:  # stands for a session's app, kept in a context variable as Textual does
        pass

    current: contextvars.ContextVar[App] = contextvars.ContextVar("current")
    store = await RedisStore.open(redis_server.url)  # one connection, opened here

    async def players_calls() -> None:
        current.set(App())
        # several calls at once make the pool open more connections, in this context
        await asyncio.gather(*(store.last_seq(f"T{i}") for i in range(4)))

    await asyncio.create_task(players_calls(), context=contextvars.Context())
    assert len(store.client.connection_pool._available_connections) > 1  # the calls did open connections
    for _ in range(3):
        await asyncio.sleep(0)  # the finished task's own last callbacks, which hold its context, run
    gc.collect()
    assert not any(isinstance(obj, App) for obj in gc.get_objects())
    await store.close()


async def test_each_command_sent_to_redis_counts_as_a_round_trip(redis_server: RedisServer) -> None:
    """`dixit_redis_round_trips_total` (serve --metrics-port): a command, or a pipeline, is one round trip."""
    from dixit_tui.counts import COUNTS

    store = await RedisStore.open(redis_server.url)
    before = COUNTS.redis_round_trips
    await store.append("ABCD", [{"t": "create"}])
    after_append = COUNTS.redis_round_trips
    await store.history("ABCD")
    pipe = store.client.pipeline(transaction=False)
    pipe.ping()
    pipe.ping()
    await pipe.execute()
    await store.close()
    assert after_append > before
    assert COUNTS.redis_round_trips - after_append == 2  # the history read, then the pipeline of two


async def test_a_closed_code_goes_to_a_new_table_after_a_while_and_old_games_are_pruned(
    redis_server: RedisServer,
) -> None:
    store = await RedisStore.open(redis_server.url)
    now = [1_700_000_000.0]
    store.clock, store.reuse_after = lambda: now[0], 60.0
    try:
        await store.append("AAAA", [{"t": "create", "game": "AAAAGAME0001"}, {"t": "result", "n": 1}])
        await store.snapshot("AAAA", {"whole": "table"})
        await store.append("AAAA", [{"t": "closed", "at": now[0], "over": True}])
        now[0] += 10
        with pytest.raises(StoreConflict):  # closed 10 s ago: the code is not free yet
            await store.append_at("AAAA", 0, [{"t": "create", "game": "AAAAGAME0002"}])
        await store.append_at("BBBB", 0, [{"t": "create", "game": "BBBBGAME0001"}])
        with pytest.raises(StoreConflict):  # open: never
            await store.append_at("BBBB", 0, [{"t": "create", "game": "BBBBGAME0002"}])
        now[0] += 60
        assert await store.append_at("AAAA", 0, [{"t": "create", "game": "AAAAGAME0002"}]) == 1
        old = await store.history("AAAAGAME0001")
        assert [r["t"] for r in old] == ["create", "result", "closed"] and old[0]["game"] == "AAAAGAME0001"
        assert [r["game"] for r in await store.history("AAAA")] == ["AAAAGAME0002"]
        assert await store.history("AAAAGAME0002") == await store.history("AAAA")
        assert sorted(t.code for t in await store.load()) == ["AAAA", "BBBB"]
        # retention: the finished game (closed at the start) goes once its cutoff has passed
        assert await store.prune(now[0] - 100, None) == 0
        assert await store.prune(now[0], None, dry_run=True) == 1
        assert await store.prune(now[0], None) == 1
        assert await store.history("AAAAGAME0001") == []
        assert not await store.client.exists("dixit:snap:AAAAGAME0001")
        assert await store.history("AAAA")  # the open table is untouched
        assert await store.results() == [{"t": "result", "n": 1}]  # the ratings keep the pruned game's result
    finally:
        await store.close()
