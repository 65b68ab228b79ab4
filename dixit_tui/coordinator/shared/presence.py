"""Who is connected where, shared by the workers: a hash per table in Redis, a field per seat (its reconnect code)
saying which worker holds it, until when (each worker renews its own fields; a dead worker's expire). A seat held on
another worker sits at this worker's replica as a `RemoteSeat`, so "is offline", grace timers and "bots hold when no
person is connected" see every worker's players. A player who takes their seat on another worker pushes out their
old session here. The same hash counts each worker's spectators (field `~WORKER`), so the lobby and the table show
them all."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any, cast

from redis.exceptions import RedisError

from dixit_tui.coordinator.models import NoticeUpdate, StateUpdate
from dixit_tui.coordinator.shared.pipeline import execute
from dixit_tui.log_caps import REPEATS
from dixit_tui.store.redis_store import RedisStore

if TYPE_CHECKING:
    from dixit_tui.coordinator.player_session import SessionTable
    from dixit_tui.coordinator.service import Coordinator

log = logging.getLogger(__name__)
log.addFilter(REPEATS)

# KEYS: the presence hash, the change channel is ARGV[4]. ARGV: worker, value ("WORKER EXPIRES_MS"), mode, channel,
# then seat codes. claim: the seats are this worker's now (a player sat down here); renew: keep this worker's own
# seats, and only those (a renew sent before a drop must not bring the seat back: the player left); drop: give up
# this worker's seats. A claim or drop publishes `CODE 0` (ARGV[5] is the code). A renew returns the seats it found
# held by nobody (their fields expired while the worker could not reach Redis: it claims them again if still held).
_PRESENCE = """
local worker = ARGV[1] .. ' '
local missing = {}
for i = 6, #ARGV do
    local cur = redis.call('HGET', KEYS[1], ARGV[i])
    local mine = cur and string.sub(cur, 1, #worker) == worker
    if ARGV[3] == 'claim' or (ARGV[3] == 'renew' and mine) then
        redis.call('HSET', KEYS[1], ARGV[i], ARGV[2])
    elseif ARGV[3] == 'renew' and not cur then
        table.insert(missing, ARGV[i])
    elseif ARGV[3] == 'drop' and mine then
        redis.call('HDEL', KEYS[1], ARGV[i])
    end
end
if ARGV[3] ~= 'renew' then
    redis.call('PUBLISH', ARGV[4], ARGV[5] .. ' 0')
end
return missing
"""

# KEYS: the presence hash. ARGV: the field `~WORKER`, the new expiry. Renews the spectator count this worker wrote
# last, keeping its count (a renew sent before a change of the count must not undo it); 0 if the field is gone.
_WATCHERS_RENEW = """
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur then
    return 0
end
local count = string.match(cur, '^(%S+)')
redis.call('HSET', KEYS[1], ARGV[1], count .. ' ' .. ARGV[2])
return 1
"""

WATCHERS = "~"  # a presence hash's field `~WORKER` says how many watch the table at that worker: "COUNT EXPIRES_MS"


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


def holders(fields: dict[str, str], now_ms: float) -> dict[str, str]:
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


def watchers(fields: dict[str, str], now_ms: float, but: str) -> int:
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


class Presence:
    """This worker's side of the presence hashes: what it said it holds, and what it reads of the others'."""

    def __init__(self, coordinator: Coordinator, store: RedisStore, worker: str, ttl: float) -> None:
        self.coordinator = coordinator
        self.store = store
        self.worker = worker
        self.ttl = ttl
        self.claimed: dict[str, set[str]] = {}  # table -> the seat codes this worker said it holds
        self.watching: dict[str, int] = {}  # table -> how many watch it here, as this worker last said
        self._script = store.client.register_script(_PRESENCE)
        self._watchers_renew = store.client.register_script(_WATCHERS_RENEW)

    def key(self, code: str) -> str:
        return f"{self.store.prefix}presence:{code}"

    def forget(self, code: str) -> None:
        """Table `code` closed: nothing of it is held here any longer."""
        self.claimed.pop(code, None)
        self.watching.pop(code, None)

    def take(self, table: SessionTable, fields: dict[str, str]) -> bool:
        """Seats held on other workers become `RemoteSeat`s here, seats nobody holds any longer become free (away
        from now); a session of this worker whose seat was taken on another worker is pushed out. Returns whether
        anything changed."""
        held = holders(fields, time.time() * 1000)
        now = self.coordinator.clock()
        elsewhere = watchers(fields, time.time() * 1000, self.worker)
        changed = elsewhere != table.remote_watchers
        table.remote_watchers = elsewhere
        mine = self.claimed.get(table.code, set())
        for index, seat in enumerate(table.seats):
            holder = held.get(seat.code)
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

    def moved(self, table: SessionTable, fields: dict[str, str], now_ms: float) -> bool:
        """Whether the hash says something the replica does not show yet (a lost notice)."""
        if watchers(fields, now_ms, self.worker) != table.remote_watchers:
            return True
        held = holders(fields, now_ms)
        for seat in table.seats:
            current: Any = seat.session
            holder = held.get(seat.code)
            remote = holder is not None and holder != self.worker
            if remote != isinstance(current, RemoteSeat):
                return True
        return False

    async def publish(self, table: SessionTable) -> None:
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
        expires = int((time.time() + self.ttl) * 1000)
        value = f"{self.worker} {expires}"
        key = self.key(table.code)
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
                await self._script(
                    keys=[key], args=[self.worker, value, "claim", channel, table.code, *(local - before)], client=pipe
                )
            if before - local:
                await self._script(
                    keys=[key], args=[self.worker, value, "drop", channel, table.code, *(before - local)], client=pipe
                )
            await execute(pipe)
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

    async def queue_renew(self, pipe: Any) -> list[tuple[str, bool]]:
        """Queue renewing this worker's seats and spectator counts (the tick): one result each, for `lost`, which
        needs what this returns: the table each result is about, and whether it is the spectator count."""
        expires = int((time.time() + self.ttl) * 1000)
        value = f"{self.worker} {expires}"
        labels = []
        for code, seats in self.claimed.items():
            await self._script(
                keys=[self.key(code)], args=[self.worker, value, "renew", self.store.channel, code, *seats], client=pipe
            )
            labels.append((code, False))
        for code in self.watching:
            await self._watchers_renew(keys=[self.key(code)], args=[WATCHERS + self.worker, expires], client=pipe)
            labels.append((code, True))
        return labels

    def lost(self, labels: list[tuple[str, bool]], results: list[Any]) -> set[str]:
        """The tables where a renew found a field of this worker's gone (it expired while this worker could not
        reach Redis): forgotten as said, so that publishing the table again (under its lock) claims what this
        worker's sessions hold now, and no more."""
        out = set()
        for (code, counts), result in zip(labels, results, strict=True):
            if counts and not result:
                self.watching.pop(code, None)
                out.add(code)
            elif not counts and result:
                self.claimed.get(code, set()).difference_update(str(seat) for seat in result)
                out.add(code)
        return out

    async def queue_drop(self, pipe: Any) -> None:
        """Queue giving up everything this worker holds (it stops); forgotten here at once."""
        for code, seats in self.claimed.items():
            await self._script(
                keys=[self.key(code)], args=[self.worker, "", "drop", self.store.channel, code, *seats], client=pipe
            )
        for code in self.watching:
            pipe.hdel(self.key(code), WATCHERS + self.worker)

    def clear(self) -> None:
        self.claimed.clear()
        self.watching.clear()
