"""The shared store: every table's records in Redis (or Valkey), for several server processes and machines.

One Redis stream per table holds its records in order; entry `N-1` is record N (1-based), so a record's place in
the stream is its sequence number. Appends are compare-and-append: a Lua script (atomic in Redis) adds the records
only if the table's last sequence number is still the one the writer folded, and publishes `CODE SEQ` on the
change channel, so other processes can read what is new. A writer that lost the race gets `StoreConflict` with the
current sequence number; it re-reads, re-decides with the engine, and tries again (or tells the player).

Keys, under a prefix (default `dixit:`):
    {prefix}seq          hash: table code -> its last sequence number (also the list of tables)
    {prefix}closed       set: codes of closed tables (kept for replay)
    {prefix}log:{code}   stream: the table's records, entry N-1 = record N, field `d` = the record as JSON
    {prefix}snap:{code}  hash: `seq` and `data`, the whole table as of record `seq`
    {prefix}changes      pub/sub channel: `CODE SEQ` after each append
    {prefix}lease:{name} string: who holds a lease (`take_lease`), expiring unless renewed

Durability is Redis's: with `appendonly yes` and `appendfsync always` an append is on disk before it is
acknowledged (docs/operations.md). Nothing here runs on the event loop for long: every call is one round trip.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
from collections.abc import AsyncIterator, Sequence
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from dixit_tui.counts import COUNTS
from dixit_tui.store.base import Record, StoreConflict, StoredTable, StoreError

DEFAULT_PREFIX = "dixit:"

__all__ = ["DEFAULT_PREFIX", "RedisStore", "StoreConflict", "StoreUnavailable"]

# KEYS: seq hash, log stream, closed set. ARGV: code, expected seq (-1: whatever it is), channel, closed (0/1),
# then the records. Returns {1, new seq} or {0, current seq} when the expected seq is stale.
_APPEND = """
local cur = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
local expected = tonumber(ARGV[2])
if expected >= 0 and cur ~= expected then
    return {0, cur}
end
for i = 5, #ARGV do
    cur = cur + 1
    redis.call('XADD', KEYS[2], cur .. '-1', 'd', ARGV[i])
end
redis.call('HSET', KEYS[1], ARGV[1], cur)
if ARGV[4] == '1' then
    redis.call('SADD', KEYS[3], ARGV[1])
end
redis.call('PUBLISH', ARGV[3], ARGV[1] .. ' ' .. cur)
return {1, cur}
"""


# KEYS: the lease. ARGV: holder, milliseconds. Takes a free lease or renews one's own; returns the holder.
_LEASE = """
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
    return ARGV[1]
end
return holder
"""

# KEYS: the lease. ARGV: holder. Gives the lease up if one holds it.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""


class StoreUnavailable(StoreError):
    """Redis cannot be reached (or answered with an error): nothing was written."""


def _dumps(record: Record) -> str:
    return json.dumps(record, separators=(",", ":"))


def _seq_of(entry_id: str) -> int:
    return int(entry_id.split("-", 1)[0])


_FRESH: dict[type, type] = {}


def _opened_in_a_fresh_context(base: type[aioredis.connection.AbstractConnection]) -> type:
    """`base` (TCP, TLS or Unix socket), opening its socket in an empty context. The pool opens connections on
    demand, during whichever call needs one, and a socket's read callback keeps a copy of the context it was opened
    in: opened during a call from a player's session, it would keep that session's app (Textual's `active_app`)
    alive for as long as the connection lives."""

    async def _connect(self: aioredis.connection.AbstractConnection) -> None:
        opening = base._connect(self)
        await asyncio.get_running_loop().create_task(opening, context=contextvars.Context())

    async def send_packed_command(self: aioredis.connection.AbstractConnection, *args: Any, **kwargs: Any) -> None:
        COUNTS.redis_round_trips += 1  # a command, or a pipeline's commands at once
        await base.send_packed_command(self, *args, **kwargs)

    if base not in _FRESH:
        methods = {"_connect": _connect, "send_packed_command": send_packed_command}
        _FRESH[base] = type(f"Fresh{base.__name__}", (base,), methods)
    return _FRESH[base]


class RedisStore:
    """The `Store` interface on Redis, plus what several processes need: compare-and-append (`append_at`),
    reading what is new (`read_after`, `last_seq`) and change notices (`changes`)."""

    def __init__(self, client: aioredis.Redis, prefix: str = DEFAULT_PREFIX) -> None:
        self.client = client
        self.prefix = prefix
        self.channel = f"{prefix}changes"
        self._seq_key = f"{prefix}seq"
        self._closed_key = f"{prefix}closed"
        self._append = client.register_script(_APPEND)
        self._lease = client.register_script(_LEASE)
        self._release = client.register_script(_RELEASE)
        self._seq: dict[str, int] = {}  # the last sequence number this process wrote or read, per table

    @classmethod
    async def open(cls, url: str, prefix: str = DEFAULT_PREFIX, *, timeout: float = 5.0) -> RedisStore:
        """Connect to `url` (redis://HOST:PORT/DB) and check it answers; StoreError with the reason if not."""
        try:
            client = aioredis.Redis.from_url(
                url, socket_timeout=timeout, socket_connect_timeout=timeout, decode_responses=True
            )
        except ValueError as err:
            raise StoreError(f"not a Redis address: {url} ({err})") from err
        pool = client.connection_pool
        pool.connection_class = _opened_in_a_fresh_context(pool.connection_class)
        store = cls(client, prefix)
        try:
            await client.ping()
        except RedisError as err:
            await client.aclose()
            raise StoreUnavailable(f"cannot reach Redis at {url}: {err}") from err
        return store

    def _log(self, code: str) -> str:
        return f"{self.prefix}log:{code}"

    def _snap(self, code: str) -> str:
        return f"{self.prefix}snap:{code}"

    # --- compare-and-append --------------------------------------------------------------------------------

    async def append_at(self, code: str, expected: int, records: Sequence[Record]) -> int:
        """Append `records` if the table's last sequence number is `expected` (-1: whatever it is). Returns the
        new last sequence number; StoreConflict if someone appended first, StoreUnavailable if Redis is gone.
        Either way nothing was written."""
        if not records:
            return self._seq.get(code, 0) if expected < 0 else expected
        closed = any(r.get("t") == "closed" for r in records)
        args = [code, expected, self.channel, "1" if closed else "0", *(_dumps(r) for r in records)]
        try:
            ok, seq = await self._append(keys=[self._seq_key, self._log(code), self._closed_key], args=args)
        except RedisError as err:
            raise StoreUnavailable(f"could not save to Redis: {err}") from err
        if not ok:
            raise StoreConflict(code, expected, int(seq))
        self._seq[code] = int(seq)
        return int(seq)

    async def last_seq(self, code: str) -> int:
        try:
            value = await self.client.hget(self._seq_key, code)
        except RedisError as err:
            raise StoreUnavailable(f"could not read from Redis: {err}") from err
        return int(value or 0)

    async def read_after(self, code: str, seq: int) -> list[tuple[int, Record]]:
        """The table's records after record `seq`, with their sequence numbers, in order."""
        try:
            found = await self.client.xrange(self._log(code), min=f"{seq + 1}-0", max="+")
            entries: list[tuple[str, dict[str, str]]] = found  # type: ignore[assignment]
        except RedisError as err:
            raise StoreUnavailable(f"could not read from Redis: {err}") from err
        return [(_seq_of(entry_id), json.loads(fields["d"])) for entry_id, fields in entries]

    async def changes(self) -> AsyncIterator[tuple[str, int]]:
        """Every append by anyone, as (code, seq), from now on. Notices can be missed (pub/sub is at most once):
        readers use them as hints and read the log itself (`read_after`)."""
        pubsub = self.client.pubsub()
        try:
            await pubsub.subscribe(self.channel)
            async for message in pubsub.listen():
                if message.get("type") != "message":
                    continue
                code, _, seq = str(message["data"]).partition(" ")
                yield code, int(seq)
        except RedisError as err:
            raise StoreUnavailable(f"lost the change notices from Redis: {err}") from err
        finally:
            await pubsub.aclose()

    # --- leases -----------------------------------------------------------------------------------------------

    async def take_lease(self, name: str, holder: str, ttl: float) -> str:
        """Take the lease `name` for `ttl` seconds if it is free (or renew it if `holder` has it). Returns who
        holds it now: `holder` on success, someone else's name otherwise. A holder that dies loses it in `ttl`."""
        try:
            result = await self._lease(keys=[f"{self.prefix}lease:{name}"], args=[holder, max(1, int(ttl * 1000))])
        except RedisError as err:
            raise StoreUnavailable(f"could not reach Redis: {err}") from err
        return str(result)

    async def release_lease(self, name: str, holder: str) -> None:
        try:
            await self._release(keys=[f"{self.prefix}lease:{name}"], args=[holder])
        except RedisError as err:
            raise StoreUnavailable(f"could not reach Redis: {err}") from err

    # --- the Store interface ---------------------------------------------------------------------------------

    async def append(self, code: str, records: Sequence[Record]) -> None:
        """Append after the last record this process knows of (a single writer per table never conflicts)."""
        if code not in self._seq:
            self._seq[code] = await self.last_seq(code)
        await self.append_at(code, self._seq[code], records)

    async def snapshot(self, code: str, data: Record) -> None:
        seq = self._seq.get(code, 0)
        try:
            await self.client.hset(self._snap(code), mapping={"seq": seq, "data": _dumps(data)})
        except RedisError as err:
            raise StoreUnavailable(f"could not save to Redis: {err}") from err

    async def load(self) -> list[StoredTable]:
        try:
            seqs: dict[str, str] = await self.client.hgetall(self._seq_key)  # type: ignore[assignment]
            closed: set[str] = await self.client.smembers(self._closed_key)  # type: ignore[assignment]
            tables = []
            for code, raw_seq in sorted(seqs.items()):
                self._seq[code] = int(raw_seq)
                snap: dict[str, str] = await self.client.hgetall(self._snap(code))  # type: ignore[assignment]
                snap_seq = int(snap["seq"]) if snap else 0
                snapshot: dict[str, Any] | None = json.loads(snap["data"]) if snap else None
                records = [r for _, r in await self.read_after(code, snap_seq)]
                tables.append(StoredTable(code, snapshot, records, closed=code in closed))
        except RedisError as err:
            raise StoreUnavailable(f"could not read from Redis: {err}") from err
        return tables

    async def history(self, code: str) -> list[Record]:
        return [r for _, r in await self.read_after(code, 0)]

    async def moderation_entries(self) -> list[tuple[str, str, str]]:
        """One hash (`dixit:moderation`) holds them all, field `kind key`: one round trip for every check."""
        try:
            entries: dict[str, str] = await self.client.hgetall(f"{self.prefix}moderation")  # type: ignore[assignment]
        except RedisError as err:
            raise StoreUnavailable(f"could not read from Redis: {err}") from err
        rows = [(*field.split(" ", 1), value) for field, value in entries.items()]
        return sorted((row[0], row[1], row[2]) for row in rows if len(row) == 3)

    async def moderate(self, kind: str, key: str, value: str | None) -> None:
        try:
            if value is None:
                await self.client.hdel(f"{self.prefix}moderation", f"{kind} {key}")
            else:
                await self.client.hset(f"{self.prefix}moderation", f"{kind} {key}", value)
        except RedisError as err:
            raise StoreUnavailable(f"could not save to Redis: {err}") from err

    async def close(self) -> None:
        await self.client.aclose()
