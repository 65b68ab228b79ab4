"""The coordinator: authoritative over every table, reached through one small async interface per session.

A session (an SSH TUI, a headless JSON client, a bot) calls `Coordinator.connect(identity, sink)` and gets a
`PlayerSession`. It sends commands through its methods and receives updates through `sink`, a plain callable run
on the event loop (a Textual app posts them to itself as messages). A change re-renders only the sessions at that
table; lobby listings go only to sessions in the lobby.

A session is a `player_session.PlayerSession`; this module holds the `Coordinator` itself (the tables, their saving
and clocks, the lobby). The coordinator knows nothing of the built-in bots: they are clients like any other. The
server hands it a bot factory (`dixit_tui.bots.player.seat_bots`) for the host's "add bots" and a rematch's bots, as
it hands it the stand-in; the tables' clocks are `timers.Timers`, and who sits where is changed through `Table`'s
methods.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import replace
from typing import Any, Protocol

from dixit_tui.coordinator import detached
from dixit_tui.coordinator.codes import new_code, new_game_suffix, normalize_code
from dixit_tui.coordinator.errors import TableError
from dixit_tui.coordinator.limits import (
    DEFAULT_TABLE_LIMITS,
    CreateMeter,
    ReconnectGuard,
    TableLimits,
)
from dixit_tui.coordinator.matchmaker import Matchmaker
from dixit_tui.coordinator.models import (
    REVEAL_RANGE,
    CloseReason,
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
)
from dixit_tui.coordinator.moderation import Moderation, ModerationSettings
from dixit_tui.coordinator.player_session import PlayerSession, SessionTable, Sink
from dixit_tui.coordinator.retry import retry_on_conflict
from dixit_tui.coordinator.sharing import LocalSharing, Sharing
from dixit_tui.coordinator.story import Story
from dixit_tui.coordinator.table import ChatLimiter, Table
from dixit_tui.coordinator.tallies import Tally
from dixit_tui.coordinator.timers import StandIn, Timers, random_stand_in
from dixit_tui.coordinator.wording import NO_BOTS, duration
from dixit_tui.counts import COUNTS
from dixit_tui.engine import (
    Card,
    ConfigError,
    ErrorCode,
    GameConfig,
    Mode,
    Profile,
    RemovePlayer,
    profile_for,
)
from dixit_tui.log_caps import REPEATS
from dixit_tui.ratings import Ratings
from dixit_tui.ratings import rebuild as rebuild_ratings
from dixit_tui.sanitize import name_key
from dixit_tui.store import NullStore, Store
from dixit_tui.store.base import StoreConflict

log = logging.getLogger(__name__)
log.addFilter(REPEATS)

STORE_RETRY = 1.0
"""Seconds before a stand-in's move the store could not save is tried again."""

PRUNE_EVERY = 86400.0  # seconds between prunes of the games past their retention


@functools.cache
def _builtin_names() -> tuple[str, ...]:
    from dixit_tui.decks import builtin_deck_names

    return tuple(builtin_deck_names())


def _default_cards(decks: Sequence[str]) -> tuple[Card, ...]:
    """The cards of the decks, mixed. Built-in decks are read and their texts sanitised once per process (per list
    of decks); a deck file is read again every time (it may have changed)."""
    names = tuple(decks)
    if all(name in _builtin_names() for name in names):
        return _builtin_cards(names)
    from dixit_tui.decks import resolve_decks

    return resolve_decks(list(decks))


@functools.lru_cache(maxsize=32)
def _builtin_cards(decks: tuple[str, ...]) -> tuple[Card, ...]:
    from dixit_tui.decks import resolve_decks

    return resolve_decks(list(decks))


class BotFactory(Protocol):
    """Seats up to `count` built-in bots at table `code` (under `names`, the first free ones; None: the factory's
    own), each a client of `coordinator` like any other. Returns how many sat down; raises TableError if none could.
    The server passes `dixit_tui.bots.player.seat_bots`."""

    async def __call__(
        self, coordinator: Coordinator, code: str, count: int, *, names: Sequence[str] | None, rng: random.Random
    ) -> int: ...


class Coordinator:
    def __init__(
        self,
        *,
        cards: Callable[[Sequence[str]], tuple[Card, ...]] = _default_cards,
        allow_seeded_tables: bool = False,
        rng: random.Random | None = None,
        deck_names: Sequence[str] | None = None,  # the decks a host may choose; None: the built-in ones
        store: Store | None = None,
        snapshot_every: int = 100,
        stand_in: StandIn = random_stand_in,
        disconnect_grace: float = 60.0,
        clock: Callable[[], float] = time.time,
        abandon_after: float = 600.0,
        first_clue_grace: float = 25.0,
        typing_timeout: float = 10.0,
        close_idle_after: float = 600.0,
        close_empty_lobby_after: float = 180.0,
        limits: TableLimits = DEFAULT_TABLE_LIMITS,
        bots: BotFactory | None = None,  # seats built-in bots; None: this coordinator has none ("add bots" is refused)
        moderation: ModerationSettings | None = None,  # admins, private mode (bans and the MOTD are in the store)
        sharing: Sharing[Coordinator] | None = None,  # the tables shared with other workers; None: this process alone
    ) -> None:
        self.limits = limits
        self.tally = Tally(clock)  # what was refused or undone under pressure, logged as summaries
        self.create_meter = CreateMeter(limits, clock)  # tables created per creator, address and network
        self.unsaved: dict[str, int] = {}  # tables whose changes the store failed to save, since it last saved one
        self.reconnect_guard = ReconnectGuard(limits)  # wrong reconnect codes, per connection, address and in all
        # People first: with a person seated, built-in bots leave the first clue (and a team's card) to the
        # people for `first_clue_grace` seconds, and never take the first clue while a person is writing one.
        self.first_clue_grace = first_clue_grace
        self.rename_limiter = ChatLimiter(burst=3, window=60.0)  # name changes per session per minute
        self.clock = clock
        self.bots = bots
        self.timers = Timers(
            stand_in=stand_in,
            disconnect_grace=disconnect_grace,
            typing_timeout=typing_timeout,  # a "writing a clue" mark lasts this long after the last report
            # A running game nobody human is connected to is closed after this long (its record stays for replay).
            close_idle_after=close_idle_after,
            # A table not yet started that no person sits at (spectators or bots may remain) closes after this long.
            close_empty_lobby_after=close_empty_lobby_after,
            clock=clock,
            on_due=lambda table: self._spawn(self.expire(table)),
            on_idle=lambda table: self._spawn(self._close_idle(table)),
            on_typing=self._typing_expired,
            on_reveal=lambda table: self._spawn(self.reveal_over(table)),
        )
        self.store: Store = store or NullStore()
        self.snapshot_every = snapshot_every
        self.unsnapshotted: dict[str, int] = {}
        self.tables: dict[str, SessionTable] = {}
        # codes not to give out although no open table has them: closed here within `code_reuse_after` (the store
        # decides for older ones), or seen at another worker; code -> when (epoch seconds), oldest first
        self.used_codes: dict[str, float] = {}
        self.lobby_sent_at: float | None = None  # when the lobby's listing was last sent (coalesced: `lobby_changed`)
        self._lobby_timer: asyncio.TimerHandle | None = None
        self._prune_timer: asyncio.TimerHandle | None = None  # the next daily prune of old games (`prune`)
        self.taken_out: set[str] = set()  # tables out of play while the store was away (`find_table` loads them)
        self._configure_store()
        self.rematches: dict[str, str] = {}  # old table code -> its rematch's code (`join OLD` finds the new table)
        self.abandon_after = abandon_after
        self._tasks: set[asyncio.Future[None]] = set()
        self.sessions: set[PlayerSession] = set()
        self.resolve_cards = cards
        self.allow_seeded_tables = allow_seeded_tables
        self.rng = rng or random.SystemRandom()
        self.deck_names = tuple(deck_names) if deck_names is not None else _builtin_names()
        # what sharing the tables with other workers changes (`serve --workers`: `shared.SharedTables`, whose store
        # is then `store`); one process alone: nothing
        self.sharing: Sharing[Coordinator] = sharing or LocalSharing()
        self.moderation = Moderation(moderation or ModerationSettings(), lambda: self.store)  # bans, admins, MOTD
        self.story = Story()  # the log lines that tell each table's story (created, started, over, closed, ...)
        # the queue: seats those waiting for a table at a new one
        self.matchmaker = Matchmaker(self, self.sharing.queue)
        self.ratings = Ratings()  # per SSH key, folded from the results of the games committed (and `restore`d)
        self.sharing.attach(self)

    def _rebuild(self, snapshot: dict[str, Any] | None, records: Sequence[dict[str, Any]]) -> SessionTable | None:
        """A table from its snapshot (if any) and the records after it; None if there is nothing to build from."""
        rng = random.Random(self.rng.randrange(2**63))
        if snapshot is not None:
            table = Table.restore(snapshot, rng, self.resolve_cards)
        else:
            if not records or records[0].get("t") != "create":
                return None
            create, records = records[0], records[1:]
            options = create["options"]
            table = Table(
                create["code"], TableOptions(**{**options, "decks": tuple(options["decks"])}), rng, self.resolve_cards
            )
            table.creator, table.creator_ip = create.get("creator"), create.get("creator_ip")
            table.game_id = create.get("game") or table.code
        for record in records:
            table.apply(record)
        return table

    def _configure_store(self) -> None:
        """The store gives a closed table's code out again after `code_reuse_after` (also once it is replaced)."""
        store: Any = self.store
        if hasattr(store, "reuse_after"):
            store.reuse_after, store.clock = self.limits.code_reuse_after, self.clock

    async def restore(self) -> int:
        """Rebuild every open table from the store (after a restart or a crash), and the ratings from the results
        it holds. Returns how many tables."""
        self._configure_store()
        await self.prune()
        self.ratings = await rebuild_ratings(self.store)
        for stored in await self.store.load():  # the open tables only
            if stored.closed:
                continue
            table = self._rebuild(stored.snapshot, stored.records)
            if table is None:
                log.error("table %s has no beginning in the store; skipped", stored.code)
                continue
            self.tables[table.code] = table
            self.sharing.adopt(table, None)
            self.unsnapshotted[table.code] = len(stored.records)
            table.all_away(self.clock())
            self.schedule(table)
            self.watch_idle(table)
        if self.tables:
            detached.call_later(self.abandon_after, lambda: self._spawn(self._close_abandoned()))
        return len(self.tables)

    async def prune(self) -> int:
        """Delete the games whose retention is over (`keep_finished_days`, `keep_abandoned_days` after they closed);
        done at start-up and then once a day. Returns how many were deleted."""
        limits = self.limits
        now = self.clock()
        try:
            pruned = await self.store.prune(
                now - limits.keep_finished_days * 86400, now - limits.keep_abandoned_days * 86400
            )
        except Exception as err:  # the next day tries again; nothing depends on it
            log.warning("pruning old games failed: %s", err)
            pruned = 0
        if pruned:
            log.info("pruned %d game(s) past their retention", pruned)
        if self._prune_timer is None:
            self._prune_timer = detached.call_later(PRUNE_EVERY, self._prune_again)
        return pruned

    def _prune_again(self) -> None:
        self._prune_timer = None
        self._spawn(self._pruned())

    async def _pruned(self) -> None:
        await self.prune()

    async def _close_abandoned(self) -> None:
        """After a restart, tables not yet started (or already over) that nobody came back to are closed."""
        for table in list(self.tables.values()):
            if not self.sharing.owns(table.code):
                continue  # its owner (another worker) closes it
            async with table.lock:
                if table.is_empty() and table.status != TableStatus.PLAYING:
                    self.forget_if_empty(table)
                    await self.commit(table)
        self.lobby_changed()

    async def commit(self, table: Table) -> None:
        """Make the table's applied changes durable. Called under the table's lock, before anyone sees them.

        If the store fails, the table goes back to its last committed state and the change is refused: nothing
        that was not saved is ever shown."""
        records = table.take_pending()
        if not records:
            return
        for record in records:
            if record["t"] == "result":  # the ratings fold results in the order of their time
                record.setdefault("at", self.clock())
        try:
            await self.store.append(table.code, records)
        except Exception as err:
            if isinstance(err, StoreConflict):
                log.info("table %s: another worker changed it first; rolling back", table.code)
            else:
                self._store_failed(table, err)
            try:
                await self._roll_back(table)
            except Exception:
                log.exception(
                    "table %s cannot be read back from the store either; out of play until it can", table.code
                )
                self._take_out(table)
            if isinstance(err, StoreConflict):  # another worker changed the table first: decide again from its state
                raise TableError(
                    "Someone at the table moved at the same moment, so yours did not count. Please try again.",
                    ErrorCode.CONFLICT,
                ) from err
            raise TableError(
                "The server could not save that, so nothing changed. Please try again.", ErrorCode.STORAGE
            ) from err
        if self.unsaved:
            self.store_back()
        self.story.tell(table, records)
        COUNTS.committed(records)
        for record in records:
            if record["t"] == "result":
                self.ratings.add(record)
        count = self.unsnapshotted.get(table.code, 0) + len(records)
        if count >= self.snapshot_every:
            try:
                await self.store.snapshot(table.code, table.snapshot())
                count = 0
            except Exception:  # the change itself is saved; a snapshot only makes restarts faster
                log.warning("a snapshot of table %s could not be saved; the next change tries again", table.code)
        self.unsnapshotted[table.code] = count

    def _store_failed(self, table: Table, err: Exception) -> None:
        """A change of `table` could not be saved. The first failure of an outage is logged with its traceback; the
        others are counted (and summarised as they come, `log_caps`); the table is refreshed when the store is back."""
        if not self.unsaved:
            log.error("saving table %s failed; rolling it back (the store is failing)", table.code, exc_info=err)
        else:
            log.warning("saving table %s failed (%s); rolling it back", table.code, type(err).__name__)
        self.refused_for_storage(table.code)

    def refused_for_storage(self, code: str) -> None:
        """A change at table `code` was refused because the store could not be written or read: counted, and the
        table is refreshed when the store is back (`store_back`)."""
        self.unsaved[code] = self.unsaved.get(code, 0) + 1
        self.tally.count("changes refused: the store could not save them", code)

    def store_back(self) -> None:
        """The store saves again (a change was saved, or Redis answered the tick): every table a failed change was
        rolled back at gets its clocks armed again and its state pushed to everyone at it, whatever the failure was
        (a client waiting for a state does not wait for ever)."""
        failures = sum(self.unsaved.values())
        codes, self.unsaved = list(self.unsaved), {}
        log.warning("the store saves again; %d change(s) at %d table(s) were refused meanwhile", failures, len(codes))
        for code in codes:
            table = self.tables.get(code)
            if table is not None:
                self.schedule(table)
                for session, view in table.views():  # even a view equal to the last one: "go on, it works again"
                    session.deliver(StateUpdate(view))

    def _take_out(self, table: Table) -> None:
        """The store can neither save the table's change nor give back its saved state: the table leaves this
        process's memory (its unsaved change with it) and its players go to the lobby. `join CODE` loads it
        again from the store once the store answers (`find_table`)."""
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
            self.taken_out.add(table.code)
        table.stop_clocks()
        notice = NoticeUpdate(
            f"The server cannot reach its storage, so table {table.code} is paused as it was last saved. "
            f"Join it again with its code ({table.code}) in a moment.",
            CloseReason.STORAGE,
        )
        for session in table.sessions():
            session.table = None
            session.deliver(notice)
            session.deliver(StateUpdate(None))
        self.lobby_changed()

    async def find_table(self, code: str) -> SessionTable:
        """The table with this code: in memory, or else loaded from the store (a table taken out of play while the
        store was unreachable). TableError if there is none, or if the store cannot be read now."""
        try:
            return self.table(code)
        except TableError:
            wanted = normalize_code(code)
            if wanted in self.tables or (wanted not in self.taken_out and not self.sharing.opened_elsewhere(wanted)):
                raise
            try:
                records = await self.store.history(wanted)
            except Exception as err:
                raise TableError(
                    "The server cannot reach its storage just now, so that table cannot open. Try again in a moment.",
                    ErrorCode.STORAGE,
                ) from err
            if wanted in self.tables:  # loaded by someone else meanwhile
                return self.tables[wanted]
            if not records or any(r.get("t") == "closed" for r in records):
                raise
            table = self._rebuild(None, records)
            if table is None:
                raise
            self.tables[table.code] = table
            self.taken_out.discard(table.code)
            self.sharing.adopt(table, len(records))
            self.unsnapshotted[table.code] = 0
            table.all_away(self.clock())
            self.schedule(table)
            self.watch_idle(table)
            log.info("table %s loaded again from the store", table.code)
            return table

    async def _roll_back(self, table: SessionTable) -> None:
        snapshot, records = await self.sharing.saved(table, self.store)
        saved = self._rebuild(snapshot, records)
        if saved is None:  # the table itself was never saved
            self.tables.pop(table.code, None)
            notice = NoticeUpdate(f"Table {table.code} closed: the server could not save it.", CloseReason.CLOSED)
            for session in table.sessions():
                session.table = None
                session.deliver(notice)
                session.deliver(StateUpdate(None))
            return
        gone = self.sharing.reset_from(table, saved)
        self.tables.setdefault(table.code, table)  # a close that was not saved did not happen
        for session in gone:
            session.table = None
            session.deliver(StateUpdate(None))
        self.broadcast(table)

    async def changed(
        self, table: Table, updates: Sequence[Update] = (), *, lobby: bool = False, first: PlayerSession | None = None
    ) -> None:
        """Commit, then show: every session at the table gets the updates and its own fresh view (`first`, the
        session whose move it was, before the others). A host who can no longer act hands over first (`_pass_host`)."""
        host = table.host
        updates = [*updates, *self._pass_host(table)]
        lobby = lobby or table.host != host  # the listing names the host
        began = time.perf_counter()
        await self.commit(table)
        self.send_off_removed(table, first)
        # the seats taken or left here are told to the other workers before anyone is shown the change: a move made
        # at another worker right after it (the host's start) finds them where this worker's players saw them
        await self.sharing.publish_presence(table)
        self.schedule(table)
        self.watch_idle(table)
        self.broadcast(table, updates, first=first)
        COUNTS.update_took(time.perf_counter() - began)
        if lobby:
            self.lobby_changed()

    def send_off_removed(self, table: Table, mover: PlayerSession | None = None) -> None:
        """A player who left the game for good, or whom the host removed, is no longer at the table: back to the
        lobby, told why (they may watch the game from there). `mover`: the session whose move it was."""
        for record in table.seats:
            session: PlayerSession | None = record.session
            if not record.removed or session is None or getattr(session, "remote", False):
                continue
            record.session = None
            if session.table is not table:
                continue
            session.table = None
            if session is mover:
                text = f"You left the game at table {table.code} for good."
            else:
                text = f"The host, {table.seats[table.host].name}, removed you from the game at table {table.code}."
            if table.status is TableStatus.PLAYING:
                text += " You can still watch it: pick it in the lobby and press w."
            session.deliver(NoticeUpdate(text))
            session.deliver(StateUpdate(None))
            session.deliver(LobbyUpdate(self.summaries()))

    def _pass_host(self, table: Table) -> list[Update]:
        """Under the table's lock: the host's duties go to a connected person when the host left the game, is a bot,
        left a lobby or a finished game, or has been away from a running game for the disconnect grace. The new host
        is told; everyone reads it in the log."""
        if self.tables.get(table.code) is not table:
            return []
        to = table.next_host(self.clock(), self.timers.disconnect_grace)
        if to is None:
            return []
        updates = table.pass_host(to)
        session = table.seats[to].session
        if session is not None:
            can = "start the game" if table.game is None else "void a turn or remove a player"
            if table.status is TableStatus.OVER:
                can = "start a rematch"
            session.deliver(NoticeUpdate(f"You are the host now: you can {can}."))
        return updates

    # --- idle tables -----------------------------------------------------------------------------------------

    def watch_idle(self, table: Table) -> None:
        """A running game with no person connected closes after `close_idle_after` seconds (see `Timers`)."""
        self.timers.watch_idle(table, open_here=table.code in self.tables)

    async def _close_idle(self, table: Table) -> None:
        if not self.sharing.owns(table.code):
            self.timers.idle_fired(table)
            return  # its owner (another worker) closes it
        async with table.lock:
            self.timers.idle_fired(table)
            if table.status is TableStatus.LOBBY:
                await self._close_empty_lobby(table)
            else:
                after = duration(self.timers.close_idle_after)
                await self._close_unattended(table, f"nobody played at it for {after}")
        self.lobby_changed()

    async def _close_empty_lobby(self, table: Table) -> None:
        """Close a table not yet started that nobody has sat at for `close_empty_lobby_after` seconds (under its
        lock): its spectators and bots go to the lobby, told why. (Too early, or someone sat down: nothing.)"""
        after = self.timers.close_empty_lobby_after
        since = table.empty_since
        if (
            table.status is not TableStatus.LOBBY
            or table.seated_connected()
            or since is None
            or self.clock() < since + after - 0.01
            or self.tables.get(table.code) is not table
        ):
            self.watch_idle(table)  # not yet: the timer is armed again
            return
        why = f"nobody sat at it for {duration(after)}"
        table.announce(f"The table closed: {why}.")
        table.queue_closed(self.clock())
        try:
            await self.commit(table)
        except TableError:
            return
        self._send_off_closed(table, NoticeUpdate(f"Table {table.code} closed: {why}.", CloseReason.IDLE))
        log.info("table %s closed: %s", table.code, why)

    def _send_off_closed(self, table: Table, notice: NoticeUpdate) -> None:
        """A table whose close is committed leaves this coordinator; each session still at it is told `notice` and
        goes back to the lobby."""
        self.tables.pop(table.code, None)
        self.closed_code(table.code)
        for session in table.close():
            session.table = None
            session.deliver(notice)
            session.deliver(StateUpdate(None))

    async def _close_unattended(self, table: Table, why: str) -> bool:
        """Close a running game no person is connected to (under its lock): its record stays for replay. `why`
        ends "The table closed: ...". False if it is no such game any longer, or the close could not be saved."""
        if table.status != TableStatus.PLAYING or table.humans_connected() or self.tables.get(table.code) is not table:
            return False
        table.announce(f"The table closed: {why}.")
        table.queue_closed(self.clock())
        try:
            await self.commit(table)
        except TableError:
            return False  # could not be saved: it stays open, and is tried again when next left alone
        where = self.sharing.replay_where
        notice = NoticeUpdate(
            f"Table {table.code} closed: {why}. "
            f"Its game can be replayed with: dixit-tui replay {where}{table.game_name}",
            CloseReason.IDLE,
        )
        self._send_off_closed(table, notice)  # (its spectators and bots)
        log.info("table %s closed: %s", table.code, why)
        return True

    def unattended(self) -> list[SessionTable]:
        """Running games no person is connected to (their clocks wait), the longest-waiting first."""
        waiting = [t for t in self.tables.values() if t.status == TableStatus.PLAYING and not t.humans_connected()]
        return sorted(waiting, key=lambda t: t.idle_since if t.idle_since is not None else self.clock())

    async def make_room(self) -> bool:
        """All `max_tables` are open and someone who is here wants one: the running game that has had no person
        connected the longest (for at least `make_room_after` seconds) closes. True if one did."""
        now = self.clock()
        for table in self.unattended():
            if table.idle_since is None or now - table.idle_since < self.limits.make_room_after:
                break
            try:  # at any worker: the close is appended after the table's latest record, or not at all
                async with table.lock:
                    closed = await self._close_unattended(table, "nobody was at it, and someone else needed the table")
            except TableError:
                continue  # closed at another worker meanwhile, or the store is away
            if closed:
                self.tally.count("running games with nobody at them closed to make room", table.creator_ip)
                self.lobby_changed()
                return True
        return False

    # --- who is writing a clue ---------------------------------------------------------------------------------

    def set_typing(self, table: Table, seat: int, active: bool) -> None:
        """Seat `seat` started (or stopped) writing a clue. Everyone at the table is told only when the set of
        writers changes; a mark not renewed within `typing_timeout` seconds goes by itself (see `Timers`)."""
        changed = self.timers.set_typing(table, seat, active)
        if changed:
            self.broadcast(table)
        if changed or seat in table.typing:  # other workers show (and renew) it too
            self.sharing.publish_live(table, {"k": LiveKind.TYPING, "seat": seat, "active": active})

    def _typing_expired(self, table: Table) -> None:
        if self.tables.get(table.code) is table:
            self.broadcast(table)

    # --- turn timers -----------------------------------------------------------------------------------------

    def schedule(self, table: Table) -> None:
        """Set the table's deadline for the phase in progress and arm one timer for it (see `Timers`).
        What the views show of the clocks may change here (a held reveal over, a countdown set, moved or gone): most
        callers broadcast right after (a move, a catch-up), and a broadcast shows it; whatever shows nothing (a
        catch-up of chat lines alone, this worker taking over the table's clocks) leaves it to `show_clocks`, which
        shows it once, under the table's lock, unless a broadcast did first."""
        shown = table.clocks_shown()
        held = table.reveal_turn
        self.timers.schedule(table)
        if not table.clocks_unshown and table.clocks_shown() != shown:
            table.clocks_unshown = True
            detached.call_soon(lambda: self._clocks_changed(table))
        if table.reveal_turn is not None and table.reveal_turn != held:
            # a new reveal: this worker's players whose client shows no reveal (agents) read it already; the other
            # workers, which count them as people who may be reading, are told so
            for seat, record in enumerate(table.seats):
                session = record.session
                if isinstance(session, PlayerSession) and not record.bot and not session.shows_reveal:
                    self.publish_seen(table, table.reveal_turn, seat)

    def publish_seen(self, table: Table, turn: int, seat: int) -> None:
        self.sharing.publish_live(table, {"k": LiveKind.REVEAL, "seat": seat, "turn": turn})

    def reveal_seen(self, table: Table, turn: int, seat: int) -> None:
        """Seat `seat`'s person moved on from turn `turn`'s reveal (here or at another worker): once every person
        has, the hold ends and the table goes on."""
        if self.timers.seen(table, turn, seat):
            self._spawn(self.reveal_over(table))

    async def reveal_over(self, table: Table) -> None:
        """A held reveal's time is up, or every person moved on: the table goes on (its clocks start, its bots
        play). Nothing is recorded: the hold is live state of each worker. (The hold may have ended already, by
        whatever scheduled the table meanwhile: it is shown all the same, once.)"""
        if self.tables.get(table.code) is not table:
            return
        async with table.lock:
            if table.game is None:
                return
            self.schedule(table)
            if table.clocks_unshown:
                self.broadcast(table)

    def _clocks_changed(self, table: Table) -> None:
        if not table.clocks_unshown:
            return  # the caller of `schedule` showed it
        if any(not getattr(session, "remote", False) for session in table.sessions()):
            self._spawn(self.show_clocks(table))
        else:
            table.clocks_unshown = False  # nobody here to show it to

    async def show_clocks(self, table: Table) -> None:
        """What the table's clocks show changed and no broadcast has shown it (see `schedule`): everyone at the table
        is shown it now, under the table's lock (after what it is busy with)."""
        if not table.clocks_unshown:
            return
        if self.tables.get(table.code) is not table:  # closed here meanwhile (its people were told)
            table.clocks_unshown = False
            return
        try:
            async with table.lock:
                if table.clocks_unshown:
                    self.broadcast(table)
        except TableError as err:  # closed meanwhile, or the store cannot be read just now (then `store_back`)
            table.clocks_unshown = False  # (the next change of them is shown again)
            log.info("table %s: its clocks could not be shown: %s", table.code, err.message)

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = detached.spawn(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def expire(self, table: Table) -> None:
        """A deadline passed: a stand-in plays, from their own view, for each player the phase still waits for. If
        the store cannot be read or written (catching up, or saving the stand-ins' moves: nothing changed), the
        deadline is tried again in `STORE_RETRY` seconds, until the store answers: the table never waits for ever."""
        try:
            await self._expire(table)
        except TableError as err:
            if err.code != ErrorCode.STORAGE:
                raise
            if self.tables.get(table.code) is table:  # rolled back, not taken out: try again in a moment
                if table.timer is not None:
                    table.timer.cancel()
                table.timer = detached.call_later(STORE_RETRY, lambda: self.timers.on_due(table))

    @retry_on_conflict
    async def _expire(self, table: Table) -> None:
        if not self.sharing.owns(table.code):
            return  # only the table's owner plays stand-ins (its moves reach this worker like any other)
        async with table.lock:
            if table.game is None or not self.timers.due(table):
                return  # catching up (other workers' moves, who left) set new clocks: they fire when due
            if self.timers.put_off_after_a_stall(table):
                self.broadcast(table)  # the new deadline, shown
                return  # it fired long after its time: what players sent meanwhile is read first
            updates = self.timers.stand_in_moves(table)
            await self.changed(table, updates, lobby=table.status == TableStatus.OVER)

    async def connect(
        self, identity: Identity, sink: Sink, *, builtin_bot: bool = False, shows_reveal: bool = False
    ) -> PlayerSession:
        """A new session for this client. `builtin_bot`: the client is one of the server's own bots (seated by
        the bot factory), which stops when its game ends. `shows_reveal`: a screen that shows each reveal until its
        person moves on (`PlayerSession.reveal_seen`): the table holds the reveal for them."""
        session = PlayerSession(self, identity, sink, builtin_bot=builtin_bot)
        session.shows_reveal = shows_reveal and not identity.bot
        self.sessions.add(session)
        sink(LobbyUpdate(self.summaries()))
        return session

    # --- lobby -----------------------------------------------------------------------------------------------

    def summaries(self) -> tuple[TableSummary, ...]:
        out = []
        for table in self.tables.values():
            if table.lock_to is not TableLock.OPEN:
                continue  # locked by its host: only people who have its code (or an invitation) find it
            host = table.seats[table.host].name if table.seats else ""
            players = sum(not s.removed for s in table.seats)
            out.append(
                TableSummary(
                    table.code,
                    table.options.label(),
                    table.status,
                    players,
                    table.max_seats,
                    host,
                    table.watchers(),
                    table.options.decks,
                    table.options.turn_seconds,
                    bool(table.seats) and all(s.bot or s.removed for s in table.seats),
                )
            )
        order = {TableStatus.LOBBY: 0, TableStatus.PLAYING: 1, TableStatus.OVER: 2}
        return tuple(sorted(out, key=lambda t: (order[t.status], t.code)))

    def seat_kept_for(self, key: str | None) -> str | None:
        """The code of a running game where a seat taken with this SSH key waits for its player (nobody is connected
        to it), if any: a keyed player coming back is taken there. None without a key."""
        if key is None:
            return None
        for table in self.tables.values():
            if table.status is not TableStatus.PLAYING:
                continue
            seat = table.seat_for_key(key)
            if seat is not None and table.seats[seat].session is None:
                return table.code
        return None

    def lobby_changed(self) -> None:
        """The tables changed: every session in the lobby gets the new listing. Listings are coalesced: the first
        change after a quiet `lobby_interval` (on the coordinator's clock) is sent at once, and the changes within the
        interval after it go out together as one listing at its end. So a create/leave loop costs the lobbies at most
        two listings an interval, whoever loops (and its creates are metered: `creates_per_player`, ...)."""
        if self._lobby_timer is not None:
            return  # a listing is due at the end of the interval: it will show this change too
        sent = self.lobby_sent_at
        if sent is None or self.clock() - sent >= self.limits.lobby_interval:
            self.flush_lobby()
            return
        self._lobby_timer = detached.call_later(self.limits.lobby_interval, self._lobby_due)

    def _lobby_due(self) -> None:
        self._lobby_timer = None
        self.flush_lobby()

    def flush_lobby(self) -> None:
        """Send the lobby's listing now (a listing that was due goes with it): every session in the lobby gets it, but
        one whose last update was this very listing."""
        if self._lobby_timer is not None:
            self._lobby_timer.cancel()
            self._lobby_timer = None
        self.lobby_sent_at = self.clock()
        update = LobbyUpdate(self.summaries())
        for session in self.sessions:
            if session.table is None and session.last != update:
                session.deliver(update)

    def table(self, code: str) -> SessionTable:
        table = self.tables.get(normalize_code(code))
        if table is None and (moved := self.rematches.get(normalize_code(code))) is not None:
            table = self.tables.get(moved)  # the old table closed: its players are at the rematch
        if table is None:
            shown = normalize_code(code)[:8] or "with that code"
            raise TableError(f"There is no table {shown}. Check the code and try again.", ErrorCode.NO_TABLE)
        return table

    def broadcast(self, table: Table, updates: Sequence[Update] = (), *, first: PlayerSession | None = None) -> None:
        """Send the table's updates and then each session its own fresh view: only the sessions at this table.
        A session whose last update was this very view (nothing it sees changed) gets nothing new. `first` (the
        session whose move it was) is sent its own first: its app takes its turn first, so a player's move shows on
        their own screen before the others' screens are drawn."""
        views = table.views()
        table.clocks_unshown = False  # (each session is sent its view if it changed: the clocks as they are now)
        if first is not None:
            views.sort(key=lambda pair: pair[0] is not first)  # (stable: the others in their order)
        for session, view in views:  # a player at another worker is not among them: that worker shows them
            for update in updates:
                session.deliver(update)
            if updates or not _same_view(session.last, view):
                session.deliver(StateUpdate(view))

    def checked_options(self, options: TableOptions) -> TableOptions:
        """The options as a table keeps them (the rules profile the mode plays); TableError if any is wrong."""
        if options.seed is not None and not self.allow_seeded_tables:
            raise TableError(
                "Seeded tables are off on this server: a known seed would reveal every hand.", ErrorCode.SEED_REFUSED
            )
        try:
            Mode(options.mode), Profile(options.profile)
            GameConfig(Mode(options.mode), Profile(options.profile), options.target, options.storytells).normalized()
        except ValueError as err:
            raise TableError(f"Unknown table option: {err}.", ErrorCode.BAD_OPTION) from err
        except ConfigError as err:
            raise TableError(err.message, ErrorCode.BAD_OPTION) from err
        if not options.decks:
            raise TableError("Pick at least one deck.", ErrorCode.BAD_OPTION)
        if options.turn_seconds is not None and not 1 <= options.turn_seconds <= 3600:
            raise TableError("A turn timer runs from 1 second to an hour.", ErrorCode.BAD_OPTION)
        if not REVEAL_RANGE[0] <= options.reveal_seconds <= REVEAL_RANGE[1]:
            raise TableError(f"The reveal is held 0 to {REVEAL_RANGE[1]} seconds.", ErrorCode.BAD_OPTION)
        try:
            self.resolve_cards(options.decks)
        except ValueError as err:
            raise TableError(str(err), ErrorCode.BAD_DECK) from err
        return replace(options, profile=profile_for(Mode(options.mode), Profile(options.profile)).value)

    def create_table(
        self, options: TableOptions, *, creator: str | None = None, creator_ip: str | None = None
    ) -> SessionTable:
        if len(self.tables) >= self.limits.max_tables:
            self.tally.count("creates refused: all tables open", creator_ip)
            raise TableError(
                f"This server has {len(self.tables)} open tables, its most: join one, or try again later.",
                ErrorCode.TOO_MANY_TABLES,
            )
        options = self.checked_options(options)
        code = new_code(self.rng, _Taken(self))
        self.used_codes[code] = self.clock()  # (a create that fails to save does not give it out again at once)
        table: SessionTable = Table(code, options, random.Random(self.rng.randrange(2**63)), self.resolve_cards)
        table.game_id = code + new_game_suffix()  # (not from `rng`: the codes of seeded servers stay as they were)
        table.creator, table.creator_ip = creator, creator_ip
        table.queue_created()
        self.tables[code] = table
        self.sharing.adopt(table, 0)
        return table

    def closed_code(self, code: str) -> None:
        """The table `code` closed here: its code is not given out again for `code_reuse_after` seconds (the store
        refuses it until then, also after a restart); codes older than that are forgotten here."""
        now = self.clock()
        self.used_codes.pop(code, None)
        self.used_codes[code] = now
        while self.used_codes:
            oldest, since = next(iter(self.used_codes.items()))
            if now - since < self.limits.code_reuse_after:
                break
            del self.used_codes[oldest]

    def rematch_table(self, old: Table) -> tuple[SessionTable, dict[int, int]]:
        """A new table with the old one's options and seats (names, keys, reconnect codes, bots; not the removed) and
        its host. Returns it and where each old seat sits now. The old table and its records stay as they are."""
        new = self.create_table(old.options, creator=old.creator, creator_ip=old.creator_ip)
        self.rematches[old.code] = new.code
        moved: dict[int, int] = {}
        for index, seat in enumerate(old.seats):
            if seat.removed:
                continue
            moved[index] = len(new.seats)
            record = {"t": "seat", "name": seat.name, "key": seat.key, "code": seat.code, "bot": seat.bot}
            new.record({**record, "builtin": seat.builtin} if seat.bot else record)
        host = moved.get(old.host, 0)
        if host:
            new.record({"t": "host", "seat": host})
        new.announce(f"A rematch of table {old.code}: same seats, same options.")
        return new, moved

    async def seat_bots(self, code: str, count: int, *, names: Sequence[str] | None = None) -> int:
        """Seat up to `count` built-in bots at table `code` through the bot factory. Returns how many sat down;
        TableError if none could, or if this coordinator has no bot factory."""
        if self.bots is None:
            raise TableError(NO_BOTS, ErrorCode.NO_BOTS)
        return await self.bots(self, code, count, names=names, rng=random.Random(self.rng.random()))

    @retry_on_conflict
    async def sit_bots(self, code: str, bots: Sequence[PlayerSession], names: Sequence[str]) -> list[PlayerSession]:
        """Seat the built-in bots' sessions `bots` at table `code` in one change (nobody ever sees some of them seated
        and not the others), each under the next of `names` with a seat kept for it (a rematch) or free at the table.
        Returns those seated, as far as seats allow; TableError if none could sit."""
        table = await self.find_table(code)
        async with table.lock:
            seated: list[PlayerSession] = []
            candidates = iter(names)
            for session in bots:
                for name in candidates:
                    seat = table.empty_bot_seat(name)
                    if seat is not None or not table.name_taken(name):
                        break
                else:
                    break
                if seat is None:
                    try:
                        seat = table.add_seat(name, None, bot=True, builtin=True)
                    except TableError:
                        if not seated:
                            raise
                        break
                session.name, session.table = name, table
                table.sit(seat, session)
                seated.append(session)
            if not seated:
                raise TableError("There is no free name left for a bot at this table.", ErrorCode.NAME_TAKEN)
            await self.changed(table, lobby=True)
        return seated

    def forget_if_empty(self, table: Table) -> None:
        """A table nobody is connected to is forgotten unless its game is still running (players may return).
        Its records stay in the store (finished games can be replayed)."""
        if table.is_empty() and table.status != TableStatus.PLAYING:
            self.tables.pop(table.code, None)
            self.closed_code(table.code)
            table.queue_closed(self.clock())

    # --- moderation: the admins' commands (`ssh HOST admin ...`, protocol/admin.py checks who may) ---------------

    @retry_on_conflict
    async def admin_close(self, code: str) -> str:
        """Close a table now, whatever its state (its records stay, for replays). Returns what happened, in words."""
        table = await self.find_table(code)
        async with table.lock:
            if self.tables.get(table.code) is not table:
                raise TableError(f"There is no table {table.code} any longer.", ErrorCode.NO_TABLE)
            table.announce("An admin closed the table.")
            table.queue_closed(self.clock(), by="admin")
            await self.commit(table)
            self._send_off_closed(table, NoticeUpdate(f"An admin closed table {table.code}.", CloseReason.CLOSED))
        self.lobby_changed()
        return f"Table {table.code} closed."

    @retry_on_conflict
    async def admin_remove(self, code: str, name: str) -> str:
        """Take the player called `name` off table `code` (before the start, their seat is freed; in a game, they
        leave it for good, as if they had chosen to). Returns what happened, in words."""
        table = await self.find_table(code)
        async with table.lock:
            key = name_key(name)
            seat = next(
                (i for i, s in enumerate(table.seats) if not s.removed and name_key(s.name) == key and key), None
            )
            if seat is None:
                raise TableError(f"Nobody called {name[:40]!r} plays at table {table.code}.", ErrorCode.NO_SEAT)
            who = table.seats[seat].name
            session = table.seats[seat].session
            updates: list[Update] = []
            if table.game is None:
                table.leave_lobby_seat(seat, removed_by="admin")
            else:
                table.announce(f"An admin removed {who} from the game.")
                updates = table.execute(RemovePlayer(seat, seat))
                table.seats[seat].session = None
            if isinstance(session, PlayerSession) and session.table is table:
                session.table = None
                session.deliver(NoticeUpdate(f"An admin removed you from table {table.code}."))
                session.deliver(StateUpdate(None))
                session.deliver(LobbyUpdate(self.summaries()))
            await self.changed(table, updates, lobby=True)
        return f"{who} removed from table {table.code}."


class _Taken:
    """The codes `create_table` may not give out: open tables' and `used_codes` (looked up, never copied)."""

    def __init__(self, coordinator: Coordinator) -> None:
        self.coordinator = coordinator

    def __contains__(self, code: object) -> bool:
        return code in self.coordinator.tables or code in self.coordinator.used_codes


def _same_view(last: Update | None, view: TableView) -> bool:
    """Whether `last` (a session's last update) is a StateUpdate of a view equal to `view`. The versions are compared
    first: after a change to the table or its game they differ, and the whole views need not be."""
    if not isinstance(last, StateUpdate) or last.view is None:
        return False
    old = last.view
    if old is view:
        return True
    if old.version != view.version or (old.game is None) != (view.game is None):
        return False
    if old.game is not None and view.game is not None and old.game.version != view.game.version:
        return False
    return old == view
