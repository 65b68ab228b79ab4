"""One table: its seats, host, spectators, chat and (once started) its engine game. Synchronous and in memory.

Every change of who sits where goes through a method of `Table` that returns whom the change concerns beyond the
table's own sessions (a session pushed out, the players moving to a rematch), for the coordinator to tell. The
table's clocks (its deadline, the stand-ins it promises, its timers) are kept here and set by `timers.Timers`."""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from types import TracebackType
from typing import Any, Generic, Protocol, TypeVar

from dixit_tui.addresses import address_of
from dixit_tui.coordinator.codes import new_reconnect_code
from dixit_tui.coordinator.errors import TableError
from dixit_tui.coordinator.models import (
    ENDED_BEFORE_SCORING,
    ChatLine,
    ChatUpdate,
    OverUpdate,
    RevealUpdate,
    SeatInfo,
    StandInReason,
    TableLock,
    TableOptions,
    TableStatus,
    TableView,
    Update,
    VoidedUpdate,
    mode_text,
    timer_text,
)
from dixit_tui.coordinator.results import count_moves, result_record
from dixit_tui.coordinator.wording import and_list
from dixit_tui.engine import (
    Card,
    Command,
    ConfigError,
    ErrorCode,
    FirstStoryteller,
    Game,
    GameConfig,
    GameState,
    Mode,
    PassHost,
    Phase,
    Profile,
    check_player_count,
    event_from_dict,
    event_to_dict,
    fold,
    step,
    view_for,
)
from dixit_tui.engine import start as start_game
from dixit_tui.engine.events import (
    CardsSubmitted,
    ClueGiven,
    Event,
    GameEnded,
    PlayerRemoved,
    PracticeEnded,
    TurnScored,
    TurnVoided,
    VoteCast,
)
from dixit_tui.sanitize import name_key


class Occupant(Protocol):
    """What a table knows of a session at it (a seated player or a spectator; `player_session.PlayerSession`)."""

    builtin_bot: bool  # a built-in bot: it stops when its game ends
    shows_reveal: bool  # a screen that shows each reveal until its person moves on (the table holds it for them)


S = TypeVar("S", bound=Occupant)  # the sessions at a table


class ChangeLock(Protocol):
    """A table's lock: one change at a time (an `asyncio.Lock`, or one that also catches a shared table up when
    taken, `shared.SyncedLock`)."""

    def locked(self) -> bool: ...

    async def __aenter__(self) -> None: ...

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None: ...


CHAT_TAIL = 60
TEAM_CHAT_TAIL = 30  # team lines are kept apart, per team, so they never push the table's lines out
LOG_TAIL = 60
QUIET_TURNS = 2  # whole turns with no person playing, after which a timed table stops playing itself
LOCK_NOTES = {
    TableLock.OPEN: "The table is open: the lobby lists it, and anyone may join.",
    TableLock.CODE: "The table is locked: only people who have its code can join (the lobby no longer lists it).",
    TableLock.INVITED: "The table is locked: only the players its host invited can join.",
}


@dataclass(slots=True)
class Seat(Generic[S]):
    name: str
    key: str | None  # proven public key fingerprint that owns this seat
    code: str  # reconnect code (returns a keyless player to the seat; a seat taken with a key needs that key)
    bot: bool = False
    removed: bool = False
    session: S | None = None
    builtin: bool = False  # one of the server's own bots (a `json bot` agent is a bot, not a built-in one)

    @property
    def connected(self) -> bool:
        return self.session is not None


@dataclass
class ChatLimiter:
    """At most `burst` lines per `window` seconds per seat or session."""

    burst: int = 5
    window: float = 10.0
    clock: Callable[[], float] = time.monotonic
    sent: dict[object, deque[float]] = field(default_factory=dict)

    def allow(self, who: object) -> bool:
        now = self.clock()
        if len(self.sent) > 2 * self.burst:  # who has not sent anything within the window is forgotten
            for key in [k for k, t in self.sent.items() if not t or now - t[-1] > self.window]:
                del self.sent[key]
        times = self.sent.setdefault(who, deque())
        while times and now - times[0] > self.window:
            times.popleft()
        if len(times) >= self.burst:
            return False
        times.append(now)
        return True

    def forget(self, who: object) -> None:
        """`who` left: its count goes (and with it the reference to a session that has closed)."""
        self.sent.pop(who, None)


@dataclass(frozen=True, slots=True)
class _SharedView:
    """What every view of one table at one moment has in common (see `Table.views`)."""

    host: int
    status: TableStatus
    seats: tuple[SeatInfo, ...]
    log: tuple[str, ...]
    chat_paused: bool
    spectators: int
    start_problem: str | None
    typing: tuple[int, ...]
    stand_ins: tuple[tuple[int, float], ...]
    stand_in_clue: str | None


class Table(Generic[S]):
    def __init__(
        self, code: str, options: TableOptions, rng: random.Random, cards: Callable[[Sequence[str]], tuple[Card, ...]]
    ) -> None:
        self.code = code
        self.options = options
        self.rng = rng
        self.resolve_cards = cards
        self.seats: list[Seat[S]] = []
        self.lobby_host = 0
        self.spectators: set[S] = set()
        self.game: Game | None = None
        self.chat: deque[ChatLine] = deque(maxlen=CHAT_TAIL)  # the table's lines only
        self.chat_total = 0  # table lines ever appended to `chat` (places the team lines among them)
        self.team_chat: dict[int, deque[tuple[int, ChatLine]]] = {}  # per team: (table lines before it, line)
        self.log: deque[str] = deque(maxlen=LOG_TAIL)
        self.log_total = 0  # lines ever noted in `log` (each chat line keeps the count it was said after)
        self.limiter = ChatLimiter()
        self.version = 0
        self.pending: list[dict[str, Any]] = []  # records applied but not yet committed to the store
        self.event_records: list[dict[str, Any]] = []  # the game's events as stored (dicts), for snapshots
        self._seat_infos_key: tuple[object, ...] = ()  # what the seats shown last were built from
        self._seat_infos_value: tuple[SeatInfo, ...] = ()
        self.lock: ChangeLock = asyncio.Lock()  # one change at a time: apply, commit, then show
        self.phase_key: tuple[int, str] | None = None  # (turn, phase) the deadline below belongs to
        self.deadline: float | None = None  # epoch seconds; the table's timer goes off then (stand-ins, host handover)
        self.shown_deadline: float | None = None  # when a stand-in plays for those missing: the countdown players see
        self.phase_deadline: float | None = None  # the phase's own time limit, if the table has one
        self.shown_phase_deadline: float | None = None  # the same while the clocks run (None while they wait): shown
        self.away_since: dict[int, float] = {}  # seat -> when its player disconnected (epoch seconds)
        self.idle_since: float | None = None  # when the running game's last person left (its timers are paused)
        self.timer: asyncio.TimerHandle | None = None
        self.stand_ins: dict[int, float] = {}  # offline seat -> when a stand-in plays for it (epoch seconds)
        self.typing: dict[int, float] = {}  # seat -> when it last reported typing a clue (not recorded: live only)
        self.typing_timer: asyncio.TimerHandle | None = None
        # the reveal held for the people to read (see `Timers.holding`): until when (epoch seconds), of which turn,
        # and the seats whose people have not moved on yet (live only, never recorded: each worker holds its own)
        self.reveal_until: float | None = None
        self.reveal_turn: int | None = None
        self.reveal_waits: set[int] = set()
        self.reveal_seen: dict[int, set[int]] = {}  # turn -> seats whose people moved on from its reveal
        self.reveal_timer: asyncio.TimerHandle | None = None
        # what the views show of the clocks changed (`clocks_shown`) and no broadcast has shown it yet (see
        # `Coordinator.schedule`)
        self.clocks_unshown = False
        self.typing_limiter = ChatLimiter(burst=8, window=10.0)  # writing marks shown or hidden, per seat
        self.idle_timer: asyncio.TimerHandle | None = None  # closes a running game nobody human is connected to
        self.creator: str | None = None  # who created it ("key:..." or "name:..."), for the per-player table cap
        self.creator_ip: str | None = None  # the address it was created from, for the per-address table cap
        self.game_id = code  # unique among every game ever stored (a code is given out again once its table closed)
        self.remote_watchers = 0  # spectators at other workers (several workers on Redis), by their presence
        self.away_host: int | None = None  # the seat that was the host when it went away (it keeps the duties a while)
        self.empty_since: float | None = None  # a lobby no person sits at: since when (it closes after a while)
        self.clue_stand_in: str | None = None  # why a stand-in gave this turn's clue ("time", "away"); None: a player
        self.quiet_turns = 0  # whole turns in a row no person played in (stand-ins and bots only); see `unattended`
        self.person_played = False  # a person made a move in the turn in progress
        self.banned_keys: set[str] = set()  # keys of players the host removed: kept out of this table
        self.banned_ips: set[str] = set()  # addresses of keyless players the host removed: keyless joins refused
        self.lock_to = TableLock.OPEN  # who may take a new seat (and whether the lobby lists the table)
        self.invited: dict[str, str] = {}  # name key -> name, of those the host invited (see `TableLock.INVITED`)
        self.moves: dict[int, list[int]] = {}  # seat -> [its moves in the game, of them a stand-in's] (the ratings)

    # --- who is here -----------------------------------------------------------------------------------------

    @property
    def status(self) -> TableStatus:
        if self.game is None:
            return TableStatus.LOBBY
        return TableStatus.OVER if self.game.state.phase is Phase.OVER else TableStatus.PLAYING

    @property
    def host(self) -> int:
        return self.game.state.host if self.game is not None else self.lobby_host

    @property
    def max_seats(self) -> int:
        return min(self.options.seats or self.options.max_seats(), self.options.max_seats())

    def sessions(self) -> list[S]:
        seated = [s.session for s in self.seats if s.session is not None]
        return [*seated, *self.spectators]

    def seat_of(self, session: S) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.session is session), None)

    def seat_for_key(self, key: str | None) -> int | None:
        if key is None:
            return None
        return next((i for i, s in enumerate(self.seats) if s.key == key and not s.removed), None)

    def seat_for_code(self, code: str) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.code.replace("-", "") == code and not s.removed), None)

    def empty_bot_seat(self, name: str) -> int | None:
        """Before the start, a bot's seat kept free for a bot of that name (a rematch re-seats its bots)."""
        if self.game is not None:
            return None
        key = name_key(name)
        return next(
            (i for i, s in enumerate(self.seats) if s.bot and s.session is None and name_key(s.name) == key), None
        )

    def name_taken(self, name: str, *, except_seat: int | None = None) -> bool:
        return self.seated_as(name, except_seat=except_seat) is not None

    def seated_as(self, name: str, *, except_seat: int | None = None) -> str | None:
        """The name of the seat whose name counts as the same as `name` ("gus" for "GUS"), if any."""
        key = name_key(name)
        return next(
            (
                s.name
                for i, s in enumerate(self.seats)
                if i != except_seat and not s.removed and name_key(s.name) == key
            ),
            None,
        )

    def _name_taken_error(self, name: str, *, except_seat: int | None = None) -> TableError | None:
        """The refusal of `name` when someone at the table has it (named as they are seated), else None."""
        seated = self.seated_as(name, except_seat=except_seat)
        if seated is None:
            return None
        same = "" if seated == name else f" ({name} counts as the same name)"
        return TableError(
            f"Someone at this table is already called {seated}{same}. Pick another name.", ErrorCode.NAME_TAKEN
        )

    def humans_connected(self) -> bool:
        """Whether a player who is not a built-in bot (a person, or an agent connected with `json bot`) is connected
        to a seat: a table of agents plays like a table of people. Spectators do not count: a game only they watch
        waits (its timers and bots pause) and closes after a while."""
        return any(s.session is not None and not s.builtin for s in self.seats)

    def next_host(self, now: float, grace: float) -> int | None:
        """The person to pass the host's duties to, if the host cannot use them: they left the game, are a bot, are
        not at a finished game, or have been away from a running game for `grace` seconds. The next
        connected person (not a bot) after the host, in seat order; None: the host stays (or nobody could take over)."""
        if not self.seats:
            return None
        host = self.host
        record = self.seats[host] if host < len(self.seats) else None
        if record is not None and not record.removed and not record.bot:
            if record.session is not None or self.status is TableStatus.LOBBY:
                return None  # (before the start a host who leaves frees the seat: the next seat is the host)
            # a host who went away keeps the duties through their grace; one who got them while away does not
            away = self.away_since.get(host, now)
            if self.status is TableStatus.PLAYING and self.away_host == host and now < away + grace:
                return None
        count = len(self.seats)
        for offset in range(1, count + 1):
            seat = (host + offset) % count
            candidate = self.seats[seat]
            if candidate.session is not None and not candidate.bot and not candidate.removed:
                return seat
        return None

    def host_away_until(self, grace: float) -> float | None:
        """When an absent host of a running game loses the host's duties (their grace ends), if someone is here to
        take them; None otherwise."""
        if self.status is not TableStatus.PLAYING or not self.seats:
            return None
        record = self.seats[self.host]
        if record.session is not None or record.removed or record.bot or self.host not in self.away_since:
            return None
        if self.away_host != self.host:
            return None  # (it passes at once: see `next_host`)
        if self.next_host(float("inf"), grace) is None:
            return None
        return self.away_since[self.host] + grace

    def pass_host(self, to: int) -> list[Update]:
        """The host's duties go to seat `to` (see `next_host`); everyone reads who the host is now in the log."""
        before = self.seats[self.host]
        game = self.game is not None
        updates = self.execute(PassHost(self.host, to)) if game else self.record({"t": "host", "seat": to})
        name = self.seats[to].name
        if before.removed:
            why = f"{before.name} has left the game, so "
        elif before.bot:
            why = ""
        elif self.status is TableStatus.PLAYING:
            why = f"{before.name} is away, so "
        else:
            why = f"{before.name} has left, so "
        self.announce(f"{why}{name} is the host now.")
        return updates

    @property
    def unattended(self) -> bool:
        """At a timed table, two whole turns went by with no person playing (only stand-ins and bots): the table
        waits for its people as an empty one does (its clocks stop) until a person moves or chats. (Without a time
        limit a connected person's move is never made for them: such a table cannot play itself.)"""
        return bool(self.options.turn_seconds) and self.quiet_turns >= QUIET_TURNS

    def clocks_shown(self) -> tuple[object, ...]:
        """What every view shows of the table's clocks: the held reveal's end, the countdown, the phase's own time
        limit, the stand-ins' times."""
        return (
            self.reveal_until,
            self.shown_deadline,
            self.shown_phase_deadline,
            tuple(sorted(self.stand_ins.items())),
        )

    def reveal_readers(self) -> set[int]:
        """The seats whose person is connected to a screen that shows the reveal (here, or at another worker: a
        remote seat counts unless it is a bot), whom a held reveal waits for."""
        return {
            i
            for i, s in enumerate(self.seats)
            if s.session is not None and not s.bot and not s.removed and s.session.shows_reveal
        }

    def seated_connected(self) -> bool:
        """Whether anyone (a person or a bot, here or at another worker) is connected to a seat."""
        return any(s.session is not None for s in self.seats)

    def is_empty(self) -> bool:
        return not self.watchers() and not any(s.session is not None for s in self.seats)

    def watchers(self) -> int:
        """Spectators: those watching here, and those watching at other workers (`remote_watchers`)."""
        return len(self.spectators) + self.remote_watchers

    # --- records: every change to a table is one JSON-able record, applied here and kept for the store ------------

    def record(self, rec: dict[str, Any], game: tuple[list[Event], GameState] | None = None) -> list[Update]:
        """Apply one change and queue it for the store. Returns the updates the change causes.
        `game`: for an "events" record, its events and the state after them, as the engine made them (the record
        holds their dicts for the store; they are not parsed back)."""
        updates = self.apply(rec, game)
        self.pending.append(rec)
        return updates

    def take_pending(self) -> list[dict[str, Any]]:
        pending, self.pending = self.pending, []
        return pending

    def apply(self, rec: dict[str, Any], game: tuple[list[Event], GameState] | None = None) -> list[Update]:
        """Fold one record into the table (also used to rebuild a table from the store after a restart).
        `game`: see `record`."""
        kind = rec["t"]
        if kind == "seat":
            bot = rec.get("bot", False)
            builtin = rec.get("builtin", bot)  # before agents were told apart, every bot seat was a built-in one
            self.seats.append(Seat(name=rec["name"], key=rec["key"], code=rec["code"], bot=bot, builtin=builtin))
            self.note(f"{rec['name']} sat down.")
        elif kind == "unseat":
            gone = self.seats.pop(rec["seat"])
            seat = rec["seat"]
            if self.lobby_host == seat or self.lobby_host >= len(self.seats):
                self.lobby_host = 0
            elif self.lobby_host > seat:
                self.lobby_host -= 1
            self.note(f"{gone.name} left the table.")
        elif kind == "rename":
            old = self.seats[rec["seat"]].name
            self.seats[rec["seat"]].name = rec["name"]
            self.note(f"{old} is now called {rec['name']}.")
        elif kind == "events":
            events = [event_from_dict(e) for e in rec["events"]] if game is None else game[0]
            self.event_records.extend(rec["events"])
            count_moves(self.moves, events, "stand_in" in rec)
            if self.game is None:
                self.game = Game(events)
                if self.game.state.practice:
                    self.note("The practice turn has started: it does not count. " + self._clue_prompt())
                else:
                    self.note("The game has started. " + self._clue_prompt())
                return []
            state = self.game.state
            open_clue = state.phase is Phase.CLUE and state.turn.storyteller is None  # the first clue, open to all
            self.game.state = fold(events, state) if game is None else game[1]
            self.game.events.extend(events)
            return self._describe(events, rec.get("stand_in"), open_clue=open_clue, host_before=state.host)
        elif kind == "chat":
            line = ChatLine(rec["seat"], rec["name"], rec["text"], after=self.log_total)
            self.add_table_line(line)
            seat = rec["seat"]
            if seat is not None and 0 <= seat < len(self.seats) and not self.seats[seat].bot:
                self._person_here()
            return [ChatUpdate(line)]
        elif kind == "options":  # the host changed them before the start (a rematch's lobby too)
            options = rec["options"]
            self.options = TableOptions(**{**options, "decks": tuple(options["decks"])})
            self.note(rec["text"])
        elif kind == "note":
            self.note(rec["text"])
        elif kind == "host":  # a rematch keeps the old table's host, wherever they sit
            self.lobby_host = rec["seat"]
        elif kind == "ban":
            if rec.get("key"):
                self.banned_keys.add(rec["key"])
            if rec.get("ip"):
                self.banned_ips.add(rec["ip"])
            self.version += 1
        elif kind == "lock":
            self.lock_to = TableLock(rec["to"])
            self.note(LOCK_NOTES[self.lock_to])
        elif kind == "invite":
            self.invited[name_key(rec["name"])] = rec["name"]
            self.note(f"{rec['name']} is invited.")
        elif kind == "result":  # the game's result, for the ratings: the events said it all already
            pass
        else:
            raise ValueError(f"unknown table record {kind!r}")
        return []

    def snapshot(self) -> dict[str, Any]:
        """The whole table as JSON-able data (restored by `Table.restore`), for fast restarts."""
        return {
            "code": self.code,
            "options": asdict(self.options),
            "seats": [
                {"name": s.name, "key": s.key, "code": s.code, "bot": s.bot, "removed": s.removed, "builtin": s.builtin}
                for s in self.seats
            ],
            "lobby_host": self.lobby_host,
            "game_id": self.game_id,
            "creator": self.creator,
            "creator_ip": self.creator_ip,
            "events": list(self.event_records) if self.game is not None else None,
            "chat": [asdict(line) for line in self.chat],  # team lines are never stored
            "chat_total": self.chat_total,
            "log": list(self.log),
            "log_total": self.log_total,
            "version": self.version,
            "banned_keys": sorted(self.banned_keys),
            "banned_ips": sorted(self.banned_ips),
            "lock_to": self.lock_to.value,
            "invited": list(self.invited.values()),
            "moves": {str(seat): counts for seat, counts in self.moves.items()},
        }

    @classmethod
    def restore(
        cls,
        data: dict[str, Any],
        rng: random.Random,
        cards: Callable[[Sequence[str]], tuple[Card, ...]],
    ) -> Table:
        options = data["options"]
        table = cls(data["code"], TableOptions(**{**options, "decks": tuple(options["decks"])}), rng, cards)
        table.seats = [
            Seat(s["name"], s["key"], s["code"], s["bot"], s["removed"], builtin=s.get("builtin", s["bot"]))
            for s in data["seats"]
        ]
        table.lobby_host = data["lobby_host"]
        table.game_id = data.get("game_id") or table.code
        table.creator, table.creator_ip = data.get("creator"), data.get("creator_ip")
        if data["events"] is not None:
            table.game = Game(event_from_dict(e) for e in data["events"])
            table.event_records = list(data["events"])
        for line in data["chat"]:
            table.add_table_line(ChatLine(**line))
        table.chat_total = data.get("chat_total", table.chat_total)
        table.log.extend(data["log"])
        table.log_total = data.get("log_total", len(data["log"]))
        table.version = data["version"]
        table.banned_keys = set(data.get("banned_keys", ()))
        table.banned_ips = set(data.get("banned_ips", ()))
        table.lock_to = TableLock(data.get("lock_to", TableLock.OPEN))
        table.invited = {name_key(name): name for name in data.get("invited", ())}
        table.moves = {int(seat): list(counts) for seat, counts in data.get("moves", {}).items()}
        return table

    def reset_from(self, saved: Table[S]) -> list[S]:
        """Take the saved table's state (after a failed save), keeping who is connected to which seat.
        Returns the sessions whose seat no longer exists."""
        sessions = [seat.session for seat in self.seats]
        self.seats = saved.seats
        self.lobby_host, self.game, self.event_records = saved.lobby_host, saved.game, saved.event_records
        self.banned_keys, self.banned_ips = saved.banned_keys, saved.banned_ips
        self.lock_to, self.invited = saved.lock_to, saved.invited
        self.moves = saved.moves
        self.options = saved.options  # (a change of options that was not saved did not happen)
        self.clue_stand_in, self.quiet_turns, self.person_played = (
            saved.clue_stand_in,
            saved.quiet_turns,
            saved.person_played,
        )
        self.chat, self.chat_total, self.log, self.version = saved.chat, saved.chat_total, saved.log, saved.version + 1
        self.log_total = saved.log_total
        self.pending = []
        self._seat_infos_key = ()
        for index, session in enumerate(sessions[: len(self.seats)]):
            self.seats[index].session = session
        return [s for s in sessions[len(self.seats) :] if s is not None]

    # --- seating ---------------------------------------------------------------------------------------------

    def add_seat(self, name: str, key: str | None, *, bot: bool = False, builtin: bool = False) -> int:
        if self.game is not None:
            game = "is over" if self.status is TableStatus.OVER else "has already started"
            raise TableError(f"The game {game}: you can watch it instead.", ErrorCode.STARTED)
        if len(self.seats) >= self.max_seats:
            raise TableError(f"This table is full ({self.max_seats} seats).", ErrorCode.TABLE_FULL)
        if (taken := self._name_taken_error(name)) is not None:
            raise taken
        record: dict[str, Any] = {"t": "seat", "name": name, "key": key, "code": new_reconnect_code(), "bot": bot}
        if bot:
            record["builtin"] = builtin
        self.record(record)
        return len(self.seats) - 1

    def keeps_out(self, key: str | None, address: str | None) -> bool:
        """Whether the host removed this player from the table: by their key, or (keyless) by their address."""
        if key is not None:
            return key in self.banned_keys
        here = address_of(address) if address is not None else None  # (an IPv6 address: its /64)
        return here is not None and any(address_of(ip) == here for ip in self.banned_ips)

    def ban(self, key: str | None, address: str | None) -> None:
        """Keep a removed player out: their key, or their address if they have none."""
        if key is not None:
            self.record({"t": "ban", "key": key})
        elif address is not None:
            self.record({"t": "ban", "ip": address})

    def check_new_seat(self, name: str) -> None:
        """A table locked by its host takes new players only as it says (those invited, by name)."""
        if self.lock_to is TableLock.INVITED and name_key(name) not in self.invited:
            raise TableError(f"Table {self.code} takes only the players its host invited.", ErrorCode.LOCKED)

    def set_lock(self, to: TableLock) -> None:
        if to is not self.lock_to:
            self.record({"t": "lock", "to": to.value})

    def invite(self, name: str) -> None:
        if name_key(name) not in self.invited:
            self.record({"t": "invite", "name": name})

    def leave_lobby_seat(self, seat: int, *, removed_by: str | None = None) -> S | None:
        """Before the game starts, leaving frees the seat; the host role passes on. Returns the session that sat
        there (it is no longer at the table: tell it, if it did not leave by itself). `removed_by` ("host",
        "admin"): they did not leave, they were removed (the server's log says so)."""
        gone = self.seats[seat].session
        record: dict[str, Any] = {"t": "unseat", "seat": seat, "name": self.seats[seat].name}
        if removed_by is not None:
            record["by"] = removed_by
        self.record(record)
        return gone

    def sit(self, seat: int, session: S) -> S | None:
        """`session` takes seat `seat` (one just added, or its own coming back). Returns the session it pushes out
        (the same player in another terminal), to be told; everyone at the table sees the change in its next view."""
        record = self.seats[seat]
        previous = record.session
        self.spectators.discard(session)
        was_connected = record.connected
        record.session = session
        self.away_since.pop(seat, None)
        if not was_connected and self.game is not None:
            self.announce(f"{record.name} is back.")
        return previous if previous is not session else None

    def watch(self, session: S) -> None:
        self.spectators.add(session)

    def leave(self, session: S, now: float, chosen: bool = False) -> None:
        """`session` leaves (back to the lobby or to another table when `chosen`, else its connection ended). A
        spectator just goes; a player's seat is freed before the start and kept during a game, away from `now` (a
        stand-in plays for it after the grace)."""
        self.spectators.discard(session)
        self.limiter.forget(session)  # (a spectator's count: the table must not keep a session that left)
        seat = self.seat_of(session)
        if seat is None:
            return
        self.typing.pop(seat, None)
        if self.game is None:
            self.leave_lobby_seat(seat)
            return
        self.seats[seat].session = None
        self.away_since[seat] = now
        if seat == self.host:
            self.away_host = seat
        if self.status == TableStatus.PLAYING:
            name = self.seats[seat].name
            self.announce(
                f"{name} left the table; their seat is kept."
                if chosen
                else f"{name} is disconnected; their seat is kept."
            )

    def all_away(self, now: float) -> None:
        """Loaded from the store: nobody is back yet, and every seat counts as away from `now`."""
        self.away_since = {seat: now for seat in range(len(self.seats))}
        self.away_host = self.host if self.seats else None

    def away_names(self) -> list[str]:
        """The players (not removed) with nobody connected to their seat."""
        return [s.name for s in self.seats if s.session is None and not s.removed]

    def hand_over(self, new: Table[S], moved: dict[int, int]) -> tuple[list[str], list[S]]:
        """A rematch: each connected player sits down at `new` in seat `moved[old seat]`, and every spectator goes
        along. A built-in bot stops when its game ends: it stays, and a fresh one is to sit down in its place.
        Returns the names of the bots to seat again, and the sessions now at `new` (to be pointed at it and told)."""
        bots: list[str] = []
        arriving: list[S] = []
        for before, after in moved.items():
            record = self.seats[before]
            session = record.session
            if record.bot and (session.builtin_bot if session is not None else record.builtin):
                bots.append(record.name)
                continue
            if session is None:
                continue  # kept for them: their key, `join` or reconnect code brings them back
            record.session = None
            new.seats[after].session = session
            arriving.append(session)
        for watcher in list(self.spectators):
            self.spectators.discard(watcher)
            new.spectators.add(watcher)
            arriving.append(watcher)
        new.remote_watchers, self.remote_watchers = self.remote_watchers, 0  # those at other workers follow too
        return bots, arriving

    def close(self) -> list[S]:
        """The table closes: its clocks stop and everyone at it (players, bots, spectators) leaves. Returns them, to be
        told. The "closed" record is the caller's to queue (`queue_closed`), before it commits."""
        gone = self.sessions()
        self.stop_clocks()
        self.spectators.clear()
        for seat in self.seats:
            seat.session = None
        return gone

    def stop_clocks(self) -> None:
        """Cancel every timer of the table; nothing is promised any longer."""
        for handle in (self.timer, self.typing_timer, self.idle_timer, self.reveal_timer):
            if handle is not None:
                handle.cancel()
        self.timer = self.typing_timer = self.idle_timer = self.reveal_timer = None
        self.reveal_until = None
        self.deadline = self.shown_deadline = self.shown_phase_deadline = None
        self.stand_ins = {}

    def queue_created(self) -> None:
        """The table's first record, for the store: its code and options, and who created it from where (for the
        per-player and per-address table caps, which so hold across restarts and workers). The seats and the game
        come after."""
        record: dict[str, Any] = {
            "t": "create",
            "code": self.code,
            "game": self.game_id,
            "options": asdict(self.options),
        }
        if self.creator is not None:
            record["creator"] = self.creator
        if self.creator_ip is not None:
            record["creator_ip"] = self.creator_ip
        self.pending.append(record)

    def queue_closed(self, at: float, by: str | None = None) -> None:
        """The table's last record, for the store: it closed at `at` (epoch seconds), its game finished or not (its
        records stay, for replays, as long as the store keeps such games); `by`: "admin" when an admin closed it."""
        record: dict[str, Any] = {"t": "closed", "at": at, "over": self.status is TableStatus.OVER}
        if by is not None:
            record["by"] = by
        self.pending.append(record)

    @property
    def game_name(self) -> str:
        """The game's id as people type it: `K7QF-X2M9PQRT` (its table's code, then what makes it unique)."""
        if len(self.game_id) > len(self.code) and self.game_id.startswith(self.code):
            return f"{self.code}-{self.game_id[len(self.code) :]}"
        return self.game_id

    def set_options(self, options: TableOptions, by: str) -> None:
        """New options before the start (checked by the coordinator); the log says what they are now."""
        timer = f", {timer_text(options.turn_seconds)} a phase" if options.turn_seconds else ""  # as the lobby says it
        text = f"{by} changed the options: {mode_text(options.label())}, decks {', '.join(options.decks)}{timer}."
        self.record({"t": "options", "options": asdict(options), "text": text})

    def rename(self, seat: int, name: str) -> None:
        if self.game is not None:
            raise TableError("Names are fixed once the game has started.", ErrorCode.STARTED)
        if (taken := self._name_taken_error(name, except_seat=seat)) is not None:
            raise taken
        self.record({"t": "rename", "seat": seat, "name": name})

    # --- the game --------------------------------------------------------------------------------------------

    def start_problem(self) -> str | None:
        if self.game is not None:
            return "The game has started."
        config = self.config()
        try:
            check_player_count(config, len(self.seats), seats=self.options.seats)
        except ConfigError as err:
            return err.message
        return None

    def config(self) -> GameConfig:
        o = self.options
        return GameConfig(Mode(o.mode), Profile(o.profile), o.target, o.storytells, FirstStoryteller(o.first))

    def start(self, *, practice: bool = False) -> list[Update]:
        """Start the game (with `practice`, after an unscored practice turn told by the host)."""
        problem = self.start_problem()
        if problem is not None:
            raise TableError(problem, ErrorCode.CANNOT_START)
        cards = self.resolve_cards(self.options.decks)
        seed = self.options.seed if self.options.seed is not None else self.rng.randrange(2**63)
        names = [s.name for s in self.seats]
        events = start_game(self.config(), names, cards, seed, host=self.lobby_host, practice=practice)
        return self.record({"t": "events", "events": [event_to_dict(e) for e in events]}, (events, fold(events)))

    def execute(self, command: Command, *, stand_in: str | None = None) -> list[Update]:
        """Run one command. `stand_in` ("away" or "time") says a stand-in made it, and why: the log says so."""
        if self.game is None:
            raise TableError("The game has not started yet.", ErrorCode.NOT_STARTED)
        events, after = step(self.game.state, command)  # checked, and folded once; serialised once, for the store
        rec: dict[str, Any] = {"t": "events", "events": [event_to_dict(e) for e in events]}
        if stand_in is not None:
            rec["stand_in"] = stand_in
        updates = self.record(rec, (events, after))
        if any(isinstance(event, GameEnded) for event in events):
            self.record(result_record(self.code, self.options, self.game.state, self.seats, self.moves))
        return updates

    def _clue_prompt(self) -> str:
        assert self.game is not None
        teller = self.game.state.turn.storyteller
        if teller is None:
            return "Anyone may give the first clue."
        if self.game.state.practice:
            return f"{self.seats[teller].name} tells the practice turn."
        return f"{self.seats[teller].name} tells next."

    def _person_here(self) -> None:
        """A person played or chatted: the table is attended (a table that had stopped playing itself goes on)."""
        if self.unattended and self.status is TableStatus.PLAYING:
            self.note("Someone is here again: the clock runs again.")
        self.quiet_turns = 0
        self.person_played = True

    def _turn_over(self) -> None:
        """A turn was scored: count it among the quiet ones if no person played in it."""
        if self.person_played:
            self.quiet_turns = 0
        else:
            self.quiet_turns += 1
            if self.quiet_turns == QUIET_TURNS and self.unattended:
                self.note(
                    f"Nobody has played for {QUIET_TURNS} turns, so the table waits: the clock stops until someone "
                    "moves or chats."
                )
        self.person_played = False

    def _describe(
        self,
        events: Sequence[Event],
        stand_in: str | None = None,
        *,
        open_clue: bool = False,
        host_before: int | None = None,
    ) -> list[Update]:
        """Public log lines and updates for the events of one command. Only public facts are written.
        `stand_in` ("away", "time"): a stand-in made the command, and the log says why, once. `open_clue`: the
        command was given while the first clue was open to everyone. `host_before`: the host before the command."""
        assert self.game is not None
        updates: list[Update] = []
        names = [s.name for s in self.seats]
        move = events[0] if events else None  # a player's move comes first among its command's events
        person = isinstance(move, ClueGiven | CardsSubmitted | VoteCast) and not self.seats[move.seat].bot
        if person and stand_in is None:
            self._person_here()

        def by_stand_in(seat: int, did: str) -> str:
            if stand_in == StandInReason.TIME:
                return f"Time's up: a stand-in {did} for {names[seat]}."
            return f"{names[seat]} is away: a stand-in {did} for them."

        for event in events:
            match event:
                case ClueGiven(seat=seat, text=text):
                    self.clue_stand_in = stand_in
                    if stand_in == StandInReason.TIME and open_clue:
                        self.note(
                            f"Time's up and nobody gave the first clue, so {names[seat]} tells (the first in seat "
                            f"order): a stand-in gave the clue “{text}” for them."
                        )
                    elif stand_in is not None:
                        self.note(by_stand_in(seat, f"gave the clue “{text}”"))
                    else:
                        self.note(f"{names[seat]} gave the clue: {text}")
                case CardsSubmitted(seat=seat, cards=cards):
                    if stand_in is not None:
                        self.note(by_stand_in(seat, "gave a card" if len(cards) == 1 else f"gave {len(cards)} cards"))
                    else:
                        self.note(f"{names[seat]} gave " + ("a card." if len(cards) == 1 else f"{len(cards)} cards."))
                case VoteCast(seat=seat) if stand_in is not None:
                    self.note(by_stand_in(seat, "voted"))
                case TurnScored(reveal=reveal):
                    updates.append(RevealUpdate(reveal))
                    gains = ", ".join(f"{names[p.seat]} +{p.delta}" for p in reveal.points if p.delta)
                    if reveal.turn == 0:
                        self.note(f"Practice turn revealed (not counted). {gains or 'Nobody would have scored.'}")
                    else:
                        self.note(f"Turn {reveal.turn} revealed. {gains or 'Nobody scored.'}")
                    self._turn_over()
                case PracticeEnded():
                    self.note("The practice is over: every card was shuffled and dealt again, and scores start at 0.")
                case TurnVoided(turn=turn):
                    updates.append(VoidedUpdate(turn))
                    what = "The practice turn" if turn == 0 else f"Turn {turn}"
                    self.note(f"{what} was voided: every card went back to its owner.")
                case PlayerRemoved(seat=seat, host=host):
                    self.seats[seat].removed = True
                    if seat == host_before and host != seat and not self.seats[host].bot:
                        # the host's duties went with the game to the next person: everyone reads who has them
                        # (to a bot, they go on at once to a person, and that is told: see Coordinator._pass_host)
                        self.note(f"{names[seat]} has left the game for good, so {names[host]} is the host now.")
                    else:
                        self.note(f"{names[seat]} has left the game for good.")
                case GameEnded(winners=winners):
                    state = self.game.state
                    scores = tuple((s, state.scores[s]) for s in state.active_seats())
                    updates.append(OverUpdate(scores, winners))
                    if not winners and self.game.state.turn.number == 0:
                        self.note("The practice ended: too few players are left to play, so nobody won.")
                    elif not winners:
                        self.note("Game over: too few players are left to play, so nobody won.")
                    elif all(score == 0 for _, score in scores):  # ended by a removal: no winner to name
                        self.note(f"Game over: {ENDED_BEFORE_SCORING}.")
                    else:
                        self.note(f"Game over. {and_list([names[w] for w in winners])} won.")
        if self.game.state.phase is Phase.CLUE and any(isinstance(e, TurnScored | TurnVoided) for e in events):
            if any(isinstance(e, PracticeEnded) for e in events):
                self.note("The game begins.")
            self.note(self._clue_prompt())
        return updates

    # --- chat and log ----------------------------------------------------------------------------------------

    def chat_paused(self) -> bool:
        return self.options.chat_pause and self.game is not None and self.game.state.phase in (Phase.SUBMIT, Phase.VOTE)

    def say(self, who: S, seat: int | None, name: str, text: str) -> list[Update]:
        if not text:
            raise TableError("Type something to send.", ErrorCode.EMPTY)
        if self.chat_paused():
            raise TableError("Chat is paused until the reveal, so nobody can hint at a card.", ErrorCode.CHAT_PAUSED)
        if not self.limiter.allow(who if seat is None else seat):  # a seat's count outlives its reconnections
            raise TableError("Slow down a little: a few messages every ten seconds.", ErrorCode.RATE_LIMITED)
        return self.record({"t": "chat", "seat": seat, "name": name, "text": text})

    def team_of(self, seat: int | None) -> int | None:
        """The team a seat plays in, in a running team game (None: no team, or not a player)."""
        if seat is None or self.game is None or self.game.state.config.mode is not Mode.TEAM:
            return None
        if self.seats[seat].removed:
            return None
        return self.game.state.team_of(seat)

    def team_sessions(self, team: int) -> list[S]:
        """The connected players of one team (never spectators)."""
        return [s.session for i, s in enumerate(self.seats) if s.session is not None and self.team_of(i) == team]

    def say_to_team(self, who: S, seat: int | None, name: str, text: str) -> ChatUpdate:
        """A line for your teammate only. Allowed while the table's chat is paused: it reaches nobody else. Kept in
        memory for the team's own view, never recorded (the store, replays and transcripts never see it)."""
        if not text:
            raise TableError("Type something to send.", ErrorCode.EMPTY)
        team = self.team_of(seat)
        if team is None:
            if self.options.mode != Mode.TEAM:
                raise TableError("Team chat is only for team games.", ErrorCode.NOT_TEAM)
            raise TableError("Team chat opens when the game starts, for the players of a team.", ErrorCode.NO_TEAM)
        if not self.limiter.allow(who if seat is None else seat):
            raise TableError("Slow down a little: a few messages every ten seconds.", ErrorCode.RATE_LIMITED)
        line = ChatLine(seat, name, text, team, after=self.log_total)
        self.team_chat.setdefault(team, deque(maxlen=TEAM_CHAT_TAIL)).append((self.chat_total, line))
        return ChatUpdate(line)

    def add_table_line(self, line: ChatLine) -> None:
        self.chat.append(line)
        self.chat_total += 1

    def chat_for(self, team: int | None) -> tuple[ChatLine, ...]:
        """The table's last lines with (team mode) the last lines of one team, in the order they were said."""
        if team is None or team not in self.team_chat:
            return tuple(self.chat)
        first = self.chat_total - len(self.chat)  # the number of the oldest table line kept
        out: list[ChatLine] = []
        mine = iter(self.team_chat[team])
        pending = next(mine, None)
        for number, line in enumerate(self.chat, start=first):
            while pending is not None and pending[0] <= number:
                out.append(pending[1])
                pending = next(mine, None)
            out.append(line)
        while pending is not None:
            out.append(pending[1])
            pending = next(mine, None)
        return tuple(out)

    def note(self, text: str) -> None:
        self.log.append(text)
        self.log_total += 1
        self.version += 1

    def announce(self, text: str) -> None:
        """A log line about people coming and going (recorded, so it survives a restart)."""
        self.record({"t": "note", "text": text})

    # --- views -----------------------------------------------------------------------------------------------

    def view_for(self, session: S) -> TableView:
        seat = self.seat_of(session)
        return self._view(seat, self._shared_view(), self.chat_for(self.team_of(seat)))

    def views(self) -> list[tuple[S, TableView]]:
        """Every session at the table shown here with its own view, as `view_for` builds it (and in `sessions()`'s
        order). A seat held at another worker (`remote`: that worker shows it its views) gets none, and none is built
        for it. What is the same for every seat (the seats, the log, the table's chat, the clocks) is built once for
        all of them, and so is the one view every spectator gets; the game part of each view is the engine's
        `view_for` of its seat."""
        first: dict[int, int] = {}  # id(session) -> its seat (the first, as `seat_of` finds it)
        pairs: list[tuple[S, int | None]] = []
        for index, record in enumerate(self.seats):
            if record.session is not None and not getattr(record.session, "remote", False):
                pairs.append((record.session, first.setdefault(id(record.session), index)))
        pairs.extend((watcher, first.get(id(watcher))) for watcher in self.spectators)
        shared = self._shared_view()
        chats: dict[int | None, tuple[ChatLine, ...]] = {}
        watching: TableView | None = None  # a spectator's view: the same for every spectator
        out: list[tuple[S, TableView]] = []
        for session, seat in pairs:
            if seat is None and watching is not None:
                out.append((session, watching))
                continue
            team = self.team_of(seat)
            chat = chats.get(team)
            if chat is None:
                chat = chats[team] = self.chat_for(team)
            view = self._view(seat, shared, chat)
            if seat is None:
                watching = view
            out.append((session, view))
        return out

    def _shared_view(self) -> _SharedView:
        """The parts of a view that are the same for every session at the table now."""
        host = self.host
        lobby = self.game is None
        return _SharedView(
            host=host,
            status=self.status,
            seats=self._seat_infos(host),
            log=tuple(self.log),
            chat_paused=self.chat_paused(),
            spectators=self.watchers(),
            start_problem=self.start_problem() if lobby else None,
            typing=self.typing_seats(),
            stand_ins=tuple(sorted(self.stand_ins.items())),
            stand_in_clue=self.clue_stand_in if self._clue_given() else None,
        )

    def _clue_given(self) -> bool:
        """The turn's clue is on the table (its cards are being given, or the vote is on)."""
        return self.game is not None and self.game.state.phase in (Phase.SUBMIT, Phase.VOTE)

    def _view(self, seat: int | None, shared: _SharedView, chat: tuple[ChatLine, ...]) -> TableView:
        return TableView(
            code=self.code,
            options=self.options,
            status=shared.status,
            seats=shared.seats,
            you=seat,
            host=shared.host,
            game=view_for(self.game.state, seat) if self.game is not None else None,
            chat=chat,
            log=shared.log,
            chat_paused=shared.chat_paused,
            spectators=shared.spectators,
            reconnect_code=self.seats[seat].code if seat is not None and self.seats[seat].key is None else None,
            start_problem=shared.start_problem,
            version=self.version,
            deadline=self.shown_deadline,
            phase_deadline=self.shown_phase_deadline,
            reveal_until=self.reveal_until,
            log_total=self.log_total,
            typing=shared.typing,
            stand_ins=shared.stand_ins,
            stand_in_clue=shared.stand_in_clue,
            lock=self.lock_to,
            invited=tuple(self.invited.values()) if seat is not None and seat == shared.host else (),
        )

    def _seat_infos(self, host: int) -> tuple[SeatInfo, ...]:
        """The seats as every view shows them, built once for all the views of one change."""
        key = (self.version, host, len(self.seats), *[s.session is not None for s in self.seats])
        if self._seat_infos_key != key:
            self._seat_infos_value = tuple(
                [
                    SeatInfo(i, s.name, s.connected, s.bot, i == host, s.removed, s.builtin)
                    for i, s in enumerate(self.seats)
                ]
            )
            self._seat_infos_key = key
        return self._seat_infos_value

    def typing_seats(self) -> tuple[int, ...]:
        """The seats writing a clue they may still give (a report from another phase shows nothing)."""
        if not self.typing or self.game is None or self.game.state.phase is not Phase.CLUE:
            return ()
        waiting = self.game.state.waiting_for()
        return tuple(sorted(seat for seat in self.typing if seat in waiting))
