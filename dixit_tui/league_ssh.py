"""`dixit-tui league --host H --port P`: the league's games played over SSH against any dixit-tui server, through the
public JSON-lines protocol (`ssh HOST json bot`), with the same figures as the in-process league.

Each seat is a `ProtocolBot` (the code `dixit-tui bot` runs) on its own SSH connection, with an SSH key of its own
(`league:STRATEGY:N`, made for this run and kept only in memory), so the server rates it like any player with a key
(its leaderboard shows them). A game: the first seat creates the table (`reveal_seconds` 0: agents need no pause to
read the reveal), the others join it by its code, the first seat starts it once everyone sits, and every seat plays
until the server says the game is over. The server's own limits apply: it may meter how many tables one key or one
address creates (the first seat's key differs from game to game when the strategies drawn do).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import asyncssh

from dixit_tui.bots.cli import ProtocolBot, SetupError
from dixit_tui.bots.strategy_names import strategy_named
from dixit_tui.engine import Mode, Profile
from dixit_tui.league import League, StrategyStats, play_games


@dataclass(frozen=True, slots=True)
class Server:
    host: str
    port: int
    known_hosts: Any = ()  # asyncssh's: () is ~/.ssh/known_hosts, None checks nothing, or a file's path
    timeout: float = 15.0  # seconds to connect
    game_timeout: float = 600.0  # seconds a game may take before the league gives up


class LeagueError(Exception):
    """A game of the league could not be played (connection, a refused seat, a game that never ended)."""


class LeagueBot(ProtocolBot):
    """A league seat: the first one creates the table with `create` (its code learnt from the first state), the
    others join it like `dixit-tui bot`."""

    def __init__(self, name: str, strategy: str, rng: random.Random, create: dict[str, Any] | None, table: str) -> None:
        super().__init__(name, table, strategy_named(strategy), rng, (0.0, 0.0), games=1)  # a league game, then on
        self.create = create
        self.strategy = strategy
        self.announce = False

    def _join(self) -> None:
        if self.create is None:
            super()._join()
        else:
            self._send({"cmd": "create", **self.create, "ref": "join"})

    def _state(self, message: dict[str, Any]) -> None:
        table = message.get("table")
        if not self.table and isinstance(table, str):
            self.table = table.upper()  # the table this seat created
        super()._state(message)

    def _error(self, message: dict[str, Any]) -> None:
        if self.create is not None and message.get("ref") == "join":
            self.failure = f"{self.wanted} could not create a table: {message.get('message')}"
            self.done.set()
            return
        super()._error(message)

    def start(self) -> None:
        self._send({"cmd": "start", "ref": "start"})


class Keys:
    """One SSH key per league seat (`league:STRATEGY:N`), made once per run."""

    def __init__(self) -> None:
        self.made: dict[str, asyncssh.SSHKey] = {}

    def __call__(self, name: str) -> asyncssh.SSHKey:
        if name not in self.made:
            self.made[name] = asyncssh.generate_private_key("ssh-ed25519")
        return self.made[name]


async def _seated(bot: LeagueBot, playing: asyncio.Task[None]) -> None:
    """Wait until `bot` sits at its table; raise LeagueError if its connection ended first."""
    sat = asyncio.ensure_future(bot.sat.wait())
    try:
        await asyncio.wait({sat, playing}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        sat.cancel()
    if not bot.sat.is_set():
        error = playing.exception() if playing.done() and not playing.cancelled() else None
        raise LeagueError(str(error) if error is not None else f"{bot.wanted} could not sit down")


async def play_one_ssh(
    server: Server, seats: Sequence[str], create: dict[str, Any], rng: random.Random, keys: Keys
) -> dict[str, Any]:
    """One game of `seats` (strategy names, in seat order) at a new table of `server`; its result as the league
    folds it: each seat's score, in seat order, and the winners."""
    bots: list[LeagueBot] = []
    tasks: list[asyncio.Task[None]] = []

    def seat(index: int, strategy: str, table: str) -> LeagueBot:
        name = f"{strategy[:12]}{index + 1}"
        bot = LeagueBot(name, strategy, random.Random(rng.randrange(2**63)), create if index == 0 else None, table)
        key = keys(f"league:{strategy}:{index + 1}")
        tasks.append(asyncio.create_task(bot.play(server.host, server.port, server.known_hosts, server.timeout, key)))
        bots.append(bot)
        return bot

    try:
        async with asyncio.timeout(server.game_timeout):
            host = seat(0, seats[0], "")
            await _seated(host, tasks[0])
            for index, strategy in enumerate(seats[1:], 1):
                seat(index, strategy, host.table)
            for bot, task in zip(bots[1:], tasks[1:], strict=True):
                await _seated(bot, task)
            host.start()
            outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    except TimeoutError:
        raise LeagueError(f"a game took more than {server.game_timeout:.0f} s") from None
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    for outcome in outcomes:
        if isinstance(outcome, SetupError):
            raise LeagueError(str(outcome))
        if isinstance(outcome, BaseException):
            raise outcome
    over = next((b.result for b in bots if b.result is not None), None)
    if over is None:
        raise LeagueError(f"the game at table {host.table} ended without its final scores")
    score = {s.get("seat"): s.get("score", 0) for s in over.get("scores", []) if isinstance(s, dict)}
    by_seat = sorted(bots, key=lambda b: b.seat if b.seat is not None else len(bots))
    players = [{"seat": b.seat, "name": b.name, "strategy": b.strategy, "score": score.get(b.seat, 0)} for b in by_seat]
    seat_of = {b.seat: index for index, b in enumerate(by_seat)}
    winners = [seat_of[w] for w in over.get("winners", []) if w in seat_of]
    return {"code": host.table, "players": players, "winners": winners}


async def run_league_ssh(
    server: Server,
    strategies: Sequence[str],
    games: int,
    players: tuple[int, int],
    *,
    mode: Mode = Mode.STANDARD,
    profile: Profile = Profile.REFRESH,
    seed: int = 1,
    target: int = 30,
    progress: Callable[[int, int], None] | None = None,
) -> League:
    """Play `games` games at `server` and fold them as the in-process league does."""
    rng = random.Random(seed)
    keys = Keys()
    league = League(tuple(strategies), {s: StrategyStats(s) for s in strategies})

    async def play(seats: list[str]) -> tuple[dict[str, Any], Sequence[str]]:
        create = {"mode": mode.value, "profile": profile.value, "target": target, "seats": len(seats)}
        create["reveal_seconds"] = 0
        result = await play_one_ssh(server, seats, create, rng, keys)
        return result, [p["strategy"] for p in result["players"]]

    return await play_games(league, games, players, mode, rng, play, progress)
