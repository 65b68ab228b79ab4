"""What the coordinator sends to sessions: table views built on the engine's per-player view, and updates."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dixit_tui.engine import FirstStoryteller, Mode, PlayerView, Profile, Reveal, player_range, profile_for


class TableStatus(StrEnum):
    LOBBY = "lobby"  # seats are being taken, no game yet
    PLAYING = "playing"
    OVER = "over"


class TableLock(StrEnum):
    """Who may take a new seat at a table, as its host set it."""

    OPEN = "open"  # anyone; the lobby lists the table
    CODE = "code"  # only people who have its code: the lobby does not list it
    INVITED = "invited"  # only those the host invited, by name (the lobby does not list it either)


class LiveKind(StrEnum):
    """What a live notice between workers carries (never recorded): a team chat line, or who is writing a clue."""

    TEAM = "team"
    TYPING = "typing"
    REVEAL = "reveal"  # a person moved on from a held reveal


class StandInReason(StrEnum):
    """Why a stand-in played for a seat (the log says so)."""

    AWAY = "away"  # its player has been disconnected for longer than the grace
    TIME = "time"  # the phase's time limit passed


class Label(StrEnum):
    """A table's kind in one word: a standard game's profile, or the mode of a party or team game."""

    REFRESH = "refresh"
    ODYSSEY = "odyssey"
    PARTY = "party"
    TEAM = "team"


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a session is: the wanted nickname (the SSH username) and the public key proven at authentication."""

    name: str
    key: str | None = None  # SHA256 fingerprint of the proven key, or None for a keyless guest
    peer: str | None = None  # remote address, for logs and limits
    bot: bool = False  # a built-in or headless bot (shown as such to everyone)


ENDED_BEFORE_SCORING = "the game ended before anyone scored"
"""How a game that ended (by a removal) with every score at 0 is told: its winners are not named (SPEC is silent)."""

REVEAL_SECONDS = 8
"""How long a table holds each turn's reveal by default (every person may move on sooner: `reveal_seen`)."""
REVEAL_RANGE = (0, 60)


@dataclass(frozen=True, slots=True)
class TableOptions:
    mode: str = Mode.STANDARD  # a Mode's value
    profile: str = Profile.REFRESH  # a Profile's value
    decks: tuple[str, ...] = ("base",)
    seats: int | None = None  # None: the mode's maximum
    target: int = 30
    storytells: int = 1
    first: str = FirstStoryteller.FIRST_CLUE  # a FirstStoryteller's value
    chat_pause: bool = True  # chat is paused from the clue until the reveal
    turn_seconds: int | None = None  # time limit per phase; when it passes a stand-in plays for whoever is missing
    seed: int | None = None  # only when the server allows seeded tables
    reveal_seconds: int = REVEAL_SECONDS  # the reveal is held this long for the people to read it; 0: not held

    def max_seats(self) -> int:
        mode = Mode(self.mode)
        return player_range(mode, profile_for(mode, Profile(self.profile)))[1]

    def label(self) -> Label:
        return Label(self.profile if self.mode == Mode.STANDARD else self.mode)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str
    connected: bool
    bot: bool
    host: bool
    removed: bool = False
    builtin: bool = False  # one of the server's own bots (`bot` is also true of an agent connected with `json bot`)


@dataclass(frozen=True, slots=True)
class ChatLine:
    seat: int | None  # None for a spectator
    name: str
    text: str
    team: int | None = None  # team mode: the team whose two players alone see this line; None: the whole table
    after: int | None = None  # the table's log lines noted before it was said (`TableView.log_total`): a new screen
    # shows it among them, not below them all; None: not known (a line stored before this was kept)


def timer_text(seconds: int | None) -> str:
    """A table's time limit per phase, short: "90 s", "2 min", "1 h"; "" without one."""
    if not seconds:
        return ""
    if seconds % 3600 == 0:
        return f"{seconds // 3600} h"
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s"


def host_text(host: str, bots_only: bool) -> str:
    """Who a listing names as a table's host: "bots only" when no person sits there (not a bot's name)."""
    return "bots only" if bots_only else host


def mode_text(label: str) -> str:
    """A table's mode in words, for a standard game with its rules: "standard (refresh)", "party", "team"."""
    return f"standard ({label})" if label in (Label.REFRESH, Label.ODYSSEY) else str(label)


@dataclass(frozen=True, slots=True)
class TableSummary:
    code: str
    label: Label
    status: TableStatus
    players: int
    seats: int
    host: str
    spectators: int
    decks: tuple[str, ...] = ("base",)  # the decks mixed at the table, as named in its options
    turn_seconds: int | None = None  # the time limit of each phase (then a stand-in plays); None: no limit
    bots_only: bool = False  # no person sits at the table: `host` is a bot, and the lobby says "bots only"


def takes_new_players(summary: TableSummary) -> bool:
    """Whether a new player can take a seat at this table: its seats are being taken (not started), someone is at
    it (not an empty leftover), and one of its seats is free (the lobby's and the line mode's `join CODE`)."""
    return summary.status is TableStatus.LOBBY and 0 < summary.players < summary.seats


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything one session may see of its table. `game` comes from the engine's view function, unchanged."""

    code: str
    options: TableOptions
    status: TableStatus
    seats: tuple[SeatInfo, ...]
    you: int | None  # your seat, None for a spectator
    host: int
    game: PlayerView | None
    chat: tuple[ChatLine, ...]
    log: tuple[str, ...]
    chat_paused: bool
    spectators: int
    reconnect_code: str | None  # your own, to reclaim your seat without a key
    start_problem: str | None  # why the host cannot start yet, None when they can
    version: int = 0
    deadline: float | None = None  # wall-clock time (epoch seconds) when a stand-in will play for those missing
    phase_deadline: float | None = None  # epoch seconds: the phase's own time limit runs out (None: none, or paused)
    typing: tuple[int, ...] = ()  # seats writing a clue right now (only seats that may give the clue)
    stand_ins: tuple[tuple[int, float], ...] = ()  # (seat, epoch seconds): offline seats a stand-in will play for
    stand_in_clue: str | None = None  # the clue on the table was a stand-in's: "time" (time ran out) or "away"
    lock: TableLock = TableLock.OPEN  # who may take a new seat (the host's lock)
    invited: tuple[str, ...] = ()  # the names the host invited (shown to the host only)
    reveal_until: float | None = None  # epoch seconds: the turn's reveal is held until then (bots and clocks wait)
    log_total: int = 0  # log lines ever noted at the table (`log` holds the last of them): places the chat among them

    @property
    def is_host(self) -> bool:
        return self.you is not None and self.you == self.host


@dataclass(frozen=True, slots=True)
class StateUpdate:
    view: TableView | None  # None: you are in the lobby


@dataclass(frozen=True, slots=True)
class LobbyUpdate:
    tables: tuple[TableSummary, ...]


@dataclass(frozen=True, slots=True)
class RevealUpdate:
    reveal: Reveal  # its slots carry the revealed cards' texts


@dataclass(frozen=True, slots=True)
class VoidedUpdate:
    turn: int


@dataclass(frozen=True, slots=True)
class OverUpdate:
    scores: tuple[tuple[int, int], ...]  # (seat, score)
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChatUpdate:
    line: ChatLine


class CloseReason(StrEnum):
    """Why a table closed (or was taken out of play) with you at it: the protocol's `notice` says it as `reason`."""

    IDLE = "idle"  # a running game nobody played at for a while
    CLOSED = "closed"  # closed elsewhere (another worker), or never saved
    STORAGE = "storage"  # the store cannot be reached: paused as last saved, `join` it again in a moment


@dataclass(frozen=True, slots=True)
class NoticeUpdate:
    text: str
    reason: str | None = None  # why you were sent to the lobby, when you were: a `CloseReason`


@dataclass(frozen=True, slots=True)
class QueueUpdate:
    """Where you stand in the queue for a table (`Matchmaker`): `queued` while you wait, with how many wait for a table
    like yours (you too); False once you left it or were seated (`table`: the table's code)."""

    queued: bool
    waiting: int
    text: str
    table: str | None = None


@dataclass(frozen=True, slots=True)
class LeaderboardUpdate:
    """The leaderboard, for the session that asked: (name, conservative rating, mu, sigma, games), best first."""

    board: tuple[tuple[str, float, float, float, int], ...]


Update = (
    StateUpdate
    | LobbyUpdate
    | RevealUpdate
    | VoidedUpdate
    | OverUpdate
    | ChatUpdate
    | NoticeUpdate
    | QueueUpdate
    | LeaderboardUpdate
)
