"""Protocol v1 commands: each checked for shape, then passed to the player's coordinator session."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import Any, TypeVar

from dixit_tui.coordinator import PlayerSession, TableError, TableLock, TableOptions
from dixit_tui.coordinator.matchmaker import Ask
from dixit_tui.coordinator.models import REVEAL_SECONDS, LeaderboardUpdate
from dixit_tui.engine import ErrorCode, FirstStoryteller, Mode, Profile, a_or_an, player_range, profile_for
from dixit_tui.ratings import leaderboard_rows


class BadCommand(TableError):
    """A command of the wrong shape: `bad_command` unless a code is given."""

    def __init__(self, message: str, code: ErrorCode = ErrorCode.BAD_COMMAND) -> None:
        super().__init__(message, code)


def _str(msg: dict[str, Any], key: str, *, required: bool = True) -> str | None:
    value = msg.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise BadCommand(f'"{key}" must be a string.')
    return value


def _int(msg: dict[str, Any], key: str, default: int | None = None) -> int | None:
    value = msg.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadCommand(f'"{key}" must be a whole number.')
    return value


def _ints(msg: dict[str, Any], key: str) -> list[int]:
    value = msg.get(key)
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise BadCommand(f'"{key}" must be a list of whole numbers.')
    return value


def _strs(msg: dict[str, Any], key: str) -> list[str]:
    value = msg.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadCommand(f'"{key}" must be a list of strings.')
    return value


def _default(value: int | None, default: int) -> int:
    return default if value is None else value


E = TypeVar("E", bound=StrEnum)


class ChatTo(StrEnum):
    TABLE = "table"
    TEAM = "team"  # team mode: your teammate only


def _choice(msg: dict[str, Any], key: str, kind: type[E], default: E) -> E:
    value = _str(msg, key, required=False)
    if not value:
        return default
    try:
        return kind(value)
    except ValueError:
        raise BadCommand(f'"{key}" must be ' + " or ".join(f'"{e}"' for e in kind) + ".") from None


def create_options(msg: dict[str, Any]) -> TableOptions:
    return TableOptions(
        mode=_str(msg, "mode", required=False) or Mode.STANDARD,
        profile=_str(msg, "profile", required=False) or Profile.REFRESH,
        decks=tuple(_strs(msg, "decks")) if "decks" in msg else ("base",),
        seats=_int(msg, "seats"),
        target=_default(_int(msg, "target"), 30),
        storytells=_default(_int(msg, "storytells"), 1),
        first=_choice(msg, "first", FirstStoryteller, FirstStoryteller.FIRST_CLUE),
        seed=_int(msg, "seed"),
        turn_seconds=_int(msg, "turn_seconds"),
        reveal_seconds=_default(_int(msg, "reveal_seconds"), REVEAL_SECONDS),
    )


async def dispatch(session: PlayerSession, msg: dict[str, Any]) -> None:
    """Carry out one command; raises RuleError (answered as an `error` message) when it cannot be done."""
    cmd = msg.get("cmd")
    handler = HANDLERS.get(cmd) if isinstance(cmd, str) else None
    if handler is None:
        raise BadCommand(f"Unknown command {cmd!r}. Commands: {', '.join(HANDLERS)}.", ErrorCode.UNKNOWN_COMMAND)
    await handler(session, msg)


async def _create(s: PlayerSession, m: dict[str, Any]) -> None:
    options = create_options(m)
    try:
        most = options.max_seats()
    except ValueError as err:
        raise BadCommand(f"Unknown mode or profile: {err}.", ErrorCode.BAD_OPTION) from err
    if options.seats is not None and not 1 <= options.seats <= most:
        raise BadCommand(f"{a_or_an(options.label())} table has at most {most} seats.", ErrorCode.BAD_OPTION)
    seats = options.seats or most
    bots = _default(_int(m, "bots"), 0)
    if not 0 <= bots < seats:
        raise BadCommand(f'"bots" must be between 0 and {seats - 1} (one seat is yours).', ErrorCode.BAD_OPTION)
    most = s.coordinator.limits.max_bots_per_table
    if bots > most:
        raise TableError(f"A table here takes at most {most} bots.", ErrorCode.TOO_MANY_BOTS)
    await s.create(options)
    if bots:
        await s.add_bots(bots)


async def _join(s: PlayerSession, m: dict[str, Any]) -> None:
    await s.join(_str(m, "table") or "", _str(m, "name", required=False))


async def _watch(s: PlayerSession, m: dict[str, Any]) -> None:
    await s.watch(_str(m, "table") or "")


async def _reconnect(s: PlayerSession, m: dict[str, Any]) -> None:
    await s.reclaim(_str(m, "code") or "")


async def _start(s: PlayerSession, m: dict[str, Any]) -> None:
    practice = m.get("practice", False)
    if not isinstance(practice, bool):
        raise BadCommand('"practice" must be true or false.')
    await s.start(practice=practice)


@contextmanager
def _at_version(s: PlayerSession, m: dict[str, Any]) -> Iterator[None]:
    """A move with `version` (the `state` it was decided on) is refused (`stale`) if the table has moved on since."""
    s.expected_version = _int(m, "version")
    try:
        yield
    finally:
        s.expected_version = None


async def _clue(s: PlayerSession, m: dict[str, Any]) -> None:
    with _at_version(s, m):
        await s.clue(_str(m, "text") or "", _str(m, "card", required=False))


async def _submit(s: PlayerSession, m: dict[str, Any]) -> None:
    with _at_version(s, m):
        await s.submit(_strs(m, "cards"))


async def _vote(s: PlayerSession, m: dict[str, Any]) -> None:
    with _at_version(s, m):
        await s.vote(_ints(m, "slots"), _int(m, "red"))


async def _chat(s: PlayerSession, m: dict[str, Any]) -> None:
    to = _choice(m, "to", ChatTo, ChatTo.TABLE)
    await s.chat(_str(m, "text") or "", team=to is ChatTo.TEAM)


async def _typing(s: PlayerSession, m: dict[str, Any]) -> None:
    active = m.get("active")
    if not isinstance(active, bool):
        raise BadCommand('"active" must be true or false.')
    await s.typing(active)


async def _void(s: PlayerSession, m: dict[str, Any]) -> None:
    with _at_version(s, m):
        await s.void()


async def _remove(s: PlayerSession, m: dict[str, Any]) -> None:
    seat = _int(m, "seat")
    if seat is None:
        raise BadCommand('"seat" is required.')
    with _at_version(s, m):
        await s.remove(seat)


async def _lock(s: PlayerSession, m: dict[str, Any]) -> None:
    await s.lock(_choice(m, "to", TableLock, TableLock.CODE))


async def _options(s: PlayerSession, m: dict[str, Any]) -> None:
    """The host's new options before the start: the fields of `create` (each as `create` defaults it)."""
    options = create_options(m)
    try:
        options.max_seats()
    except ValueError as err:
        raise BadCommand(f"Unknown mode or profile: {err}.", ErrorCode.BAD_OPTION) from err
    await s.change_options(options)


async def _invite(s: PlayerSession, m: dict[str, Any]) -> None:
    await s.invite(_str(m, "name") or "")


async def _add_bots(s: PlayerSession, m: dict[str, Any]) -> None:
    await s.add_bots(_int(m, "count", 1) or 0)


async def _rematch(s: PlayerSession, m: dict[str, Any]) -> None:
    await s.rematch()


async def _leave(s: PlayerSession, m: dict[str, Any]) -> None:
    await s.leave()


def queue_ask(msg: dict[str, Any]) -> Ask:
    """A `queue` command's ask: `players` a size or [smallest, biggest] (default: any size the mode plays)."""
    mode = _choice(msg, "mode", Mode, Mode.STANDARD)
    profile = _choice(msg, "profile", Profile, Profile.REFRESH)
    lo, hi = player_range(mode, profile_for(mode, profile))
    players = msg.get("players", [lo, hi])
    if isinstance(players, int) and not isinstance(players, bool):
        players = [players, players]
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in players)
    ):
        raise BadCommand('"players" must be a whole number or a list of two: [smallest, biggest].')
    fill = msg.get("fill_with_bots_after")
    if fill is not None and (isinstance(fill, bool) or not isinstance(fill, int | float)):
        raise BadCommand('"fill_with_bots_after" must be a number of seconds, or null for never.')
    return Ask(mode, profile, players[0], players[1], None if fill is None else float(fill))


async def _queue(s: PlayerSession, m: dict[str, Any]) -> None:
    await s.coordinator.matchmaker.queue(s, queue_ask(m))


async def _leaderboard(s: PlayerSession, m: dict[str, Any]) -> None:
    limit = _default(_int(m, "limit"), 50)
    if not 1 <= limit <= 100:
        raise BadCommand('"limit" must be between 1 and 100.', ErrorCode.BAD_OPTION)
    s.deliver(LeaderboardUpdate(leaderboard_rows(s.coordinator.ratings, limit)))


async def _unqueue(s: PlayerSession, m: dict[str, Any]) -> None:
    if not s.coordinator.matchmaker.unqueue(s):
        raise TableError("You are not in the queue.", ErrorCode.NOT_QUEUED)


HANDLERS: dict[str, Callable[[PlayerSession, dict[str, Any]], Awaitable[None]]] = {
    "create": _create,
    "join": _join,
    "watch": _watch,
    "reconnect": _reconnect,
    "start": _start,
    "clue": _clue,
    "submit": _submit,
    "vote": _vote,
    "chat": _chat,
    "typing": _typing,
    "void": _void,
    "remove": _remove,
    "leave": _leave,
    "add_bots": _add_bots,
    "rematch": _rematch,
    "queue": _queue,
    "unqueue": _unqueue,
    "leaderboard": _leaderboard,
    "lock": _lock,
    "invite": _invite,
    "options": _options,
}
