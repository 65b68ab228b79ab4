"""Crash test: bot games on a real `dixit-tui serve`, SIGKILLed at random moments and restarted on its data dir.

The server runs as a subprocess. Headless clients (protocol v1, JSON lines over SSH) play standard games, each
client with its own ed25519 key, so that after a restart `{"cmd":"join","table":CODE}` puts it back in its seat.
The games are driven one action at a time over every table: an action is *acknowledged* once the acting client
receives a state that reflects it, and the next one is sent only after every client's view has caught up. The
harness keeps a model of every table (the engine folded over the same seed and the same commands) so it knows
what each view must be at every moment.

A kill comes either between two actions, or 0-20 ms after an action was sent (that action is then "in flight":
it may or may not have been committed), or during the reconnect wave that follows a restart. After each restart
every client reconnects and rejoins its table; the first view it gets must equal its last view before the kill,
except that the in-flight action may be present (committed, not yet seen) or absent (killed before its commit).
Anything a client saw before the kill, the in-flight action included, must be present, and all clients must
agree on whether the in-flight action happened. The run stops at the first loss or difference and says exactly
where (seed, kill number, action, both views).

    python -m dixit_tui.bench.killtest --kills 300
    dixit-tui killtest --start-redis --workers 2 --kill-workers --kills 200   # one worker of two killed each time
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import random
import shutil
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
import traceback
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import asyncssh

from dixit_tui.bench import server
from dixit_tui.bench.local_redis import LocalRedis, RedisStartError
from dixit_tui.bench.server import HOST, serve_argv
from dixit_tui.coordinator.models import TableStatus
from dixit_tui.engine import (
    Card,
    Command,
    FirstStoryteller,
    GameConfig,
    GameState,
    GiveClue,
    Mode,
    Phase,
    Profile,
    Submit,
    VoidTurn,
    Vote,
    decide,
    fold,
    view_for,
)
from dixit_tui.engine import start as start_game
from dixit_tui.protocol.messages import no_game
from dixit_tui.protocol.views import game_fields
from dixit_tui.store.sqlite import FILENAME as DB_FILENAME

PARALLEL_CONNECTS = 8  # the server admits 10 unauthenticated connections per address


class KillTestFailure(Exception):
    """A loss, a differing view, a server crash or a wait that timed out. The message says which and where."""


# --- configuration and results -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class KillConfig:
    kills: int = 50
    tables: tuple[int, ...] = (3, 5)  # players at each table (3 to 8); each group plays game after game
    seed: int = 1
    targets: tuple[int, int] = (10, 14)  # each game's target score is drawn from this range
    max_actions_between_kills: int = 6
    inflight: float = 0.5  # share of kills that come 0-`max_inflight_delay` s after an action was sent
    during_recovery: float = 0.1  # chance that a restart is itself killed in the middle of the reconnect wave
    max_inflight_delay: float = 0.020
    by_reconnect_code: float = 0.25  # chance a client returns with `reconnect` and its code rather than its key
    revote: float = 0.15  # chance a vote step is a voter changing their vote
    void: float = 0.03  # chance a submit or vote step is the host voiding the turn
    timeout: float = 15.0  # every single wait
    start_timeout: float = 30.0  # the server printing `listening on`
    max_seconds: float | None = None  # fail if the whole run takes longer
    snapshot_every: int | None = None  # None: the server's default (100 records)
    redis: str | None = None  # keep the tables in this Redis (`serve --redis URL`) instead of SQLite
    workers: int | None = None  # with `redis`: `serve --workers N` (None: the server's default)
    kill_workers: bool = False  # kill one worker of the server at a time (the server stays up), not the server
    python: str = sys.executable
    env: Mapping[str, str] | None = None  # the server's environment (None: inherited)
    log: Callable[[str], None] | None = None  # progress lines (e.g. print)


@dataclass
class KillReport:
    seed: int
    kills: int = 0
    kills_between: int = 0
    kills_inflight: int = 0
    kills_recovery: int = 0
    actions_sent: int = 0
    acknowledged: int = 0  # actions whose effect the actor saw (before a kill or in normal play)
    inflight_acked: int = 0  # in flight at a kill, yet seen before the connection dropped: present after, as required
    inflight_committed: int = 0  # in flight at a kill, not seen, present after the restart
    inflight_lost: int = 0  # in flight at a kill, not seen, absent after the restart (allowed)
    losses: int = 0  # views after a restart missing something seen before the kill
    mismatches: int = 0  # views after a restart that differ otherwise (or disagree between clients)
    views_checked: int = 0
    by_code: int = 0  # returns to a seat with the reconnect code instead of the key
    games_started: int = 0
    games_finished: int = 0
    tables_created: int = 0
    orphan_tables: int = 0  # a `create` committed but killed before its creator saw it
    restart_ms: list[float] = field(default_factory=list)  # spawn -> `listening on`
    recovery_ms: list[float] = field(default_factory=list)  # spawn -> every client back in its seat, views equal
    records: int = 0
    snapshots: int = 0
    failures: list[str] = field(default_factory=list)
    server_errors: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    data_dir: str = ""

    @property
    def ok(self) -> bool:
        return not self.failures and not self.server_errors and self.losses == 0 and self.mismatches == 0

    @property
    def inflight(self) -> int:
        return self.inflight_acked + self.inflight_committed + self.inflight_lost

    def summary(self) -> str:
        restart = statistics.fmean(self.restart_ms) if self.restart_ms else 0.0
        return (
            f"killtest seed={self.seed}: kills={self.kills} (between={self.kills_between}, "
            f"in-flight={self.kills_inflight}, during-recovery={self.kills_recovery}) "
            f"actions={self.actions_sent} acknowledged={self.acknowledged} "
            f"in-flight at kill: committed={self.inflight_acked + self.inflight_committed} "
            f"(seen before the drop={self.inflight_acked}) lost={self.inflight_lost} "
            f"losses={self.losses} mismatches={self.mismatches} views-checked={self.views_checked} "
            f"games={self.games_finished}/{self.games_started} restart-mean={restart:.0f}ms "
            f"elapsed={self.elapsed:.1f}s"
        )

    def figures(self) -> str:
        def ms(values: list[float]) -> str:
            if not values:
                return "-"
            ordered = sorted(values)
            p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
            mean, median = statistics.fmean(values), statistics.median(values)
            return f"mean {mean:.0f} ms, median {median:.0f} ms, p95 {p95:.0f} ms, max {ordered[-1]:.0f} ms"

        lines = [
            f"seed                     {self.seed}",
            f"kills                    {self.kills} (between actions {self.kills_between}, "
            f"in flight {self.kills_inflight}, during recovery {self.kills_recovery})",
            f"actions sent             {self.actions_sent}",
            f"acknowledged             {self.acknowledged}",
            f"in flight at a kill      {self.inflight}: committed {self.inflight_acked + self.inflight_committed} "
            f"(of which seen before the drop {self.inflight_acked}), lost {self.inflight_lost}",
            f"losses                   {self.losses}",
            f"view mismatches          {self.mismatches} ({self.views_checked} views compared after restarts; "
            f"{self.by_code} returns by reconnect code, the rest by key)",
            f"games                    {self.games_started} started, {self.games_finished} finished, "
            f"{self.tables_created} tables created, {self.orphan_tables} orphaned by a kill",
            f"store                    {self.records} records, {self.snapshots} snapshots",
            f"restart (to listening)   {ms(self.restart_ms)}",
            f"recovery (all reseated)  {ms(self.recovery_ms)}",
            f"elapsed                  {self.elapsed:.1f} s",
        ]
        if self.server_errors:
            lines.append(f"server errors            {len(self.server_errors)}: {self.server_errors[0]}")
        for failure in self.failures:
            lines.append("FAILURE: " + failure)
        lines.append("result                   " + ("ok" if self.ok else "FAILED"))
        return "\n".join(lines)


# --- the server process ------------------------------------------------------------------------------------------


class ServerProcess(server.ServerProcess):
    """`dixit-tui serve` on `data_dir` (or on Redis), started again after each kill; a start that fails raises
    KillTestFailure."""

    def __init__(
        self,
        keys_dir: Path,
        data_dir: Path,
        *,
        python: str = sys.executable,
        cwd: Path | None = None,
        snapshot_every: int | None = None,
        env: Mapping[str, str] | None = None,
        redis: str | None = None,
        workers: int | None = None,
    ) -> None:
        self.keys_dir = keys_dir
        self.data_dir = data_dir

        def argv() -> list[str]:
            return serve_argv(
                keys_dir, data_dir, python=python, snapshot_every=snapshot_every, redis=redis, workers=workers
            )

        super().__init__(argv, cwd=cwd, env=env)

    async def start(self, timeout: float = 30.0) -> float:
        try:
            return await super().start(timeout)
        except server.ServerStartError as err:
            raise KillTestFailure(str(err)) from None


# --- clients -------------------------------------------------------------------------------------------------------


class Client:
    """One headless player: an SSH key that owns its seat across restarts, and the messages of its connection."""

    def __init__(self, name: str, seat: int, key: asyncssh.SSHKey, tick: Callable[[], None]) -> None:
        self.name = name
        self.seat = seat  # its seat in every game of its group (clients join in seat order)
        self.key = key
        self._tick = tick
        self.conn: asyncssh.SSHClientConnection | None = None
        self.proc: asyncssh.SSHClientProcess[str] | None = None
        self.reader: asyncio.Task[None] | None = None
        self.messages: list[dict[str, Any]] = []  # this connection's messages
        self.last_state: dict[str, Any] | None = None  # kept across a kill: the last view before it
        self.errors: list[dict[str, Any]] = []
        self.closed = asyncio.Event()
        self.game: GameRun | None = None  # the table this client is acknowledged to sit at
        self.join_mark = 0  # index into `messages` where its rejoin was sent

    async def connect(self, port: int, timeout: float) -> None:
        self.messages = []
        self.closed = asyncio.Event()
        self.conn = await asyncio.wait_for(
            asyncssh.connect(
                HOST,
                port,
                username=self.name,
                known_hosts=None,  # loopback test server only
                client_keys=[self.key],
                agent_path=None,
                config=None,
                password=None,
                gss_host=None,
                kbdint_auth=False,
            ),
            timeout,
        )
        proc = await asyncio.wait_for(self.conn.create_process("json", encoding="utf-8"), timeout)
        self.proc = proc
        self.reader = asyncio.create_task(self._read(proc))

    async def _read(self, proc: asyncssh.SSHClientProcess[str]) -> None:
        try:
            while True:
                line = await proc.stdout.readline()
                if not line.endswith("\n"):
                    break  # end of stream; a torn last line was never received whole
                try:
                    msg = json.loads(line)
                except ValueError:
                    self.errors.append({"type": "error", "code": "harness_bad_json", "message": line[:200]})
                    continue
                self.messages.append(msg)
                if msg.get("type") == "state":
                    self.last_state = msg
                elif msg.get("type") == "error":
                    self.errors.append(msg)
                self._tick()
        except (asyncssh.Error, OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self.closed.set()
            self._tick()

    def send(self, cmd: dict[str, Any]) -> None:
        assert self.proc is not None
        self.proc.stdin.write(json.dumps(cmd) + "\n")

    def has_lobby(self) -> bool:
        return any(m.get("type") == "hello" for m in self.messages) and self.lobby_state() is not None

    def lobby_state(self) -> dict[str, Any] | None:
        return next((m for m in self.messages if m.get("type") == "state" and m.get("table") is None), None)

    def rejoined_view(self) -> dict[str, Any] | None:
        """The first view of its table since it asked to rejoin (`join_mark`), if it has come."""
        code = self.game.code if self.game is not None else None
        if code is None:
            return None
        messages = self.messages[self.join_mark :]
        return next((m for m in messages if m.get("type") == "state" and m.get("table") == code), None)

    async def drop(self) -> None:
        conn, self.conn, self.proc = self.conn, None, None
        if conn is not None:
            conn.abort()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.wait_closed(), 2)
        reader, self.reader = self.reader, None
        if reader is not None:
            reader.cancel()
            with contextlib.suppress(BaseException):
                await reader

    def __repr__(self) -> str:
        return f"{self.name}(seat {self.seat})"


# --- the model: what every view must be ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Model:
    """One table as the harness knows it: the seats taken (lobby), then the game (the engine's state)."""

    seated: tuple[str, ...] = ()
    state: GameState | None = None


@functools.cache
def base_cards() -> tuple[Card, ...]:
    """The cards of the built-in "base" deck, as the server resolves `decks: ["base"]`."""
    from dixit_tui.decks import load_builtin

    return tuple(load_builtin("base").cards)


class GameRun:
    """One table (one code) of a group: its options, its seed and its model."""

    def __init__(self, group: Group, profile: str, target: int, first: str, seed: int) -> None:
        self.group = group
        self.profile = profile
        self.target = target
        self.first = first
        self.seed = seed
        self.code: str | None = None
        self.model = Model()

    def create_command(self) -> dict[str, Any]:
        return {
            "cmd": "create",
            "mode": "standard",
            "profile": self.profile,
            "decks": ["base"],
            "seats": len(self.group.clients),
            "target": self.target,
            "first": self.first,
            "seed": self.seed,
        }

    def config(self) -> GameConfig:
        return GameConfig(Mode.STANDARD, Profile(self.profile), self.target, 1, FirstStoryteller(self.first))

    def __repr__(self) -> str:
        return f"table {self.code or '(not created)'}"


def model_message(code: str | None, model: Model, seat: int) -> dict[str, Any]:
    """The state message `seat` must have received, as far as `project` looks."""
    if model.state is None:
        players = [{"seat": i, "name": n, "score": 0, "removed": False} for i, n in enumerate(model.seated)]
        return {"table": code, **no_game(seat, 0), "players": players}
    return {"table": code, **game_fields(view_for(model.state, seat))}


def project(msg: dict[str, Any] | None) -> dict[str, Any] | None:
    """The compared part of a state message: what a player sees of the game (not who is connected). The host of a
    finished game is not compared: it passes to whoever is still there as players leave for their next table."""
    if msg is None:
        return None
    return {
        "table": msg.get("table"),
        "phase": msg.get("phase"),
        "turn": msg.get("turn"),
        "you": msg.get("you"),
        "host": None if msg.get("phase") == Phase.OVER else msg.get("host"),
        "players": tuple(
            (p["seat"], p["name"], p["score"], bool(p.get("removed", False))) for p in msg.get("players", ())
        ),
        "storyteller": msg.get("storyteller"),
        "clue": msg.get("clue"),
        "hand": tuple(sorted(c["card"] for c in msg.get("hand", ()))),  # a set: order is presentation
        "board": tuple((b["slot"], b["card"]) for b in msg.get("board", ())),
        "votes_allowed": msg.get("votes_allowed"),
        "forbidden_slots": tuple(msg.get("forbidden_slots", ())),
        "your_cards": tuple(msg.get("your_cards", ())),
        "your_votes": tuple(msg.get("your_votes", ())),
        "your_red": msg.get("your_red"),
        "waiting_for": tuple(msg.get("waiting_for", ())),
    }


def diff(got: dict[str, Any] | None, want: dict[str, Any] | None) -> str:
    if got is None or want is None:
        return f"got {got!r}, want {want!r}"
    parts = [f"{k}: got {got.get(k)!r}, want {want.get(k)!r}" for k in want if got.get(k) != want.get(k)]
    return "; ".join(parts) or "equal"


@dataclass
class Action:
    number: int
    kind: str  # create, join, start, clue, submit, vote, revote, void
    actor: Client
    cmd: dict[str, Any]
    game: GameRun
    before: Model
    after: Model

    def __str__(self) -> str:
        return f"#{self.number} {self.kind} by {self.actor} at {self.game}: {json.dumps(self.cmd)}"


class Group:
    """Clients that play game after game together (a new table each time one ends)."""

    def __init__(self, index: int, clients: list[Client]) -> None:
        self.index = index
        self.clients = clients
        self.game: GameRun | None = None
        self.games = 0


# --- the harness ---------------------------------------------------------------------------------------------------


class KillTest:
    def __init__(self, cfg: KillConfig, workdir: Path) -> None:
        if not cfg.tables or any(not 3 <= n <= 8 for n in cfg.tables):
            raise ValueError("every table needs 3 to 8 players")
        self.cfg = cfg
        self.rng = random.Random(cfg.seed)
        self.workdir = workdir
        self.server = ServerProcess(
            workdir / "keys",
            workdir / "data",
            python=cfg.python,
            cwd=workdir,
            snapshot_every=cfg.snapshot_every,
            env=cfg.env,
            redis=cfg.redis,
            workers=cfg.workers,
        )
        if cfg.kill_workers and not cfg.redis:
            raise ValueError("killing workers needs a server of several workers: --redis")
        self.report = KillReport(seed=cfg.seed, data_dir=str(workdir / "data"))
        self.tick = asyncio.Event()
        self.known_codes: set[str] = set()
        self.trace: deque[str] = deque(maxlen=80)
        self.numbers = 0
        self.started_at = 0.0
        self.groups: list[Group] = []
        self.clients: list[Client] = []
        for g, players in enumerate(cfg.tables):
            members = [
                Client(f"k{g}p{i}", i, asyncssh.generate_private_key("ssh-ed25519"), self.tick.set)
                for i in range(players)
            ]
            self.groups.append(Group(g, members))
            self.clients += members

    # --- the run ----------------------------------------------------------------------------------------------

    async def run(self) -> KillReport:
        cfg, report = self.cfg, self.report
        self.started_at = time.perf_counter()
        try:
            await self.server.start(cfg.start_timeout)
            await self._connect_all()
            until_kill = self._gap()
            while report.kills < cfg.kills:
                self._check_deadline()
                group = self.rng.choice(self.groups)
                if until_kill > 0:
                    until_kill -= 1
                    await self._perform(self._next_action(group))
                    continue
                until_kill = self._gap()
                if self.rng.random() < cfg.inflight:
                    action = self._next_action(group)
                    delay = cfg.max_inflight_delay * self.rng.random() ** 2  # 0-20 ms, more often short
                    self._send(action)
                    await asyncio.sleep(delay)
                    await self._kill("in-flight", f"{delay * 1000:.1f} ms after sending {action}")
                    await self._recover(action)
                else:
                    await asyncio.sleep(self.rng.uniform(0, 0.005))
                    await self._kill("between", "between two actions")
                    await self._recover(None)
        except Exception as failure:
            what = str(failure) if isinstance(failure, KillTestFailure) else f"harness error: {traceback.format_exc()}"
            steps = "\n    ".join(self.trace)
            report.failures.append(f"{what}\n  (seed {cfg.seed}, kill #{report.kills})\n  last steps:\n    {steps}")
        finally:
            await self.server.kill()
            for client in self.clients:
                await client.drop()
            report.elapsed = time.perf_counter() - self.started_at
            self._count_store()
            report.server_errors = [
                line for line in self.server.lines if "Traceback" in line or " ERROR " in line or "CRITICAL" in line
            ]
        return report

    def _gap(self) -> int:
        return self.rng.randint(0, self.cfg.max_actions_between_kills)

    def _log(self, line: str) -> None:
        self.trace.append(line)
        if self.cfg.log is not None:
            self.cfg.log(line)

    def _check_deadline(self) -> None:
        limit = self.cfg.max_seconds
        if limit is not None and time.perf_counter() - self.started_at > limit:
            raise KillTestFailure(f"the run took longer than {limit}s ({self.report.kills} kills so far)")

    # --- waiting ----------------------------------------------------------------------------------------------

    async def _until(self, predicate: Callable[[], bool], what: str | Callable[[], str]) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.cfg.timeout
        while True:
            self.tick.clear()
            if predicate():
                return
            self._check_health()
            remaining = deadline - loop.time()
            if remaining <= 0:
                text = what() if callable(what) else what
                raise KillTestFailure(f"timed out after {self.cfg.timeout}s waiting for {text}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.tick.wait(), min(remaining, 0.5))

    def _check_health(self) -> None:
        for client in self.clients:
            if not client.errors:
                continue
            error = client.errors[0]
            if error.get("code") == "no_table" and client.game is not None:
                self.report.losses += 1
                raise KillTestFailure(
                    f"LOSS after kill #{self.report.kills}: the server no longer knows {client.game}, where {client} "
                    f"sat: {error}"
                )
            raise KillTestFailure(f"{client} got an error from the server: {error}")
        if self.server.proc is not None and self.server.proc.returncode is not None:
            raise KillTestFailure(
                f"the server died by itself (status {self.server.proc.returncode}); stderr: "
                f"{self.server.tail(self.server.starts)}"
            )

    # --- connecting -------------------------------------------------------------------------------------------

    async def _connect_all(self) -> None:
        gate = asyncio.Semaphore(PARALLEL_CONNECTS)

        async def connect(client: Client) -> None:
            if client.conn is not None:
                return  # still connected (a worker-kill left it alone): it only rejoins
            async with gate:
                try:
                    await client.connect(self.server.port, self.cfg.timeout)
                except (OSError, asyncssh.Error, TimeoutError) as err:
                    raise KillTestFailure(f"{client} could not connect: {err!r}") from err

        await asyncio.gather(*(connect(c) for c in self.clients))
        await self._until(lambda: all(c.has_lobby() for c in self.clients), "every client's hello and lobby view")

    # --- playing ----------------------------------------------------------------------------------------------

    def _new_action(self, kind: str, actor: Client, cmd: dict[str, Any], game: GameRun, after: Model) -> Action:
        self.numbers += 1
        return Action(self.numbers, kind, actor, cmd, game, game.model, after)

    def _next_action(self, group: Group) -> Action:
        game = group.game
        if game is None or (game.model.state is not None and game.model.state.phase is Phase.OVER):
            game = group.game = self._new_game(group)
        host = group.clients[0]
        if game.code is None:
            return self._new_action("create", host, game.create_command(), game, Model((host.name,)))
        for client in group.clients:
            if client.game is not game:
                seated = game.model.seated
                after = game.model if client.name in seated else replace(game.model, seated=(*seated, client.name))
                assert after.seated.index(client.name) == client.seat, (after.seated, client)
                return self._new_action("join", client, {"cmd": "join", "table": game.code}, game, after)
        if game.model.state is None:
            events = start_game(game.config(), game.model.seated, base_cards(), game.seed, host=0)
            return self._new_action("start", host, {"cmd": "start"}, game, replace(game.model, state=fold(events)))
        return self._game_action(group, game)

    def _new_game(self, group: Group) -> GameRun:
        group.games += 1
        profile = "refresh" if group.index % 2 == 0 else "odyssey"
        first = "first_clue" if group.games % 2 else "random"
        target = self.rng.randint(*self.cfg.targets)
        return GameRun(group, profile, target, first, self.rng.randrange(2**31))

    def _game_action(self, group: Group, game: GameRun) -> Action:
        """A simple legal move, chosen from the state messages the clients hold (equal to the model by now)."""
        state = game.model.state
        assert state is not None
        rng, cfg = self.rng, self.cfg
        waiting = list(group.clients[0].last_state["waiting_for"])  # type: ignore[index]
        command: Command
        kind = state.phase.value
        if state.phase in (Phase.SUBMIT, Phase.VOTE) and rng.random() < cfg.void:
            kind, seat = "void", state.host
            cmd: dict[str, Any] = {"cmd": "void"}
            command = VoidTurn(seat)
        elif state.phase is Phase.CLUE:
            seat = state.turn.storyteller if state.turn.storyteller is not None else rng.choice(waiting)
            hand = [c["card"] for c in self._view(group, seat)["hand"] if c["card"] != state.turn.voided_card]
            card, text = rng.choice(hand), f"clue {self.numbers + 1}"
            cmd = {"cmd": "clue", "text": text, "card": card}
            command = GiveClue(seat, text, card)
        elif state.phase is Phase.SUBMIT:
            seat = rng.choice(waiting)
            hand = [c["card"] for c in self._view(group, seat)["hand"]]
            cards = rng.sample(hand, state.rules.submit_count)
            cmd = {"cmd": "submit", "cards": cards}
            command = Submit(seat, tuple(cards))
        else:
            seat = rng.choice(waiting)
            current: tuple[int, ...] = ()
            voted = sorted(state.turn.votes)
            if voted and rng.random() < cfg.revote:
                seat, kind = rng.choice(voted), "revote"
                current = state.turn.votes[seat]
            view = self._view(group, seat)
            slots = [b["slot"] for b in view["board"] if b["slot"] not in view["forbidden_slots"]]
            slots = [s for s in slots if (s,) != tuple(current)] or slots
            slot = rng.choice(slots)
            cmd = {"cmd": "vote", "slots": [slot]}
            command = Vote(seat, (slot,))
        after = fold(decide(state, command), state)
        return self._new_action(kind, group.clients[seat], cmd, game, replace(game.model, state=after))

    def _view(self, group: Group, seat: int) -> dict[str, Any]:
        view = group.clients[seat].last_state
        assert view is not None
        return view

    def _send(self, action: Action) -> None:
        self._log(f"send {action}")
        self.report.actions_sent += 1
        action.actor.send(action.cmd)

    async def _perform(self, action: Action) -> None:
        self._send(action)
        await self._until(
            lambda: self._acked(action), lambda: f"the acknowledgement of {action}: {self._ack_diff(action)}"
        )
        self._commit(action, bind=True)
        self.report.acknowledged += 1
        await self._quiesce()

    def _expected_after(self, action: Action, code: str | None = None) -> dict[str, Any] | None:
        return project(model_message(code or action.game.code, action.after, action.actor.seat))

    def _acked(self, action: Action) -> bool:
        """The actor's latest view reflects the action."""
        view = action.actor.last_state
        if view is None or view.get("table") is None:
            return False
        if action.kind == "create":
            code = view["table"]
            return code not in self.known_codes and project(view) == self._expected_after(action, code)
        return view["table"] == action.game.code and project(view) == self._expected_after(action)

    def _ack_diff(self, action: Action) -> str:
        return diff(project(action.actor.last_state), self._expected_after(action))

    def _commit(self, action: Action, *, bind: bool) -> None:
        """The action happened: fold it into the model (and, if its actor saw it, seat the actor accordingly)."""
        game = action.game
        if action.kind == "create":
            if not bind:  # committed but never seen: a table nobody will sit at again
                return
            assert action.actor.last_state is not None
            game.code = action.actor.last_state["table"]
            self.known_codes.add(game.code)
            self.report.tables_created += 1
        game.model = action.after
        if action.kind == "start":
            self.report.games_started += 1
        if action.after.state is not None and action.after.state.phase is Phase.OVER:
            self.report.games_finished += 1
        if bind and action.kind in ("create", "join"):
            action.actor.game = game
        self._log(f"{'ack' if bind else 'committed'} #{action.number}")

    def _expected(self, client: Client) -> dict[str, Any] | None:
        game = client.game
        assert game is not None
        return project(model_message(game.code, game.model, client.seat))

    async def _quiesce(self) -> None:
        def settled() -> bool:
            return all(c.game is None or project(c.last_state) == self._expected(c) for c in self.clients)

        def lagging() -> str:
            for c in self.clients:
                if c.game is not None and project(c.last_state) != self._expected(c):
                    return f"{c}'s view to catch up: {diff(project(c.last_state), self._expected(c))}"
            return "every view to catch up"

        await self._until(settled, lagging)

    # --- killing and recovering -------------------------------------------------------------------------------

    async def _kill(self, kind: str, detail: str) -> None:
        report = self.report
        report.kills += 1
        if kind == "between":
            report.kills_between += 1
        elif kind == "in-flight":
            report.kills_inflight += 1
        else:
            report.kills_recovery += 1
        self._log(f"KILL #{self.report.kills} ({kind}): {detail}")
        if self.cfg.kill_workers:
            await self._kill_worker()
            return
        await self.server.kill()
        for client in self.clients:
            if client.conn is None:
                continue
            try:
                await asyncio.wait_for(client.closed.wait(), self.cfg.timeout)
            except TimeoutError:
                raise KillTestFailure(f"{client}'s connection stayed open after the server was killed") from None
            await client.drop()

    async def _kill_worker(self) -> None:
        """SIGKILL one worker of the server at random: its clients' connections drop (and are dropped here); the
        others stay connected to the other workers. The server starts a new worker by itself."""
        from dixit_tui.bench.workers import socket_owner, worker_pids

        pids = worker_pids(self.server.lines)
        if not pids:
            raise KillTestFailure(f"the server named no workers: {self.server.tail(self.server.starts)}")
        owners = {
            c: socket_owner(pids, int(c.conn.get_extra_info("sockname")[1])) for c in self.clients if c.conn is not None
        }
        victim = self.rng.choice(pids)
        os.kill(victim, signal.SIGKILL)
        for client, owner in owners.items():
            if owner != victim:
                continue
            try:
                await asyncio.wait_for(client.closed.wait(), self.cfg.timeout)
            except TimeoutError:
                raise KillTestFailure(f"{client}'s connection stayed open after its worker was killed") from None
            await client.drop()

        def replaced() -> bool:
            ready = worker_pids(self.server.lines, ready=True)
            return victim not in ready and len(ready) == len(pids)

        await self._until(replaced, "the server's new worker to listen")

    async def _recover(self, inflight: Action | None) -> None:
        """Restart, bring every client back to its seat, and compare each view with the one before the kill."""
        pre = {c: c.last_state for c in self.clients}
        acked = inflight is not None and self._acked(inflight)  # its actor saw it before the connection dropped
        seen = self._check_pre(pre, inflight) or acked  # someone saw it: it must survive
        if inflight is not None:
            if seen:
                self._commit(inflight, bind=acked)
            if inflight.kind in ("create", "join") and not acked:
                # Its actor may have left its old table (committed) without its new seat being committed.
                inflight.actor.game = None
        # (a worker-kill leaves the other workers' clients connected: they see the table go on and are not rejoining)
        rejoin = [c for c in self.clients if c.game is not None and c.conn is None]
        possible = {"before", "after"}
        while True:
            began = time.perf_counter()
            if not self.cfg.kill_workers:
                self.report.restart_ms.append(await self.server.start(self.cfg.start_timeout) * 1000)
                self._log(f"restarted on port {self.server.port}")
            else:  # a kill during the reconnect wave may have dropped more of them
                rejoin.extend(c for c in self.clients if c.game is not None and c.conn is None and c not in rejoin)
            dropped = {c for c in rejoin if c.conn is None}  # those connected (again) and back already stay
            await self._connect_all()
            for client in rejoin:
                if client not in dropped:
                    continue
                assert client.game is not None and client.game.code is not None
                client.join_mark = len(client.messages)
                code = (pre[client] or {}).get("reconnect_code")
                if code and self.rng.random() < self.cfg.by_reconnect_code:
                    client.send({"cmd": "reconnect", "code": code})  # the way back without a key
                    self.report.by_code += 1
                else:
                    client.send({"cmd": "join", "table": client.game.code})  # the key finds the seat
            if self.report.kills < self.cfg.kills and self.rng.random() < self.cfg.during_recovery:
                delay = self.cfg.max_inflight_delay * self.rng.random() ** 2
                await asyncio.sleep(delay)
                await self._kill("recovery", f"{delay * 1000:.1f} ms into the reconnect wave")
                # Views that arrived before this kill are evidence too: what they showed must stay.
                possible &= self._check_post(rejoin, pre, inflight, seen, partial=True)
                continue
            await self._until(
                lambda: all(c.rejoined_view() for c in rejoin),
                lambda: (
                    "every client's view after rejoining: still missing "
                    + ", ".join(str(c) for c in rejoin if not c.rejoined_view())
                ),
            )
            possible &= self._check_post(rejoin, pre, inflight, seen, partial=False)
            break
        if inflight is not None and self.cfg.kill_workers and inflight.kind != "create":
            possible &= await self._survivors_allow(inflight, rejoin)
        if inflight is not None:
            self._settle(inflight, acked, seen, possible)
        await self._quiesce()
        self.report.recovery_ms.append((time.perf_counter() - began) * 1000)

    async def _survivors_allow(self, action: Action, rejoin: Sequence[Client]) -> set[str]:
        """With one worker killed, the players at the table who are connected to the other workers stay: once their
        views show the table before or after the in-flight action, they tell whether it was committed (the change
        notice of an append reaches every worker at once, long before the killed worker is replaced). Returns the
        outcomes they allow ("before", "after")."""
        code = action.game.code
        survivors = [
            c for c in self.clients if c.game is action.game and c is not action.actor and c not in rejoin and c.conn
        ]
        outcomes = {
            c: {
                "before": project(model_message(code, action.before, c.seat)),
                "after": project(model_message(code, action.after, c.seat)),
            }
            for c in survivors
        }

        def shown() -> bool:
            return all(project(c.last_state) in outcomes[c].values() for c in survivors)

        await self._until(shown, f"the views at table {code} to show the table before or after {action}")
        possible = {"before", "after"}
        for client in survivors:
            self.report.views_checked += 1
            possible &= {name for name, view in outcomes[client].items() if project(client.last_state) == view}
        return possible

    def _settle(self, action: Action, acked: bool, seen: bool, possible: set[str]) -> None:
        """Decide whether the in-flight action happened, from every view after the restart(s)."""
        report = self.report
        if action.kind == "create" and not acked:
            possible = {self._create_outcome(action)}
        if seen and "after" not in possible:
            report.losses += 1
            raise KillTestFailure(f"LOSS after kill #{report.kills}: {action} was seen before the kill, not after")
        if not possible:
            report.mismatches += 1
            raise KillTestFailure(
                f"VIEW DIFFERS after kill #{report.kills}: the views (of several clients, or across the restarts of "
                f"one recovery) disagree on whether {action} happened"
            )
        if seen:
            report.inflight_acked += 1
            report.acknowledged += acked
        elif "after" in possible:  # both: nothing tells (the action changed no view, e.g. a repeated join)
            self._commit(action, bind=False)
            report.inflight_committed += 1
        else:
            report.inflight_lost += 1
            self._log(f"lost (allowed, never seen) #{action.number}")

    def _check_pre(self, pre: dict[Client, dict[str, Any] | None], inflight: Action | None) -> bool:
        """Each view before the kill is the model's (or already shows the in-flight action). True if one does."""
        seen = False
        for client in self.clients:
            game = client.game
            if game is None:
                continue
            if inflight is not None and client is inflight.actor and inflight.kind in ("create", "join"):
                continue  # its last view may be of the new table (then `_acked` said so) or of its old one
            got = project(pre[client])
            if inflight is not None and game is inflight.game:
                before = project(model_message(game.code, inflight.before, client.seat))
                after = project(model_message(game.code, inflight.after, client.seat))
                if got == after and got != before:
                    seen = True
                    continue
                want = before
            else:
                want = self._expected(client)
            if got != want:
                raise KillTestFailure(
                    f"before kill #{self.report.kills}, {client}'s view was not the model's (harness or broadcast "
                    f"problem, not durability): {diff(got, want)}"
                )
        return seen

    def _check_post(
        self,
        rejoin: Sequence[Client],
        pre: dict[Client, dict[str, Any] | None],
        inflight: Action | None,
        seen: bool,
        *,
        partial: bool,
    ) -> set[str]:
        """Compare each rejoined client's first view with its last view before the kill. Returns the outcomes of
        the in-flight action that every view allows ("before": absent, "after": present)."""
        possible = {"before", "after"}
        for client in rejoin:
            game = client.game
            assert game is not None and game.code is not None
            post = client.rejoined_view()
            if post is None:
                if partial:
                    continue
                raise KillTestFailure(f"{client} has no view after rejoining")
            self.report.views_checked += 1
            got, had = project(post), project(pre[client])
            if inflight is not None and game is inflight.game and inflight.kind != "create":
                before = project(model_message(game.code, inflight.before, client.seat))
                after = project(model_message(game.code, inflight.after, client.seat))
                allowed = {name for name, view in (("before", before), ("after", after)) if got == view}
                note = f"(in flight at the kill: {inflight})"
                # Equal to the view before the kill, or that view plus the in-flight action; if anyone saw the
                # action before the kill, it must be there.
                if not allowed or (got != had and not (got == after and had == before)):
                    self._differs(client, had, got, note)
                if seen and "after" not in allowed:
                    self._differs(client, had, got, note + " -- it was seen before the kill", loss=True)
                possible &= allowed
            elif got != had or got != self._expected(client):
                self._differs(client, had, got, "")
            for key in ("mode", "profile", "reconnect_code"):  # not in the model, but must not change either
                if post.get(key) != (pre[client] or {}).get(key):
                    self.report.mismatches += 1
                    raise KillTestFailure(
                        f"VIEW DIFFERS after kill #{self.report.kills}: {client}'s {key} was "
                        f"{(pre[client] or {}).get(key)!r} before, {post.get(key)!r} after"
                    )
        return possible

    def _differs(
        self, client: Client, had: dict[str, Any] | None, got: dict[str, Any] | None, note: str, *, loss: bool = False
    ) -> None:
        kind = "LOSS" if loss or (had is not None and got is not None and _older(got, had)) else "VIEW DIFFERS"
        if kind == "LOSS":
            self.report.losses += 1
        else:
            self.report.mismatches += 1
        raise KillTestFailure(
            f"{kind} after kill #{self.report.kills}: {client} at table {got and got['table']} {note}\n"
            f"  before the kill: {had}\n  after restart:   {got}\n  differences: {diff(got, had)}"
        )

    def _create_outcome(self, action: Action) -> str:
        """A `create` nobody saw: committed iff the lobby now lists an unknown table hosted by its actor."""
        lobby = action.actor.lobby_state()
        assert lobby is not None
        fresh = [t for t in lobby.get("tables", ()) if t["table"] not in self.known_codes]
        mine = [
            t
            for t in fresh
            if t["host"] == action.actor.name and t["players"] == 1 and t["status"] == TableStatus.LOBBY
        ]
        if len(fresh) != len(mine) or len(mine) > 1:
            raise KillTestFailure(f"after kill #{self.report.kills} the lobby lists unexpected tables: {fresh}")
        if mine:
            self.known_codes.add(mine[0]["table"])
            self.report.orphan_tables += 1
            return "after"
        return "before"

    def _count_store(self) -> None:
        if self.cfg.redis:
            import redis

            from dixit_tui.store.redis_store import DEFAULT_PREFIX

            with contextlib.suppress(redis.RedisError), redis.Redis.from_url(self.cfg.redis) as client:
                self.report.records = sum(int(n) for n in client.hvals(f"{DEFAULT_PREFIX}seq"))
                self.report.snapshots = sum(1 for _ in client.scan_iter(f"{DEFAULT_PREFIX}snap:*"))
            return
        path = self.workdir / "data" / DB_FILENAME
        if not path.exists():
            return
        with contextlib.suppress(sqlite3.Error):
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                (self.report.records,) = db.execute("SELECT COUNT(*) FROM records").fetchone()
                (self.report.snapshots,) = db.execute("SELECT COUNT(*) FROM snapshots").fetchone()
            finally:
                db.close()


def _older(got: dict[str, Any], had: dict[str, Any]) -> bool:
    """Heuristic for the report: the view after the restart is behind the one before (something was undone)."""
    order = {"lobby": 0, "clue": 1, "submit": 2, "vote": 3, "over": 4}
    g = (got.get("turn") or 0, order.get(got.get("phase") or "", 0))
    h = (had.get("turn") or 0, order.get(had.get("phase") or "", 0))
    if g != h:
        return g < h
    return (
        len(got["your_cards"]) < len(had["your_cards"])
        or got["your_votes"] != had["your_votes"]
        or (len(got["waiting_for"]) > len(had["waiting_for"]))
    )


async def run_killtest(cfg: KillConfig, workdir: Path) -> KillReport:
    """Run the crash test in `workdir` (host key in keys/, the store in data/); the report says what happened."""
    workdir.mkdir(parents=True, exist_ok=True)
    return await KillTest(cfg, workdir).run()


async def _with_own_redis(cfg: KillConfig, workdir: Path) -> KillReport:
    """The crash test on a redis-server started for it in `workdir`/redis (stopped at the end)."""
    redis = LocalRedis(workdir / "redis")
    await redis.start()
    print(f"killtest: redis-server pid {redis.pid} at {redis.url} (appendonly yes, appendfsync always)", flush=True)
    try:
        return await run_killtest(replace(cfg, redis=redis.url), workdir)
    finally:
        await redis.stop()


# --- command line ---------------------------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kills", type=int, default=300, help="server kills (default: %(default)s)")
    parser.add_argument("--tables", default="3,4,5", help="players per table, comma-separated (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=None, help="seed of every random choice (default: random)")
    parser.add_argument("--max-between", type=int, default=6, help="most actions between two kills (default: 6)")
    parser.add_argument("--inflight", type=float, default=0.5, help="share of kills with an action in flight")
    parser.add_argument("--during-recovery", type=float, default=0.1, help="chance a restart is killed mid-reconnect")
    parser.add_argument(
        "--snapshot-every", type=int, default=None, help="run the server with snapshots every N records (default: 100)"
    )
    parser.add_argument("--timeout", type=float, default=15.0, help="seconds for any single wait (default: 15)")
    parser.add_argument("--workdir", type=Path, default=None, help="folder for keys/ and data/ (default: a temp dir)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder even when the run passes")
    parser.add_argument("--verbose", action="store_true", help="print every step")
    parser.add_argument("--redis", metavar="URL", default=None, help="run the server with its tables in this Redis")
    parser.add_argument(
        "--start-redis",
        action="store_true",
        help="start a redis-server of the run's own (a free loopback port, the work folder, append-only with fsync "
        "always) and keep the tables there",
    )
    parser.add_argument("--workers", type=int, default=None, help="with --redis: the server's worker processes")
    parser.add_argument(
        "--kill-workers", action="store_true", help="with --redis: kill one worker at a time, not the whole server"
    )


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    cfg = KillConfig(
        kills=args.kills,
        tables=tuple(int(n) for n in str(args.tables).split(",") if n.strip()),
        seed=seed,
        max_actions_between_kills=args.max_between,
        inflight=args.inflight,
        during_recovery=args.during_recovery,
        timeout=args.timeout,
        snapshot_every=args.snapshot_every,
        redis=args.redis,
        workers=args.workers,
        kill_workers=args.kill_workers,
        log=print if args.verbose else None,
    )
    if args.start_redis and args.redis:
        print("killtest: give --redis URL or --start-redis, not both", file=sys.stderr)
        return 2
    if args.kill_workers and not (args.redis or args.start_redis):
        print("killtest: --kill-workers needs --redis URL or --start-redis", file=sys.stderr)
        return 2
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="dixit-killtest-"))
    print(f"killtest: {cfg.kills} kills, tables {list(cfg.tables)}, seed {seed}, work folder {workdir}", flush=True)
    try:
        report = asyncio.run(_with_own_redis(cfg, workdir) if args.start_redis else run_killtest(cfg, workdir))
    except RedisStartError as error:
        print(f"killtest: {error}", file=sys.stderr)
        return 1
    print(report.figures())
    if report.ok and not args.keep and args.workdir is None:
        shutil.rmtree(workdir, ignore_errors=True)
    elif not report.ok:
        print(f"data kept in {workdir}; rerun with --seed {seed} to repeat the same choices")
    return 0 if report.ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m dixit_tui.bench.killtest",
        description="Kill a real dixit-tui server at random moments during bot games; check nothing acknowledged "
        "is lost and every view is the same after each restart.",
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
