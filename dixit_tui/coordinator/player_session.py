"""A session: one connected client's way to the coordinator (an SSH TUI, a headless JSON client, a bot). Every
command is a method; updates come back through the session's sink. A change is applied under its table's lock,
committed to the store, and only then shown to anyone (`service.Coordinator.changed`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from dixit_tui.coordinator.codes import normalize_code
from dixit_tui.coordinator.errors import TableError
from dixit_tui.coordinator.limits import CreateMeter, ReconnectGuard, TableLimits, address_key, network_of
from dixit_tui.coordinator.matchmaker import Matchmaker, quick_game_ask
from dixit_tui.coordinator.models import (
    Identity,
    LiveKind,
    LobbyUpdate,
    NoticeUpdate,
    StateUpdate,
    TableLock,
    TableOptions,
    TableStatus,
    TableSummary,
    TableView,
    Update,
    mode_text,
)
from dixit_tui.coordinator.retry import retry_on_conflict, retrying
from dixit_tui.coordinator.sharing import Sharing
from dixit_tui.coordinator.table import ChatLimiter, Table
from dixit_tui.coordinator.tallies import Tally
from dixit_tui.coordinator.timers import Timers
from dixit_tui.coordinator.wording import NO_BOTS, and_list, duration, plural
from dixit_tui.engine import (
    Command,
    ErrorCode,
    GiveClue,
    RemovePlayer,
    Submit,
    VoidTurn,
    Vote,
)
from dixit_tui.log_caps import REPEATS
from dixit_tui.ratings import Ratings, Standing, standings
from dixit_tui.sanitize import CLUE_MAX, clean_chat, clean_name, log_text, name_key, sanitize
from dixit_tui.store.base import Store
from dixit_tui.transcript import StandInMove, stand_in_moves

log = logging.getLogger(__name__)
log.addFilter(REPEATS)

Sink = Callable[[Update], None]

INVITES_MAX = 32  # names a host may invite to one table

SessionTable = Table["PlayerSession"]  # a table of this coordinator: its seats and spectators are sessions


class SessionHost(Protocol):
    """What a session uses of its coordinator (`service.Coordinator`, which makes the sessions)."""

    limits: TableLimits
    tables: dict[str, SessionTable]
    sessions: set[PlayerSession]
    store: Store
    sharing: Sharing[Any]
    matchmaker: Matchmaker
    timers: Timers
    ratings: Ratings
    tally: Tally
    create_meter: CreateMeter
    reconnect_guard: ReconnectGuard
    rename_limiter: ChatLimiter
    clock: Callable[[], float]

    @property
    def bots(self) -> object: ...  # None: no built-in bots

    def summaries(self) -> tuple[TableSummary, ...]: ...

    def unattended(self) -> list[SessionTable]: ...

    async def make_room(self) -> bool: ...

    def checked_options(self, options: TableOptions) -> TableOptions: ...

    def create_table(
        self, options: TableOptions, *, creator: str | None = None, creator_ip: str | None = None
    ) -> SessionTable: ...

    def rematch_table(self, old: Table[Any]) -> tuple[SessionTable, dict[int, int]]: ...

    async def find_table(self, code: str) -> SessionTable: ...

    def forget_if_empty(self, table: Table[Any]) -> None: ...

    async def seat_bots(self, code: str, count: int, *, names: Sequence[str] | None = None) -> int: ...

    async def commit(self, table: Table[Any]) -> None: ...

    async def changed(
        self,
        table: Table[Any],
        updates: Sequence[Update] = (),
        *,
        lobby: bool = False,
        first: PlayerSession | None = None,
    ) -> None: ...

    def broadcast(
        self, table: Table[Any], updates: Sequence[Update] = (), *, first: PlayerSession | None = None
    ) -> None: ...

    def schedule(self, table: Table[Any]) -> None: ...

    def set_typing(self, table: Table[Any], seat: int, active: bool) -> None: ...

    def publish_seen(self, table: Table[Any], turn: int, seat: int) -> None: ...

    def reveal_seen(self, table: Table[Any], turn: int, seat: int) -> None: ...


def _who_sits(table: Table, seat: int) -> tuple[str | None, str | None]:
    """The key of the player in `seat`, and (keyless) the address they are connected from, to keep them out."""
    if not 0 <= seat < len(table.seats):
        return None, None
    record = table.seats[seat]
    session = record.session
    identity = getattr(session, "identity", None)  # a seat held at another worker has none here
    peer = identity.peer if isinstance(identity, Identity) else None
    return record.key, (peer if record.key is None else None)


def _returning_seat(table: Table, name: str) -> int | None:
    """The seat of a player (not a bot, not removed) called `name` at this table: someone coming back after the
    start with the same name, who gets it back with their reconnect code (a key-bound seat also by its key)."""
    key = name_key(name)
    return next((i for i, s in enumerate(table.seats) if not s.removed and not s.bot and name_key(s.name) == key), None)


class PlayerSession:
    """One connected client. Every method either changes something and pushes views, or raises a RuleError.

    A change is applied under its table's lock, committed to the store, and only then shown to anyone.
    """

    def __init__(self, coordinator: SessionHost, identity: Identity, sink: Sink, *, builtin_bot: bool = False) -> None:
        self.coordinator = coordinator
        self.identity = identity
        self.name = clean_name(identity.name) or "guest"
        if self.name != identity.name:
            log.info("name %r (from %s) is %s here", identity.name[:64], identity.peer or "?", log_text(self.name))
        self.sink = sink
        self.builtin_bot = builtin_bot  # a built-in bot: it stops when its game ends (a rematch seats a fresh one)
        self.shows_reveal = False  # a screen that shows each reveal until its person moves on (`reveal_seen`)
        self.table: SessionTable | None = None
        self.closed = False
        # the table's version the client's next move was decided on (protocol `version`); None: not checked
        self.expected_version: int | None = None
        self.last: Update | None = None  # the last update delivered (an equal view or listing need not follow it)

    # --- plumbing --------------------------------------------------------------------------------------------

    def deliver(self, update: Update) -> None:
        if self.closed:
            return
        self.last = update
        try:
            self.sink(update)
        except Exception:  # a broken session must never break the others
            log.exception("delivering to %s failed", self.name)

    @property
    def seat(self) -> int | None:
        return self.table.seat_of(self) if self.table is not None else None

    def view(self) -> TableView | None:
        return self.table.view_for(self) if self.table is not None else None

    def _need_table(self) -> Table:
        if self.table is None:
            raise TableError("You are not at a table. Join or create one first.", ErrorCode.NO_TABLE)
        return self.table

    def _need_seat(self) -> tuple[Table, int]:
        table = self._need_table()
        seat = table.seat_of(self)
        if seat is None:
            raise TableError("Spectators watch; only seated players can do that.", ErrorCode.SPECTATOR)
        return table, seat

    async def _enter(self, table: Table) -> None:
        if self.table is not None and self.table is not table:
            await self._leave_quietly(chosen=True)
        self.table = table

    # --- lobby -----------------------------------------------------------------------------------------------

    async def tables(self) -> tuple[TableSummary, ...]:
        return self.coordinator.summaries()

    def owner(self) -> str:
        """Who counts as the creator of a table for the per-player cap: the SSH key, or the name without one."""
        return f"key:{self.identity.key}" if self.identity.key is not None else f"name:{name_key(self.name)}"

    def _check_table_caps(self) -> None:
        coordinator = self.coordinator
        limits = coordinator.limits
        tables = list(coordinator.tables.values())
        owner, address = self.owner(), self.identity.peer
        if sum(t.creator == owner for t in tables) >= limits.max_tables_per_player:
            raise TableError(
                f"You already have {plural(limits.max_tables_per_player, 'open table')}, your most: "
                "play or leave one of them first.",
                ErrorCode.TOO_MANY_TABLES,
            )
        here = address_key(address)
        if here is not None and sum(address_key(t.creator_ip) == here for t in tables) >= limits.max_tables_per_ip:
            raise TableError(
                f"{plural(limits.max_tables_per_ip, 'open table')} were already created from your address, its most: "
                "join one of them, or try again later.",
                ErrorCode.TOO_MANY_TABLES,
            )
        self._check_abandoned()

    async def _charge_create(self) -> None:
        """Tables created are metered per creator, address and network (`creates_per_*` in `create_window`): a
        create/leave loop costs the server a record, a code and every lobby's listing each time."""
        coordinator = self.coordinator
        meter = coordinator.create_meter
        owner, address = self.owner(), self.identity.peer
        full = meter.charge(owner, address)
        if full is None:  # and at every worker
            keys = meter.keys(owner, address)
            if await coordinator.sharing.count_try(keys, coordinator.limits.create_window) is None:
                full = keys[0][0]
        if full is None:
            return
        per = "player" if full == f"create:{owner}" else "address" if full.startswith("create:ip:") else "network"
        source = owner if per == "player" else network_of(address) if per == "network" else address
        coordinator.tally.count(f"creates refused: too many tables created, per {per}", source)
        minutes = max(1, round(coordinator.limits.create_window / 60))
        raise TableError(
            f"That is a lot of new tables from {'you' if per == 'player' else 'your ' + per}: "
            f"try again within {minutes} minutes, or join a table.",
            ErrorCode.RATE_LIMITED,
        )

    def _check_abandoned(self) -> None:
        """Running games left with nobody at them are capped per creator, address and network: a new table is
        refused until one of them has a person back, or closes."""
        coordinator = self.coordinator
        limits = coordinator.limits
        left = coordinator.unattended()
        owner, address = self.owner(), self.identity.peer
        network = network_of(address)
        caps = [
            (sum(t.creator == owner for t in left), limits.abandoned_per_player, "one player", "player", owner),
            (
                sum(address_key(t.creator_ip) == address_key(address) for t in left),
                limits.abandoned_per_ip,
                "your address",
                "address",
                address,
            ),
            (
                sum(network_of(t.creator_ip) == network for t in left) if network is not None else 0,
                limits.abandoned_per_network,
                "your network",
                "network",
                network,
            ),
        ]
        for count, cap, who, per, source in caps:
            if source is not None and count >= cap:
                coordinator.tally.count(f"creates refused: too many running games left with nobody, per {per}", source)
                raise TableError(
                    f"Games left running with nobody at them: {count}, the most {who} may have. "
                    "Go back to one, or wait for them to close, before you open another table.",
                    ErrorCode.TOO_MANY_TABLES,
                )

    @retry_on_conflict  # another worker took the same code at the same moment: a new code
    async def create(self, options: TableOptions) -> TableView:
        self._check_table_caps()  # bots too: anyone can say they are one
        await self._charge_create()
        if len(self.coordinator.tables) >= self.coordinator.limits.max_tables:
            await self.coordinator.make_room()  # a game nobody is at does not keep out someone who is here
        table = self.coordinator.create_table(options, creator=self.owner(), creator_ip=self.identity.peer)
        await self._enter(table)
        async with table.lock:
            seat = table.add_seat(self.name, self.identity.key, bot=self.identity.bot, builtin=self.builtin_bot)
            table.sit(seat, self)
            await self.coordinator.changed(table, lobby=True)
        return table.view_for(self)

    @retry_on_conflict
    async def join(self, code: str, name: str | None = None) -> TableView:
        """Take a seat; with the key (or the session already) owning one at this table, return to it."""
        table = await self.coordinator.find_table(code)
        async with table.lock:
            seat = table.seat_for_key(self.identity.key)
            if seat is None:
                seat = table.seat_of(self)
            if seat is None and self.identity.bot:  # a rematch keeps its bots' seats
                seat = table.empty_bot_seat(clean_name(name) if name is not None else self.name)
            if seat is None:
                wanted = clean_name(name) if name is not None else self.name
                if not wanted:
                    raise TableError("A name needs at least one visible letter.", ErrorCode.BAD_NAME)
                returning = _returning_seat(table, wanted) if table.game is not None else None
                if returning is None:  # a seat of one's own comes back with its key or code, whoever was removed
                    self._check_kept_out(table)
                if not self.builtin_bot:  # the host's own bots sit down whatever the lock
                    table.check_new_seat(wanted)
                game = "is over" if table.status is TableStatus.OVER else "has started"
                if returning is not None and table.seats[returning].key is not None:
                    raise TableError(
                        f"The game at table {table.code} {game}, and {wanted} has a seat there, taken with an "
                        "SSH key: connect with that key to get it back.",
                        ErrorCode.KEY_REQUIRED,
                    )
                if returning is not None:
                    raise TableError(
                        f"The game at table {table.code} {game}, and {wanted} has a seat there. "
                        "Is it yours? Get it back with your reconnect code.",
                        ErrorCode.RECONNECT_NEEDED,
                    )
                seat = table.add_seat(wanted, self.identity.key, bot=self.identity.bot, builtin=self.builtin_bot)
                self.name = wanted
            await self._take_seat(table, seat)
        return table.view_for(self)

    @retry_on_conflict
    async def reclaim(self, reconnect_code: str) -> TableView:
        """Return to a seat with its reconnect code (for players without a key: a seat taken with an SSH key goes
        back only to that key). Tries are counted per connection, address, network and in all; a wrong code is
        answered after a growing delay, and past the limits tries are refused without looking (too_many_tries)."""
        guard = self.coordinator.reconnect_guard
        address = self.identity.peer
        sharing = self.coordinator.sharing
        refusal = guard.attempt(self, address)
        token: str | None = None
        if refusal is None:  # the address's tries at every worker
            token = await sharing.count_try(guard.keys(address), guard.limits.reconnect_window)
            if token is None:
                refusal = guard.from_here()
        if refusal is not None:
            log.debug("reconnect try refused for %s from %s: too many wrong codes", self.name, address)
            self.coordinator.tally.count("reconnect tries refused: too many wrong codes", address)
            await asyncio.sleep(guard.longest_delay())  # and no quicker answers for a client that keeps on trying
            raise TableError(refusal, ErrorCode.TOO_MANY_TRIES)
        wanted = normalize_code(reconnect_code)
        problem = TableError("That reconnect code matches no seat. Check it and try again.", ErrorCode.BAD_CODE)
        # a rematch keeps the codes: the table still to be played comes before the one that is over
        for table in sorted(self.coordinator.tables.values(), key=lambda t: t.status == TableStatus.OVER):
            async with table.lock:
                seat = table.seat_for_code(wanted)
                if seat is None:
                    continue
                owner = table.seats[seat].key
                if owner is not None and owner != self.identity.key:
                    problem = TableError(
                        "That seat was taken with an SSH key: only that key gets it back. "
                        "Connect with it and join the table again.",
                        ErrorCode.KEY_REQUIRED,
                    )
                    break
                guard.forgive(self, address)
                if token is not None:
                    await sharing.forgive_try(guard.keys(address), token)
                await self._take_seat(table, seat)
                return table.view_for(self)
        self.coordinator.tally.count(f"reconnect codes refused ({problem.code})", address)
        wait = guard.delay(self)
        if wait > 0:
            await asyncio.sleep(wait)
        raise problem

    def _check_kept_out(self, table: Table) -> None:
        if table.keeps_out(self.identity.key, self.identity.peer):
            if self.identity.key is None:  # kept out by address: maybe someone else there was removed
                raise TableError(
                    f"The host of table {table.code} removed a player without an SSH key from your address, so it "
                    "takes no one else from there without a key: connect with an SSH key to join.",
                    ErrorCode.REMOVED,
                )
            raise TableError(
                f"The host of table {table.code} removed you from it: you cannot come back.", ErrorCode.REMOVED
            )

    async def _take_seat(self, table: Table, seat: int) -> None:
        if self.table is not None and self.table is not table:
            await self._leave_quietly(chosen=True)
        self.table = table
        previous = table.sit(seat, self)
        if previous is not None:
            previous.table = None
            previous.deliver(NoticeUpdate("You joined this table from another terminal."))
            previous.deliver(StateUpdate(None))
        self.name = table.seats[seat].name
        self.last = None  # asked for: shown the table even if this session was sent this very view last
        await self.coordinator.changed(table, lobby=True)

    @retry_on_conflict
    async def watch(self, code: str) -> TableView:
        table = await self.coordinator.find_table(code)
        if table.seat_of(self) is not None:  # already playing here: you see it already
            return table.view_for(self)
        await self._enter(table)
        async with table.lock:
            table.watch(self)
            await self.coordinator.changed(table, lobby=True)
        return table.view_for(self)

    def standings(self, limit: int = 50) -> tuple[Standing, ...]:
        """The leaderboard as the lobby's page shows it: the best `limit` players, this player's own row marked."""
        return standings(self.coordinator.ratings, self.identity.key, limit)

    async def quick_game(self) -> bool:
        """The lobby's quick game: queue for a standard table of 4 to 6 (bots fill it after a while, on a server with
        them), or leave the queue if already in it. Returns whether this session is queued now."""
        matchmaker = self.coordinator.matchmaker
        if matchmaker.unqueue(self):
            return False
        await matchmaker.queue(self, quick_game_ask(self.coordinator.bots is not None))
        return True

    async def leave(self) -> None:
        """Back to the lobby. Before the start the seat is freed; during a game it is kept for your return."""
        self._need_table()
        await self._leave_quietly(chosen=True)
        self.deliver(StateUpdate(None))
        self.deliver(LobbyUpdate(self.coordinator.summaries()))

    async def _leave_quietly(self, chosen: bool = False) -> None:
        """Off the current table, if any: `chosen` when the player asked for it, not when the connection ended."""
        table = self.table
        if table is None:
            return
        self.table = None
        try:
            await self._leave_table(table, chosen)
        except TableError as err:
            if err.code != ErrorCode.NO_TABLE:
                raise
            table.spectators.discard(self)  # it closed meanwhile (at another worker): there is nothing to leave

    @retry_on_conflict
    async def _leave_table(self, table: Table, chosen: bool = False) -> None:
        async with table.lock:
            table.leave(self, self.coordinator.clock(), chosen)
            self.coordinator.forget_if_empty(table)
            await self.coordinator.changed(table, lobby=True)

    async def close(self) -> None:
        """The connection ended (quit or drop). A seated player keeps their seat in a running game."""
        if self.closed:
            return
        self.coordinator.matchmaker.unqueue(self)
        try:
            await self._leave_quietly()
        finally:
            self.closed = True
            self.coordinator.sessions.discard(self)
            self.coordinator.reconnect_guard.forget(self)

    @retry_on_conflict
    async def rename(self, name: str) -> None:
        cleaned = clean_name(name)
        if not cleaned:
            raise TableError("A name needs at least one visible letter.", ErrorCode.BAD_NAME)
        if not self.coordinator.rename_limiter.allow(self):
            raise TableError("That's a lot of new names: try again in a minute.", ErrorCode.RATE_LIMITED)
        table = self.table
        if table is not None:
            async with table.lock:
                seat = table.seat_of(self)
                if seat is not None:
                    table.rename(seat, cleaned)
                    await self.coordinator.changed(table, lobby=True)
        self.name = cleaned

    # --- the table -------------------------------------------------------------------------------------------

    @retry_on_conflict
    async def start(self, *, practice: bool = False) -> None:
        """Host only: start the game; with `practice`, it opens with an unscored practice turn the host tells."""
        table, seat = self._need_seat()
        async with table.lock:
            if seat != table.host:
                raise TableError("Only the host can start the game.", ErrorCode.NOT_HOST)
            updates = table.start(practice=practice)
            away = table.away_names()
            if away:  # a rematch's seat nobody came back to: the table does not wait for it forever
                grace = duration(self.coordinator.timers.disconnect_grace)
                names = and_list(away)
                verb = "is" if len(away) == 1 else "are"
                waits = f"when the game waits for them, a stand-in plays after {grace}"
                table.announce(f"{names} {verb} not here: {waits}.")
            await self.coordinator.changed(table, updates, lobby=True)

    async def add_bots(self, count: int) -> int:
        """Host only, before the start: seat up to `count` built-in bots. Returns how many sat down."""
        table, seat = self._need_seat()
        if seat != table.host:
            raise TableError("Only the host can add bots.", ErrorCode.NOT_HOST)
        if self.coordinator.bots is None:
            raise TableError(NO_BOTS, ErrorCode.NO_BOTS)
        if table.game is not None:
            raise TableError("Bots can join before the game starts.", ErrorCode.STARTED)
        if not 1 <= count <= table.max_seats:
            raise TableError(f"Add between 1 and {table.max_seats} bots.", ErrorCode.BAD_OPTION)
        most = self.coordinator.limits.max_bots_per_table
        seated = sum(seat.builtin and not seat.removed for seat in table.seats)
        if seated + count > most:
            left = most - seated
            room = f"you can add {plural(left, 'more bot')}" if left > 0 else "it has all it may have"
            raise TableError(f"A table here takes at most {plural(most, 'bot')}: {room}.", ErrorCode.TOO_MANY_BOTS)
        return await self.coordinator.seat_bots(table.code, count)

    async def rematch(self) -> TableView:
        """Host only, once the game is over: a new table with the same options and seats. Everyone at this table
        (spectators too) moves to its lobby, in the same seat; the bots sit down again. This table's game stays
        in the store, so it can still be replayed. Returns the host's view of the new table."""
        old, seat = self._need_seat()
        coordinator = self.coordinator
        async with old.lock:
            if seat != old.host:
                raise TableError("Only the host can start a rematch.", ErrorCode.NOT_HOST)
            if old.status != TableStatus.OVER:
                raise TableError("A rematch can start once the game is over.", ErrorCode.NOT_OVER)
            new, moved = coordinator.rematch_table(old)
            host = old.seats[seat].name
            async with new.lock:
                bots, arriving = old.hand_over(new, moved)  # a built-in bot stops with its game: a fresh one sits
                for session in arriving:
                    session.table = new
                await coordinator.commit(new)
                for session in arriving:
                    text = "You" if session is self else host
                    session.deliver(NoticeUpdate(f"{text} started a rematch: table {new.code}."))
                await coordinator.changed(new)
            await self._point_to_rematch(old, new, host)
        if bots:
            try:
                await coordinator.seat_bots(new.code, len(bots), names=bots)
            except TableError as err:  # the table went away meanwhile: nothing to re-seat
                log.info("rematch %s: bots not re-seated: %s", new.code, err.message)
        return new.view_for(self)

    async def _point_to_rematch(self, old: Table, new: Table, host: str) -> None:
        """The old table says where its rematch is (under its lock, once the new table is saved): the players and
        spectators at other workers follow it there. Another worker's change to the old table at the same moment (a
        chat line, someone leaving) wins the race: the replica catches up and the pointer is written again."""
        coordinator = self.coordinator

        async def point() -> None:
            old.announce(f"{host} started a rematch: table {new.code}.")
            old.pending[-1]["rematch"] = new.code  # (where the players at other workers follow)
            coordinator.forget_if_empty(old)
            await coordinator.changed(old, lobby=True)

        # (the lock is held: taking it is what catches the table up)
        await retrying(point, between=lambda: coordinator.sharing.catch_up(old))

    @retry_on_conflict
    async def change_options(self, options: TableOptions) -> TableView:
        """Host only, before the start (a rematch's lobby too): the table's mode, rules and other options change.
        The seats stay; a mode with fewer seats than are taken is refused. Everyone at the table reads the change."""
        table, seat = self._need_seat()
        checked = self.coordinator.checked_options(options)
        async with table.lock:
            if seat != table.host:
                raise TableError("Only the host can change the table's options.", ErrorCode.NOT_HOST)
            if table.game is not None:
                raise TableError("The options are fixed once the game has started.", ErrorCode.STARTED)
            most = min(checked.seats or checked.max_seats(), checked.max_seats())
            taken = len(table.seats)
            if taken > most:
                raise TableError(
                    f"A {mode_text(checked.label())} table has at most {most} seats, and {taken} are taken.",
                    ErrorCode.BAD_OPTION,
                )
            table.set_options(checked, table.seats[seat].name)
            await self.coordinator.changed(table, lobby=True)
        return table.view_for(self)

    async def practice(self) -> None:
        """Host only, before the game: start it with a practice turn. The table plays turn 0 like any turn (the host
        tells); nothing it scores counts, then every card is dealt again and turn 1 begins."""
        await self.start(practice=True)

    async def clue(self, text: str, card: str | None = None) -> None:
        table, seat = self._need_seat()
        # sanitised with room to spare, so an over-long clue gets the engine's clear error instead of a silent cut
        await self._run(table, GiveClue(seat, sanitize(text, 4 * CLUE_MAX), card))

    async def submit(self, cards: Sequence[str]) -> None:
        table, seat = self._need_seat()
        await self._run(table, Submit(seat, tuple(cards)))

    async def vote(self, slots: Sequence[int], red: int | None = None) -> None:
        table, seat = self._need_seat()
        await self._run(table, Vote(seat, tuple(slots), red))

    async def void(self) -> None:
        table, seat = self._need_seat()
        await self._run(table, VoidTurn(seat))

    @retry_on_conflict
    async def remove(self, target: int) -> None:
        """Remove a player (the host; or yourself). Someone the host removes may no longer take a seat at the table
        (they may still watch it): kept out by their key, or by their address if they have none."""
        table, seat = self._need_seat()
        if table.game is not None:
            await self._run(table, RemovePlayer(seat, target), ban=_who_sits(table, target) if seat != target else None)
            return
        async with table.lock:
            if seat != table.host and seat != target:
                raise TableError("Only the host can remove another player.", ErrorCode.NOT_HOST)
            if not 0 <= target < len(table.seats):
                raise TableError("That seat has no player.", ErrorCode.NO_SEAT)
            if seat != target:
                table.ban(*_who_sits(table, target))
            gone = table.leave_lobby_seat(target, removed_by="host" if seat != target else None)
            if gone is not None:
                gone.table = None
                if gone is not self:
                    gone.deliver(NoticeUpdate("The host removed you from the table."))
                gone.deliver(StateUpdate(None))
            await self.coordinator.changed(table, lobby=True)

    @retry_on_conflict
    async def lock(self, to: TableLock | str) -> None:
        """Host only: who may take a new seat. OPEN: anyone (the lobby lists the table); CODE: only people who have
        its code (the lobby does not list it); INVITED: only the names the host invited (`invite`)."""
        try:
            lock = TableLock(to)
        except ValueError:
            choices = " or ".join(f'"{e}"' for e in TableLock)
            raise TableError(f"A table's lock is {choices}.", ErrorCode.BAD_OPTION) from None
        table, seat = self._need_seat()
        async with table.lock:
            if seat != table.host:
                raise TableError("Only the host can lock or open the table.", ErrorCode.NOT_HOST)
            table.set_lock(lock)
            await self.coordinator.changed(table, lobby=True)

    @retry_on_conflict
    async def invite(self, name: str) -> None:
        """Host only: the player called `name` may take a seat at a table locked to the invited."""
        cleaned = clean_name(name)
        if not cleaned:
            raise TableError("A name needs at least one visible letter.", ErrorCode.BAD_NAME)
        table, seat = self._need_seat()
        async with table.lock:
            if seat != table.host:
                raise TableError("Only the host can invite players.", ErrorCode.NOT_HOST)
            if len(table.invited) >= INVITES_MAX and name_key(cleaned) not in table.invited:
                raise TableError(f"A table keeps at most {INVITES_MAX} invitations.", ErrorCode.TOO_MANY_INVITES)
            table.invite(cleaned)
            await self.coordinator.changed(table)

    async def typing(self, active: bool) -> None:
        """You started (True) or stopped (False) writing a clue: the table shows who is writing one. Renew it every
        few seconds while you type; it goes by itself after a short while. Only seats that may give the clue now
        count; anything else is ignored (it is only a hint, never an error)."""
        table = self.table
        seat = table.seat_of(self) if table is not None else None
        if table is None or seat is None:
            return
        self.coordinator.set_typing(table, seat, active)

    async def reveal_seen(self) -> None:
        """You moved on from the reveal on your screen: the table holds it no longer for you, and goes on once
        every person has (or its time is up). Nothing held, or a spectator: nothing happens (never an error)."""
        table = self.table
        seat = table.seat_of(self) if table is not None else None
        if table is None or seat is None or table.reveal_until is None or table.reveal_turn is None:
            return
        turn = table.reveal_turn
        self.coordinator.publish_seen(table, turn, seat)
        self.coordinator.reveal_seen(table, turn, seat)

    async def stand_in_moves(self) -> frozenset[StandInMove]:
        """The moves stand-ins made in your table's game, for its transcript (which marks them), from the records
        in the store; none when the store cannot be read just now (the transcript is then unmarked, and logged)."""
        table = self._need_table()
        try:
            return stand_in_moves(await self.coordinator.store.history(table.code))
        except Exception:
            log.warning("table %s: the store's records could not be read: stand-in moves not marked", table.code)
            return frozenset()

    @retry_on_conflict
    async def chat(self, text: str, *, team: bool = False) -> None:
        """A chat line to the whole table, or with `team` (team mode) to your teammate only."""
        table = self._need_table()
        if team:
            async with table.lock:
                line = table.say_to_team(self, table.seat_of(self), self.name, clean_chat(text))
                assert line.line.team is not None
                for session in table.team_sessions(line.line.team):
                    session.deliver(line)
                # and to the teammate at another worker
                self.coordinator.sharing.publish_live(table, {"k": LiveKind.TEAM, "line": line.line})
            return
        async with table.lock:
            waiting = table.unattended
            updates = table.say(self, table.seat_of(self), self.name, clean_chat(text))
            await self.coordinator.commit(table)
            for session in table.sessions():
                for update in updates:
                    session.deliver(update)
            if waiting and not table.unattended:  # a table that had stopped playing itself: its clock runs again
                self.coordinator.schedule(table)
                self.coordinator.broadcast(table)

    async def _run(self, table: Table, command: Command, ban: tuple[str | None, str | None] | None = None) -> None:
        """Run a game command. `ban`: the (key, address) the command's removal keeps out of the table."""
        # another worker moved first: decided again against the new state (not a move made on a version the
        # client named: it is told the table moved on)
        await retrying(lambda: self._run_once(table, command, ban), unless=lambda: self.expected_version is not None)

    async def _run_once(self, table: Table, command: Command, ban: tuple[str | None, str | None] | None = None) -> None:
        async with table.lock:
            expected = self.expected_version
            if expected is not None and expected != table.version:
                raise TableError(
                    f"The table has moved on since the state you answered (version {expected}; it is at "
                    f"{table.version} now). Look at the latest state and send your move again.",
                    ErrorCode.STALE,
                )
            updates = table.execute(command)
            if ban is not None:
                table.ban(*ban)
            lobby = table.status == TableStatus.OVER or isinstance(command, RemovePlayer)
            await self.coordinator.changed(table, updates, lobby=lobby, first=self)
