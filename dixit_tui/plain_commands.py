"""Sessions without a terminal: `json` (the headless protocol), `plain` (the line mode) and the plain commands
`tables` (`tables --json`), `leaderboard`, `replay CODE` (`replay CODE --json`), `help`, `version`, `health`.

It uses the protocol, the line mode and the coordinator, so it stands above them (the protocol itself imports no
transport and no mode of play)."""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Mapping
from typing import Any

from dixit_tui import __version__
from dixit_tui.coordinator import Coordinator, Identity
from dixit_tui.coordinator.codes import normalize_code
from dixit_tui.coordinator.models import TableStatus, host_text, mode_text, timer_text
from dixit_tui.engine import view_for
from dixit_tui.health import health
from dixit_tui.line_mode import play_lines
from dixit_tui.protocol.admin import handle_admin
from dixit_tui.protocol.json_stream import MAX_LINE, serve_json
from dixit_tui.protocol.lines import LineReader
from dixit_tui.protocol.messages import replay_json, summary
from dixit_tui.ratings import leaderboard_text
from dixit_tui.sanitize import ssh_user
from dixit_tui.ssh.terminal import declares_utf8, glyph_set
from dixit_tui.transcript import stand_in_moves, transcript_of

log = logging.getLogger(__name__)

HELP_LINES = (
    ("ssh {at}", "play: the lobby opens in your terminal"),
    ("ssh -t {at} join CODE", "go straight to a table (watch CODE to spectate)"),
    ("ssh -t {at} reconnect ABC-DEF-GHJ-KMN", "return to your seat with your reconnect code"),
    ("ssh -t {at} plain", "play in plain lines (screen readers, dumb terminals; TERM=dumb does it too)"),
    ("ssh {at} json", "headless play: JSON lines (scripts, agents)"),
    ("ssh {at} json bot", "the same, for a bot (shown as a bot at the table)"),
    ("ssh {at} tables", "list the tables (tables --json: as one JSON object)"),
    ("ssh {at} replay CODE", "the transcript of a finished game that tables lists (replay CODE --json: as JSON)"),
    ("ssh {at} leaderboard", "the ratings of the players with an SSH key, best first"),
    ("ssh {at} version", "print the server's version"),
    ("ssh {at} admin help", "the admins' commands: ban, close a table, message of the day, ..."),
    ("ssh {at} health", "is the server well? one line, exit status 0 if so (for load balancers)"),
)


def help_text(name: str | None = None, host: str | None = None, port: int | None = None) -> str:
    """The commands, with this server's address filled in where it is known (the host and port the client reached,
    the user name it came with); PORT, NAME and HOST stand for what is not known."""
    at = ssh_at(name, host, port)
    commands = [(command.format(at=at), what) for command, what in HELP_LINES]
    width = max(len(command) for command, _ in commands) + 2
    lines = [f"  {command:<{width}}{what}" for command, what in commands]
    return "dixit-tui: Dixit in the terminal, over SSH.\n\n" + "\n".join(lines) + "\n"


def ssh_at(name: str | None, host: str | None, port: int | None) -> str:
    """`-p 2222 ana@host`, as this client reaches the server (PORT, NAME and HOST for what is not known)."""
    port_option = "-p PORT " if port is None else ("" if port == 22 else f"-p {port} ")
    return f"{port_option}{ssh_user(name)}@{host or 'HOST'}"


HELP = help_text()
TERMINAL_VERBS = frozenset({"join", "watch", "reconnect"})
"""Commands for the full-screen app (`ssh -t HOST join CODE`): without a terminal they say to add -t."""


def _address(writer: Any) -> tuple[str | None, int | None]:
    """The address this client connected to (the server's end of its connection), if the channel tells."""
    get = getattr(writer, "get_extra_info", None)
    sockname = get("sockname") if callable(get) else None
    if not isinstance(sockname, tuple) or len(sockname) < 2:
        return None, None
    host, port = sockname[0], sockname[1]
    return (str(host) if host else None), (int(port) if isinstance(port, int) and port > 0 else None)


def _client_env(writer: Any) -> Mapping[str, str]:
    """The environment variables the client sent on this channel (none known: empty)."""
    channel = getattr(writer, "channel", None)
    get = getattr(channel, "get_environment", None)
    env = get() if callable(get) else None
    return env if isinstance(env, Mapping) else {}


def _client_term(writer: Any) -> str:
    """The client's TERM on this channel ('' without a terminal)."""
    channel = getattr(writer, "channel", None)
    get = getattr(channel, "get_terminal_type", None)
    term = get() if callable(get) else None
    return term if isinstance(term, str) else ""


def tables_json(coordinator: Coordinator) -> str:
    """`tables --json`: one line, {"tables": [...]}, each entry as in the lobby state's `tables` (docs/protocol.md)."""
    return json.dumps({"tables": [summary(t) for t in coordinator.summaries()]}, ensure_ascii=False) + "\n"


def tables_text(coordinator: Coordinator) -> str:
    rows = coordinator.summaries()
    if not rows:
        return "No tables yet. Connect with a terminal to create one.\n"
    decks = {t.code: "+".join(t.decks) for t in rows}
    width = max(len("decks"), *(len(d) for d in decks.values())) + 2
    timers = {t.code: timer_text(t.turn_seconds) or "-" for t in rows}  # as the lobby's Timer column; -: none
    lines = [f"{'code':<6}{'mode':<20}{'status':<9}{'players':<9}{'decks':<{width}}{'timer':<8}host"]
    lines += [
        f"{t.code:<6}{mode_text(t.label):<20}{t.status:<9}{f'{t.players}/{t.seats}':<9}{decks[t.code]:<{width}}"
        f"{timers[t.code]:<8}{host_text(t.host, t.bots_only)}"
        for t in rows
    ]
    return "\n".join(lines) + "\n"


async def replay_text(coordinator: Coordinator, code: str, *, as_json: bool = False) -> tuple[str, int]:
    """`replay CODE`: the transcript of a finished game, to anyone, for the tables `tables` lists (a table its host
    locked is not listed, and not replayed); the same text as `dixit-tui replay` on the server's machine."""
    wanted = normalize_code(code)
    shown = "".join(ch for ch in code.strip()[:12] if ch.isprintable())
    listed = next((t for t in coordinator.summaries() if t.code == wanted), None)
    table = coordinator.tables.get(wanted) if listed is not None else None
    if listed is None or table is None or table.game is None:
        return f"There is no finished game at table {shown!r} here: `tables` lists the tables.\n", 2
    if listed.status is not TableStatus.OVER:
        return f"The game at table {wanted} is not over yet: watch it with ssh -t ... watch {wanted}.\n", 2
    view = view_for(table.game.state, None)
    if as_json:
        return json.dumps(replay_json(wanted, view), ensure_ascii=False) + "\n", 0
    try:  # which moves stand-ins made: the table's records say (a game over is all committed)
        stand_ins = stand_in_moves(await coordinator.store.history(wanted))
    except Exception:
        log.warning("replay %s: the store's records could not be read: stand-in moves not marked", wanted)
        stand_ins = frozenset()
    return "\n".join(transcript_of(view, stand_ins)) + "\n", 0


async def handle_plain(
    coordinator: Coordinator,
    identity: Identity,
    command: str | None,
    reader: Any,
    writer: Any,
    *,
    idle_timeout: float | None = None,
) -> int:
    """Serve one session without a terminal. `reader` is the client's input stream (its `read(n)`, or `readline()`
    for in-memory streams); `idle_timeout` ends `json` sessions that stay silent outside a seat (see serve_json)."""
    verb = (command or "").strip()
    host, port = _address(writer)
    help_here = help_text(identity.name, host, port)
    if verb in ("json", "json bot"):  # `json bot`: a headless bot, shown as a bot to everyone
        who = dataclasses.replace(identity, bot=verb == "json bot")
        lines = LineReader(reader, MAX_LINE) if callable(getattr(reader, "read", None)) else reader
        return await serve_json(coordinator, who, lines, writer, idle_timeout=idle_timeout)
    if verb == "plain" or verb.startswith("plain "):  # the line mode, for screen readers (docs/protocol.md)
        lines = LineReader(reader, MAX_LINE) if callable(getattr(reader, "read", None)) else reader
        first = verb[len("plain") :]
        glyphs = glyph_set(_client_term(writer), utf8=declares_utf8(_client_env(writer)))
        return await play_lines(coordinator, identity, lines, writer.write, writer.drain, first=first, glyphs=glyphs)
    if verb == "tables":
        text, status = tables_text(coordinator), 0
    elif verb == "tables --json":
        text, status = tables_json(coordinator), 0
    elif verb.startswith("replay ") and verb.split()[1:]:
        words = verb.split()
        text, status = await replay_text(coordinator, words[1], as_json="--json" in words[2:])
    elif verb == "leaderboard":
        text, status = leaderboard_text(coordinator.ratings), 0
    elif verb in ("help", "--help"):
        text, status = help_here, 0
    elif not verb:  # a plain `ssh host` without a terminal
        text, status = "dixit-tui needs a terminal to play: add -t, or use the json command.\n\n" + help_here, 2
    elif verb == "admin" or verb.startswith("admin "):
        text, status = await handle_admin(coordinator, identity, verb[len("admin") :])
    elif verb == "health":
        well, text = await health(coordinator)
        status = 0 if well else 1
    elif verb == "version":
        text, status = f"dixit-tui {__version__} (protocol 1)\n", 0
    elif verb.split()[0] in TERMINAL_VERBS:  # `ssh HOST join K7QF` without -t: the full-screen app needs a terminal
        shown = "".join(ch for ch in verb[:40] if ch.isprintable())
        at = ssh_at(identity.name, host, port)
        text, status = (
            f"{verb.split()[0]} needs a terminal: add -t (ssh -t {at} {shown}), "
            f"or play in plain lines (ssh {at} plain {shown}).\n",
            2,
        )
    else:
        shown = "".join(ch for ch in verb[:40] if ch.isprintable())
        text, status = (
            f"Unknown command {shown!r}. Try: help, tables, leaderboard, replay CODE, version, health, json.\n",
            2,
        )
    writer.write(text.encode())
    return status
