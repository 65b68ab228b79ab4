"""The queue of several workers on one Redis (`serve --redis --workers N`): the clients queued at every worker meet.

Each worker writes its clients' tickets into one Redis hash (`{prefix}queue`: id -> the ask, who, since, and an
expiry it renews every tick, so a dead worker's tickets go by themselves). One worker at a time holds the lease
"matchmaker" (as a table's clocks have one owner): every tick, and whenever a worker says a ticket came, it reads every
ticket, chooses the tables to open as `matchmaker.choose` does, and opens them; it seats its own clients itself and adds
the others' seats, then tells their workers on `{prefix}queue:news` which seat is whose. Each worker sits its clients
down in their seats (as `reconnect` would), and the matchmaker starts the game once every seat is taken (or after
`SEAT_WAIT` seconds: a seat not taken by then is away, and waits for its player like any).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from dixit_tui.coordinator import detached
from dixit_tui.coordinator.errors import TableError
from dixit_tui.coordinator.matchmaker import Ask, Ticket, choose
from dixit_tui.coordinator.models import QueueUpdate
from dixit_tui.coordinator.player_session import PlayerSession
from dixit_tui.coordinator.service import Coordinator
from dixit_tui.engine import ErrorCode, Mode, Profile
from dixit_tui.log_caps import REPEATS
from dixit_tui.store.redis_store import RedisStore, StoreUnavailable

if TYPE_CHECKING:
    from dixit_tui.coordinator.matchmaker import Matchmaker
    from dixit_tui.coordinator.player_session import SessionTable

log = logging.getLogger(__name__)
log.addFilter(REPEATS)  # (an outage fails every tick the same way)

# ARGV: ticket id, value, ... Each ticket still in the hash is written again (its expiry renewed); a ticket the
# matchmaker took meanwhile stays out.
_RENEW = """
for i = 1, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 1 then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  end
end
return 0
"""

SEAT_WAIT = 5.0  # seconds the matchmaker waits for the other workers' clients to sit down before it starts


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class SharedQueue:
    def __init__(self, matchmaker: Matchmaker, store: RedisStore, worker: str, *, ttl: float = 6.0) -> None:
        self.matchmaker = matchmaker
        self.store = store
        self.worker = worker
        self.key = f"{self.store.prefix}queue"
        self.news = f"{self.store.prefix}queue:news"
        self.ttl = ttl
        self.mine: dict[str, Ticket] = {}  # this worker's tickets in Redis, by id
        self.lock = asyncio.Lock()  # one round at a time here
        self._tasks: list[asyncio.Task[None]] = []
        self._renew_script = self.store.client.register_script(_RENEW)

    # --- this worker's tickets ---------------------------------------------------------------------------------

    def _value(self, ticket: Ticket) -> str:
        session = ticket.session
        assert session is not None
        ask = ticket.ask
        return json.dumps(
            {
                "w": self.worker,
                "name": session.name,
                "key": session.identity.key,
                "bot": session.identity.bot,
                "mode": ask.mode.value,
                "profile": ask.profile.value,
                "low": ask.low,
                "high": ask.high,
                "fill": ask.fill_after,
                "since": ticket.since,
                "exp": time.time() + self.ttl,
            }
        )

    async def put(self, ticket: Ticket) -> None:
        ticket.id = secrets.token_hex(8)
        self.mine[ticket.id] = ticket
        try:
            await self.store.client.hset(self.key, ticket.id, self._value(ticket))
            await self.store.client.publish(self.news, json.dumps({"k": "poke"}))
        except RedisError as err:
            self.mine.pop(ticket.id, None)
            raise TableError(
                "The server cannot reach the queue just now. Try again in a moment.", ErrorCode.STORAGE
            ) from err

    def drop(self, ticket: Ticket) -> None:
        if self.mine.pop(ticket.id, None) is None:
            return

        async def forget() -> None:
            with contextlib.suppress(RedisError):
                await self.store.client.hdel(self.key, ticket.id)

        detached.spawn(forget())

    # --- the matchmaker (whoever holds the lease) ----------------------------------------------------------------

    async def round(self) -> None:
        """If this worker is the matchmaker: open every table that can open now."""
        async with self.lock:
            try:
                holder = await self.store.take_lease("matchmaker", self.worker, self.ttl)
                if holder != self.worker:
                    return
                raw = {_text(k): _text(v) for k, v in (await self.store.client.hgetall(self.key)).items()}
            except (RedisError, StoreUnavailable) as err:
                log.warning("the queue could not be read: %s", err)
                return
            tickets, gone = self._tickets(raw)
            if gone:
                with contextlib.suppress(RedisError):
                    await self.store.client.hdel(self.key, *gone)
            now = self.matchmaker.coordinator.clock()
            while (found := choose(tickets, now)) is not None:
                chosen, size = found
                try:
                    taken = await self.store.client.hdel(self.key, *[t.id for t in chosen])
                except RedisError as err:
                    log.warning("the queue could not be changed: %s", err)
                    return
                if taken != len(chosen):
                    return  # another matchmaker took some meanwhile (a lease that changed hands): next round
                for ticket in chosen:
                    tickets.remove(ticket)
                    if ticket.session is not None:
                        self.mine.pop(ticket.id, None)
                        self.matchmaker._drop(ticket.session)
                try:
                    await self.matchmaker._open(chosen, size)
                except TableError as err:
                    log.warning("the queue could not open a table: %s", err.message)
                    return

    def _tickets(self, raw: dict[str, str]) -> tuple[list[Ticket], list[str]]:
        """Every ticket still waiting, oldest first, and the ids of those to forget (expired, or left)."""
        tickets: list[Ticket] = []
        gone: list[str] = []
        now = time.time()
        for ticket_id, text in raw.items():
            data: dict[str, Any] = json.loads(text)
            if data["w"] == self.worker:
                ticket = self.mine.get(ticket_id)
                if ticket is None or not ticket.waiting():
                    gone.append(ticket_id)
                    continue
                tickets.append(ticket)
                continue
            if data["exp"] < now:
                gone.append(ticket_id)
                continue
            ask = Ask(Mode(data["mode"]), Profile(data["profile"]), data["low"], data["high"], data["fill"])
            who = (str(data["name"]), data["key"], bool(data["bot"]))
            tickets.append(Ticket(None, ask, float(data["since"]), id=ticket_id, who=who))
        tickets.sort(key=lambda t: (t.since, t.id))
        return tickets, gone

    async def seated(self, table: SessionTable, seats: list[tuple[Ticket, str]]) -> None:
        """The other workers' clients have seats at `table` (by reconnect code): tell their workers, and wait (a
        while) until they sit down."""
        for ticket, code in seats:
            message = {"k": "seat", "id": ticket.id, "table": table.code, "code": code}
            try:
                await self.store.client.publish(self.news, json.dumps(message))
            except RedisError as err:
                log.warning("could not tell a worker of its client's seat at %s: %s", table.code, err)
        codes = {code for _, code in seats}
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SEAT_WAIT
        while loop.time() < deadline:
            if all(s.session is not None for s in table.seats if s.code in codes):
                return
            await asyncio.sleep(0.02)

    # --- every worker ------------------------------------------------------------------------------------------

    async def _take(self, message: dict[str, Any]) -> None:
        if message.get("k") == "poke":
            await self.round()
            return
        ticket = self.mine.pop(str(message.get("id")), None)
        if message.get("k") != "seat" or ticket is None or ticket.session is None:
            return
        session, coordinator = ticket.session, self.matchmaker.coordinator
        assert isinstance(session, PlayerSession) and isinstance(coordinator, Coordinator)  # (this worker's own)
        self.matchmaker._drop(session)
        try:
            table = await coordinator.find_table(str(message["table"]))
            async with table.lock:
                seat = next((i for i, s in enumerate(table.seats) if s.code == message["code"]), None)
                if seat is None or not ticket.waiting():
                    return
                session.deliver(QueueUpdate(False, 0, f"A table was found: {table.code}.", table.code))
                await session._take_seat(table, seat)  # (its state comes after the queue message, as at one worker)
        except TableError as err:
            log.warning("a queued client could not take its seat at %s: %s", message.get("table"), err.message)

    async def _listen(self) -> None:
        while not detached.stopping():
            try:
                pubsub = self.store.client.pubsub()
                try:
                    await pubsub.subscribe(self.news)
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            detached.spawn(self._take(json.loads(message["data"])))
                finally:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(pubsub.aclose(), 2.0)
            except RedisError as err:
                log.warning("lost the queue's news from Redis: %s; listening again in a moment", err)
            except Exception:
                log.exception("the queue's news could not be taken")
            await asyncio.sleep(1.0)

    async def _ticking(self, every: float) -> None:
        while not detached.stopping():
            await asyncio.sleep(every)
            try:
                await self._renew()
                await self.round()
            except Exception:
                log.exception("the shared queue's tick failed")

    async def _renew(self) -> None:
        """This worker's tickets still in the queue live on (one the matchmaker took is not written back)."""
        waiting = [(i, self._value(t)) for i, t in self.mine.items() if t.waiting()]
        if not waiting:
            return
        with contextlib.suppress(RedisError):
            await self._renew_script(keys=[self.key], args=[x for pair in waiting for x in pair])

    def start(self, every: float) -> None:
        self._tasks.append(detached.spawn(self._listen(), name="shared-queue-listen"))
        self._tasks.append(detached.spawn(self._ticking(every), name="shared-queue-tick"))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=2.0)
        self._tasks.clear()
        if self.mine:
            with contextlib.suppress(RedisError):
                await self.store.client.hdel(self.key, *self.mine)
        self.mine.clear()
        with contextlib.suppress(RedisError, StoreUnavailable):
            await self.store.release_lease("matchmaker", self.worker)
