"""The shared store: every table's records in Redis (or Valkey), for several server processes and machines.

One Redis stream per table holds its records in order; entry `N-1` is record N (1-based), so a record's place in
the stream is its sequence number. Appends are compare-and-append: a Lua script (atomic in Redis) adds the records
only if the table's last sequence number is still the one the writer folded, and publishes `CODE SEQ` on the
change channel, so other processes can read what is new. A writer that lost the race gets `StoreConflict` with the
current sequence number; it re-reads, re-decides with the engine, and tries again (or tells the player).

Keys, under a prefix (default `dixit:`):
    {prefix}seq          hash: table code -> its last sequence number (also the list of tables)
    {prefix}closed       set: codes of closed tables (kept for replay until pruned)
    {prefix}closed_at    sorted set: closed table -> when it closed (epoch seconds), for code reuse and pruning
    {prefix}finished     set: closed tables whose game finished (pruned by the finished games' retention)
    {prefix}results      list: every game's "result" record, in the order saved (kept when games are pruned)
    A closed table's code may be given to a new table `reuse_after` seconds after it closed: its keys are renamed to
    its game id first (`log:GAMEID`, ...), so the old game stays replayable by that id.
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
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, cast

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from dixit_tui.counts import COUNTS
from dixit_tui.store.base import CODE_REUSE_AFTER, Record, StoreConflict, StoredTable, StoreError, is_create, same_game

DEFAULT_PREFIX = "dixit:"

__all__ = ["DEFAULT_PREFIX", "RedisStore", "StoreConflict", "StoreUnavailable"]

# KEYS: seq hash, log stream, closed set, closed-at sorted set, finished set, snapshot, results list. ARGV: code,
# expected seq (-1: whatever it is), channel, closed (0/1), now (epoch seconds), over (0/1), creating (0/1), reusable
# before (epoch seconds), key prefix, the places among the records of game results (comma-separated: kept in the
# results list too, past the game's pruning), then the records. Returns {1, new seq}, or {0, current seq} when the
# expected seq is stale or a new table ("creating") asks for the code of a table that is open or closed too recently.
# A closed table's code given to a new table: its game moves to its game id (from its create record) first.
_APPEND = """
local cur = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
local expected = tonumber(ARGV[2])
if ARGV[7] == '1' and cur > 0 then
    local closed = redis.call('SISMEMBER', KEYS[3], ARGV[1]) == 1
    local at = redis.call('ZSCORE', KEYS[4], ARGV[1])
    if closed and not at then
        redis.call('ZADD', KEYS[4], ARGV[5], ARGV[1])
    end
    if not closed or not at or tonumber(at) > tonumber(ARGV[8]) then
        return {0, cur}
    end
    local game = nil
    local first = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)
    if #first > 0 then
        local ok, rec = pcall(cjson.decode, first[1][2][2])
        if ok and type(rec) == 'table' and type(rec.game) == 'string' and rec.game ~= '' then
            game = rec.game
        end
    end
    if not game then
        game = ARGV[1] .. '0' .. string.format('%d', math.floor(tonumber(at)))
    end
    if redis.call('EXISTS', KEYS[2]) == 1 then
        redis.call('RENAME', KEYS[2], ARGV[9] .. 'log:' .. game)
    end
    if redis.call('EXISTS', KEYS[6]) == 1 then
        redis.call('RENAME', KEYS[6], ARGV[9] .. 'snap:' .. game)
    end
    redis.call('HDEL', KEYS[1], ARGV[1])
    redis.call('HSET', KEYS[1], game, cur)
    redis.call('SREM', KEYS[3], ARGV[1])
    redis.call('SADD', KEYS[3], game)
    redis.call('ZREM', KEYS[4], ARGV[1])
    redis.call('ZADD', KEYS[4], at, game)
    if redis.call('SREM', KEYS[5], ARGV[1]) == 1 then
        redis.call('SADD', KEYS[5], game)
    end
    cur = 0
end
if expected >= 0 and cur ~= expected then
    return {0, cur}
end
for i = 11, #ARGV do
    cur = cur + 1
    redis.call('XADD', KEYS[2], cur .. '-1', 'd', ARGV[i])
end
for place in string.gmatch(ARGV[10], '%d+') do
    redis.call('RPUSH', KEYS[7], ARGV[10 + tonumber(place)])
end
redis.call('HSET', KEYS[1], ARGV[1], cur)
if ARGV[4] == '1' then
    redis.call('SADD', KEYS[3], ARGV[1])
    redis.call('ZADD', KEYS[4], ARGV[5], ARGV[1])
    if ARGV[6] == '1' then
        redis.call('SADD', KEYS[5], ARGV[1])
    end
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
        self._closed_at_key = f"{prefix}closed_at"
        self._finished_key = f"{prefix}finished"
        self._results_key = f"{prefix}results"
        self.reuse_after = CODE_REUSE_AFTER  # seconds after its table closed that a code may be given out again
        self.clock: Callable[[], float] = time.time  # the coordinator's (the time a "closed" record carries)
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

    def _lease_key(self, name: str) -> str:
        return f"{self.prefix}lease:{name}"

    # --- compare-and-append --------------------------------------------------------------------------------

    async def append_at(self, code: str, expected: int, records: Sequence[Record]) -> int:
        """Append `records` if the table's last sequence number is `expected` (-1: whatever it is). Returns the
        new last sequence number; StoreConflict if someone appended first, StoreUnavailable if Redis is gone.
        Either way nothing was written."""
        if not records:
            return self._seq.get(code, 0) if expected < 0 else expected
        closing = next((r for r in records if r.get("t") == "closed"), None)
        creating = is_create(records[0])
        now = self.clock()
        args = [
            code,
            0 if creating else expected,
            self.channel,
            "0" if closing is None else "1",
            repr(float(closing.get("at", now))) if closing is not None else repr(now),
            "1" if closing is not None and closing.get("over") else "0",
            "1" if creating else "0",
            repr(now - self.reuse_after),
            self.prefix,
            ",".join(str(i + 1) for i, r in enumerate(records) if r.get("t") == "result"),
            *(_dumps(r) for r in records),
        ]
        keys = [
            self._seq_key,
            self._log(code),
            self._closed_key,
            self._closed_at_key,
            self._finished_key,
            self._snap(code),
            self._results_key,
        ]
        try:
            ok, seq = await self._append(keys=keys, args=args)
        except RedisError as err:
            raise StoreUnavailable(f"could not save to Redis: {err}") from err
        if not ok:
            raise StoreConflict(code, expected, int(seq))
        self._seq[code] = int(seq)
        return int(seq)

    def known_seq(self, code: str) -> int:
        """The last sequence number of table `code` this process wrote or read (0: none), without asking Redis."""
        return self._seq.get(code, 0)

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
        except RedisError as err:
            raise StoreUnavailable(f"could not read from Redis: {err}") from err
        return self.entries(found)

    async def state_at(self, code: str, seq: int) -> tuple[Record | None, list[Record]]:
        """The table as of its record `seq`: its snapshot, if one was taken at or before that record, and the
        records after the snapshot up to `seq` (all of them if the snapshot is newer than `seq`). Two round trips."""
        if seq <= 0:
            return None, []
        try:
            snap = cast(dict[str, str], await self.client.hgetall(self._snap(code)))
            base = int(snap["seq"]) if snap else 0
            snapshot = json.loads(snap["data"]) if snap and base <= seq else None
            if snapshot is None:
                base = 0
            found = await self.client.xrange(self._log(code), min=f"{base + 1}-0", max=f"{seq}-1")
        except RedisError as err:
            raise StoreUnavailable(f"could not read from Redis: {err}") from err
        return snapshot, [record for _, record in self.entries(found)]

    async def snapshot_at(self, code: str, seq: int, data: Record) -> None:
        """Save the whole table as of its record `seq` (the last one folded into `data`)."""
        try:
            await self.client.hset(self._snap(code), mapping={"seq": seq, "data": _dumps(data)})
        except RedisError as err:
            raise StoreUnavailable(f"could not save to Redis: {err}") from err

    # --- several reads and writes in one round trip (a pipeline: `client.pipeline(transaction=False)`) ----------

    def queue_read_after(self, pipe: Any, code: str, seq: int) -> None:
        """Queue reading the table's records after record `seq`: the pipeline's result is read with `entries`."""
        pipe.xrange(self._log(code), min=f"{seq + 1}-0", max="+")

    @staticmethod
    def entries(found: Any) -> list[tuple[int, Record]]:
        """The records a stream read returned (`queue_read_after`), with their sequence numbers, in order."""
        entries = cast(list[tuple[str, dict[str, str]]], found)
        return [(_seq_of(entry_id), json.loads(fields["d"])) for entry_id, fields in entries]

    def queue_tables(self, pipe: Any) -> None:
        """Queue reading every table's last sequence number and the closed tables' codes: two results, a dict
        (code -> seq, as text) and a set of codes."""
        pipe.hgetall(self._seq_key)
        pipe.smembers(self._closed_key)

    async def queue_take_lease(self, pipe: Any, name: str, holder: str, ttl: float) -> None:
        """`take_lease` in a pipeline: its result is who holds the lease now."""
        await self._lease(keys=[self._lease_key(name)], args=[holder, max(1, int(ttl * 1000))], client=pipe)

    async def queue_release_lease(self, pipe: Any, name: str, holder: str) -> None:
        """`release_lease` in a pipeline."""
        await self._release(keys=[self._lease_key(name)], args=[holder], client=pipe)

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
            result = await self._lease(keys=[self._lease_key(name)], args=[holder, max(1, int(ttl * 1000))])
        except RedisError as err:
            raise StoreUnavailable(f"could not reach Redis: {err}") from err
        return str(result)

    async def release_lease(self, name: str, holder: str) -> None:
        try:
            await self._release(keys=[self._lease_key(name)], args=[holder])
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
                if code in closed:
                    continue  # only open tables are read
                self._seq[code] = int(raw_seq)
                snap: dict[str, str] = await self.client.hgetall(self._snap(code))  # type: ignore[assignment]
                snap_seq = int(snap["seq"]) if snap else 0
                snapshot: dict[str, Any] | None = json.loads(snap["data"]) if snap else None
                records = [r for _, r in await self.read_after(code, snap_seq)]
                tables.append(StoredTable(code, snapshot, records))
        except RedisError as err:
            raise StoreUnavailable(f"could not read from Redis: {err}") from err
        return tables

    async def results(self) -> list[Record]:
        """Every game result ever saved ("result" records), pruned games' too: the ratings are folded from them."""
        try:
            found = cast(list[str], await self.client.lrange(self._results_key, 0, -1))
        except RedisError as err:
            raise StoreUnavailable(f"could not read from Redis: {err}") from err
        return [json.loads(text) for text in found]

    async def history(self, code: str) -> list[Record]:
        """Every record of a game: by its table's code (the latest game under that code), or by its game id."""
        records = [r for _, r in await self.read_after(code, 0)]
        if not records and len(code) > 4:  # a game id whose game still sits under its table's code
            records = [r for _, r in await self.read_after(code[:4], 0)]
            return records if records and same_game(records[0], code) else []
        return records

    async def prune(
        self, finished_before: float | None, abandoned_before: float | None, *, dry_run: bool = False
    ) -> int:
        """Delete the games closed before the cutoffs (epoch seconds; None keeps them): finished games by the first,
        the others by the second. Returns how many games were (or would be) deleted."""
        cutoffs = [c for c in (finished_before, abandoned_before) if c is not None]
        if not cutoffs:
            return 0
        try:
            found = await self.client.zrangebyscore(self._closed_at_key, "-inf", f"({max(cutoffs)}", withscores=True)
            candidates = cast(list[tuple[str, float]], found)
            if not candidates:
                return 0
            finished = await self.client.smismember(self._finished_key, [key for key, _ in candidates])
            keys = []
            for (key, at), over in zip(candidates, finished, strict=True):
                cutoff = finished_before if over else abandoned_before
                if cutoff is not None and at < cutoff:
                    keys.append(key)
            if keys and not dry_run:
                pipe = self.client.pipeline(transaction=True)
                for key in keys:
                    pipe.delete(self._log(key), self._snap(key), f"{self.prefix}presence:{key}")
                pipe.hdel(self._seq_key, *keys)
                pipe.srem(self._closed_key, *keys)
                pipe.zrem(self._closed_at_key, *keys)
                pipe.srem(self._finished_key, *keys)
                await pipe.execute()
                for key in keys:
                    self._seq.pop(key, None)
        except RedisError as err:
            raise StoreUnavailable(f"could not prune in Redis: {err}") from err
        return len(keys)

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
