"""Tables shared by several server processes (workers) through Redis: `serve --redis URL --workers N`.

Every worker keeps a replica of every open table, folded from the table's records in Redis (one stream per table,
see `store.redis_store`). A change is decided by the engine against the replica's latest state and appended with
compare-and-append on the table's sequence number, so only one of two workers deciding from the same state wins:

- Taking a table's lock first catches its replica up (`SyncedLock`): in one round trip it reads the records appended
  since the replica's last one and who is connected to its seats, folds them, and shows the change to this worker's
  own sessions at the table. A command is therefore decided against the latest state; the append then fails only if
  another worker appended in between (the coordinator rolls back and retries or refuses, nothing partial).
- Every worker listens to the change notices (`CODE SEQ` after each append, `CODE 0` when presence changed) and
  catches up the tables they name; a periodic tick catches up whatever a lost notice left behind.
- Presence is shared: a hash per table, a field per seat (its reconnect code) saying which worker holds it, until
  when (each worker renews its own fields; a dead worker's expire). A seat held on another worker sits at this
  worker's replica as a `RemoteSeat`, so "is offline", grace timers and "bots hold when no person is connected"
  see every worker's players. A player who takes their seat on another worker pushes out their old session here.
  The same hash counts each worker's spectators (field `~WORKER`), so the lobby and the table show them all.
- One owner per table for its clocks: a lease in Redis that expires unless renewed. Every worker computes the
  deadlines it shows, but only the owner plays stand-ins and closes idle tables; when it dies another worker takes
  the lease within a few seconds.

The embedded default (SQLite, one process) never uses this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, cast

from redis.exceptions import RedisError

from dixit_tui.coordinator import detached
from dixit_tui.coordinator.errors import TableError
from dixit_tui.coordinator.models import (
    ChatLine,
    ChatUpdate,
    CloseReason,
    LiveKind,
    LobbyUpdate,
    NoticeUpdate,
    StateUpdate,
    TableStatus,
)
from dixit_tui.coordinator.table import TEAM_CHAT_TAIL
from dixit_tui.engine import ErrorCode
from dixit_tui.log_caps import REPEATS
from dixit_tui.store.base import Record, Store, StoreConflict, StoredTable
from dixit_tui.store.redis_store import RedisStore, StoreUnavailable

if TYPE_CHECKING:
    from dixit_tui.coordinator.service import Coordinator, PlayerSession, SessionTable

log = logging.getLogger(__name__)
log.addFilter(REPEATS)

# KEYS: the presence hash, the change channel is ARGV[4]. ARGV: worker, value ("WORKER EXPIRES_MS"), mode, channel,
# then seat codes. claim: the seats are this worker's now (a player sat down here); renew: keep this worker's own
# (and free) seats; drop: give up this worker's seats. A claim or drop publishes `CODE 0` (ARGV[5] is the code).
_PRESENCE = """
local worker = ARGV[1] .. ' '
for i = 6, #ARGV do
    local cur = redis.call('HGET', KEYS[1], ARGV[i])
    local mine = cur and string.sub(cur, 1, #worker) == worker
    if ARGV[3] == 'claim' or (ARGV[3] == 'renew' and (mine or not cur)) then
        redis.call('HSET', KEYS[1], ARGV[i], ARGV[2])
    elseif ARGV[3] == 'drop' and mine then
        redis.call('HDEL', KEYS[1], ARGV[i])
    end
end
if ARGV[3] ~= 'renew' then
    redis.call('PUBLISH', ARGV[4], ARGV[5] .. ' 0')
end
return 1
"""

# KEYS: a sorted set of try times per counted key (everyone, an address, a network). ARGV: now (ms), the window (ms),
# this try's member, then each key's cap. Counts the try against every key unless one is full: returns 1, or 0.
_TRIES = """
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
for i = 1, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
    if redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[3 + i]) then
        return 0
    end
end
for i = 1, #KEYS do
    redis.call('ZADD', KEYS[i], now, ARGV[3])
    redis.call('PEXPIRE', KEYS[i], window)
end
return 1
"""


async def _execute(pipe: Any) -> list[Any]:
    """`pipe.execute()`, then the pipeline gives its connection back also when checking its scripts with Redis
    failed or was cancelled (redis-py keeps the connection then, until the pipeline is collected)."""
    try:
        return cast(list[Any], await pipe.execute())
    finally:
        await pipe.reset()


class RemoteSeat:
    """A seat whose player is connected to another worker: it counts as connected here, and is never shown a thing
    (that worker shows it its views)."""

    remote = True
    builtin_bot = False
    shows_reveal = True  # a person at another worker may be reading the reveal (a bot seat never counts)
    closed = False

    def __init__(self, worker: str) -> None:
        self.worker = worker
        self.table: Any = None
        self.name = ""

    def deliver(self, update: object) -> None:
        return None


class SyncedLock:
    """A table's lock that catches the replica up with Redis when taken, and publishes who is connected here when
    given back. `seq`: the last record of the table folded into the replica."""

    def __init__(self, shared: SharedTables, table: SessionTable, seq: int) -> None:
        self.shared = shared
        self.table = table
        self.seq = seq
        self.fresh = seq == 0  # created here and never saved: nothing to catch up with
        self._lock = asyncio.Lock()

    def locked(self) -> bool:
        return self._lock.locked()

    async def __aenter__(self) -> None:
        await self._lock.acquire()
        try:
            await self.shared.sync(self.table)
        except BaseException:
            self._lock.release()
            raise

    async def __aexit__(self, *exc: object) -> None:
        try:
            await self.shared.publish_presence(self.table)
        finally:
            self._lock.release()


class SharedStore:
    """The coordinator's `Store` on Redis for several workers: appends are compare-and-append after the record the
    table's replica folded last (StoreConflict if another worker appended first)."""

    def __init__(self, shared: SharedTables) -> None:
        self.shared = shared
        self.redis = shared.store

    async def append(self, code: str, records: Sequence[Record]) -> None:
        lock = self.shared.lock_of(code)
        expected = lock.seq if lock is not None else 0
        self.shared.round_trips += 1
        try:
            seq = await self.redis.append_at(code, expected, records)
        except StoreConflict:
            self.shared.conflicts += 1
            raise
        if lock is not None:
            lock.seq, lock.fresh = seq, False
        if any(r.get("t") == "closed" for r in records):
            self.shared.locks.pop(code, None)

    async def snapshot(self, code: str, data: Record) -> None:
        lock = self.shared.lock_of(code)
        if lock is None:
            return
        await self.redis.snapshot_at(code, lock.seq, data)

    async def load(self) -> list[StoredTable]:
        return await self.redis.load()

    async def history(self, code: str) -> list[Record]:
        return await self.redis.history(code)

    async def results(self) -> list[Record]:
        return await self.redis.results()

    async def prune(
        self, finished_before: float | None, abandoned_before: float | None, *, dry_run: bool = False
    ) -> int:
        return await self.redis.prune(finished_before, abandoned_before, dry_run=dry_run)

    @property
    def reuse_after(self) -> float:
        return self.redis.reuse_after

    @reuse_after.setter
    def reuse_after(self, seconds: float) -> None:
        self.redis.reuse_after = seconds

    @property
    def clock(self) -> Callable[[], float]:
        return self.redis.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.redis.clock = clock

    async def moderation_entries(self) -> list[tuple[str, str, str]]:
        return await self.redis.moderation_entries()

    async def moderate(self, kind: str, key: str, value: str | None) -> None:
        await self.redis.moderate(kind, key, value)

    async def close(self) -> None:
        await self.redis.close()


HEALTH_TIMEOUT = 2.0
"""Seconds Redis has to answer a ping (`unhealthy`, for `health`)."""

WATCHERS = "~"  # a presence hash's field `~WORKER` says how many watch the table at that worker: "COUNT EXPIRES_MS"


def _holders(fields: dict[str, str], now_ms: float) -> dict[str, str]:
    """Seat code -> the worker connected to it, from a presence hash (expired fields left out)."""
    out = {}
    for code, value in fields.items():
        if code.startswith(WATCHERS):
            continue
        worker, _, expires = value.partition(" ")
        try:
            if float(expires) > now_ms:
                out[code] = worker
        except ValueError:
            continue
    return out


def _watchers(fields: dict[str, str], now_ms: float, but: str) -> int:
    """How many watch the table at the workers other than `but`, from a presence hash (expired fields left out)."""
    total = 0
    for field, value in fields.items():
        if not field.startswith(WATCHERS) or field == WATCHERS + but:
            continue
        count, _, expires = value.partition(" ")
        try:
            if float(expires) > now_ms:
                total += int(count)
        except ValueError:
            continue
    return total


class SharedTables:
    """A coordinator's tables, shared with the other workers on the same Redis (see the module's docstring)."""

    def __init__(
        self,
        coordinator: Coordinator,
        store: RedisStore,
        *,
        worker: str | None = None,
        tick: float = 1.0,
        presence_ttl: float = 6.0,
        lease_ttl: float = 5.0,
    ) -> None:
        self.coordinator = coordinator
        self.store = store
        self.worker = worker or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.tick_every = tick
        self.presence_ttl = presence_ttl
        self.lease_ttl = lease_ttl
        self.claimed: dict[str, set[str]] = {}  # table -> the seat codes this worker said it holds
        self.watching: dict[str, int] = {}  # table -> how many watch it here, as this worker last said
        self.owned: set[str] = set()  # the tables whose lease (clocks, stand-ins) this worker holds
        self.round_trips = 0  # to Redis for changes and catching up (not the ticks): a figure for tests and benchmarks
        self.ticks = 0  # periodic round trips (renewals, leases, what lost notices left behind)
        self.conflicts = 0  # appends refused because another worker appended first
        self.records_reread = 0  # records read back from Redis to undo changes that lost a race
        self._presence = store.client.register_script(_PRESENCE)
        self._tries = store.client.register_script(_TRIES)
        self._syncing: set[str] = set()
        self.locks: dict[str, SyncedLock] = {}  # each table's lock (and so its replica's place), until it closes
        self._reviving: set[str] = set()  # seat codes of built-in bots being brought back here
        # brings a built-in bot back to its seat (by the seat's reconnect code and the bot's name) when the worker it
        # ran in died: only the table's owner does (the server passes `bots.player.revive_bot`); None: bots stay away
        self.revive: Callable[[Coordinator, str, str], Awaitable[object]] | None = None
        self._again: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []
        coordinator.share(self, SharedStore(self))

    # --- replicas ----------------------------------------------------------------------------------------------

    def adopt(self, table: SessionTable, seq: int | None) -> None:
        """`table` is the coordinator's replica of its code, folded up to record `seq` (None: as the store loaded)."""
        if seq is None:
            seq = self.store.known_seq(table.code)
        lock = table.lock
        if isinstance(lock, SyncedLock):
            lock.seq, lock.fresh = seq, False
        else:
            lock = table.lock = SyncedLock(self, table, seq)
        self.locks[table.code] = lock

    def folded(self, table: SessionTable) -> int:
        """The last record of the table folded into this replica (a change not saved is not among them)."""
        lock = table.lock
        return lock.seq if isinstance(lock, SyncedLock) else 0

    replay_where = "--redis URL "  # the Redis the server keeps its tables in

    def opened_elsewhere(self, code: str) -> bool:
        return True  # another worker may have opened it

    async def saved(self, table: SessionTable, store: Store) -> tuple[Record | None, list[Record]]:
        """Back to what the replica had folded (the next catch-up shows what is new): see `saved_until`."""
        return await self.saved_until(table.code, self.folded(table))

    async def catch_up(self, table: SessionTable) -> None:
        await self.sync(table)

    async def unhealthy(self) -> str | None:
        try:
            await asyncio.wait_for(self.store.client.ping(), HEALTH_TIMEOUT)
        except Exception as err:
            return f"Redis does not answer ({type(err).__name__})"
        return None

    def reset_from(self, table: SessionTable, saved: SessionTable) -> list[PlayerSession]:
        """`Table.reset_from` (a change lost the race and goes back to the stored state), with this worker's sessions
        kept in their seats by the seats' reconnect codes, not their places (another worker may have added or freed
        seats meanwhile). Returns the sessions whose seat is gone."""
        by_code = {s.code: s.session for s in table.seats if s.session is not None}
        self.adopt(table, self.folded(table))
        table.reset_from(saved)
        for seat in table.seats:
            session = by_code.pop(seat.code, None)
            seat.session = None if isinstance(session, RemoteSeat) else session  # the next sync says who is where
        return [s for s in by_code.values() if s is not None and not isinstance(s, RemoteSeat)]

    async def saved_until(self, code: str, seq: int) -> tuple[Record | None, list[Record]]:
        """The table as of its record `seq` (what a replica that lost a race goes back to): its snapshot, if one was
        taken at or before that record, and the records after the snapshot up to `seq`. Two round trips, and only
        the records since the snapshot, however long the game (all of them in the rare case that the snapshot is
        newer than `seq`: the winner of the race took it)."""
        if seq <= 0:
            return None, []
        snapshot, records = await self.store.state_at(code, seq)
        self.round_trips += 2
        self.records_reread += len(records)
        return snapshot, records

    def lock_of(self, code: str) -> SyncedLock | None:
        """The lock of this worker's replica of table `code` (also while it closes: it may be out of the
        coordinator's open tables before its last record is saved)."""
        return self.locks.get(code)

    def owns(self, code: str) -> bool:
        return code in self.owned

    def _presence_key(self, code: str) -> str:
        return f"{self.store.prefix}presence:{code}"

    async def sync(self, table: SessionTable) -> None:
        """Catch the replica up (under its lock): fold what other workers appended, take in who is connected where,
        and show the change to this worker's sessions at the table. TableError if Redis cannot be read, or if the
        table has closed meanwhile."""
        lock = table.lock
        assert isinstance(lock, SyncedLock)
        if lock.fresh:
            return
        coordinator = self.coordinator
        pipe = self.store.client.pipeline(transaction=False)
        self.store.queue_read_after(pipe, table.code, lock.seq)
        pipe.hgetall(self._presence_key(table.code))
        try:
            found, presence = await _execute(pipe)
        except RedisError as err:
            coordinator.refused_for_storage(table.code)
            raise TableError(
                "The server cannot reach its storage just now, so nothing changed. Try again in a moment.",
                ErrorCode.STORAGE,
            ) from err
        self.round_trips += 1
        updates: list[Any] = []
        only_chat = True  # a chat line alone changes no view: it comes as the line, as at the worker that took it
        closed = False
        rematch: str | None = None
        rematch_note = ""
        unseated: list[tuple[Any, str]] = []
        closed_by: str | None = None
        entries = self.store.entries(found)
        for seq, record in entries:
            if seq <= lock.seq:
                continue
            lock.seq = seq
            if record.get("t") == "closed":
                closed, closed_by = True, record.get("by")
                break
            if record.get("t") == "create":
                continue
            if record.get("rematch"):  # the host's note naming it: "ana started a rematch: table CODE."
                rematch, rematch_note = record["rematch"], str(record.get("text", ""))
            only_chat = only_chat and record.get("t") == "chat"
            if record.get("t") == "unseat" and record.get("by") and 0 <= record["seat"] < len(table.seats):
                gone = table.seats[record["seat"]].session  # removed from a lobby at another worker: tell them below
                if gone is not None and not getattr(gone, "remote", False):
                    unseated.append((gone, str(record["by"])))
            updates += table.apply(record)
            if record.get("t") == "result":  # a game over at another worker: rated here too
                coordinator.ratings.add(record)
        if rematch is not None:
            self._follow_rematch(table, rematch, rematch_note)
        if closed:
            self._closed(table, closed_by)
            raise TableError(f"Table {table.code} has closed.", ErrorCode.NO_TABLE)
        moved = self._take_presence(table, presence)
        if entries:  # a player of this worker removed at another: back to the lobby, told why
            coordinator.send_off_removed(table)
        for session, by in unseated:
            if session.table is table:
                session.table = None
                who = "An admin" if by == "admin" else "The host"
                session.deliver(NoticeUpdate(f"{who} removed you from table {table.code}."))
                session.deliver(StateUpdate(None))
                session.deliver(LobbyUpdate(coordinator.summaries()))
        if entries or moved:
            coordinator.schedule(table)
            coordinator.watch_idle(table)
            if only_chat and not moved:
                for session in table.sessions():
                    for update in updates:
                        session.deliver(update)
                return
            coordinator.broadcast(table, updates)
            coordinator.lobby_changed()

    def _follow_rematch(self, old: SessionTable, code: str, note: str) -> None:
        """The host (at another worker) started a rematch: this worker's players and spectators at the old table
        move to the new one, each to the seat with their old seat's reconnect code (a rematch keeps them), with the
        host's `note`; the old code leads to the new table here too."""
        self.coordinator.rematches[old.code] = code
        movers: list[tuple[str | None, Any]] = []
        for seat in old.seats:
            session: Any = seat.session
            if session is None or isinstance(session, RemoteSeat) or session.builtin_bot:
                continue  # a built-in bot stops with its game: the new table's owner seats a fresh one
            seat.session = None
            movers.append((seat.code, session))
        for watcher in list(old.spectators):
            if not isinstance(watcher, RemoteSeat):
                old.spectators.discard(watcher)
                movers.append((None, watcher))
        for _, session in movers:
            session.table = None
        if movers:
            detached.spawn(self._arrive(code, movers, note))

    async def _arrive(self, code: str, movers: list[tuple[str | None, Any]], note: str) -> None:
        coordinator = self.coordinator
        try:
            new = await coordinator.find_table(code)
            async with new.lock:
                for seat_code, session in movers:
                    index = next((i for i, s in enumerate(new.seats) if s.code == seat_code), None)
                    if seat_code is None:
                        new.watch(session)
                    elif index is not None:
                        new.sit(index, session)
                    else:
                        session.deliver(StateUpdate(None))
                        continue
                    session.table = new
                    session.deliver(NoticeUpdate(note or f"A rematch started: table {new.code}."))
                await coordinator.changed(new, lobby=True)
        except TableError as err:
            for _, session in movers:
                session.deliver(NoticeUpdate(err.message))
                session.deliver(StateUpdate(None))

    def _closed(self, table: SessionTable, by: str | None = None) -> None:
        """Another worker closed the table (`by` an admin, or as idle): it leaves this worker too, and its sessions
        here go to the lobby."""
        coordinator = self.coordinator
        if coordinator.tables.get(table.code) is table:
            del coordinator.tables[table.code]
        self.claimed.pop(table.code, None)
        self.watching.pop(table.code, None)
        self.owned.discard(table.code)
        self.locks.pop(table.code, None)
        text = f"An admin closed table {table.code}." if by == "admin" else f"Table {table.code} closed."
        notice = NoticeUpdate(text, CloseReason.CLOSED)
        for session in table.close():
            if isinstance(session, RemoteSeat):
                continue
            session.table = None
            session.deliver(notice)
            session.deliver(StateUpdate(None))
        coordinator.lobby_changed()

    def _take_presence(self, table: SessionTable, fields: dict[str, str]) -> bool:
        """Seats held on other workers become `RemoteSeat`s here, seats nobody holds any longer become free (away
        from now); a session of this worker whose seat was taken on another worker is pushed out. Returns whether
        anything changed."""
        holders = _holders(fields, time.time() * 1000)
        now = self.coordinator.clock()
        watchers = _watchers(fields, time.time() * 1000, self.worker)
        changed = watchers != table.remote_watchers
        table.remote_watchers = watchers
        mine = self.claimed.get(table.code, set())
        for index, seat in enumerate(table.seats):
            holder = holders.get(seat.code)
            current: Any = seat.session
            if holder is None or holder == self.worker:
                if isinstance(current, RemoteSeat):
                    seat.session = None
                    if table.game is not None:
                        table.away_since[index] = now
                    changed = True
                continue
            if isinstance(current, RemoteSeat):
                current.worker = holder
                continue
            if current is not None:
                if seat.code not in mine:
                    continue  # sat down here a moment ago: its claim is on its way
                mine.discard(seat.code)  # the player took their seat on another worker: this session goes
                current.table = None
                current.deliver(NoticeUpdate("You joined this table from another terminal."))
                current.deliver(StateUpdate(None))
            seat.session = cast(Any, RemoteSeat(holder))
            table.away_since.pop(index, None)
            changed = True
        return changed

    async def publish_presence(self, table: SessionTable) -> None:
        """Claim the seats this worker's sessions sit in now, and give up those they left (after a change, under
        the table's lock)."""
        local = {s.code for s in table.seats if s.session is not None and not isinstance(s.session, RemoteSeat)}
        watching = len(table.spectators)
        closed = self.coordinator.tables.get(table.code) is not table
        if closed:
            local, watching = set(), 0
        before = self.claimed.get(table.code, set())
        watched = self.watching.get(table.code, 0)
        if local == before and watching == watched:
            return
        expires = int((time.time() + self.presence_ttl) * 1000)
        value = f"{self.worker} {expires}"
        key = self._presence_key(table.code)
        channel = self.store.channel
        try:
            pipe = self.store.client.pipeline(transaction=False)
            if watching != watched:
                if watching:
                    pipe.hset(key, WATCHERS + self.worker, f"{watching} {expires}")
                else:
                    pipe.hdel(key, WATCHERS + self.worker)
                pipe.publish(channel, f"{table.code} 0")
            if local - before:
                await self._presence(
                    keys=[key], args=[self.worker, value, "claim", channel, table.code, *(local - before)], client=pipe
                )
            if before - local:
                await self._presence(
                    keys=[key], args=[self.worker, value, "drop", channel, table.code, *(before - local)], client=pipe
                )
            await _execute(pipe)
            self.round_trips += 1
        except RedisError as err:
            log.warning("could not tell Redis who is at table %s: %s (the next tick tries again)", table.code, err)
            return
        if local:
            self.claimed[table.code] = local
        else:
            self.claimed.pop(table.code, None)
        if watching:
            self.watching[table.code] = watching
        else:
            self.watching.pop(table.code, None)

    # --- running -----------------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Load every open table, then follow the other workers (change notices and a periodic tick)."""
        await self.coordinator.restore()
        await self.tick()
        self._tasks.append(detached.spawn(self._listen(), name="shared-tables-listen"))
        self._tasks.append(detached.spawn(self._ticking(), name="shared-tables-tick"))
        self._tasks.append(detached.spawn(self._listen_live(), name="shared-tables-live"))
        self.coordinator.matchmaker.share(self)  # the queue: one matchmaker for every worker

    async def stop(self) -> None:
        if self.coordinator.matchmaker.shared is not None:
            await self.coordinator.matchmaker.shared.stop()
        for task in self._tasks:
            task.cancel()
        if self._tasks:  # bounded: closing a pub/sub connection in the middle of a read can hang
            await asyncio.wait(self._tasks, timeout=2.0)
        self._tasks.clear()
        try:
            pipe = self.store.client.pipeline(transaction=False)
            for code, seats in self.claimed.items():
                await self._presence(
                    keys=[self._presence_key(code)],
                    args=[self.worker, "", "drop", self.store.channel, code, *seats],
                    client=pipe,
                )
            for code in self.watching:
                pipe.hdel(self._presence_key(code), WATCHERS + self.worker)
            for code in self.owned:
                await self.store.queue_release_lease(pipe, f"table:{code}", self.worker)
            await _execute(pipe)
        except RedisError as err:
            log.warning("could not give up this worker's seats and tables in Redis: %s", err)
        self.claimed.clear()
        self.watching.clear()
        self.owned.clear()

    async def _listen(self) -> None:
        while True:
            try:
                async for code, seq in self.store.changes():
                    self._notice(code, seq)
            except StoreUnavailable as err:
                log.warning("%s; listening again in a moment", err)
            await asyncio.sleep(1.0)

    def _notice(self, code: str, seq: int) -> None:
        lock = self.lock_of(code)
        if lock is not None and seq != 0 and seq <= lock.seq:
            return  # this worker's own append, or already folded
        if code in self._syncing:
            self._again.add(code)  # a catch-up is under way: it runs once more when done, for what came meanwhile
            return
        self._syncing.add(code)
        task = detached.spawn(self._catch_up(code))
        task.add_done_callback(lambda _: self._syncing.discard(code))

    async def _catch_up(self, code: str) -> None:
        await self._catch_up_once(code)
        while code in self._again:
            self._again.discard(code)
            await self._catch_up_once(code)

    async def _catch_up_once(self, code: str) -> None:
        coordinator = self.coordinator
        try:
            table = coordinator.tables.get(code)
            if table is None:
                table = await coordinator.find_table(code)
                coordinator.lobby_changed()
            async with table.lock:
                pass
        except TableError:
            return
        except Exception:
            log.exception("catching up table %s failed", code)

    # --- reconnect tries, counted across the workers ---------------------------------------------------------------

    def _tries_key(self, key: str) -> str:
        return f"{self.store.prefix}tries:{key}"

    async def count_try(self, keys: Sequence[tuple[str, int]], window: float) -> str | None:
        """Count a reconnect try against every worker's count of each key (within `window` seconds). Returns the
        try's token (to forgive it when the code was right), or None when one of the keys is at its cap. If Redis
        cannot be reached the try is not refused for it (the seat it names cannot be taken then anyway)."""
        token = secrets.token_hex(8)
        try:
            counted = await self._tries(
                keys=[self._tries_key(key) for key, _ in keys],
                args=[int(time.time() * 1000), max(1, int(window * 1000)), token, *(cap for _, cap in keys)],
            )
        except RedisError as err:
            log.warning("could not count a reconnect try in Redis: %s", err)
            return token
        return token if counted else None

    async def forgive_try(self, keys: Sequence[tuple[str, int]], token: str) -> None:
        """The code was right: the try counts nowhere."""
        try:
            pipe = self.store.client.pipeline(transaction=False)
            for key, _ in keys:
                pipe.zrem(self._tries_key(key), token)
            await _execute(pipe)
        except RedisError as err:
            log.warning("could not forgive a reconnect try in Redis: %s", err)

    # --- what is live only (never recorded): team chat, who is writing a clue --------------------------------------

    @property
    def live_channel(self) -> str:
        return f"{self.store.prefix}live"

    def publish_live(self, table: SessionTable, message: dict[str, Any]) -> None:
        """Tell the other workers something about `table` that is not recorded (a team line, a writing mark)."""
        payload = {**message, "w": self.worker, "c": table.code}
        if isinstance(payload.get("line"), ChatLine):
            payload["line"] = asdict(payload["line"])
        data = json.dumps(payload, separators=(",", ":"))

        async def publish() -> None:
            try:
                await self.store.client.publish(self.live_channel, data)
            except RedisError as err:
                log.warning("could not tell the other workers about table %s: %s", table.code, err)

        detached.spawn(publish())

    async def _listen_live(self) -> None:
        while True:
            try:
                pubsub = self.store.client.pubsub()
                try:
                    await pubsub.subscribe(self.live_channel)
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            self._take_live(json.loads(message["data"]))
                finally:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(pubsub.aclose(), 2.0)
            except RedisError as err:
                log.warning("lost the live notices from Redis: %s; listening again in a moment", err)
            except Exception:
                log.exception("a live notice could not be taken")
            await asyncio.sleep(1.0)

    def _take_live(self, message: dict[str, Any]) -> None:
        if message.get("w") == self.worker:
            return
        table = self.coordinator.tables.get(str(message.get("c")))
        if table is None:
            return
        if message.get("k") == LiveKind.TEAM:
            line = ChatLine(**message["line"])
            if line.team is None:
                return
            table.team_chat.setdefault(line.team, deque(maxlen=TEAM_CHAT_TAIL)).append((table.chat_total, line))
            for session in table.team_sessions(line.team):
                if not isinstance(session, RemoteSeat):
                    session.deliver(ChatUpdate(line))
        elif message.get("k") == LiveKind.REVEAL:
            self.coordinator.reveal_seen(table, int(message["turn"]), int(message["seat"]))
        elif message.get("k") == LiveKind.TYPING and self.coordinator.timers.set_typing(
            table, int(message["seat"]), bool(message["active"])
        ):
            self.coordinator.broadcast(table)

    async def _ticking(self) -> None:
        while True:
            await asyncio.sleep(self.tick_every)
            try:
                await self.tick()
            except Exception:
                log.exception("the shared tables' tick failed")

    async def tick(self) -> None:
        """Renew this worker's seats and leases, take the leases of tables nobody owns, and catch up what a lost
        notice left behind (tables behind the store, seats whose holder changed or expired, new tables)."""
        coordinator = self.coordinator
        codes = list(coordinator.tables)
        value = f"{self.worker} {int((time.time() + self.presence_ttl) * 1000)}"
        pipe = self.store.client.pipeline(transaction=False)
        self.store.queue_tables(pipe)
        for code in codes:
            pipe.hgetall(self._presence_key(code))
        for code in codes:
            await self.store.queue_take_lease(pipe, f"table:{code}", self.worker, self.lease_ttl)
        for code, seats in self.claimed.items():
            await self._presence(
                keys=[self._presence_key(code)],
                args=[self.worker, value, "renew", self.store.channel, code, *seats],
                client=pipe,
            )
        expires = value.partition(" ")[2]
        for code, count in self.watching.items():
            pipe.hset(self._presence_key(code), WATCHERS + self.worker, f"{count} {expires}")
        try:
            results = await _execute(pipe)
        except RedisError as err:
            log.warning("Redis did not answer the tick: %s", err)
            return
        self.ticks += 1
        if coordinator.unsaved:  # Redis answers again: the tables a failed change was rolled back at are refreshed
            coordinator.store_back()
        seqs: dict[str, str] = results[0]
        closed: set[str] = results[1]
        presences = results[2 : 2 + len(codes)]
        leases = results[2 + len(codes) : 2 + 2 * len(codes)]
        now_ms = time.time() * 1000
        for code, presence, holder in zip(codes, presences, leases, strict=True):
            table = coordinator.tables.get(code)
            if table is None:
                continue
            if holder == self.worker and code not in self.owned:
                self.owned.add(code)
                coordinator.schedule(table)  # this worker's clocks count now
            elif holder != self.worker:
                self.owned.discard(code)
            if code in self.owned:
                self._revive_bots(table, _holders(presence, now_ms))
            lock = self.lock_of(code)
            behind = lock is not None and not lock.fresh and int(seqs.get(code, 0)) > lock.seq
            if behind or code in closed or self._presence_moved(table, presence, now_ms):
                self._notice(code, 0)
        for code in seqs:
            if code not in coordinator.tables and code not in closed:
                coordinator.used_codes.setdefault(code, time.time())  # another worker's new table
                self._notice(code, 0)

    def _revive_bots(self, table: SessionTable, holders: dict[str, str]) -> None:
        """The owner of a running game brings back its built-in bots nobody runs any longer (their worker died)."""
        if self.revive is None or table.status != TableStatus.PLAYING:
            return
        for seat in table.seats:
            if not seat.builtin or seat.removed or seat.session is not None or seat.code in holders:
                continue
            if seat.code in self._reviving:
                continue
            self._reviving.add(seat.code)
            detached.spawn(self._revive_one(seat.code, seat.name))

    async def _revive_one(self, seat_code: str, name: str) -> None:
        assert self.revive is not None
        try:
            await self.revive(self.coordinator, seat_code, name)
            log.info("bot %s is back, run by this worker", name)
        except TableError as err:
            log.info("bot %s could not come back: %s", name, err.message)
        except Exception:
            log.exception("bringing bot %s back failed", name)
        finally:
            self._reviving.discard(seat_code)

    def _presence_moved(self, table: SessionTable, fields: dict[str, str], now_ms: float) -> bool:
        if _watchers(fields, now_ms, self.worker) != table.remote_watchers:
            return True
        holders = _holders(fields, now_ms)
        for seat in table.seats:
            current: Any = seat.session
            holder = holders.get(seat.code)
            remote = holder is not None and holder != self.worker
            if remote != isinstance(current, RemoteSeat):
                return True
        return False
