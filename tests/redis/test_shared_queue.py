"""The queue on two workers sharing one redis-server: clients queued at either worker meet at one table, which one
matchmaker (the lease holder) opens and starts; a client that goes while queued leaves the queue of both. A game
over at one worker is rated at both."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable

import pytest

from dixit_tui.coordinator import Coordinator, Identity, PlayerSession, TableOptions
from dixit_tui.coordinator.matchmaker import Ask
from dixit_tui.coordinator.shared import SharedTables
from dixit_tui.engine import GiveClue, Mode, Phase, Profile, Submit, Vote
from dixit_tui.engine.random_play import random_command
from dixit_tui.store.redis_store import RedisStore
from tests.redis_server import RedisServer
from tests.store.tables import Client, last_view
from tests.work_counters import Calls


async def until(condition: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


@pytest.fixture
async def workers(redis_server: RedisServer) -> AsyncIterator[list[SharedTables]]:
    started = []
    for name in ("wa", "wb"):
        store = await RedisStore.open(redis_server.url)
        shared = SharedTables(store, worker=name, tick=0.1, presence_ttl=1.0, lease_ttl=1.0)
        Coordinator(rng=random.Random(name), first_clue_grace=0.0, store=shared.saving, sharing=shared)
        await shared.start()
        started.append(shared)
    try:
        yield started
    finally:
        for shared in started:
            await shared.stop()
            for table in shared.coordinator.tables.values():
                table.stop_clocks()
            await shared.store.close()


async def rounds(workers: list[SharedTables], more: int) -> None:
    """The matchmaker (whichever worker holds its lease) runs `more` rounds from now (each reads the whole queue and
    takes the tickets out of what it read: counted there)."""
    read = [Calls(w.shared_queue, "_tickets") for w in workers]
    await until(lambda: sum(r.count for r in read) >= more, f"{more} rounds of the matchmaker")


async def connect(shared: SharedTables, name: str) -> tuple[Client, PlayerSession]:
    client = Client()
    return client, await shared.coordinator.connect(Identity(name, f"SHA256:{name}"), client)


FOUR = Ask(Mode.STANDARD, Profile.REFRESH, 4, 4)


async def test_clients_queued_at_two_workers_meet_at_one_started_table(workers: list[SharedTables]) -> None:
    a, b = workers
    players = [await connect(a, "ana"), await connect(a, "ben"), await connect(b, "cy"), await connect(b, "dan")]
    for (_, session), shared in zip(players, (a, a, b, b), strict=True):
        await shared.coordinator.matchmaker.queue(session, FOUR)
    await until(lambda: all(s.table is not None for _, s in players), "all four to be seated")
    codes = {s.table.code for _, s in players if s.table is not None}
    assert len(codes) == 1
    await until(lambda: all(c.views and last_view(c).game is not None for c, _ in players), "the game to start")
    view = last_view(players[0][0])
    assert sorted(s.name for s in view.seats) == ["ana", "ben", "cy", "dan"] and all(s.connected for s in view.seats)
    assert sum(w.coordinator.matchmaker.seated for w in workers) == 1  # one matchmaker opened it
    raw = await a.store.client.hgetall(f"{a.store.prefix}queue")
    assert not raw  # nobody is left in the queue


async def test_a_client_that_goes_while_queued_leaves_the_shared_queue(workers: list[SharedTables]) -> None:
    a, b = workers
    ana, ben, cy = await connect(a, "ana"), await connect(b, "ben"), await connect(b, "cy")
    for (_, session), shared in ((ana, a), (ben, b), (cy, b)):
        await shared.coordinator.matchmaker.queue(session, FOUR)
    await ben[1].close()
    dan = await connect(a, "dan")
    await a.coordinator.matchmaker.queue(dan[1], FOUR)
    await rounds(workers, 3)  # a few of the matchmaker's rounds: three wait, ben is not counted
    assert not any(s.table is not None for _, s in (ana, cy, dan))
    eve = await connect(b, "eve")
    await b.coordinator.matchmaker.queue(eve[1], FOUR)
    await until(lambda: all(s.table is not None for _, s in (ana, cy, dan, eve)), "the four to be seated")
    assert ben[1].table is None


async def test_a_game_over_at_one_worker_is_rated_at_both(workers: list[SharedTables]) -> None:
    a, b = workers
    players = [await connect(a, name) for name in ("ana", "ben", "cy")]
    view = await players[0][1].create(TableOptions(target=10))
    for _, session in players[1:]:
        await session.join(view.code)
    await players[0][1].start()
    table = a.coordinator.tables[view.code]
    rng = random.Random(4)
    for _ in range(500):
        assert table.game is not None
        state = table.game.state
        if state.phase is Phase.OVER:
            break
        command = random_command(state, rng, revote=0)
        assert command is not None
        session = players[command.seat][1]
        match command:
            case GiveClue(text=text, card=card):
                await session.clue(text, card)
            case Submit(cards=cards):
                await session.submit(list(cards))
            case Vote(slots=slots, red=red):
                await session.vote(list(slots), red)
    assert len(a.coordinator.ratings.as_rows()) == 3
    await until(lambda: b.coordinator.ratings.as_rows() == a.coordinator.ratings.as_rows(), "worker B to rate it")
