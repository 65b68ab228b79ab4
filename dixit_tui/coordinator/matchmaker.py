"""The queue: clients ask for a kind of table (mode, profile, a range of sizes) and the matchmaker seats them at a new
table as soon as enough wait for one, starts it, and leaves it to play like any table.

    await coordinator.matchmaker.queue(session, Ask(Mode.STANDARD, Profile.REFRESH, 4, 6, fill_after=30.0))
    coordinator.matchmaker.unqueue(session)

Those waiting longest go first. A ticket with `fill_after` seconds is seated once it has waited that long with the
others waiting for a table like it, and built-in bots take the seats left to its smallest size. Times are the
coordinator's `clock`: a timer looks again when the next ticket is due, and `tick()` looks now (tests drive it). A
session that closes, or sits down at a table by itself, leaves the queue.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from dixit_tui.coordinator import detached
from dixit_tui.coordinator.errors import TableError
from dixit_tui.coordinator.models import Identity, QueueUpdate, TableOptions, TableStatus, Update
from dixit_tui.coordinator.table import Table
from dixit_tui.engine import (
    ConfigError,
    ErrorCode,
    GameConfig,
    Mode,
    Profile,
    a_or_an,
    check_player_count,
    player_range,
    profile_for,
)
from dixit_tui.log_caps import REPEATS
from dixit_tui.sanitize import name_key

log = logging.getLogger(__name__)
log.addFilter(REPEATS)  # (an outage fails every tick the same way)

QUEUE_CREATOR = "queue"  # the creator of the tables the queue opens (they count against no player's cap)
MAX_FILL_AFTER = 3600.0


@dataclass(frozen=True, slots=True)
class Ask:
    """What a client queues for: the kind of table, the sizes it accepts, and when bots may fill it (None: never)."""

    mode: Mode
    profile: Profile
    low: int
    high: int
    fill_after: float | None = None

    def checked(self) -> Ask:
        """This ask with the profile the mode plays (party and team are odyssey); TableError if it cannot be met."""
        profile = profile_for(self.mode, self.profile)
        lo, hi = player_range(self.mode, profile)
        if not lo <= self.low <= self.high <= hi:
            raise TableError(
                f"{a_or_an(_label(self.mode, profile))} table seats {lo} to {hi} players.", ErrorCode.BAD_OPTION
            )
        if self.fill_after is not None and not 0 <= self.fill_after <= MAX_FILL_AFTER:
            raise TableError("fill_with_bots_after runs from 0 seconds to an hour.", ErrorCode.BAD_OPTION)
        sizes = [n for n in range(self.low, self.high + 1) if _playable(self.mode, profile, n)]
        if not sizes:
            raise TableError("A team table seats an even number of players.", ErrorCode.BAD_OPTION)
        return Ask(self.mode, profile, self.low, self.high, self.fill_after)

    def kind(self) -> tuple[Mode, Profile]:
        return self.mode, self.profile

    def accepts(self, size: int) -> bool:
        return self.low <= size <= self.high and _playable(self.mode, self.profile, size)


QUICK_GAME_BOTS_AFTER = 30.0  # seconds a quick game waits for people before bots fill its table


def quick_game_ask(bots: bool) -> Ask:
    """The lobby's quick game: a standard (refresh) table of 4 to 6; with built-in bots on the server, they fill it
    after `QUICK_GAME_BOTS_AFTER` seconds."""
    return Ask(Mode.STANDARD, Profile.REFRESH, 4, 6, QUICK_GAME_BOTS_AFTER if bots else None)


def _label(mode: Mode, profile: Profile) -> str:
    return profile.value if mode is Mode.STANDARD else mode.value


def _playable(mode: Mode, profile: Profile, size: int) -> bool:
    try:
        check_player_count(GameConfig(mode, profile), size)
    except ConfigError:
        return False
    return True


class Queued(Protocol):
    """What the queue uses of a session (a `player_session.PlayerSession`)."""

    name: str
    identity: Identity
    table: Table[Any] | None
    closed: bool

    def deliver(self, update: Update) -> None: ...


class QueueHost(Protocol):
    """What the matchmaker uses of its coordinator (`service.Coordinator`)."""

    @property
    def bots(self) -> object: ...  # None: no built-in bots

    @property
    def clock(self) -> Callable[[], float]: ...

    def create_table(self, options: TableOptions, *, creator: str | None = None) -> Table[Any]: ...

    async def changed(self, table: Table[Any], updates: Sequence[Update] = (), *, lobby: bool = False) -> None: ...

    async def seat_bots(self, code: str, count: int) -> int: ...

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None: ...


@dataclass(eq=False, slots=True)
class Ticket:
    session: Queued | None  # None: a client of another worker (`SharedQueue`), `who` says who
    ask: Ask
    since: float  # the coordinator's clock when it queued
    id: str = ""  # in the shared queue
    who: tuple[str, str | None, bool] = ("", None, False)  # another worker's client: (name, key, bot)

    def due(self) -> float | None:
        return None if self.ask.fill_after is None else self.since + self.ask.fill_after

    def waiting(self) -> bool:
        """Still waiting: a client of another worker, or one of this worker's not closed and at no table."""
        return self.session is None or (not self.session.closed and self.session.table is None)


class QueueSharing(Protocol):
    """What differs when the clients of other workers queue too: the matchmaker is handed one and never asks which
    (`queue_sharing.LocalQueue`: one process alone; `shared.SharedQueue`: the one queue of several workers)."""

    async def put(self, ticket: Ticket) -> None:
        """A ticket of this worker's came: share it, and have a table opened if one can open now. TableError if the
        ticket cannot be shared."""

    def drop(self, ticket: Ticket) -> None:
        """A ticket of this worker's left the queue: it is shared no more."""

    async def round(self) -> None:
        """Open every table that can open now (with several workers, only the one matchmaker of them all does)."""

    async def seated(self, table: Table[Any], seats: list[tuple[Ticket, str]]) -> None:
        """The clients of other workers have seats at `table` (by reconnect code): have them sit down."""

    async def stop(self) -> None:
        """This worker stops sharing the queue."""


class Matchmaker:
    def __init__(self, coordinator: QueueHost, sharing: Callable[[Matchmaker], QueueSharing]) -> None:
        """`sharing` makes what sharing the queue with other workers changes (the coordinator's `Sharing.queue`)."""
        self.coordinator = coordinator
        self.tickets: list[Ticket] = []  # oldest first
        self.lock = asyncio.Lock()  # one seating at a time
        self.timer: asyncio.TimerHandle | None = None
        self.seated = 0  # tables the queue opened, ever
        self.sharing = sharing(self)

    # --- the queue ---------------------------------------------------------------------------------------------

    async def queue(self, session: Queued, ask: Ask) -> None:
        """Queue `session` for a table like `ask` (again: the new ask replaces the old). TableError if it cannot."""
        ask = ask.checked()
        if session.table is not None:
            raise TableError("You are at a table: leave it first to queue for another.", ErrorCode.AT_TABLE)
        if ask.fill_after is not None and self.coordinator.bots is None:
            raise TableError("This server has no built-in bots to fill a table with.", ErrorCode.NO_BOTS)
        self.unqueue(session, quietly=True)
        ticket = Ticket(session, ask, self.coordinator.clock())
        self.tickets.append(ticket)
        self._tell_waiting(ask.kind())
        await self.sharing.put(ticket)

    def unqueue(self, session: Queued, *, quietly: bool = False) -> bool:
        """Take `session` out of the queue (it asked, or closed). Returns whether it was in it."""
        ticket = self._drop(session)
        if ticket is None:
            return False
        self.sharing.drop(ticket)
        if quietly:
            return True
        if not session.closed:
            session.deliver(QueueUpdate(False, self._waiting(ticket.ask.kind()), "You left the queue."))
        self._tell_waiting(ticket.ask.kind())
        self._arm()
        return True

    def waiting(self) -> int:
        return len(self.tickets)

    def queued(self, session: Queued) -> bool:
        """Whether `session` waits in the queue (a headless client waiting there is not idle)."""
        return any(t.session is session for t in self.tickets)

    def _drop(self, session: Queued) -> Ticket | None:
        ticket = next((t for t in self.tickets if t.session is session), None)
        if ticket is not None:
            self.tickets.remove(ticket)
        return ticket

    def _waiting(self, kind: tuple[Mode, Profile]) -> int:
        return sum(t.ask.kind() == kind for t in self.tickets)

    def _tell_waiting(self, kind: tuple[Mode, Profile]) -> None:
        count = self._waiting(kind)
        for ticket in self.tickets:
            if ticket.ask.kind() == kind and ticket.session is not None:
                ask = ticket.ask
                sizes = f"{ask.low}" if ask.low == ask.high else f"{ask.low} to {ask.high}"
                text = f"In the queue for a {_label(*kind)} table of {sizes} players: {count} waiting."
                ticket.session.deliver(QueueUpdate(True, count, text))

    # --- seating -------------------------------------------------------------------------------------------------

    async def tick(self) -> None:
        """Seat whoever can be seated now, bots filling the tables of tickets that are due (the timer calls it)."""
        await self.match()

    async def match(self) -> None:
        await self.sharing.round()  # (with several workers, the one matchmaker of them all decides)

    async def seat_here(self) -> None:
        """Seat whoever can be seated now, this process alone deciding (`LocalQueue`)."""
        async with self.lock:
            while (found := self._next_table()) is not None:
                tickets, size = found
                for ticket in tickets:
                    self.tickets.remove(ticket)
                try:
                    await self._open(tickets, size)
                except TableError as err:
                    log.warning("the queue could not open a table: %s", err.message)
                    self.tickets[:0] = [t for t in tickets if t.waiting()]
                    break
        self._arm()

    def _next_table(self) -> tuple[list[Ticket], int] | None:
        """The tickets to seat at one table now and its size, or None. Sessions that left meanwhile are dropped."""
        self.tickets = [t for t in self.tickets if t.waiting()]
        return choose(self.tickets, self.coordinator.clock())

    async def _open(self, tickets: Sequence[Ticket], size: int) -> None:
        """A new table for `tickets` (its host: the one waiting longest), bots in the seats left, started. The
        clients of other workers (the shared queue) are seated by their worker, told by `sharing.seated`."""
        coordinator = self.coordinator
        ask = tickets[0].ask
        options = TableOptions(mode=ask.mode.value, profile=ask.profile.value, seats=size)
        table = coordinator.create_table(options, creator=QUEUE_CREATOR)
        remote: list[tuple[Ticket, int]] = []
        async with table.lock:
            taken: set[str] = set()
            for ticket in tickets:
                session = ticket.session
                who = ticket.who if session is None else (session.name, session.identity.key, session.identity.bot)
                wanted, key, bot = who
                name = _free_name(wanted, taken)
                taken.add(name_key(name))
                seat = table.add_seat(name, key, bot=bot)
                if session is None:
                    remote.append((ticket, seat))
                    continue
                session.name, session.table = name, table
                table.sit(seat, session)
                session.deliver(QueueUpdate(False, 0, f"A table was found: {table.code}.", table.code))
            await coordinator.changed(table, lobby=True)
        if remote:
            await self.sharing.seated(table, [(t, table.seats[seat].code) for t, seat in remote])
        bots = size - len(tickets)
        if bots:
            try:
                await coordinator.seat_bots(table.code, bots)
            except TableError as err:
                log.warning("queue table %s: bots could not sit: %s", table.code, err.message)
        await self._start(table)
        self.seated += 1
        log.info("queue: table %s opened for %d (%d bots)", table.code, size, bots)

    async def _start(self, table: Table[Any]) -> None:
        coordinator = self.coordinator
        async with table.lock:
            if table.status is not TableStatus.LOBBY:
                return
            try:
                updates = table.start()
            except TableError as err:  # someone left before the start: the table waits in its lobby, like any
                table.announce(f"The game could not start: {err.message}")
                updates = []
            await coordinator.changed(table, updates, lobby=True)

    def _arm(self) -> None:
        """One timer, for the next ticket due to be filled with bots."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        dues = [d for t in self.tickets if (d := t.due()) is not None]
        if not dues:
            return
        delay = max(0.0, min(dues) - self.coordinator.clock())
        self.timer = detached.call_later(delay, lambda: self.coordinator._spawn(self.tick()))


def choose(tickets: Sequence[Ticket], now: float) -> tuple[list[Ticket], int] | None:
    """The tickets (oldest first) to seat at one table now, and its size; None if no table can open yet."""
    kinds = list(dict.fromkeys(t.ask.kind() for t in tickets))
    for kind in kinds:
        group = [t for t in tickets if t.ask.kind() == kind]
        for size in range(max(t.ask.high for t in group), 0, -1):  # the biggest table that can sit now
            fits = [t for t in group if t.ask.accepts(size)]
            if len(fits) >= size:
                return fits[:size], size
        for ticket in group:  # oldest first: a ticket due fills its smallest table with bots
            due = ticket.due()
            if due is not None and now >= due:
                size = min(n for n in range(ticket.ask.low, ticket.ask.high + 1) if ticket.ask.accepts(n))
                others = [t for t in group if t is not ticket and t.ask.accepts(size)]
                return [ticket, *others[: size - 1]], size
    return None


def _free_name(name: str, taken: set[str]) -> str:
    """`name`, or with a number after it if someone at the new table already has it."""
    if name_key(name) not in taken:
        return name
    for number in range(2, 100):
        candidate = f"{name[: 20 - len(str(number))]}{number}"
        if name_key(candidate) not in taken:
            return candidate
    return name
