"""`dixit-tui bot`: seat bots at a table of a dixit-tui server, over SSH, speaking the public headless protocol.

    dixit-tui bot --host game.example --port 2222 --table K7QF --count 3 [--name NAME] [--strategy smart|random]

Each bot opens its own SSH connection without a key (each gets its own seat; a shared key would share one seat),
runs the server's `json` command, joins the table, and plays with the same strategy code as the in-process bots,
turning each protocol `state` message into a BotView. The server's host key is checked against ~/.ssh/known_hosts
(or --known-hosts FILE); an unknown key is an error unless --insecure is given. When a game ends, each bot waits for
a rematch (--rematch-wait seconds): when the table's host starts one, the server moves the bot to its seat at the new
table (a `notice`, then a `state` of the new table) and it plays on; it leaves when none comes in time, or after
--games games. Each bot keeps its seat's reconnect code in a file (--seats-file; by default
$XDG_STATE_HOME/dixit-tui/bot-seats.json, else ~/.local/state/dixit-tui/bot-seats.json): the same command run again
(same names, same table), after the bot process or the server was restarted, takes its seats back. Exit status: 0
once every bot has seen its games end, 1 if a bot could not connect or sit down, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh

from dixit_tui import ssh_client
from dixit_tui.bots.brain import Brain, Key
from dixit_tui.bots.player import BOT_NAMES
from dixit_tui.bots.seat_codes import SeatCodes, default_path
from dixit_tui.bots.strategy import Action, ClueAction, Strategy, SubmitAction, VoteAction
from dixit_tui.bots.strategy_names import strategy_named
from dixit_tui.bots.view import BotView
from dixit_tui.engine import ErrorCode, Phase
from dixit_tui.protocol.kinds import MessageType

log = logging.getLogger(__name__)

NAME_TRIES = 5  # names tried per bot when the table already has one
REMATCH_WAIT = 300.0  # seconds a bot waits at a finished table for its rematch (people talk the game over first)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="localhost", help="server address (default: %(default)s)")
    parser.add_argument("--port", type=int, default=2222, help="server port (default: %(default)s)")
    parser.add_argument("--table", required=True, metavar="CODE", help="the table's four-letter code")
    parser.add_argument("--count", type=int, default=1, help="how many bots to seat (default: %(default)s)")
    parser.add_argument("--name", help="bot name (with --count above 1: NAME1, NAME2, ...); default: dreamy names")
    parser.add_argument("--strategy", choices=["smart", "random"], default="smart", help="(default: %(default)s)")
    parser.add_argument(
        "--delay",
        type=float,
        nargs=2,
        default=(0.2, 1.0),
        metavar=("MIN", "MAX"),
        help="think time before each move, in seconds, 4 times longer for the first clue (default: 0.2 1.0)",
    )
    parser.add_argument("--seed", type=int, help="seed the bots' choices (reproducible play on a seeded table)")
    parser.add_argument(
        "--known-hosts", type=Path, metavar="FILE", help="known hosts file (default: ~/.ssh/known_hosts)"
    )
    parser.add_argument(
        "--insecure", action="store_true", help="do not check the server's host key (tests and trusted networks only)"
    )
    parser.add_argument(
        "--games",
        type=int,
        default=0,
        metavar="N",
        help="leave after N games; until then each bot follows the table's rematches (default: 0, no limit; "
        "1: leave when the first game ends)",
    )
    parser.add_argument(
        "--rematch-wait",
        type=float,
        default=REMATCH_WAIT,
        metavar="SECONDS",
        help="after a game, wait this long for the host to start a rematch, then leave (default: %(default)s)",
    )
    parser.add_argument(
        "--seats-file",
        type=Path,
        metavar="FILE",
        help="where the bots keep their seats' reconnect codes, so the same command run again (same names, same "
        "table, also after a server restart) takes its seats back (default: $XDG_STATE_HOME/dixit-tui/bot-seats.json, "
        "else ~/.local/state/dixit-tui/bot-seats.json)",
    )
    parser.add_argument("--timeout", type=float, default=15.0, help="seconds to connect (default: %(default)s)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every move")


def bot_names(count: int, name: str | None) -> list[str]:
    if name:
        return [name] if count == 1 else [f"{name}{i}" for i in range(1, count + 1)]
    base = list(BOT_NAMES)
    return [base[i] if i < len(base) else f"{base[i % len(base)]}{i // len(base) + 1}" for i in range(count)]


def seat_words(seat: object) -> str:
    """The seat as words, " (seat N)", numbered from 1 as the table's screens show it (the protocol counts from 0)."""
    return f" (seat {seat + 1})" if isinstance(seat, int) else ""


class SetupError(Exception):
    """A bot could not reach its seat (connection, host key, table refused it)."""


class ProtocolBot:
    """One bot over one SSH connection: JSON lines in, JSON lines out."""

    def __init__(
        self,
        name: str,
        table: str,
        strategy: Strategy,
        rng: random.Random,
        delay: tuple[float, float],
        *,
        games: int = 0,
        rematch_wait: float = REMATCH_WAIT,
        seat_codes: SeatCodes | None = None,
    ) -> None:
        self.wanted = name
        self.name = name
        self.table = table.strip().upper()
        self._strategy = strategy
        self.brain = Brain(strategy, rng)
        self.games = games  # leave after this many games (0: follow every rematch)
        self.rematch_wait = rematch_wait
        self.rng = rng
        self.delay = delay
        self.view: BotView | None = None
        self.person_writing = False  # a person is writing a clue (the state's `typing`): the open clue is theirs
        self.seat: int | None = None
        self.joined = False
        self.done = asyncio.Event()
        self.failure: str | None = None
        self.result: dict[str, Any] | None = None  # the last game's `over`
        self.results: list[GameResult] = []  # every game's, in order
        self.moves = 0  # in the game being played
        self._ended: str | None = None  # the table whose game ended (waiting for its rematch)
        self._waiting: asyncio.TimerHandle | None = None  # leaves when no rematch comes in time
        self._changed = asyncio.Event()
        self._sent: dict[str, tuple[Key, Action]] = {}
        self._refs = 0
        self._name_tries = 0
        self.seat_codes = seat_codes or SeatCodes(None)  # its seats' reconnect codes, kept for the next run
        self._host = ""  # the server, what the kept codes are filed under
        self._reconnecting = False
        self._writer: asyncssh.SSHWriter[str] | None = None
        self.announce = True  # print when sat down (`dixit-tui league --host` plays many games quietly)
        self.sat = asyncio.Event()  # set once at the table

    # --- connection --------------------------------------------------------------------------------------

    async def play(
        self, host: str, port: int, known_hosts: Any, timeout: float, client_key: asyncssh.SSHKey | None = None
    ) -> None:
        """Connect (keyless, or with `client_key`: rated), join, play until the game is over. Raises SetupError if the
        bot never sat down."""
        self._host = host
        try:
            conn = await ssh_client.connect(
                host, port, self.wanted, client_key=client_key, known_hosts=known_hosts, timeout=timeout
            )
        except asyncssh.HostKeyNotVerifiable as err:
            where = f"[{host}]:{port}" if port != 22 else host
            raise SetupError(
                f"the host key of {host}:{port} is not trusted by your known hosts ({err.reason}). Check the "
                f"fingerprint the server printed, then add it (for example connect once with `ssh -p {port} {host}`, "
                f"or add a `{where} ssh-ed25519 ...` line to ~/.ssh/known_hosts), or pass --insecure to skip the check."
            ) from None
        except (OSError, TimeoutError, asyncssh.Error) as err:
            raise SetupError(f"cannot connect to {host}:{port}: {_reason(err)}") from None
        try:
            async with conn:
                process = await conn.create_process("json bot", encoding="utf-8")
                await self._converse(process)
        except asyncssh.Error as err:
            if not self.done.is_set():
                raise SetupError(f"the connection to {host}:{port} ended: {_reason(err)}") from None
        if self.failure is not None:
            raise SetupError(self.failure)
        if not self.done.is_set() and not self.joined:
            raise SetupError("the server closed the session before the bot could sit down")

    async def _converse(self, process: asyncssh.SSHClientProcess[str]) -> None:
        self._writer = process.stdin
        actor = asyncio.create_task(self._act_loop(), name=f"bot {self.wanted}")
        leaving = asyncio.create_task(self.done.wait())  # (a rematch not come in time ends the wait for a line)
        try:
            while not self.done.is_set():
                reading = asyncio.ensure_future(process.stdout.readline())
                await asyncio.wait({reading, leaving}, return_when=asyncio.FIRST_COMPLETED)
                if not reading.done():
                    reading.cancel()
                    break
                line = reading.result()
                if not line:
                    break
                try:
                    message = json.loads(line)
                except ValueError:
                    log.warning("bot %s: not JSON from the server: %.80r", self.name, line)
                    continue
                if isinstance(message, dict):
                    self._receive(message)
        finally:
            if self._waiting is not None:
                self._waiting.cancel()
            leaving.cancel()
            actor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await actor
            with contextlib.suppress(OSError, asyncssh.Error):
                process.stdin.write_eof()
            process.close()

    def _send(self, message: dict[str, Any]) -> None:
        if self._writer is None:
            return
        self._writer.write(json.dumps(message, ensure_ascii=False) + "\n")

    # --- receiving -----------------------------------------------------------------------------------------

    def _receive(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == MessageType.HELLO:
            self.name = str(message.get("name") or self.wanted)
            self._join()
        elif kind == MessageType.STATE:
            self._state(message)
        elif kind == MessageType.ERROR:
            self._error(message)
        elif kind == MessageType.VOIDED:
            turn = message.get("turn")
            self.brain.voided(turn if isinstance(turn, int) else 0)
            self._changed.set()
        elif kind == MessageType.OVER:
            self.result = message
            self.results.append(GameResult(self.table, message, self.moves, self.seat))
            self._game_over()

    def _join(self) -> None:
        self._send({"cmd": "join", "table": self.table, "name": self.name, "ref": "join"})

    def _state(self, message: dict[str, Any]) -> None:
        table = message.get("table")
        if table is None:
            if self.joined:  # back in the lobby: removed from the table
                self.done.set()
            return
        if str(table).upper() != self.table:
            if self._ended is not None and isinstance(message.get("you"), int):
                self._follow(str(table).upper(), message)
            return
        code = message.get("reconnect_code")
        if isinstance(code, str) and code:
            self.seat_codes.put(self._host, self.table, self.name, code)
        if not self.joined:
            self.joined = True
            self.seat = message.get("you") if isinstance(message.get("you"), int) else None
            self.sat.set()
            if self.announce:
                print(f"{self.name} sat down at table {self.table}{seat_words(self.seat)}", flush=True)
        self.view = BotView.from_protocol(message)
        players = message.get("players")
        people = {
            p.get("seat")
            for p in (players if isinstance(players, list) else [])
            if isinstance(p, dict) and not p.get("bot") and p.get("connected") and not p.get("removed")
        }
        typing = message.get("typing")
        self.person_writing = bool(people & set(typing if isinstance(typing, list) else []))
        if self.view.phase == Phase.OVER:
            self._game_over()
        self._changed.set()

    def _game_over(self) -> None:
        """The game at this table ended: leave, or wait a while for its rematch (the host starts it, the server
        moves this seat there)."""
        if self._ended == self.table or self.done.is_set():
            return
        self._ended = self.table
        if (self.games and len(self.results) >= self.games) or self.rematch_wait <= 0:
            self.done.set()
            return
        self._waiting = asyncio.get_running_loop().call_later(self.rematch_wait, self.done.set)

    def _follow(self, table: str, message: dict[str, Any]) -> None:
        """A rematch: the server moved this bot to its seat at the new table (a `notice`, then this `state`)."""
        if self._waiting is not None:
            self._waiting.cancel()
            self._waiting = None
        self._ended = None
        self.table = table
        self.seat = message.get("you")
        self.view = None
        self.moves = 0
        self.brain = Brain(self._strategy, self.rng)  # a new game: nothing owed or refused carries over
        if self.announce:
            print(f"{self.name} followed the rematch to table {table}{seat_words(self.seat)}", flush=True)
        self._state(message)

    def _error(self, message: dict[str, Any]) -> None:
        ref, code, text = message.get("ref"), str(message.get("code")), str(message.get("message"))
        if ref == "join":
            if code == ErrorCode.NAME_TAKEN and self._name_tries < NAME_TRIES:
                self._name_tries += 1
                self.name = f"{self.wanted}{self._name_tries + 1}"
                self._join()
                return
            returning = code in (ErrorCode.STARTED, ErrorCode.RECONNECT_NEEDED)  # (a bot's seat: `started`)
            if returning and not self._reconnecting:  # its seat from an earlier run, with the code kept then
                kept = self.seat_codes.get(self._host, self.table, self.name)
                if kept is not None:
                    self._reconnecting = True
                    self._send({"cmd": "reconnect", "code": kept, "ref": "join"})
                    return
            self.failure = f"{self.wanted} could not join table {self.table}: {text}"
            self.done.set()
            return
        sent = self._sent.pop(str(ref), None) if ref is not None else None
        if sent is None:
            log.info("bot %s: server error %s: %s", self.name, code, text)
            return
        key, action = sent
        log.info("bot %s: %s refused (%s): %s", self.name, key[2], code, text)
        self.brain.refused(key, action, code)
        self._changed.set()

    # --- acting --------------------------------------------------------------------------------------------

    def _held(self, view: BotView) -> bool:
        """Never take the open first clue while a person is writing one."""
        return view.needed() == Phase.CLUE and view.storyteller is None and self.person_writing

    async def _act_loop(self) -> None:
        while not self.done.is_set():
            await self._changed.wait()
            self._changed.clear()
            view = self.view
            if view is None or view.needed() is None:
                continue
            if self._held(view):
                continue  # the next state (the mark gone, or the clue given) wakes us
            pause = self.brain.think_time(view, self.delay)
            if pause > 0:
                await asyncio.sleep(pause)
            view = self.view  # the freshest one, after thinking
            if view is None or self.done.is_set() or self._held(view):
                continue
            decided = self.brain.next_action(view)
            if decided is None:
                continue
            key, action = decided
            self._refs += 1
            ref = f"m{self._refs}"
            self._sent[ref] = (key, action)
            self.moves += 1
            log.info("bot %s: %s %r", self.name, key[2], action)
            self._send({**command_message(action), "ref": ref})


@dataclass(frozen=True)
class GameResult:
    """A game a bot played to its end: its table, the server's `over` message, the bot's moves and seat in it."""

    table: str
    over: dict[str, Any]
    moves: int
    seat: int | None


def command_message(action: Action) -> dict[str, Any]:
    """The protocol v1 command for an action (without its "ref")."""
    match action:
        case ClueAction(text=text, card=card):
            clue: dict[str, Any] = {"cmd": "clue", "text": text}
            if card is not None:
                clue["card"] = card
            return clue
        case SubmitAction(cards=cards):
            return {"cmd": "submit", "cards": list(cards)}
        case VoteAction(slots=slots, red=red):
            return (
                {"cmd": "vote", "slots": list(slots)}
                if red is None
                else {"cmd": "vote", "slots": list(slots), "red": red}
            )
    raise TypeError(f"not an action: {action!r}")  # pragma: no cover


def _reason(err: BaseException) -> str:
    if isinstance(err, asyncssh.DisconnectError):
        return err.reason
    return str(err) or type(err).__name__


async def run_bots(args: argparse.Namespace) -> int:
    """Play `args.count` bots until the game ends; the exit status."""
    if args.insecure:
        known_hosts: Any = None
    elif args.known_hosts is not None:
        if not args.known_hosts.is_file():
            print(f"dixit-tui bot: no known hosts file at {args.known_hosts}", file=sys.stderr)
            return 2
        known_hosts = str(args.known_hosts)
    else:
        known_hosts = ()  # asyncssh's default: ~/.ssh/known_hosts
    seed = random.Random(args.seed) if args.seed is not None else random.Random()
    seat_codes = SeatCodes(args.seats_file if args.seats_file is not None else default_path())
    bots = [
        ProtocolBot(
            name,
            args.table,
            strategy_named(args.strategy),
            random.Random(seed.randrange(2**63)),
            args.delay,
            games=args.games,
            rematch_wait=args.rematch_wait,
            seat_codes=seat_codes,
        )
        for name in bot_names(args.count, args.name)
    ]
    results = await asyncio.gather(
        *(b.play(args.host, args.port, known_hosts, args.timeout) for b in bots), return_exceptions=True
    )
    status = 0
    reported: set[str] = set()
    for bot, outcome in zip(bots, results, strict=True):
        if isinstance(outcome, SetupError):
            status = 1
            if str(outcome) not in reported:  # every bot hits the same host key problem: say it once
                reported.add(str(outcome))
                print(f"dixit-tui bot: {outcome}", file=sys.stderr)
        elif isinstance(outcome, BaseException):
            status = 1
            print(f"dixit-tui bot: {bot.wanted} failed: {outcome!r}", file=sys.stderr)
    played = max((len(b.results) for b in bots), default=0)
    for game in range(played):
        finished = [(b, b.results[game]) for b in bots if len(b.results) > game]
        over = finished[0][1].over
        if played > 1:
            print(f"Game {game + 1}, table {finished[0][1].table}:", flush=True)
        scores = {s.get("seat"): s.get("score") for s in over.get("scores", []) if isinstance(s, dict)}
        for bot, result in finished:
            seat = result.seat
            won = " (won)" if seat in over.get("winners", []) else ""
            print(f"{bot.name}: {scores.get(seat, '?')} points{won}, {result.moves} moves", flush=True)
    return status


def run(args: argparse.Namespace) -> int:
    if args.count < 1 or args.count > 12:
        print("dixit-tui bot: --count must be between 1 and 12", file=sys.stderr)
        return 2
    if args.games < 0 or args.rematch_wait < 0:
        print("dixit-tui bot: --games and --rematch-wait cannot be negative", file=sys.stderr)
        return 2
    low, high = args.delay
    if low < 0 or high < low:
        print("dixit-tui bot: --delay needs 0 <= MIN <= MAX", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(message)s",
    )
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    try:
        return asyncio.run(run_bots(args))
    except KeyboardInterrupt:
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dixit-tui bot", description=__doc__.split("\n")[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
