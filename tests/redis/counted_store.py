"""A worker's real Redis store, counting from the tests' side what the shared tables once counted for them: the round
trips it makes to Redis (each command, or each pipeline of commands, sent), the appends another worker won the race
for, and the records read back to undo a change that lost one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from dixit_tui.store.base import Record, StoreConflict
from dixit_tui.store.redis_store import DEFAULT_PREFIX, RedisStore


class CountedStore(RedisStore):
    round_trips = 0
    """Commands, or pipelines of them, sent to Redis on this store's connections (a pub/sub's messages are not)."""
    conflicts = 0
    """Appends refused because another worker appended first."""
    records_reread = 0
    """Records read back to take a table back to a record it had folded (`state_at`)."""

    @classmethod
    async def open(cls, url: str, prefix: str = DEFAULT_PREFIX, *, timeout: float = 5.0) -> CountedStore:
        store = cast(CountedStore, await super().open(url, prefix, timeout=timeout))
        pool = store.client.connection_pool
        base: Any = pool.connection_class

        async def send_packed_command(connection: Any, *args: Any, **kwargs: Any) -> None:
            store.round_trips += 1
            await base.send_packed_command(connection, *args, **kwargs)

        pool.connection_class = type(f"Counted{base.__name__}", (base,), {"send_packed_command": send_packed_command})
        await pool.disconnect()  # the connection the check at opening made goes: every one from now on counts
        pool.reset()
        return store

    async def append_at(self, code: str, expected: int, records: Sequence[Record]) -> int:
        try:
            return await super().append_at(code, expected, records)
        except StoreConflict:
            self.conflicts += 1
            raise

    async def state_at(self, code: str, seq: int) -> tuple[Record | None, list[Record]]:
        snapshot, records = await super().state_at(code, seq)
        self.records_reread += len(records)
        return snapshot, records
