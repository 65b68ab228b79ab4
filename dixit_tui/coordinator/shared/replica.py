"""A table's replica at this worker, kept in step with Redis: its lock catches it up when taken (`SyncedLock`), and
its changes are appended after the record it folded last (`SharedStore`), so only one of two workers deciding from
the same state wins."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from dixit_tui.store.base import Record, StoredTable
from dixit_tui.store.redis_store import RedisStore

if TYPE_CHECKING:
    from dixit_tui.coordinator.player_session import SessionTable


class Replicas(Protocol):
    """What a table's lock asks of the worker's replicas (`tables.SharedTables`)."""

    async def sync(self, table: SessionTable) -> None: ...

    async def publish_presence(self, table: SessionTable) -> None: ...


class SyncedLock:
    """A table's lock that catches the replica up with Redis when taken, and publishes who is connected here when
    given back. `seq`: the last record of the table folded into the replica."""

    def __init__(self, shared: Replicas, table: SessionTable, seq: int) -> None:
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
    table's replica folded last (StoreConflict if another worker appended first). `locks`: each table's lock at this
    worker (`SharedTables.locks`), which knows the record its replica folded last."""

    def __init__(self, redis: RedisStore, locks: dict[str, SyncedLock]) -> None:
        self.redis = redis
        self.locks = locks

    async def append(self, code: str, records: Sequence[Record]) -> None:
        lock = self.locks.get(code)
        expected = lock.seq if lock is not None else 0
        seq = await self.redis.append_at(code, expected, records)  # StoreConflict if another worker appended first
        if lock is not None:
            lock.seq, lock.fresh = seq, False
        if any(r.get("t") == "closed" for r in records):
            self.locks.pop(code, None)

    async def snapshot(self, code: str, data: Record) -> None:
        lock = self.locks.get(code)
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
