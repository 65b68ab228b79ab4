"""`SharedTables`: a coordinator's tables shared with the other workers on the same Redis (see the package's
docstring). It is the coordinator's `Sharing`, and it keeps each table's replica in step (catching up, rolling back,
following a rematch or a close made at another worker); presence, leases, live messages and counted tries are its
parts, each in its own module."""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from dixit_tui.coordinator import detached
from dixit_tui.coordinator.errors import TableError
from dixit_tui.coordinator.models import CloseReason, LobbyUpdate, NoticeUpdate, StateUpdate
from dixit_tui.coordinator.shared.leases import Leases, Revive
from dixit_tui.coordinator.shared.live import LiveMessages
from dixit_tui.coordinator.shared.pipeline import execute
from dixit_tui.coordinator.shared.presence import Presence, RemoteSeat, holders
from dixit_tui.coordinator.shared.queue import SharedQueue
from dixit_tui.coordinator.shared.replica import SharedStore, SyncedLock
from dixit_tui.coordinator.shared.tries import Tries
from dixit_tui.engine import ErrorCode
from dixit_tui.log_caps import REPEATS
from dixit_tui.store.base import Record, Store
from dixit_tui.store.redis_store import RedisStore, StoreUnavailable

if TYPE_CHECKING:
    from dixit_tui.coordinator.matchmaker import Matchmaker
    from dixit_tui.coordinator.player_session import PlayerSession, SessionTable
    from dixit_tui.coordinator.service import Coordinator

log = logging.getLogger(__name__)
log.addFilter(REPEATS)

HEALTH_TIMEOUT = 2.0
"""Seconds Redis has to answer a ping (`unhealthy`, for `health`)."""


class SharedTables:
    """A coordinator's tables, shared with the other workers on the same Redis (see the module's docstring)."""

    def __init__(
        self,
        store: RedisStore,
        *,
        worker: str | None = None,
        tick: float = 1.0,
        presence_ttl: float = 6.0,
        lease_ttl: float = 5.0,
        revive: Revive | None = None,
    ) -> None:
        """Tables shared on the Redis of `store`. The coordinator is then made with `store=shared.saving` and
        `sharing=shared` (it attaches itself). `revive` brings a built-in bot back to its seat when the worker it ran
        in died (the server passes `bots.player.revive_bot`); None: such bots stay away."""
        self.store = store
        self.locks: dict[str, SyncedLock] = {}  # each table's lock (and so its replica's place), until it closes
        self.saving = SharedStore(store, self.locks)  # the coordinator's store: compare-and-append after the replica
        self.worker = worker or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.tick_every = tick
        self.presence_ttl = presence_ttl
        self.lease_ttl = lease_ttl
        self.revive = revive
        self.tries = Tries(store)
        self._syncing: set[str] = set()
        self._again: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []

    # --- the coordinator's, from its construction ---------------------------------------------------------------

    def attach(self, coordinator: Coordinator) -> None:
        """`coordinator` shares its tables through this (called by its constructor, once)."""
        if coordinator.store is not self.saving:
            raise ValueError("a coordinator sharing its tables saves them in its SharedTables' store (`saving`)")
        if hasattr(self, "coordinator"):
            raise ValueError("these shared tables are another coordinator's already")
        self.coordinator = coordinator
        self.presence = Presence(coordinator, self.store, self.worker, self.presence_ttl)
        self.leases = Leases(coordinator, self.store, self.worker, self.lease_ttl, self.revive)
        self.live = LiveMessages(coordinator, self.store, self.worker)

    def queue(self, matchmaker: Matchmaker) -> SharedQueue:
        """The coordinator's matchmaker's queue: one for every worker (one matchmaker of them all seats it)."""
        self.shared_queue = SharedQueue(matchmaker, self.store, self.worker)
        return self.shared_queue

    # --- its parts, as they were named when they were one -------------------------------------------------------

    @property
    def claimed(self) -> dict[str, set[str]]:
        """Table -> the seat codes this worker said it holds."""
        return self.presence.claimed

    @property
    def watching(self) -> dict[str, int]:
        """Table -> how many watch it here, as this worker last said."""
        return self.presence.watching

    @property
    def owned(self) -> set[str]:
        """The tables whose lease (clocks, stand-ins) this worker holds."""
        return self.leases.owned

    def _presence_key(self, code: str) -> str:
        return self.presence.key(code)

    # --- the coordinator's `Sharing` ----------------------------------------------------------------------------

    def owns(self, code: str) -> bool:
        return self.leases.owns(code)

    async def publish_presence(self, table: SessionTable) -> None:
        """Claim the seats this worker's sessions sit in now, and give up those they left (after a change, under
        the table's lock)."""
        await self.presence.publish(table)

    def publish_live(self, table: SessionTable, message: dict[str, Any]) -> None:
        """Tell the other workers something about `table` that is not recorded (a team line, a writing mark)."""
        self.live.publish(table, message)

    async def count_try(self, keys: Sequence[tuple[str, int]], window: float) -> str | None:
        """Count a try against every worker's count of each key (`tries.Tries.count`)."""
        return await self.tries.count(keys, window)

    async def forgive_try(self, keys: Sequence[tuple[str, int]], token: str) -> None:
        await self.tries.forgive(keys, token)

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
        return await self.store.state_at(code, seq)

    def lock_of(self, code: str) -> SyncedLock | None:
        """The lock of this worker's replica of table `code` (also while it closes: it may be out of the
        coordinator's open tables before its last record is saved)."""
        return self.locks.get(code)

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
        pipe.hgetall(self.presence.key(table.code))
        try:
            found, presence = await execute(pipe)
        except RedisError as err:
            coordinator.refused_for_storage(table.code)
            raise TableError(
                "The server cannot reach its storage just now, so nothing changed. Try again in a moment.",
                ErrorCode.STORAGE,
            ) from err
        updates: list[Any] = []
        only_chat = True  # a chat line alone changes no view: it comes as the line, as at the worker that took it
        unattended = table.unattended  # (a person's line at a table that had stopped playing itself changes it)
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
        moved = self.presence.take(table, presence)
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
            if only_chat and not moved and table.unattended == unattended:
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
        self.presence.forget(table.code)
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

    # --- running -----------------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Load every open table, then follow the other workers (change notices and a periodic tick)."""
        await self.coordinator.restore()
        await self.tick()
        self._tasks.append(detached.spawn(self._listen(), name="shared-tables-listen"))
        self._tasks.append(detached.spawn(self._ticking(), name="shared-tables-tick"))
        self._tasks.append(detached.spawn(self.live.listen(), name="shared-tables-live"))
        self.shared_queue.start(self.tick_every)

    async def stop(self) -> None:
        await self.shared_queue.stop()
        for task in self._tasks:
            task.cancel()
        if self._tasks:  # bounded: closing a pub/sub connection in the middle of a read can hang
            await asyncio.wait(self._tasks, timeout=2.0)
        self._tasks.clear()
        try:
            pipe = self.store.client.pipeline(transaction=False)
            await self.presence.queue_drop(pipe)
            await self.leases.queue_release(pipe)
            await execute(pipe)
        except RedisError as err:
            log.warning("could not give up this worker's seats and tables in Redis: %s", err)
        self.presence.clear()
        self.owned.clear()

    async def _listen(self) -> None:
        while not detached.stopping():
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

    async def _ticking(self) -> None:
        while not detached.stopping():
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
        pipe = self.store.client.pipeline(transaction=False)
        self.store.queue_tables(pipe)
        for code in codes:
            pipe.hgetall(self.presence.key(code))
        await self.leases.queue_take(pipe, codes)
        renewed = await self.presence.queue_renew(pipe)
        try:
            results = await execute(pipe)
        except RedisError as err:
            log.warning("Redis did not answer the tick: %s", err)
            return
        if coordinator.unsaved:  # Redis answers again: the tables a failed change was rolled back at are refreshed
            coordinator.store_back()
        seqs: dict[str, str] = results[0]
        closed: set[str] = results[1]
        presences = results[2 : 2 + len(codes)]
        leases = results[2 + len(codes) : 2 + 2 * len(codes)]
        lost = self.presence.lost(renewed, results[2 + 2 * len(codes) :])
        now_ms = time.time() * 1000
        for code, presence, holder in zip(codes, presences, leases, strict=True):
            table = coordinator.tables.get(code)
            if table is None:
                continue
            self.leases.held(table, holder, holders(presence, now_ms))
            lock = self.lock_of(code)
            behind = lock is not None and not lock.fresh and int(seqs.get(code, 0)) > lock.seq
            if behind or code in closed or code in lost or self.presence.moved(table, presence, now_ms):
                self._notice(code, 0)
        for code in seqs:
            if code not in coordinator.tables and code not in closed:
                coordinator.used_codes.setdefault(code, time.time())  # another worker's new table
                self._notice(code, 0)
