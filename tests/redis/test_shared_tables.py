"""Two workers (two coordinators, each with its own Redis connection) share their tables through one real
redis-server: players on different workers sit at one table, see each other's moves and chat, race for the same
move (one wins, the other gets a clear refusal or has its move decided again), and when a worker dies its players
come back on the other one with their hands, while the other worker takes over the table's clocks."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from dixit_tui.coordinator import (
    ChatUpdate,
    Coordinator,
    Identity,
    PlayerSession,
    StateUpdate,
    TableError,
    TableOptions,
)
from dixit_tui.coordinator.limits import TableLimits
from dixit_tui.coordinator.retry import CONFLICT_TRIES
from dixit_tui.coordinator.shared import RemoteSeat, SharedTables
from dixit_tui.engine import ErrorCode, RuleError
from tests.redis.counted_store import CountedStore
from tests.redis_server import RedisServer
from tests.store.tables import Client, game_of, last_view


async def until(condition: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    """Wait (bounded) for something another worker does to reach this one."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


class Worker:
    def __init__(self, coordinator: Coordinator, shared: SharedTables, store: CountedStore) -> None:
        self.coordinator = coordinator
        self.shared = shared
        self.store = store  # (counting its round trips, conflicts and records read back)

    async def connect(self, name: str) -> tuple[Client, PlayerSession]:
        client = Client()
        return client, await self.coordinator.connect(Identity(name, f"SHA256:{name}"), client)

    async def stop(self, *, crash: bool = False) -> None:
        if crash:  # what kill -9 leaves: its seats, counts and leases in Redis, to expire by themselves
            for task in [*self.shared._tasks, *self.shared.shared_queue._tasks]:
                task.cancel()
            self.shared.presence.clear()
            self.shared.owned.clear()
        else:
            await self.shared.stop()
        for table in self.coordinator.tables.values():
            table.stop_clocks()
        await self.shared.store.close()


async def start_worker(
    url: str,
    name: str,
    *,
    stand_in_grace: float = 60.0,
    tick: float = 0.1,
    bots: bool = False,
    presence_ttl: float = 1.0,
    lease_ttl: float = 1.0,
) -> Worker:
    from dixit_tui.bots.player import revive_bot, seat_bots

    async def revive(coordinator: Coordinator, seat_code: str, name: str) -> object:
        return await revive_bot(coordinator, seat_code, name, rng=random.Random(seat_code))

    store = await CountedStore.open(url)
    shared = SharedTables(
        store, worker=name, tick=tick, presence_ttl=presence_ttl, lease_ttl=lease_ttl, revive=revive if bots else None
    )
    coordinator = Coordinator(
        rng=random.Random(name),
        allow_seeded_tables=True,
        disconnect_grace=stand_in_grace,
        bots=seat_bots if bots else None,
        first_clue_grace=0.0,
        store=shared.saving,
        sharing=shared,
    )
    await shared.start()
    return Worker(coordinator, shared, store)


def collide(*workers: Worker) -> None:
    """Make the next append of each worker wait until every one of them has decided its change (each against the
    same state, as happens when they act within the same moment): all but one must lose in Redis."""
    waiting: list[asyncio.Future[None]] = []
    for worker in workers:
        store = worker.coordinator.store
        real = store.append

        async def append(code: str, records: Any, real: Any = real, store: Any = store) -> None:
            store.append = real  # one collision: later appends (the retries) go straight through
            done = asyncio.get_running_loop().create_future()
            waiting.append(done)
            if len(waiting) == len(workers):
                for future in waiting:
                    if not future.done():
                        future.set_result(None)
            await asyncio.wait_for(done, 10)
            await real(code, records)

        store.append = append  # type: ignore[method-assign]


@pytest.fixture
async def workers(redis_server: RedisServer) -> AsyncIterator[tuple[Worker, Worker]]:
    a = await start_worker(redis_server.url, "wa")
    b = await start_worker(redis_server.url, "wb")
    try:
        yield a, b
    finally:
        await a.stop()
        await b.stop()


async def seated(a: Worker, b: Worker) -> tuple[str, list[tuple[Client, PlayerSession]]]:
    """ana on worker A creates a seeded table; ben and cy join it from worker B; ana starts."""
    ana = await a.connect("ana")
    view = await ana[1].create(TableOptions(seed=7, target=12))
    ben = await b.connect("ben")
    cy = await b.connect("cy")
    await ben[1].join(view.code)
    await cy[1].join(view.code)
    await until(lambda: len(last_view(ana[0]).seats) == 3, "ana to see ben and cy sit down")
    await ana[1].start()
    await until(lambda: last_view(cy[0]).game is not None, "cy to see the game start")
    return view.code, [ana, ben, cy]


async def test_players_on_two_workers_play_a_turn_and_chat(workers: tuple[Worker, Worker]) -> None:
    a, b = workers
    code, players = await seated(a, b)
    (ana_c, _ana), (_ben_c, ben), (_cy_c, _cy) = players
    # everyone shows as connected everywhere
    await until(lambda: all(s.connected for c, _ in players for s in last_view(c).seats), "everyone connected")
    teller_c, teller = next((c, s) for c, s in players if game_of(c).can_clue)
    await teller.clue("far away", game_of(teller_c).hand[0].card)
    await until(lambda: all(game_of(c).phase == "submit" for c, _ in players), "everyone to see the clue")
    for client, session in players:
        if game_of(client).submit_count:
            await session.submit([h.card for h in game_of(client).hand[: game_of(client).submit_count]])
    await until(lambda: all(game_of(c).phase == "vote" for c, _ in players), "everyone to see the board")
    for client, session in players:
        g = game_of(client)
        if g.can_vote:
            await session.vote([next(x.slot for x in g.board if x.slot not in g.forbidden_slots)])
    await until(lambda: all(game_of(c).turn == 2 for c, _ in players), "everyone to see turn 2")
    await ben.chat("nice one")
    await until(lambda: any(line.text == "nice one" for line in ana_c.chat), "ana to read ben's chat")
    # both replicas folded the same records to the same state; each player's view is view_for of it
    state_a = a.coordinator.tables[code].game
    state_b = b.coordinator.tables[code].game
    assert state_a is not None and state_b is not None and state_a.state == state_b.state
    assert a.coordinator.tables[code].lock.seq == b.coordinator.tables[code].lock.seq  # type: ignore[attr-defined]
    # a fresh session on worker A lists the table created there and played from both
    lobby = Client()
    await a.coordinator.connect(Identity("dee"), lobby)
    other = await b.connect("eve")
    assert code in {t.code for t in other[1].coordinator.summaries()}


async def test_a_table_created_on_one_worker_is_listed_and_joinable_on_the_other(
    workers: tuple[Worker, Worker],
) -> None:
    a, b = workers
    ana = await a.connect("ana")
    view = await ana[1].create(TableOptions())
    await until(lambda: view.code in {t.code for t in b.coordinator.summaries()}, "worker B to list the table")
    ben = await b.connect("ben")
    await ben[1].join(view.code)
    await until(lambda: [s.name for s in last_view(ana[0]).seats] == ["ana", "ben"], "ana to see ben")
    await until(lambda: last_view(ana[0]).seats[1].connected, "ana to see ben connected (on worker B)")
    assert isinstance(a.coordinator.tables[view.code].seats[1].session, RemoteSeat)
    await ben[1].leave()  # before the start, leaving frees the seat on every worker
    await until(lambda: [s.name for s in last_view(ana[0]).seats] == ["ana"], "ana to see ben leave")


async def test_two_workers_racing_for_the_same_state_give_one_winner(workers: tuple[Worker, Worker]) -> None:
    a, b = workers
    code, players = await seated(a, b)
    (ana_c, ana), (ben_c, ben), (_cy_c, _cy) = players
    assert game_of(ana_c).can_clue and game_of(ben_c).can_clue  # anyone may give the first clue
    conflicts = a.store.conflicts + b.store.conflicts
    collide(a, b)
    results = await asyncio.gather(
        ana.clue("from a", game_of(ana_c).hand[0].card),
        ben.clue("from b", game_of(ben_c).hand[0].card),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], RuleError), results  # one clue counts; the other is refused
    assert a.store.conflicts + b.store.conflicts > conflicts  # they did collide in Redis
    await until(lambda: all(game_of(c).phase == "submit" for c, _ in players), "everyone to see one clue")
    game = a.coordinator.tables[code].game
    assert game is not None and game.state.turn.clue in ("from a", "from b")
    # the two other players submit at once (from one worker or two: the clue's winner decides): both count
    movers = [(c, s) for c, s in players if game_of(c).submit_count]
    collide(*[w for w in (a, b) if any(s.coordinator is w.coordinator for _, s in movers)])
    await asyncio.gather(*(s.submit([h.card for h in game_of(c).hand[: game_of(c).submit_count]]) for c, s in movers))
    await until(lambda: all(game_of(c).phase == "vote" for c, _ in players), "everyone to see the board")
    history = await a.shared.store.history(code)
    assert len(history) == a.coordinator.tables[code].lock.seq  # type: ignore[attr-defined]


def lose_races(loser: Worker, winner: Callable[[], Any], times: int) -> None:
    """Make the next `times` appends of `loser` lose their race: just before each, `winner` (a change at another
    worker) is made and saved, so the state `loser` decided against is no longer the table's latest."""
    store = loser.coordinator.store
    real = store.append
    left = [times]

    async def append(code: str, records: Any) -> None:
        if left[0] > 0:
            left[0] -= 1
            await winner()
        await real(code, records)

    store.append = append  # type: ignore[method-assign]


async def test_a_move_that_keeps_losing_races_is_made_again_then_refused_and_changes_nothing(
    workers: tuple[Worker, Worker],
) -> None:
    a, b = workers
    code, players = await seated(a, b)
    (ana_c, ana), (_, ben), _ = players
    said = iter(range(100))
    conflicts = a.store.conflicts
    lose_races(a, lambda: ben.chat(f"line {next(said)}"), CONFLICT_TRIES)  # a line at worker B wins every race
    with pytest.raises(TableError) as refused:
        await ana.clue("too late", game_of(ana_c).hand[0].card)
    assert refused.value.code == ErrorCode.CONFLICT
    assert a.store.conflicts - conflicts == CONFLICT_TRIES  # made again each time, up to CONFLICT_TRIES in all
    history = await a.shared.store.history(code)
    assert [r["text"] for r in history if r["t"] == "chat"] == [f"line {i}" for i in range(CONFLICT_TRIES)]
    events = [r for r in history if r["t"] == "events"]
    assert "too late" not in str(events)  # the refused clue left nothing
    assert game_of(ana_c).phase == "clue"
    lose_races(a, lambda: ben.chat("one more"), 1)  # it loses once, then counts
    await ana.clue("in time", game_of(ana_c).hand[0].card)
    assert a.store.conflicts - conflicts == CONFLICT_TRIES + 1
    table = a.coordinator.tables[code]
    assert table.game is not None and table.game.state.turn.clue == "in time"


async def test_a_change_that_loses_a_race_reads_back_only_the_records_since_the_last_snapshot(
    workers: tuple[Worker, Worker],
) -> None:
    a, b = workers
    for worker in workers:
        worker.coordinator.snapshot_every = 3
    code, players = await seated(a, b)
    (_, ana), (_, ben), (_, cy) = players
    for text in ("hello", "ready?", "go"):
        await cy.chat(text)
    saved = len(await a.shared.store.history(code))
    assert saved > 6
    for worker in workers:  # no new snapshot during the race (it would be newer than the loser's state: see shared.py)
        worker.coordinator.snapshot_every = 100
    conflicts = a.store.conflicts + b.store.conflicts
    reread = a.store.records_reread + b.store.records_reread
    collide(a, b)
    await asyncio.gather(ana.chat("one"), ben.chat("two"))  # one loses the race, goes back, and is said again
    assert a.store.conflicts + b.store.conflicts == conflicts + 1
    assert a.store.records_reread + b.store.records_reread - reread < 3  # not the whole history again
    replicas = [worker.coordinator.tables[code] for worker in workers]
    for table in replicas:
        await until(lambda t=table: len(t.chat) == 5, "both lines at both workers")  # type: ignore[misc]
    assert [line.text for line in replicas[0].chat] == [line.text for line in replicas[1].chat]
    assert {"one", "two"} <= {line.text for line in replicas[0].chat}
    assert replicas[0].log == replicas[1].log and replicas[0].snapshot()["seats"] == replicas[1].snapshot()["seats"]


async def test_a_dead_workers_players_come_back_on_the_other_with_their_hands(redis_server: RedisServer) -> None:
    a = await start_worker(redis_server.url, "wa")
    b = await start_worker(redis_server.url, "wb")
    try:
        code, players = await seated(a, b)
        (ana_c, _ana), (ben_c, _), (_cy_c, _) = players
        hand = game_of(ben_c).hand
        await b.stop(crash=True)  # ben and cy were on B
        await until(
            lambda: [s.connected for s in last_view(ana_c).seats] == [True, False, False],
            "ana to see ben and cy go offline once their worker's hold expires",
        )
        await until(lambda: a.shared.owns(code), "worker A to own the table's clocks")
        _ben_c2, ben2 = await a.connect("ben")
        view = await ben2.join(code)  # the same key: the same seat
        assert view.you == 1 and view.game is not None and view.game.hand == hand
        await until(lambda: last_view(ana_c).seats[1].connected, "ana to see ben back")
    finally:
        await a.stop()


async def test_players_joining_at_once_on_two_workers_all_get_their_own_seat(workers: tuple[Worker, Worker]) -> None:
    a, b = workers
    host = await a.connect("ana")
    view = await host[1].create(TableOptions())
    await until(lambda: view.code in b.coordinator.tables, "worker B to hold the table")
    joiners = [await (a if i % 2 else b).connect(f"p{i}") for i in range(4)]
    conflicts = a.store.conflicts + b.store.conflicts
    collide(a, b)
    await asyncio.gather(*(s.join(view.code) for _, s in joiners))
    assert a.store.conflicts + b.store.conflicts > conflicts  # they raced in Redis, and each was made again
    names = ["ana", "p0", "p1", "p2", "p3"]
    await until(lambda: sorted(s.name for s in last_view(host[0]).seats) == names, "ana to see all four sit")
    for client, session in joiners:
        await until(lambda c=client: len(last_view(c).seats) == 5, "every player to see five seats")  # type: ignore[misc]
        mine = last_view(client)
        assert mine.you is not None and mine.seats[mine.you].name == session.name
    await until(lambda: all(s.connected for s in last_view(host[0]).seats), "everyone connected, on either worker")


async def test_a_move_costs_two_round_trips_where_it_is_made_and_one_on_each_other_worker(
    redis_server: RedisServer,
) -> None:
    a = await start_worker(redis_server.url, "wa", tick=3600)  # no ticks: every round trip counted is the move's
    b = await start_worker(redis_server.url, "wb", tick=3600)
    try:
        _, players = await seated(a, b)
        await until(lambda: all(s.connected for c, _ in players for s in last_view(c).seats), "everyone connected")
        await until(lambda: not a.shared._syncing and not b.shared._syncing, "both workers to settle")
        teller_c, teller = next((c, s) for c, s in players if game_of(c).can_clue)
        here, there = (a, b) if teller.coordinator is a.coordinator else (b, a)
        before = here.store.round_trips, there.store.round_trips
        await teller.clue("far away", game_of(teller_c).hand[0].card)
        await until(lambda: all(game_of(c).phase == "submit" for c, _ in players), "everyone to see the clue")
        await until(lambda: not a.shared._syncing and not b.shared._syncing, "both workers to settle")
        assert here.store.round_trips - before[0] == 2  # read what is new (with presence), then compare-and-append
        assert there.store.round_trips - before[1] == 1  # read what is new, on the change notice
    finally:
        await a.stop()
        await b.stop()


async def test_redis_unreachable_is_a_clear_message_and_the_table_goes_on_when_it_returns(
    redis_server: RedisServer,
) -> None:
    a = await start_worker(redis_server.url, "wa")
    b = await start_worker(redis_server.url, "wb")
    try:
        code, players = await seated(a, b)
        (ana_c, _), (ben_c, ben), _ = players
        saved = len(await a.shared.store.history(code))
        redis_server.kill()
        with pytest.raises(TableError) as refused:
            await ben.chat("while redis is down")
        assert refused.value.code == "storage" and "storage" in refused.value.message
        redis_server.start()
        for _ in range(100):  # the first tries may still meet a connection Redis closed: the same clear refusal
            try:
                await ben.chat("back")
                break
            except TableError as err:
                assert err.code == "storage"
                await asyncio.sleep(0.02)
        history = await a.shared.store.history(code)
        assert len(history) == saved + 1 and history[-1]["text"] == "back"  # nothing of the refused line
        await until(lambda: any(line.text == "back" for line in ana_c.chat), "ana to read ben's line")
        assert not any(line.text == "while redis is down" for line in last_view(ana_c).chat + last_view(ben_c).chat)
    finally:
        await a.stop()
        await b.stop()


async def test_the_new_owner_brings_back_the_built_in_bots_of_a_dead_worker(redis_server: RedisServer) -> None:
    a = await start_worker(redis_server.url, "wa", bots=True)
    b = await start_worker(redis_server.url, "wb", bots=True)
    try:
        bea = await b.connect("bea")
        view = await bea[1].create(TableOptions(seed=5, target=12))
        assert await bea[1].add_bots(2) == 2  # the bots run on worker B, with their host
        ana = await a.connect("ana")
        await ana[1].join(view.code)
        await until(lambda: len(last_view(bea[0]).seats) == 4, "bea to see ana sit")
        await bea[1].start()
        await until(lambda: all(s.connected for s in last_view(ana[0]).seats), "ana to see everyone connected")
        bots = [s.seat for s in last_view(ana[0]).seats if s.bot]
        assert len(bots) == 2
        await b.stop(crash=True)
        for task in list(b.coordinator._tasks):
            task.cancel()
        for session in list(b.coordinator.sessions):  # B's bots die with it: nothing of B runs any longer
            session.closed = True
        await until(lambda: a.shared.owns(view.code), "worker A to own the table")
        await until(
            lambda: (
                sorted(s.seat if s.seat is not None else -1 for s in a.coordinator.sessions if s.builtin_bot) == bots
            ),
            "the bots to be back in their seats, run by worker A",
        )
        await until(lambda: all(last_view(ana[0]).seats[i].connected for i in bots), "ana to see the bots back")
        # bea, a person, is not brought back: she is shown away once her presence (kept by the dead worker B) runs out,
        # which with this test's presence and lease times is about when the bots come back, before or after
        await until(lambda: not last_view(ana[0]).seats[0].connected, "ana to see bea away")
        assert all(last_view(ana[0]).seats[i].connected for i in bots)
    finally:
        await a.stop()


async def test_a_rematch_takes_the_players_of_every_worker_to_the_new_table(workers: tuple[Worker, Worker]) -> None:
    a, b = workers
    code, players = await seated(a, b)
    (ana_c, ana), (ben_c, _), _ = players
    await ana.remove(2)  # cy leaves the game for good: two players are too few, and the game is over
    await until(lambda: last_view(ben_c).status == "over", "ben to see the game end")
    new = await ana.rematch()
    assert new.code != code
    await until(lambda: last_view(ben_c).code == new.code, "ben, on the other worker, to follow to the rematch")
    assert last_view(ben_c).you == 1 and [s.name for s in last_view(ben_c).seats] == ["ana", "ben"]
    await until(lambda: all(s.connected for s in last_view(ana_c).seats), "ana to see ben at the new table")
    assert b.coordinator.tables[new.code].seats[1].session is not None


async def test_a_rematch_that_races_a_chat_line_on_the_other_worker_still_takes_everyone_along(
    workers: tuple[Worker, Worker],
) -> None:
    a, b = workers
    code, players = await seated(a, b)
    (ana_c, ana), (ben_c, ben), _ = players
    await ana.remove(2)
    await until(lambda: last_view(ben_c).status == "over", "ben to see the game end")
    conflicts = a.store.conflicts
    collide(a, b)  # ana's first save (the new table) and ben's line are decided at once; then the old table races
    new, _ = await asyncio.gather(ana.rematch(), ben.chat("good game"))
    assert a.store.conflicts > conflicts  # the old table's pointer lost to ben's line, and was written again
    await until(lambda: last_view(ben_c).code == new.code, "ben, on the other worker, to follow to the rematch")
    history = await a.shared.store.history(code)
    assert [r["text"] for r in history if r["t"] == "chat"][-1] == "good game"
    assert [r.get("rematch") for r in history if r.get("rematch")] == [new.code]  # written once
    await until(lambda: all(s.connected for s in last_view(ana_c).seats), "ana to see ben at the new table")


class Lines(Client):
    """A client that also keeps the chat lines it was sent."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def __call__(self, update: Any) -> None:
        super().__call__(update)
        if isinstance(update, ChatUpdate):
            self.lines.append(update.line.text)


async def test_team_chat_and_writing_marks_reach_the_other_worker(workers: tuple[Worker, Worker]) -> None:
    a, b = workers
    people: list[tuple[Lines, PlayerSession]] = []
    for i in range(6):
        client = Lines()
        where = a if i < 3 else b
        people.append((client, await where.coordinator.connect(Identity(f"p{i}", f"SHA256:p{i}"), client)))
    view = await people[0][1].create(TableOptions(mode="team", seed=5))
    for _, session in people[1:]:
        await session.join(view.code)
    await until(lambda: len(last_view(people[0][0]).seats) == 6, "the host to see six seats")
    await people[0][1].start()
    await until(lambda: all(last_view(c).game is not None for c, _ in people), "the game everywhere")
    game = a.coordinator.tables[view.code].game
    assert game is not None
    mate = next(s for s in range(6) if s != 0 and game.state.team_of(s) == game.state.team_of(0))
    assert mate >= 3, "the test needs the host's teammate on the other worker"
    await people[0][1].chat("psst", team=True)
    await until(lambda: "psst" in people[mate][0].lines, "the teammate on the other worker to read it")
    assert all("psst" not in c.lines for i, (c, _) in enumerate(people) if i not in (0, mate))
    mate_view = people[mate][1].view()  # kept for the teammate's next views too
    assert mate_view is not None and any(line.text == "psst" for line in mate_view.chat)
    # who is writing the first clue shows on both workers
    writer = next(i for i in range(3, 6) if i in game.state.waiting_for())
    await people[writer][1].typing(True)
    await until(lambda: writer in last_view(people[0][0]).typing, "the host to see the writer on the other worker")


async def test_players_reclaiming_on_one_worker_while_the_other_moves_end_at_the_table(
    workers: tuple[Worker, Worker],
) -> None:
    """The playtest: keyless ben and cara (their worker died) come back with their reconnect codes on worker B at
    the same moment as a move on worker A; B's first append loses the race and is made again. Each ends seated,
    its last update its view of the table, and joining the table again shows it again (an app that went back to
    the lobby meanwhile gets its table back), whatever the session was shown last."""
    a, b = workers
    ana = await a.connect("ana")
    view = await ana[1].create(TableOptions(seed=7, target=12))
    codes: dict[str, str] = {}
    first: list[PlayerSession] = []
    for name in ("ben", "cara"):  # keyless, on worker A
        session = await a.coordinator.connect(Identity(name), Client())
        code = (await session.join(view.code)).reconnect_code
        assert code is not None
        codes[name] = code
        first.append(session)
    await ana[1].start()
    for session in first:  # their worker died: their seats are kept
        await session.close()
    await until(lambda: [s.connected for s in last_view(ana[0]).seats] == [True, False, False], "ben, cara away")
    back: list[tuple[Client, PlayerSession]] = []
    for name in ("ben", "cara"):
        client = Client()
        back.append((client, await b.coordinator.connect(Identity(name), client)))
    conflicts = a.store.conflicts + b.store.conflicts
    collide(a, b)
    await asyncio.gather(ana[1].chat("meanwhile on A"), *(s.reclaim(codes[s.name]) for _, s in back))
    assert a.store.conflicts + b.store.conflicts > conflicts  # a reclaim raced ana's line and was made again
    await until(lambda: all(s.connected for s in last_view(ana[0]).seats), "ana to see ben and cara back")
    table = b.coordinator.tables[view.code]
    for _client, session in back:
        assert session.table is table and table.seat_of(session) is not None
        await until(
            lambda s=session: isinstance(s.last, StateUpdate) and s.last.view == table.view_for(s),  # type: ignore[misc]
            f"{session.name}'s last update to be her view of the table",
        )
    # joining again shows the table: after a StateUpdate(None) (the app is in the lobby) and after the view itself
    client, cara = back[1]
    cara.deliver(StateUpdate(None))
    for _ in range(2):
        shown = len(client.views)
        await cara.join(view.code)
        assert len(client.views) > shown and client.views[-1] == table.view_for(cara)


async def test_spectators_at_every_worker_count_in_the_lobby_and_at_the_table(redis_server: RedisServer) -> None:
    a = await start_worker(redis_server.url, "wa")
    b = await start_worker(redis_server.url, "wb")
    try:
        ana_c, ana = await a.connect("ana")
        code = (await ana.create(TableOptions(seed=7, target=12))).code
        eve_c, eve = await b.connect("eve")
        await eve.watch(code)
        _, fay = await a.connect("fay")
        await fay.watch(code)
        await until(lambda: last_view(ana_c).spectators == 2, "ana to count eve (worker B) and fay (worker A)")
        await until(lambda: last_view(eve_c).spectators == 2, "eve to count both watchers too")
        assert [t.spectators for t in await ana.tables()] == [2]
        assert [t.spectators for t in await eve.tables()] == [2]
        await eve.leave()
        await until(lambda: last_view(ana_c).spectators == 1, "ana to see eve stop watching")
        _, gus = await b.connect("gus")
        await gus.watch(code)
        await until(lambda: last_view(ana_c).spectators == 2, "ana to count gus")
        await b.stop(crash=True)  # gus's worker dies: its count expires with its presence
        await until(lambda: last_view(ana_c).spectators == 1, "ana to stop counting a dead worker's watchers")
        assert [t.spectators for t in await ana.tables()] == [1]
    finally:
        await a.stop()
        if b.shared._tasks and not b.shared._tasks[0].done():
            await b.stop()


async def test_the_table_caps_count_the_tables_created_at_every_worker(redis_server: RedisServer) -> None:
    a = await start_worker(redis_server.url, "wa")
    b = await start_worker(redis_server.url, "wb")
    try:
        limits = a.coordinator.limits
        for index in range(limits.max_tables_per_player):
            worker = (a, b)[index % 2]
            _, ana = await worker.connect("ana")
            await ana.create(TableOptions())
        await until(lambda: len(a.coordinator.tables) == limits.max_tables_per_player, "worker A to hold them all")
        await until(lambda: len(b.coordinator.tables) == limits.max_tables_per_player, "worker B to hold them all")
        for worker in (a, b):
            _, ana = await worker.connect("ana")  # the same key, on either worker
            with pytest.raises(TableError) as refused:
                await ana.create(TableOptions())
            assert refused.value.code == "too_many_tables" and "your most" in refused.value.message
        c = await start_worker(redis_server.url, "wc")  # a worker that starts later loads them from Redis
        try:
            _, ana = await c.connect("ana")
            with pytest.raises(TableError) as refused:
                await ana.create(TableOptions())
            assert refused.value.code == "too_many_tables"
        finally:
            await c.stop()
    finally:
        await a.stop()
        await b.stop()


async def test_leaving_a_table_that_closed_at_the_other_worker_is_back_to_the_lobby(
    workers: tuple[Worker, Worker],
) -> None:
    a, b = workers
    _, ana = await a.connect("ana")
    code = (await ana.create(TableOptions())).code
    eve_c, eve = await b.connect("eve")
    await eve.watch(code)
    await until(lambda: a.coordinator.tables[code].remote_watchers == 1, "worker A to count eve")
    for task in b.shared._tasks:  # worker B hears nothing more: eve's leave is the first it learns of the close
        task.cancel()
    await a.shared.store.client.hdel(a.shared._presence_key(code), "~wb")  # as if A had not heard of eve yet
    await ana.leave()
    assert code not in a.coordinator.tables  # nobody left there: the lobby table closed
    await eve.leave()  # no error: the table is gone, and so is eve, back in the lobby
    assert eve.table is None and eve_c.views[-1] is None
    assert code not in b.coordinator.tables


async def test_wrong_reconnect_codes_from_one_address_count_at_every_worker(workers: tuple[Worker, Worker]) -> None:
    a, b = workers
    limits = TableLimits(reconnect_tries_per_ip=4, reconnect_tries_per_connection=10, reconnect_delay=0.001)
    for worker in workers:
        worker.coordinator.reconnect_guard.limits = limits
    _, ana = await a.connect("ana")
    await ana.create(TableOptions())
    here = "203.0.113.7"

    async def guesses(worker: Worker, name: str, count: int) -> list[str]:
        session = await worker.coordinator.connect(Identity(name, None, peer=here), Client())
        codes: list[str] = []
        for _ in range(count):
            with pytest.raises(TableError) as refused:
                await session.reclaim("ZZZ-ZZZ-ZZZ-ZZZ")
            codes.append(refused.value.code)
        return codes

    assert await guesses(a, "mal", 3) == ["bad_code"] * 3
    assert await guesses(b, "mal2", 2) == ["bad_code", "too_many_tries"]  # the address's 4th try was its last
    other = await b.coordinator.connect(Identity("ben", None, peer="198.51.100.3"), Client())
    with pytest.raises(TableError) as typo:
        await other.reclaim("ZZZ-ZZZ-ZZZ-ZZZ")
    assert typo.value.code == "bad_code"  # another address is not held back


async def test_a_seat_is_claimed_at_every_worker_before_its_player_is_shown_it(workers: tuple[Worker, Worker]) -> None:
    """ben sits down at worker B; the moment he is shown his seat, the host at worker A may start the game: A must
    find him connected there, not away (the start said "ben is not here", and his turn waited on his grace)."""
    a, b = workers
    ana = await a.connect("ana")
    view = await ana[1].create(TableOptions(seed=3))
    cy = await a.connect("cy")
    await cy[1].join(view.code)
    claimed_when_shown: list[bool] = []

    class Ben(Client):
        def __call__(self, update: Any) -> None:
            super().__call__(update)
            if isinstance(update, StateUpdate) and update.view is not None and not claimed_when_shown:
                seat = next(s for s in b.coordinator.tables[view.code].seats if s.name == "ben")
                claimed_when_shown.append(seat.code in b.shared.claimed.get(view.code, set()))

    ben_client = Ben()
    ben = await b.coordinator.connect(Identity("ben", "SHA256:ben"), ben_client)
    await ben.join(view.code)
    assert claimed_when_shown == [True], "ben was shown his seat before worker B claimed it in Redis"
    await ana[1].start()
    table = a.coordinator.tables[view.code]
    assert not any("not here" in line for line in table.log), table.log
    assert isinstance(table.seats[2].session, RemoteSeat) and 2 not in table.away_since


async def test_a_deadline_that_fires_before_its_worker_heard_everyone_left_plays_nobody(
    workers: tuple[Worker, Worker],
) -> None:
    """Worker A keeps the table's clocks while all its players sit at worker B. They all leave; A's phase deadline
    fires before A has heard of it. Catching up under the table's lock, A finds the table empty: its clocks stop,
    and no stand-in plays (one played for the storyteller, and the game went on with nobody there)."""
    a, b = workers
    players = [await b.connect(name) for name in ("ana", "ben", "cy")]
    view = await players[0][1].create(TableOptions(seed=3, turn_seconds=600))
    for _, session in players[1:]:
        await session.join(view.code)
    await players[0][1].start()
    await until(
        lambda: (
            view.code in a.coordinator.tables
            and a.coordinator.tables[view.code].game is not None
            and all(isinstance(s.session, RemoteSeat) for s in a.coordinator.tables[view.code].seats)
            and a.coordinator.tables[view.code].deadline is not None
        ),
        "worker A to follow the game, with everyone connected at B",
    )
    for task in a.shared._tasks:  # A hears of nothing by itself from now on: only when it takes the table's lock
        task.cancel()
    table = a.coordinator.tables[view.code]
    for _, session in players:
        await session.close()
    assert table.deadline is not None  # A has not heard yet
    a.shared.owned.add(view.code)  # A keeps the clocks
    clock = a.coordinator.timers.clock
    a.coordinator.timers.clock = lambda: clock() + 601.0  # the phase's 10 minutes have passed
    await a.coordinator.expire(table)
    assert not any("stand-in" in line for line in table.log), list(table.log)[-2:]
    assert table.deadline is None and table.timer is None and table.idle_since is not None


async def test_a_game_nobody_is_at_makes_room_for_a_person_at_another_worker(workers: tuple[Worker, Worker]) -> None:
    from dataclasses import replace

    a, b = workers
    for worker in workers:
        worker.coordinator.limits = replace(worker.coordinator.limits, max_tables=1, make_room_after=0.5)
    code, players = await seated(a, b)
    for _, session in players:
        await session.close()
    await until(lambda: b.coordinator.unattended() != [], "worker B to see nobody at the game")
    idle = b.coordinator.tables[code]
    assert idle.idle_since is not None
    idle.idle_since -= 1  # waited longer than make_room_after
    _, dan = await b.connect("dan")
    view = await dan.create(TableOptions())
    assert view.code != code and set(b.coordinator.tables) == {view.code}
    await until(lambda: code not in a.coordinator.tables, "worker A to close the game too")


async def test_a_host_who_leaves_for_good_hands_over_to_a_player_at_the_other_worker(
    workers: tuple[Worker, Worker],
) -> None:
    """Issue 22 items 2 and 3 on two workers: ana (worker A, the host) leaves the game for good while ben, next in
    seat order, is away: cy, connected at worker B, is the host at once, as every worker shows; dee, whom cy then
    removes, is told at worker B and taken to the lobby."""
    a, b = workers
    ana_c, ana = await a.connect("ana")
    view = await ana.create(TableOptions(seed=7, target=12))
    others = [await b.connect(name) for name in ("ben", "cy", "dee")]
    for _, session in others:
        await session.join(view.code)
    (_, ben), (cy_c, cy), (dee_c, dee) = others
    await until(lambda: len(last_view(ana_c).seats) == 4, "ana to see everyone sit down")
    await ana.start()
    await until(lambda: last_view(dee_c).game is not None, "dee to see the game start")
    await ben.close()
    await until(lambda: not last_view(ana_c).seats[1].connected, "ana to see ben gone")
    await ana.remove(0)
    await until(lambda: last_view(cy_c).host == 2, "cy, at worker B, to be the host")
    assert "ben is away, so cy is the host now." in last_view(cy_c).log
    assert a.coordinator.tables[view.code].host == 2 and b.coordinator.tables[view.code].host == 2
    await cy.remove(3)
    await until(lambda: dee.table is None, "dee to be taken to the lobby")
    assert dee_c.views[-1] is None  # the lobby


async def test_when_redis_answers_again_the_table_a_change_failed_at_gets_its_state(redis_server: RedisServer) -> None:
    """Redis gone: ben's move is refused. Redis back, and nobody moves: the worker's next tick finds Redis answering
    and sends everyone it serves at that table their state again (before, nothing came until someone moved)."""
    a = await start_worker(redis_server.url, "wa")
    b = await start_worker(redis_server.url, "wb")
    try:
        code, players = await seated(a, b)
        (_, _), (ben_c, ben), (cy_c, _) = players
        redis_server.kill()
        with pytest.raises(TableError):
            await ben.chat("while redis is down")
        assert b.coordinator.unsaved == {code: 1}
        seen = (len(ben_c.views), len(cy_c.views))
        redis_server.start()
        await until(lambda: not b.coordinator.unsaved, "worker B to find Redis answering")
        assert len(ben_c.views) > seen[0] and len(cy_c.views) > seen[1]
    finally:
        await a.stop()
        await b.stop()


async def test_a_deadline_that_meets_redis_gone_is_tried_again_until_it_answers(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Redis frozen or gone when the phase's time runs out: catching up fails, nothing is played. Before, that was
    the end of the table's clock (an exception in a task nobody awaited) and the table waited until someone moved;
    now the deadline is tried again every `STORE_RETRY` seconds and the stand-ins play once Redis answers."""
    from dixit_tui.coordinator import service

    monkeypatch.setattr(service, "STORE_RETRY", 0.05)
    a = await start_worker(redis_server.url, "wa")
    b = await start_worker(redis_server.url, "wb")
    try:
        ana = await a.connect("ana")
        view = await ana[1].create(TableOptions(seed=3, turn_seconds=600))
        others = [await b.connect(name) for name in ("ben", "cy")]
        for _, session in others:
            await session.join(view.code)
        await until(lambda: len(last_view(ana[0]).seats) == 3, "ana to see ben and cy")
        await ana[1].start()
        await until(lambda: a.shared.owns(view.code) or b.shared.owns(view.code), "a worker to keep the clocks")
        owner = a if a.shared.owns(view.code) else b
        table = owner.coordinator.tables[view.code]
        await until(lambda: table.deadline is not None, "the owner to arm the phase's deadline")
        clock = owner.coordinator.timers.clock
        owner.coordinator.timers.clock = lambda: clock() + 601.0  # the phase's 10 minutes have passed
        redis_server.kill()
        await owner.coordinator.expire(table)  # the deadline: catching up cannot reach Redis
        assert not any("stand-in" in line for line in table.log)
        assert table.timer is not None  # tried again soon, not never
        redis_server.start()
        await until(lambda: any("stand-in" in line for line in table.log), "a stand-in to play once Redis is back")
    finally:
        await a.stop()
        await b.stop()


async def held_for_ana(a: Worker, b: Worker) -> tuple[PlayerSession, list[tuple[Client, PlayerSession]], Any]:
    """ana's screen (worker A) shows the reveal, ben and cy are agents at worker B; a turn is scored. Both workers
    hold the reveal for ana (at B she is a remote seat: a person who may be reading); B has told A that its agents
    read it. Returns ana's session, the players (client, session) and A's replica of the table."""
    ana_c = Client()
    ana = await a.coordinator.connect(Identity("ana", "SHA256:ana"), ana_c, shows_reveal=True)
    view = await ana.create(TableOptions(seed=7, target=12, reveal_seconds=60))
    players = [(ana_c, ana), await b.connect("ben"), await b.connect("cy")]
    for _, session in players[1:]:
        await session.join(view.code)
    await until(lambda: len(last_view(ana_c).seats) == 3, "ana to see ben and cy sit down")
    await ana.start()
    await until(lambda: all(last_view(c).game is not None for c, _ in players), "the game everywhere")
    teller_c, teller = next((c, s) for c, s in players if game_of(c).can_clue)
    await teller.clue("far away", game_of(teller_c).hand[0].card)
    await until(lambda: all(game_of(c).phase == "submit" for c, _ in players), "everyone to see the clue")
    for client, session in players:
        if game_of(client).submit_count:
            await session.submit([h.card for h in game_of(client).hand[: game_of(client).submit_count]])
    await until(lambda: all(game_of(c).phase == "vote" for c, _ in players), "everyone to see the board")
    for client, session in players:
        g = game_of(client)
        if g.can_vote:
            await session.vote([next(x.slot for x in g.board if x.slot not in g.forbidden_slots)])
    await until(lambda: all(game_of(c).turn == 2 for c, _ in players), "everyone to see turn 2")
    await until(lambda: last_view(players[1][0]).reveal_until is not None, "worker B to hold the reveal for ana")
    table_a = a.coordinator.tables[view.code]
    await until(lambda: not table_a.reveal_waits - {0}, "worker A to hear that B's agents read it")
    assert last_view(ana_c).reveal_until is not None and table_a.reveal_waits == {0}
    return ana, players, table_a


async def quiet_workers(url: str) -> tuple[Worker, Worker]:
    """Two workers whose tick never comes by itself (nor do their seats or leases expire): a test runs it."""
    a = await start_worker(url, "wa", tick=3600.0, presence_ttl=3600.0, lease_ttl=3600.0)
    b = await start_worker(url, "wb", tick=3600.0, presence_ttl=3600.0, lease_ttl=3600.0)
    return a, b


async def test_a_reveal_ended_while_worker_a_took_over_the_clocks_is_shown_to_ana(redis_server: RedisServer) -> None:
    """Seen once in a full run under load ("timed out waiting for the hold to end at worker A"): ana moves on
    while worker A is busy with the table; before A's `reveal_over` gets the table's lock, A's tick takes over the
    table's clocks (a lease moved: that schedules the table), which ended the hold silently: `reveal_over` then found
    nothing held and showed nothing, and ana's screen kept the reveal for ever. The hold's end is shown once."""
    a, b = await quiet_workers(redis_server.url)
    try:
        ana, players, table_a = await held_for_ana(a, b)
        code = table_a.code
        assert not a.shared.owns(code) and not b.shared.owns(code)  # nobody ticked since the table opened
        async with table_a.lock:  # A busy with the table (a move of someone else's, say)
            await ana.reveal_seen()
            await a.shared.tick()  # A's tick comes by meanwhile: the table's clocks are A's now
            assert a.shared.owns(code) and table_a.reveal_until is None
            assert last_view(players[0][0]).reveal_until is not None  # (not shown yet: A's lock is taken)
        await until(lambda: last_view(players[0][0]).reveal_until is None, "the hold to end at worker A")
        await until(lambda: last_view(players[1][0]).reveal_until is None, "the hold to end at worker B")
    finally:
        await a.stop()
        await b.stop()


async def test_a_reveal_ended_by_catching_up_a_chat_line_is_shown_to_ana(redis_server: RedisServer) -> None:
    """ben (worker B) says something as ana (worker A) moves on: A catches up ben's line (under the table's lock,
    before `reveal_over` gets it), and that catch-up, of chat lines alone, shows only the line; its scheduling ended
    the hold, so `reveal_over` found nothing held and showed nothing either. The hold's end is shown once."""
    a, b = await quiet_workers(redis_server.url)
    try:
        ana, players, table_a = await held_for_ana(a, b)
        ana_c, (ben_c, ben) = players[0][0], players[1]
        async with table_a.lock:  # A busy with the table: ben's line is caught up after ana moved on
            await ben.chat("nice one")
            await ana.reveal_seen()
        await until(lambda: any(line.text == "nice one" for line in ana_c.chat), "ana to see ben's line")
        await until(lambda: last_view(ana_c).reveal_until is None, "the hold to end at worker A")
        await until(lambda: last_view(ben_c).reveal_until is None, "the hold to end at worker B")
    finally:
        await a.stop()
        await b.stop()


async def test_a_reveal_held_for_a_person_at_one_worker_ends_at_both_once_she_moved_on(
    workers: tuple[Worker, Worker],
) -> None:
    """Issue 23: ana's screen (worker A) shows the reveal, ben and cy are agents at worker B. Both workers hold the
    reveal for ana (at B she is a remote seat: a person who may be reading); B tells A that its agents read it at
    once; when ana moves on, A tells B, and the table goes on at both."""
    a, b = workers
    ana, players, _table_a = await held_for_ana(a, b)
    ana_c = players[0][0]
    await ana.reveal_seen()
    await until(lambda: last_view(ana_c).reveal_until is None, "the hold to end at worker A")
    await until(lambda: last_view(players[1][0]).reveal_until is None, "the hold to end at worker B")


async def test_a_line_at_one_worker_wakes_a_table_that_waited_at_both(redis_server: RedisServer) -> None:
    """A timed table nobody played at for two turns waits (its clocks stop) at both workers; ben's line at worker B
    wakes it. Worker A caught that up as a chat line alone, so ana was shown the line but neither the note ("Someone
    is here again") nor the running clock, until something else changed the table."""
    a, b = await quiet_workers(redis_server.url)
    try:
        ana_c, ana = await a.connect("ana")
        # ten minutes a phase, on A's clock (moved on below): no deadline comes by itself while the test runs
        view = await ana.create(TableOptions(seed=4, turn_seconds=600, reveal_seconds=0))
        (_, ben), (_, cy) = await b.connect("ben"), await b.connect("cy")
        await ben.join(view.code)
        await cy.join(view.code)
        await until(lambda: len(last_view(ana_c).seats) == 3, "ana to see ben and cy sit down")
        await ana.start()
        await a.shared.tick()  # worker A takes the table's clocks
        table_a = a.coordinator.tables[view.code]
        assert a.shared.owns(view.code)
        clock, later = a.coordinator.timers.clock, [0.0]
        a.coordinator.timers.clock = lambda: clock() + later[0]
        for _ in range(40):  # nobody plays: stand-ins play each phase as its time runs out
            if table_a.deadline is None:
                break
            later[0] = table_a.deadline - clock()
            await a.coordinator.expire(table_a)
        assert table_a.unattended and game_of(ana_c).turn == 3 and last_view(ana_c).deadline is None
        table_b = b.coordinator.tables[view.code]
        await until(lambda: table_b.unattended and table_b.version == table_a.version, "worker B to see it wait")
        await ben.chat("back")
        await until(lambda: any(line.text == "back" for line in ana_c.chat), "ana to read ben's line")
        await until(lambda: "Someone is here again: the clock runs again." in last_view(ana_c).log, "the note")
        assert not table_a.unattended and last_view(ana_c).deadline is not None
        assert game_of(ana_c).turn == 3 and game_of(ana_c).phase == "clue"  # (nothing else happened meanwhile)
    finally:
        await a.stop()
        await b.stop()
