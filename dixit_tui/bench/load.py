"""`dixit-tui bench`: load-test a dixit-tui server with real SSH sessions and measure what players would feel.

    dixit-tui bench --sessions 200 --tables 20 --duration 45 [--json]
    dixit-tui bench --sessions 50 --host game.example --port 2222 [--pid SERVERPID]

Without --host/--port it starts its own server (`python -m dixit_tui serve` on 127.0.0.1, a free port, keys and
data in a temporary folder, seeded tables allowed, per-IP limits raised for the load) and reads its memory and CPU
from /proc. With --host/--port it drives that server (memory and CPU only with --pid, on this machine); that server
needs `--allow-seeded-tables` (else tables are unseeded) and limits that let this many connections come from one
address (e.g. `--limit max_connections_per_ip=1000 --limit max_unauthenticated_per_ip=64`).

The N sessions are split across M tables. At each table, 3 to 5 headless bots (`json bot`, protocol v1, the
`dixit_tui.bots` strategy with no think time) play seeded standard games; every other session is a terminal
session with a PTY (xterm-256color, 100x30 by default) watching that table (`watch CODE` as the SSH command), its
output fed incrementally into a pyte screen. When a game ends the host bot opens a new table, the other bots join
it and the watchers reconnect to it, so play goes on for the whole duration.

What is measured (all in this process, one asyncio loop, timestamps taken when the bytes reach the client):
- first paint: SSH TCP connect start -> the first output that leaves visible text on the pyte screen (the app's
  first screen: the lobby, or the table); also -> the table screen (its top bar `table CODE`).
- action -> every screen: a bot sends a command at t0; for EACH watcher at that table, the time until the first
  output received after t0 that changes its pyte screen (any character or attribute of any cell). Actions at one
  table are measured one at a time (the next action is sent once every watcher showed the change, or the action
  timed out, and then no screen at the table changed for --settle seconds; open recaps are closed with Enter in
  between), so every change is attributed to exactly one action; tables run concurrently.
- server memory: VmRSS of the server process; per session = (RSS with every session connected - RSS before the
  sessions, after a warm-up session) / N; peak = VmHWM.
- server CPU: utime+stime from /proc/PID/stat over the play period, as % of one core.
- handshake rate: SSH connections (TCP + key exchange + keyless auth) completed per second, opened --concurrency
  at a time, each closed right after.

Options that change the load: --think S (a pause of 0.5-1.5 x S, seeded, before each action of a table, as a
person's); --terminals-share F (that share of each table's sessions are terminals, the rest bots). --floor measures
the floor instead (dixit_tui/bench/floor.py: the same server and SSH driver, a one-line app that each action
changes); --with-floor runs both and prints the ratio of their server CPU per terminal update. After play, the
joining section: sessions started one at a time (server CPU per join, net of idle), then --join-burst players
joining tables and --lobby-burst players opening the lobby at once (connect -> first screen).

The client and the server share the machine's cores: on a small machine the client's own work (SSH, pyte) slows
the server and is included in every latency. The report says how busy the client was.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from dixit_tui import ssh_client
from dixit_tui.bench.server import ServerProcess
from dixit_tui.bots.brain import Brain, Key
from dixit_tui.bots.cli import command_message
from dixit_tui.bots.strategy import Action, strategy_named
from dixit_tui.bots.view import BotView
from dixit_tui.engine import Phase
from dixit_tui.protocol.kinds import MessageType

HOST = "127.0.0.1"
CLOCK = time.perf_counter
WARM_UP_TABLE = 9999  # the index of the warm-up's table
JOINERS_PER_TABLE = 7  # players joining one table in the joining section (with its host bot: 8 seats)
RECAP_MARKER = "Close (Enter)"  # the recap modal after each reveal; it covers the table at 100x30
LISTENING = re.compile(r"listening on (\S+):(\d+)")


# --- small helpers -------------------------------------------------------------------------------------------


def percentile(values: Sequence[float], p: float) -> float | None:
    """Nearest-rank percentile (p in 0..100); None without values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100.0 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def summary_ms(values: Sequence[float], points: Sequence[int] = (50, 95, 99), censored: int = 0) -> dict[str, Any]:
    """Percentiles in milliseconds. `censored` samples timed out (longer than any value): they count in the ranks,
    and a percentile that falls on one is null (the report says "> timeout")."""
    everything = [*values, *([math.inf] * censored)]
    out: dict[str, Any] = {"n": len(values)}
    for p in points:
        v = percentile(everything, p)
        out[f"p{p}"] = None if v is None or math.isinf(v) else round(v * 1000.0, 1)
    out["max"] = round(max(values) * 1000.0, 1) if values else None
    out["mean"] = round(sum(values) / len(values) * 1000.0, 1) if values else None
    if censored:
        out["timed_out"] = censored
    return out


class ProcStats:
    """Memory and CPU of one process from /proc (Linux)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.ticks = os.sysconf("SC_CLK_TCK")

    def _status(self, field_name: str) -> int | None:
        try:
            with open(f"/proc/{self.pid}/status") as f:
                for line in f:
                    if line.startswith(field_name + ":"):
                        return int(line.split()[1]) * 1024
        except OSError:
            return None
        return None

    def rss(self) -> int | None:
        return self._status("VmRSS")

    def hwm(self) -> int | None:
        return self._status("VmHWM")

    def schedstat(self) -> tuple[float, float] | None:
        """(seconds on a CPU, seconds runnable but waiting for a CPU) of the main thread (/proc/PID/schedstat)."""
        try:
            with open(f"/proc/{self.pid}/schedstat") as f:
                on_cpu, waiting = f.read().split()[:2]
        except (OSError, ValueError):
            return None
        return int(on_cpu) / 1e9, int(waiting) / 1e9

    def cpu_seconds_precise(self) -> float | None:
        """Seconds on a CPU of all the process's threads, in nanoseconds (/proc/PID/task/*/schedstat), where
        `cpu_seconds` counts clock ticks (10 ms): for short spans such as one join."""
        total = 0
        try:
            for task in os.listdir(f"/proc/{self.pid}/task"):
                with contextlib.suppress(OSError, ValueError), open(f"/proc/{self.pid}/task/{task}/schedstat") as f:
                    total += int(f.read().split()[0])
        except OSError:
            return self.cpu_seconds()
        return total / 1e9

    def cpu_seconds(self) -> float | None:
        try:
            with open(f"/proc/{self.pid}/stat") as f:
                text = f.read()
        except OSError:
            return None
        fields = text[text.rindex(")") + 2 :].split()
        return (int(fields[11]) + int(fields[12])) / self.ticks  # utime, stime (fields 14 and 15 of stat)


def machine_cpu() -> tuple[float, float] | None:
    """(busy, total) jiffies of the whole machine, all cores, from /proc/stat."""
    try:
        with open("/proc/stat") as f:
            values = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    total = sum(values[:8])
    return float(total - idle), float(total)


async def ssh_connect(host: str, port: int, username: str, timeout: float = 30.0) -> asyncssh.SSHClientConnection:
    """A keyless connection that skips the host key check (a loopback benchmark), without keepalives."""
    return await ssh_client.connect(host, port, username, timeout=timeout, keepalive_interval=0)


# --- the measurement of one action ---------------------------------------------------------------------------


@dataclass(eq=False)
class Measurement:
    kind: str
    t0: float
    remaining: set[Watcher]
    latencies: list[float] = field(default_factory=list)
    refused: bool = False
    done: asyncio.Event = field(default_factory=asyncio.Event)


# --- a watcher: a terminal session fed into pyte -------------------------------------------------------------


class _WatcherSession(asyncssh.SSHClientSession[bytes]):
    def __init__(self, watcher: Watcher) -> None:
        self.watcher = watcher

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.watcher.on_data(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.watcher.closed = True


class Watcher:
    """A PTY session watching a table; every output chunk is fed to pyte and checked for a visible change."""

    def __init__(self, name: str, table: TableRun, size: tuple[int, int], command: str | None = "watch") -> None:
        import pyte

        self.name = name
        self.table = table
        self.code = table.code
        self.command = f"{command} {self.code}" if command else None  # None: a plain connection (the lobby)
        self.cols, self.rows = size
        self.screen = pyte.Screen(self.cols, self.rows)
        self.stream = pyte.ByteStream(self.screen)
        blank = self._row(0)
        self.lines: list[tuple[Any, ...]] = [blank] * self.rows
        self.screen.dirty.clear()
        self.conn: asyncssh.SSHClientConnection | None = None
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None
        self.closed = False
        self.t_start = 0.0
        self.t_auth: float | None = None
        self.t_session = 0.0
        self.t_first_byte: float | None = None
        self.t_first_paint: float | None = None
        self.t_table: float | None = None
        self.last_change = 0.0
        self.last_byte = 0.0
        self.changes = 0
        self.bytes = 0
        self.changed = asyncio.Event()

    def _row(self, y: int) -> tuple[Any, ...]:
        line = self.screen.buffer[y]
        return tuple([line[x] for x in range(self.cols)])

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def on_data(self, data: bytes) -> None:
        now = CLOCK()
        if self.t_first_byte is None:
            self.t_first_byte = now
        self.bytes += len(data)
        self.last_byte = now
        if self.t_table is not None and self.table.run.count_frames:
            # counting only (--compare-workers): once the table shows, any output is an update of this screen; no
            # terminal emulation, so the client's CPU goes to SSH alone
            self.last_change = now
            self.changes += 1
            self.table.screen_changed(self, now)
            self.changed.set()
            return
        self.stream.feed(data)
        dirty = self.screen.dirty
        if not dirty:
            return
        changed = False
        lines = self.lines
        for y in dirty:
            if 0 <= y < self.rows:
                row = self._row(y)
                if row != lines[y]:
                    lines[y] = row
                    changed = True
        dirty.clear()
        if not changed:
            return
        self.last_change = now
        self.changes += 1
        if self.t_first_paint is None and any(ch.data.strip() for row in lines for ch in row):
            self.t_first_paint = now
        if self.t_table is None and f"table {self.code}" in self.text():
            self.t_table = now
        self.table.screen_changed(self, now)
        self.changed.set()

    async def open(self, host: str, port: int, timeout: float) -> None:
        await self.connect(host, port, timeout)
        await self.start_session(timeout)

    async def connect(self, host: str, port: int, timeout: float) -> None:
        """The SSH connection, authenticated, without its session yet."""
        self.t_start = CLOCK()
        self.conn = await self.table.run.connect(host, port, self.name, timeout, (self.table, "terminal"))
        self.t_auth = CLOCK()

    async def start_session(self, timeout: float) -> None:
        """The PTY session (its SSH command: `watch CODE`, `join CODE` or none)."""
        assert self.conn is not None
        self.t_session = CLOCK()
        self.chan, _ = await asyncio.wait_for(
            self.conn.create_session(
                lambda: _WatcherSession(self),
                self.command,
                term_type="xterm-256color",
                term_size=(self.cols, self.rows),
                encoding=None,
            ),
            timeout,
        )

    async def wait_table(self, timeout: float, lobby: bool = False) -> bool:
        """Until the table screen shows (with `lobby`: until the first paint)."""
        deadline = CLOCK() + timeout
        while (self.t_first_paint if lobby else self.t_table) is None and not self.closed:
            left = deadline - CLOCK()
            if left <= 0:
                return False
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))
        return (self.t_first_paint if lobby else self.t_table) is not None

    def send(self, data: bytes) -> None:
        if self.chan is not None and not self.closed:
            self.chan.write(data)

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.conn.wait_closed(), 5.0)
        self.closed = True


# --- a bot: the headless protocol ----------------------------------------------------------------------------


class Bot(asyncssh.SSHClientSession[str]):
    """A `json bot` session; the table's driver decides when it acts."""

    def __init__(self, name: str, table: TableRun, strategy: str, rng: random.Random) -> None:
        self.name = name
        self.table = table
        self.brain = Brain(strategy_named(strategy), rng)
        self.rng = rng
        self.buffer = ""
        self.view: BotView | None = None
        self.code: str | None = None
        self.phase: str | None = None
        self.over = False
        self.hello = asyncio.Event()
        self.changed = asyncio.Event()
        self.errors: list[dict[str, Any]] = []
        self.sent: dict[str, tuple[Key | None, Action | None, Measurement | None]] = {}
        self.refs = 0
        self.ack_t0: float | None = None
        self.conn: asyncssh.SSHClientConnection | None = None
        self.chan: asyncssh.SSHClientChannel[str] | None = None
        self.closed = False

    # asyncssh callbacks
    def data_received(self, data: str, datatype: asyncssh.DataType) -> None:
        self.buffer += data
        while True:
            line, sep, rest = self.buffer.partition("\n")
            if not sep:
                return
            self.buffer = rest
            if line.strip():
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if isinstance(message, dict):
                    self.receive(message)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.changed.set()
        self.table.changed.set()

    async def open(self, host: str, port: int, timeout: float) -> None:
        self.conn = await self.table.run.connect(host, port, self.name, timeout, (self.table, "bot"))
        self.chan, _ = await asyncio.wait_for(
            self.conn.create_session(lambda: self, "json bot", encoding="utf-8"), timeout
        )
        await asyncio.wait_for(self.hello.wait(), timeout)

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.conn.wait_closed(), 5.0)

    def send(self, message: dict[str, Any]) -> None:
        if self.chan is not None and not self.closed:
            self.chan.write(json.dumps(message) + "\n")

    def receive(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == MessageType.STATE:
            table = self._state_seen(message)
            self.phase = str(message.get("phase"))
            self.view = BotView.from_protocol(message) if table is not None else None
            if self.phase == Phase.OVER:
                self.over = True
        elif kind == MessageType.OVER:
            self.over = True
        elif kind == MessageType.REVEAL:
            self.table.reveal_seen = True
        elif kind == MessageType.VOIDED:
            turn = message.get("turn")
            self.brain.voided(turn if isinstance(turn, int) else 0)
        elif kind == MessageType.ERROR:
            sent = self._refused(message)
            if sent is not None and sent[0] is not None and sent[1] is not None:
                self.brain.refused(sent[0], sent[1], str(message.get("code")))
        self._received(kind)

    def _state_seen(self, message: dict[str, Any]) -> Any:
        """A `state`: the acting bot's own answer when one was awaited (its latency), and its table's code."""
        if self.ack_t0 is not None:
            self.table.run.ack_latencies.append(CLOCK() - self.ack_t0)
            self.ack_t0 = None
        table = message.get("table")
        self.code = str(table) if table is not None else None
        return table

    def _refused(self, message: dict[str, Any]) -> tuple[Key | None, Action | None, Measurement | None] | None:
        """An `error`: kept, its command's measurement ended as refused and counted; the command as sent, if known."""
        self.errors.append(message)
        sent = self.sent.pop(str(message.get("ref")), None)
        if sent is not None:
            if sent[2] is not None:
                sent[2].refused = True
                sent[2].done.set()
            self.table.run.refused[str(message.get("code"))] += 1
        return sent

    def _received(self, kind: object) -> None:
        if kind == "hello":
            self.hello.set()
        self.changed.set()
        self.table.changed.set()

    def next_ref(self) -> str:
        self.refs += 1
        return f"m{self.refs}"


class FloorBot(Bot):
    """A session of the floor server's tiny protocol (`dixit_tui.bench.floor`): it creates or joins a floor table
    and bumps its counter."""

    def receive(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "state":
            self._state_seen(message)
            self.sent.pop(str(message.get("ref")), None)
        elif kind == "error":
            self._refused(message)
        self._received(kind)


# --- one table: its bots, its watchers, its driver -----------------------------------------------------------


class TableRun:
    bot_class: type[Bot] = Bot

    def __init__(self, run: LoadRun, index: int, bots: int, watchers: int) -> None:
        self.run = run
        # the pauses of --think: their own seeded generator, so the games are the same with and without them
        self.think_rng = random.Random(f"think-{run.args.seed}-{index}")
        self.index = index
        self.n_bots = bots
        self.n_watchers = watchers
        self.code = ""
        self.game = 0
        self.bots: list[Bot] = []
        self.watchers: list[Watcher] = []
        self.pending: Measurement | None = None
        self.changed = asyncio.Event()
        self.reveal_seen = False
        self.last_screen_change = 0.0
        self.games_finished = 0
        self.actions = 0

    # called by every watcher's on_data
    def screen_changed(self, watcher: Watcher, now: float) -> None:
        self.last_screen_change = now
        m = self.pending
        if m is not None and watcher in m.remaining and now >= m.t0:
            self.run.updates += 1
            m.remaining.discard(watcher)
            m.latencies.append(now - m.t0)
            if not m.remaining:
                m.done.set()

    @property
    def host_bot(self) -> Bot:
        return self.bots[0]

    async def open_bots(self) -> None:
        run = self.run
        for k in range(self.n_bots):
            rng = random.Random(run.rng.randrange(2**63))
            self.bots.append(self.bot_class(f"b{self.index}x{k}", self, run.args.strategy, rng))
        await asyncio.gather(*(run.limited(b.open(run.host, run.port, 30.0)) for b in self.bots))

    async def new_table(self) -> None:
        """The host bot creates a seeded table, the other bots join it."""
        run = self.run
        host = self.host_bot
        self.game += 1
        self.reveal_seen = False
        for bot in self.bots:
            bot.over = False
            bot.view = None
            bot.brain = Brain(strategy_named(run.args.strategy), bot.rng)
        old = self.code
        create: dict[str, Any] = {"cmd": "create", "mode": "standard", "target": run.args.target, "first": "random"}
        if run.seeded:
            create["seed"] = run.args.seed * 1_000_003 + self.index * 1009 + self.game
        if getattr(run.args, "decks", None):
            create["decks"] = [d.strip() for d in str(run.args.decks).split(",") if d.strip()]
        host.errors.clear()
        host.send({**create, "ref": "create"})
        await self._until(lambda: host.code not in (None, old) or bool(host.errors), 15.0, "create")
        if host.errors:
            error = host.errors[-1]
            if error.get("code") == "seed_refused" and run.seeded:
                run.seeded = False
                run.warnings.append("the server refused seeded tables (no --allow-seeded-tables): tables are unseeded")
                self.game -= 1
                return await self.new_table()
            raise RuntimeError(f"table {self.index}: create refused: {error}")
        assert host.code is not None
        self.code = host.code
        for bot in self.bots[1:]:
            bot.send({"cmd": "join", "table": self.code, "ref": "join"})
        await self._until(lambda: all(b.code == self.code for b in self.bots), 15.0, "join")

    async def _until(self, predicate: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = CLOCK() + timeout
        while not predicate():
            left = deadline - CLOCK()
            if left <= 0:
                raise RuntimeError(f"table {self.index}: timed out waiting for {what}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))

    async def open_watchers(self) -> None:
        run = self.run
        self.watchers = [Watcher(f"w{self.index}x{k}g{self.game}", self, run.size) for k in range(self.n_watchers)]
        results = await asyncio.gather(
            *(run.limited(self._open_watcher(w)) for w in self.watchers), return_exceptions=True
        )
        for w, result in zip(self.watchers, results, strict=True):
            if isinstance(result, BaseException):
                run.failures.append(f"watcher {w.name}: {type(result).__name__}: {result}")
        self.watchers = [w for w in self.watchers if not w.closed and w.t_table is not None]

    async def _open_watcher(self, watcher: Watcher) -> None:
        await watcher.open(self.run.host, self.run.port, 60.0)
        ok = await watcher.wait_table(120.0)
        run = self.run
        if watcher.t_auth is not None:
            run.connect_times.append(watcher.t_auth - watcher.t_start)
        if watcher.t_first_paint is not None:
            run.first_paint.append(watcher.t_first_paint - watcher.t_start)
        if ok and watcher.t_table is not None:
            run.table_paint.append(watcher.t_table - watcher.t_start)
        else:
            raise RuntimeError("the table screen never appeared")

    async def close_watchers(self) -> None:
        await asyncio.gather(*(w.close() for w in self.watchers))
        self.watchers = []

    # --- playing -------------------------------------------------------------------------------------------

    async def measure(
        self, bot: Bot, kind: str, message: dict[str, Any], key: Key | None, action: Action | None
    ) -> None:
        run = self.run
        ref = bot.next_ref()
        live = {w for w in self.watchers if not w.closed}
        t0 = CLOCK()
        m = Measurement(kind, t0, live)
        self.pending = m
        bot.sent[ref] = (key, action, m)
        bot.ack_t0 = t0
        bot.send({**message, "ref": ref})
        self.actions += 1
        if not live:
            m.done.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(m.done.wait(), run.args.action_timeout)
        self.pending = None
        # the acting bot's own answer too: a reveal comes before it, so `reveal_seen` is known by then
        with contextlib.suppress(RuntimeError):
            await self._until(lambda: bot.ack_t0 is None or m.refused, run.args.action_timeout, "ack")
        if m.refused:
            return
        run.measured_actions[kind] += 1
        run.latencies.extend(m.latencies)
        run.latencies_by_kind.setdefault(kind, []).extend(m.latencies)
        run.missed_by_kind[kind] += 0  # every kind measured has an entry
        if m.remaining:
            run.missed += len(m.remaining)
            run.missed_by_kind[kind] += len(m.remaining)
            run.missed_actions += 1
            run.missed_under_recap += sum(1 for w in m.remaining if RECAP_MARKER in w.text())
        await self.settle()
        if self.reveal_seen:
            self.reveal_seen = False
            if not run.count_frames:  # counting terminals keep no screen to look for a recap on
                await self.close_recaps()

    async def settle(self) -> None:
        """Wait until no screen at this table changed for `--settle` seconds (at most 5 s)."""
        quiet = self.run.args.settle
        deadline = CLOCK() + 5.0
        while True:
            now = CLOCK()
            wait = self.last_screen_change + quiet - now
            if wait <= 0:
                return
            if now >= deadline:
                self.run.settle_timeouts += 1
                return
            await asyncio.sleep(min(wait, deadline - now))

    async def close_recaps(self) -> None:
        """After a reveal: a terminal that shows the recap (a modal over the table; the table screen opens it on `r`,
        older servers after every reveal) gets Enter, as a player would close it before the next move; then wait
        until it is gone."""
        await self.settle()
        todo = {w for w in self.watchers if not w.closed and RECAP_MARKER in w.text()}
        closing: set[Watcher] = set()
        seen: dict[Watcher, int] = {}  # the change count when the screen was last read
        deadline = CLOCK() + max(20.0, self.run.args.action_timeout)
        while todo and CLOCK() < deadline:
            for w in list(todo):
                if seen.get(w) == w.changes and not w.closed:
                    continue  # nothing new on this screen
                seen[w] = w.changes
                shown = RECAP_MARKER in w.text()
                if w.closed or (w in closing and not shown):
                    todo.discard(w)
                elif shown and w not in closing:
                    closing.add(w)
                    w.send(b"\r")
            if todo:
                await asyncio.sleep(0.05)
        if todo:
            self.run.recap_timeouts += len(todo)
        await self.settle()

    def _owed(self) -> bool:
        """Some bot at this table owes a move (without asking its brain, which would decide it)."""
        return any(b.view is not None and b.code == self.code and b.view.needed() is not None for b in self.bots)

    def _next_move(self) -> tuple[Bot, Key, Action] | None:
        for bot in self.bots:
            view = bot.view
            if view is None or bot.code != self.code or view.needed() is None:
                continue
            decided = bot.brain.next_action(view)
            if decided is not None:
                return bot, decided[0], decided[1]
        return None

    async def think(self) -> bool:
        """With --think: a human-like pause before an action (uniform in 0.5x-1.5x the mean). False if the run
        stopped meanwhile."""
        mean = self.run.args.think
        if mean > 0:
            await self.run.pause(mean * self.think_rng.uniform(0.5, 1.5))
        return not self.run.stopping

    async def play(self) -> None:
        """Start the game, then act one move at a time until the run stops; a new table after each game."""
        run = self.run
        if not await self.think():
            return
        await self.measure(self.host_bot, "start", {"cmd": "start"}, None, None)
        idle_since = CLOCK()
        thought = False  # paused since the last action (the pause comes before a bot decides, as a person's)
        while not run.stopping:
            if run.args.think > 0 and not thought and self._owed():
                if not await self.think():
                    return
                thought = True
                idle_since = CLOCK()
                continue
            move = self._next_move()
            if move is not None:
                thought = False
                bot, key, action = move
                await self.measure(bot, action_kind(action), command_message(action), key, action)
                idle_since = CLOCK()
                continue
            if self.host_bot.over and all(b.over for b in self.bots):
                self.games_finished += 1
                run.games_finished += 1
                if run.stopping:
                    return
                await self.close_watchers()
                await self.new_table()
                await self.open_watchers()
                if run.stopping or not await self.think():
                    return
                thought = False
                await self.measure(self.host_bot, "start", {"cmd": "start"}, None, None)
                idle_since = CLOCK()
                continue
            if any(b.closed for b in self.bots):
                run.failures.append(f"table {self.index}: a bot's connection closed")
                return
            if CLOCK() - idle_since > 15.0:
                run.failures.append(f"table {self.index}: no bot had a move for 15 s (phase {self.host_bot.phase})")
                return
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 0.5)

    async def close(self) -> None:
        await self.close_watchers()
        await asyncio.gather(*(b.close() for b in self.bots))


class FloorTableRun(TableRun):
    """A floor table: its bots create or join a floor table; the host bot's `bump` is the action (the one line
    changes on every terminal of the table)."""

    bot_class = FloorBot

    async def new_table(self) -> None:
        host = self.host_bot
        self.game += 1
        old = self.code
        host.send({"cmd": "create", "ref": "create"})
        await self._until(lambda: host.code not in (None, old) or bool(host.errors), 15.0, "create")
        if host.errors:
            raise RuntimeError(f"floor table {self.index}: create refused: {host.errors[-1]}")
        assert host.code is not None
        self.code = host.code
        for bot in self.bots[1:]:
            bot.send({"cmd": "join", "table": self.code, "ref": "join"})
        await self._until(lambda: all(b.code == self.code for b in self.bots), 15.0, "join")

    async def play(self) -> None:
        while not self.run.stopping:
            if not await self.think():
                return
            await self.measure(self.host_bot, "bump", {"cmd": "bump"}, None, None)
            if any(b.closed for b in self.bots):
                self.run.failures.append(f"floor table {self.index}: a bot's connection closed")
                return


def action_kind(action: Action) -> str:
    return type(action).__name__.removesuffix("Action").lower()


# --- the whole run -------------------------------------------------------------------------------------------


class LoadRun:
    def __init__(self, args: argparse.Namespace, host: str, port: int, stats: ProcStats | None) -> None:
        self.args = args
        self.host = host
        self.port = port
        self.stats = stats
        self.rng = random.Random(args.seed)
        self.size = parse_size(args.term_size)
        self.sem = asyncio.Semaphore(args.concurrency)
        self.seeded = True
        self.stopping = False
        self.tables: list[TableRun] = []
        self.warnings: list[str] = []
        self.failures: list[str] = []
        self.connect_times: list[float] = []
        self.first_paint: list[float] = []
        self.table_paint: list[float] = []
        self.latencies: list[float] = []
        self.latencies_by_kind: dict[str, list[float]] = {}
        self.ack_latencies: list[float] = []
        self.measured_actions: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        self.missed = 0
        self.missed_by_kind: Counter[str] = Counter()
        self.missed_actions = 0
        self.settle_timeouts = 0
        self.recap_timeouts = 0
        self.missed_under_recap = 0
        self.games_finished = 0
        self.rss_samples: list[int] = []
        self.lags: list[float] = []
        self.floor = bool(getattr(args, "floor", False))
        self.table_class: type[TableRun] = FloorTableRun if self.floor else TableRun
        self.join_tables: list[TableRun] = []
        self.stopped = asyncio.Event()
        # --compare-workers (dixit_tui/bench/compare.py): terminals that count output once their table shows; where
        # a new connection may stay (False: close it and connect again); callbacks at the start and end of the idle
        # check and of play ("idle0", "idle1", "play0", "play1"); terminal updates measured so far
        self.count_frames = False
        self.placement: Callable[[asyncssh.SSHClientConnection, tuple[TableRun, str]], bool] | None = None
        self.placement_retries = 0
        self.mark_hooks: list[Callable[[str], None]] = []
        self.updates = 0
        self.idle_seconds = 2.0  # the idle check's length

    async def connect(
        self, host: str, port: int, username: str, timeout: float, seat: tuple[TableRun, str]
    ) -> asyncssh.SSHClientConnection:
        """An SSH connection for a session (`seat`: its table, and "terminal" or "bot"); with a placement, again
        until it lands where the placement wants it (at most 30 tries, then where it landed)."""
        for _ in range(30):
            conn = await ssh_connect(host, port, username, timeout)
            if self.placement is None or self.placement(conn, seat):
                return conn
            self.placement_retries += 1
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.wait_closed(), 5.0)
        return await ssh_connect(host, port, username, timeout)

    def mark(self, name: str) -> None:
        for hook in self.mark_hooks:
            hook(name)

    async def pause(self, seconds: float) -> None:
        """Sleep, waking early when the run stops."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stopped.wait(), seconds)

    def stop(self) -> None:
        self.stopping = True
        self.stopped.set()

    async def limited(self, coro: Any) -> Any:
        async with self.sem:
            return await coro

    def rss(self) -> int | None:
        return self.stats.rss() if self.stats is not None else None

    async def sampler(self) -> None:
        while True:
            rss = self.rss()
            if rss is not None:
                self.rss_samples.append(rss)
            await asyncio.sleep(0.25)

    async def lag_monitor(self) -> None:
        period = 0.05
        while True:
            start = CLOCK()
            await asyncio.sleep(period)
            self.lags.append(max(0.0, CLOCK() - start - period))

    async def quiesce(self, quiet: float, timeout: float) -> bool:
        """Wait until the server has drawn what it owes: with its pid, until it used under 10% of a core over
        `quiet` seconds; else until no terminal received any output for `quiet` seconds. False after `timeout`."""
        deadline = CLOCK() + timeout
        stats = self.stats
        if stats is not None and stats.cpu_seconds() is not None:
            while CLOCK() < deadline:
                before, start = stats.cpu_seconds(), CLOCK()
                await asyncio.sleep(quiet)
                after = stats.cpu_seconds()
                if before is not None and after is not None and (after - before) / (CLOCK() - start) < 0.1:
                    return True
            return False
        while True:
            watchers = [w for t in self.tables for w in t.watchers]
            last = max((w.last_byte for w in watchers), default=0.0)
            now = CLOCK()
            if now - last >= quiet:
                return True
            if now >= deadline:
                return False
            await asyncio.sleep(min(quiet - (now - last), deadline - now) + 0.01)

    async def settled_rss(self) -> int | None:
        await asyncio.sleep(1.0)
        return self.rss()

    async def handshake_probe(self, count: int) -> dict[str, Any]:
        times: list[float] = []
        failures = 0

        async def one(i: int) -> None:
            nonlocal failures
            t = CLOCK()
            try:
                conn = await ssh_connect(self.host, self.port, f"hs{i}")
            except (OSError, asyncssh.Error, TimeoutError):
                failures += 1
                return
            times.append(CLOCK() - t)
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.wait_closed(), 5.0)

        start = CLOCK()
        await asyncio.gather(*(self.limited(one(i)) for i in range(count)))
        wall = CLOCK() - start
        return {
            "connections": count,
            "concurrency": self.args.concurrency,
            "failed": failures,
            "wall_s": round(wall, 3),
            "per_s": round(len(times) / wall, 1) if wall > 0 else None,
            "latency_ms": summary_ms(times, (50, 95)),
        }

    async def warm_up(self) -> None:
        """One bot table and one watcher, then gone: the server has imported and built everything once."""
        table = self.table_class(self, WARM_UP_TABLE, 1, 1)
        table.bots = [table.bot_class("warmbot", table, self.args.strategy, random.Random(0))]
        await table.bots[0].open(self.host, self.port, 30.0)
        await table.new_table()
        watcher = Watcher("warmwatch", table, self.size)
        table.watchers = [watcher]
        await watcher.open(self.host, self.port, 30.0)
        await watcher.wait_table(30.0)
        table.host_bot.send({"cmd": "leave"})
        await table.close()

    # --- joining ---------------------------------------------------------------------------------------------

    async def joining(self) -> dict[str, Any]:
        """Sessions opened onto a quiet server: sequentially (server CPU per join, from the session's start to its
        first screen, nothing else going on), then in bursts (`--join-burst` players joining tables at once,
        `--lobby-burst` opening the lobby at once: connect -> first screen, and server CPU per session)."""
        args = self.args
        n_seq, n_burst, n_lobby = max(0, args.joins), max(0, args.join_burst), max(0, args.lobby_burst)
        # fresh tables (not started), each with its host bot: one per sequential joiner (so that a join's CPU is its
        # own, no other screen at the table redraws), and up to JOINERS_PER_TABLE seats each for the burst
        count = n_seq + 2 * math.ceil(n_burst / JOINERS_PER_TABLE)
        tables = [self.table_class(self, 5000 + k, 1, 0) for k in range(count + 1)]  # the last: the warm-up's
        lobby = self.table_class(self, 7000, 0, 0)
        lobby.code = "\0lobby"  # never on a screen: a plain connection's first screen is the lobby
        self.join_tables = [*tables, lobby]
        await asyncio.gather(*(t.open_bots() for t in tables))
        await asyncio.gather(*(t.new_table() for t in tables))
        seats = [*tables[:n_seq], *(t for t in tables[n_seq:] for _ in range(JOINERS_PER_TABLE))]

        def joiner(name: str, table: TableRun, command: str | None) -> Watcher:
            w = Watcher(name, table, self.size, command)
            table.watchers.append(w)
            return w

        seq_join = [joiner(f"js{k}", seats[k], "join") for k in range(n_seq)]
        seq_lobby = [joiner(f"ls{k}", lobby, None) for k in range(n_seq)]
        burst_join = [joiner(f"jb{k}", seats[n_seq + k], "join") for k in range(n_burst)]
        burst_seats = seats[n_seq + math.ceil(n_burst / JOINERS_PER_TABLE) * JOINERS_PER_TABLE :]
        burst_sessions = [joiner(f"jc{k}", burst_seats[k], "join") for k in range(n_burst)]
        burst_lobby = [joiner(f"lb{k}", lobby, None) for k in range(n_lobby)]
        # warm-up: one join and one lobby first (the first of each loads code once per server), not measured
        warm = [joiner("jwarm", tables[-1], "join"), joiner("lwarm", lobby, None)]
        await asyncio.gather(*(w.open(self.host, self.port, 60.0) for w in warm))
        await asyncio.gather(warm[0].wait_table(60.0), warm[1].wait_table(60.0, lobby=True))
        await asyncio.gather(*(w.close() for w in warm))
        # the sequential joiners' SSH connections first: their sessions alone are measured
        await asyncio.gather(*(self.limited(w.connect(self.host, self.port, 60.0)) for w in [*seq_join, *seq_lobby]))
        await self.quiesce(1.0, 60.0)
        idle = await self.idle_rate(2.0)
        result: dict[str, Any] = {
            "command": "join CODE: a seat at a table not started yet (alone with its host bot when one at a time, "
            f"up to {JOINERS_PER_TABLE} joining one table at once)",
            "idle_percent_of_one_core": round(idle * 100.0, 2) if idle is not None else None,
        }
        # each group closes before the next starts (an open lobby would redraw at every later join)
        result["sequential_join"] = await self._sequential(seq_join, False, idle)
        await asyncio.gather(*(w.close() for w in seq_join))
        result["sequential_lobby"] = await self._sequential(seq_lobby, True, idle)
        await asyncio.gather(*(w.close() for w in seq_lobby))
        result["burst_join"] = await self._burst(burst_join, False, idle)
        await asyncio.gather(*(w.close() for w in burst_join))
        result["burst_join_sessions"] = await self._burst(burst_sessions, False, idle, preconnected=True)
        await asyncio.gather(*(w.close() for w in burst_sessions))
        result["burst_lobby"] = await self._burst(burst_lobby, True, idle)
        return result

    async def idle_rate(self, seconds: float) -> float | None:
        """Server CPU (cores) with nothing happening."""
        stats = self.stats
        if stats is None:
            return None
        cpu0, t0 = stats.cpu_seconds_precise(), CLOCK()
        await asyncio.sleep(seconds)
        cpu1 = stats.cpu_seconds_precise()
        return (cpu1 - cpu0) / (CLOCK() - t0) if cpu0 is not None and cpu1 is not None else None

    def _cpu_per_session(
        self, cpu0: float | None, wall: float, idle: float | None, sessions: int
    ) -> tuple[float | None, float | None]:
        """(server CPU ms per session net of idle, the idle CPU subtracted in ms per session)."""
        cpu1 = self.stats.cpu_seconds_precise() if self.stats else None
        if cpu0 is None or cpu1 is None or idle is None or not sessions:
            return None, None
        idle_s = idle * wall
        return round(max(0.0, cpu1 - cpu0 - idle_s) * 1000.0 / sessions, 1), round(idle_s * 1000.0 / sessions, 1)

    async def _sequential(self, joiners: list[Watcher], lobby: bool, idle: float | None) -> dict[str, Any]:
        """One session at a time: start it, wait for its first screen, then for the server to go quiet."""
        if not joiners:
            return {"sessions": 0}
        await self.quiesce(1.0, 60.0)
        stats = self.stats
        cpu0, t0 = (stats.cpu_seconds_precise() if stats else None), CLOCK()
        times: list[float] = []
        failed = 0
        for w in joiners:
            try:
                await w.start_session(60.0)
                ok = await w.wait_table(60.0, lobby=lobby)
            except (OSError, asyncssh.Error, TimeoutError):
                ok = False
            done = w.t_first_paint if lobby else w.t_table
            if ok and done is not None:
                times.append(done - w.t_session)
            else:
                failed += 1
            await self.quiesce(0.3, 30.0)
        cpu, idle_ms = self._cpu_per_session(cpu0, CLOCK() - t0, idle, len(joiners))
        return {
            "sessions": len(joiners),
            "failed": failed,
            "server_cpu_ms_per_session": cpu,
            "idle_cpu_subtracted_ms_per_session": idle_ms,
            "session_to_screen_ms": summary_ms(times, (50, 95)),
        }

    async def _burst(
        self, joiners: list[Watcher], lobby: bool, idle: float | None, preconnected: bool = False
    ) -> dict[str, Any]:
        """Every session at once, from its TCP connect (SSH handshake included) to its first screen; or, when
        `preconnected`, with the SSH connections made beforehand, from the session's start to its first screen."""
        if not joiners:
            return {"sessions": 0}
        if preconnected:
            await asyncio.gather(*(self.limited(w.connect(self.host, self.port, 60.0)) for w in joiners))
        await self.quiesce(1.0, 60.0)
        stats = self.stats
        cpu0, t0 = (stats.cpu_seconds_precise() if stats else None), CLOCK()

        async def one(w: Watcher) -> bool:
            if preconnected:
                await w.start_session(60.0)
            else:
                await w.open(self.host, self.port, 60.0)
            return await w.wait_table(120.0, lobby=lobby)

        results = await asyncio.gather(*(one(w) for w in joiners), return_exceptions=True)
        all_shown = CLOCK() - t0
        await self.quiesce(0.5, 60.0)
        cpu, idle_ms = self._cpu_per_session(cpu0, CLOCK() - t0, idle, len(joiners))
        times = []
        for w, ok in zip(joiners, results, strict=True):
            shown = w.t_first_paint if lobby else w.t_table
            if ok is True and shown is not None:
                times.append(shown - (w.t_session if preconnected else w.t_start))
        return {
            "sessions": len(joiners),
            "failed": len(joiners) - len(times),
            ("session_to_screen_ms" if preconnected else "connect_to_screen_ms"): summary_ms(times, (50, 95)),
            "all_shown_s": round(all_shown, 3),
            "server_cpu_ms_per_session": cpu,
            "idle_cpu_subtracted_ms_per_session": idle_ms,
        }

    async def execute(self) -> dict[str, Any]:
        args = self.args
        sampler = asyncio.create_task(self.sampler())
        lagger = asyncio.create_task(self.lag_monitor())
        try:
            return await self._execute(args)
        finally:
            self.stop()
            sampler.cancel()
            lagger.cancel()

    async def _execute(self, args: argparse.Namespace) -> dict[str, Any]:
        stats = self.stats
        rss_cold = await self.settled_rss()
        progress("warm-up session")
        await self.warm_up()
        rss_base = await self.settled_rss()

        probe_count = args.handshakes if args.handshakes is not None else min(args.sessions, 100)
        progress(f"handshake probe: {probe_count} connections, {args.concurrency} at a time")
        handshake = await self.handshake_probe(probe_count)

        # the sessions
        for i, (bots, watchers) in enumerate(composition(args.sessions, args.tables, args.terminals_share)):
            self.tables.append(self.table_class(self, i, bots, watchers))
        n_bots = sum(t.n_bots for t in self.tables)
        n_watchers = sum(t.n_watchers for t in self.tables)
        progress(f"opening {n_bots} bot sessions at {len(self.tables)} tables")
        t_open = CLOCK()
        await asyncio.gather(*(t.open_bots() for t in self.tables))
        await asyncio.gather(*(t.new_table() for t in self.tables))
        rss_bots = await self.settled_rss()
        progress(f"opening {n_watchers} terminal sessions (watch CODE, {self.size[0]}x{self.size[1]})")
        t_watch = CLOCK()
        await asyncio.gather(*(t.open_watchers() for t in self.tables))
        watch_wall = CLOCK() - t_watch
        open_wall = CLOCK() - t_open
        connected_watchers = sum(len(t.watchers) for t in self.tables)
        if connected_watchers < n_watchers:
            self.warnings.append(f"only {connected_watchers} of {n_watchers} terminal sessions reached the table")
        # the server may still be drawing the screens it owes: wait until no terminal got a byte for 1 s
        t_quiet = CLOCK()
        quiet_ok = await self.quiesce(1.0, 300.0)
        backlog_s = CLOCK() - t_quiet
        if not quiet_ok:
            self.warnings.append("the server never went quiet for 1 s after the sessions connected (300 s)")
        rss_connected = await self.settled_rss()

        # idle check: with nobody acting, does any screen change by itself (blinking cursor, clocks)?
        idle_before = {w: w.changes for t in self.tables for w in t.watchers}
        self.mark("idle0")
        idle_cpu0, idle_t0 = (stats.cpu_seconds() if stats else None), CLOCK()
        await asyncio.sleep(self.idle_seconds)
        idle_cpu1, idle_wall = (stats.cpu_seconds() if stats else None), CLOCK() - idle_t0
        self.mark("idle1")
        idle_changed = sum(1 for w, c in idle_before.items() if w.changes != c)

        # play
        progress(f"playing for {args.duration:g} s")
        profiler = self.start_profiler(args.duration) if args.profile else None
        cpu0 = stats.cpu_seconds() if stats else None
        sched0 = stats.schedstat() if stats else None
        own0 = time.process_time()
        machine0 = machine_cpu()
        lag_index = len(self.lags)
        self.mark("play0")
        t_play = CLOCK()
        players = [asyncio.create_task(t.play()) for t in self.tables]
        await asyncio.wait(players, timeout=args.duration)
        self.stop()
        play_wall = CLOCK() - t_play
        self.mark("play1")
        cpu1 = stats.cpu_seconds() if stats else None
        sched1 = stats.schedstat() if stats else None
        own1 = time.process_time()
        machine1 = machine_cpu()
        lags = self.lags[lag_index:]
        progress("stopping: waiting for the actions in flight")
        await asyncio.wait(players, timeout=args.action_timeout + 10.0)
        for task in players:
            if not task.done():
                task.cancel()
            elif task.exception() is not None:
                self.failures.append(f"table driver: {task.exception()!r}")
        rss_end = self.rss()
        hwm = stats.hwm() if stats else None
        hotspots = await self.finish_profiler(profiler) if profiler is not None else None
        joining = None
        if args.joins > 0 or args.join_burst > 0 or args.lobby_burst > 0:
            progress(
                f"joining: {args.joins} sequential joins and lobby openings, {args.join_burst} joins at once, "
                f"{args.lobby_burst} lobby openings at once"
            )
            try:
                joining = await self.joining()
            except (RuntimeError, OSError, asyncssh.Error, TimeoutError) as error:
                self.failures.append(f"joining: {type(error).__name__}: {error}")

        total_actions = sum(self.measured_actions.values())
        mb = 1024 * 1024
        result: dict[str, Any] = {
            "config": {
                "sessions": args.sessions,
                "tables": args.tables,
                "bots": n_bots,
                "watchers": n_watchers,
                "watchers_connected": connected_watchers,
                "duration_s": args.duration,
                "term_size": f"{self.size[0]}x{self.size[1]}",
                "concurrency": args.concurrency,
                "strategy": args.strategy,
                "target": args.target,
                "settle_s": args.settle,
                "seeded": self.seeded,
                "floor": self.floor,
                "think_s": args.think,
                "terminals_share": args.terminals_share,
                "terminals_are": "spectators (SSH command `watch CODE`)",
                "cpu_count": os.cpu_count(),
                "server_pid": stats.pid if stats else None,
            },
            "first_paint_ms": summary_ms(self.first_paint, (50, 95)),
            "table_paint_ms": summary_ms(self.table_paint, (50, 95)),
            "ssh_auth_ms": summary_ms(self.connect_times, (50, 95)),
            "action_to_screen_ms": {
                **summary_ms(self.latencies, censored=self.missed),
                "timeout_ms": round(args.action_timeout * 1000.0),
                "actions": total_actions,
                "actions_per_s": round(total_actions / play_wall, 1) if play_wall > 0 else None,
                "by_kind": {
                    k: summary_ms(v, (50, 95), self.missed_by_kind[k])
                    for k, v in sorted(self.latencies_by_kind.items())
                },
                "screens_missed": self.missed,
                "actions_with_missed_screens": self.missed_actions,
                "refused": dict(self.refused),
                "screens_missed_under_recap": self.missed_under_recap,
                "settle_timeouts": self.settle_timeouts,
                "recap_timeouts": self.recap_timeouts,
                "games_finished": self.games_finished,
            },
            "bot_ack_ms": summary_ms(self.ack_latencies),
            "idle_screens_changing": idle_changed,
            "startup_backlog_s": round(backlog_s, 2),
            "handshake": handshake,
            "session_open": {
                "sessions": n_bots + connected_watchers,
                "wall_s": round(open_wall, 2),
                "watchers_per_s": round(connected_watchers / watch_wall, 1) if watch_wall > 0 else None,
            },
            "server_memory": None,
            "server_cpu": None,
            "client": {
                "cpu_percent": round((own1 - own0) / play_wall * 100.0, 1) if play_wall > 0 else None,
                "loop_lag_ms": summary_ms(lags),
            },
            "machine": machine_share(machine0, machine1, (own1 - own0), cpu0, cpu1, play_wall),
            "profile": hotspots,
            "joining": joining,
            "warnings": [
                f"the clients (this process) and the server share this machine's {os.cpu_count()} cores: "
                "client work (SSH, pyte) competes with the server and is included in every latency",
                *self.warnings,
            ],
            "failures": self.failures[:20],
        }
        if stats is not None and None not in (rss_cold, rss_base, rss_bots, rss_connected):
            assert rss_cold is not None and rss_base is not None and rss_bots is not None
            assert rss_connected is not None
            peak = max([*(self.rss_samples or [0]), hwm or 0])
            result["server_memory"] = {
                "rss_cold_mb": round(rss_cold / mb, 1),
                "rss_before_mb": round(rss_base / mb, 1),
                "rss_bots_mb": round(rss_bots / mb, 1),
                "rss_connected_mb": round(rss_connected / mb, 1),
                "rss_end_mb": round((rss_end or 0) / mb, 1),
                "peak_rss_mb": round(peak / mb, 1),
                "per_session_mb": round((rss_connected - rss_base) / args.sessions / mb, 2),
                "per_session_cold_mb": round((rss_connected - rss_cold) / args.sessions / mb, 2),
                "per_bot_mb": round((rss_bots - rss_base) / max(1, n_bots) / mb, 2),
                "per_watcher_mb": round((rss_connected - rss_bots) / max(1, connected_watchers) / mb, 2),
                "per_session_at_peak_mb": round((peak - rss_base) / args.sessions / mb, 2),
            }
        if cpu0 is not None and cpu1 is not None:
            result["server_cpu"] = {
                "percent_of_one_core": round((cpu1 - cpu0) / play_wall * 100.0, 1),
                "cpu_s": round(cpu1 - cpu0, 2),
                "wall_s": round(play_wall, 2),
                "main_thread_on_cpu_percent": (
                    round((sched1[0] - sched0[0]) / play_wall * 100.0, 1) if sched0 and sched1 else None
                ),
                "main_thread_waiting_for_cpu_percent": (
                    round((sched1[1] - sched0[1]) / play_wall * 100.0, 1) if sched0 and sched1 else None
                ),
                "ms_per_screen_update": (
                    round((cpu1 - cpu0) * 1000.0 / (len(self.latencies) + self.missed), 1)
                    if self.latencies or self.missed
                    else None
                ),
                "ms_per_action": round((cpu1 - cpu0) * 1000.0 / total_actions, 1) if total_actions else None,
                "terminal_updates": len(self.latencies) + self.missed,
                "terminal_updates_per_cpu_s": (
                    round((len(self.latencies) + self.missed) / (cpu1 - cpu0), 1) if cpu1 > cpu0 else None
                ),
                "idle_percent_of_one_core": (
                    round((idle_cpu1 - idle_cpu0) / idle_wall * 100.0, 1)
                    if idle_cpu0 is not None and idle_cpu1 is not None
                    else None
                ),
            }
        return result

    # --- py-spy ---------------------------------------------------------------------------------------------

    def start_profiler(self, duration: float) -> asyncio.Task[Any] | None:
        if self.stats is None:
            self.warnings.append("--profile needs the server's pid")
            return None
        exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
        if not Path(exe).exists():
            self.warnings.append("--profile: py-spy is not installed (pip install py-spy)")
            return None
        seconds = max(1, int(duration) - 1)
        cmd = [exe, "record", "--format", "raw", "-o", self.args.profile, "--pid", str(self.stats.pid)]
        cmd += ["--duration", str(seconds), "--rate", "100", "--nonblocking"]

        async def record() -> Any:
            proc = await asyncio.create_subprocess_exec(
                *cmd, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE
            )
            _, err = await proc.communicate()
            return proc.returncode, err.decode(errors="replace")

        return asyncio.create_task(record())

    async def finish_profiler(self, task: asyncio.Task[Any] | None) -> dict[str, Any] | None:
        if task is None:
            return None
        code, err = await task
        if code != 0:
            self.warnings.append(f"py-spy failed ({code}): {err.strip()[-300:]}")
            return None
        return hotspots(Path(self.args.profile))


def machine_share(
    before: tuple[float, float] | None,
    after: tuple[float, float] | None,
    client_s: float,
    server0: float | None,
    server1: float | None,
    wall: float,
) -> dict[str, Any] | None:
    """How busy the whole machine was during play, and how much of it was neither this client nor the server."""
    if before is None or after is None or wall <= 0:
        return None
    cores = os.cpu_count() or 1
    busy = (after[0] - before[0]) / max(1.0, after[1] - before[1]) * cores  # cores busy on average
    server = (server1 - server0) / wall if server0 is not None and server1 is not None else 0.0
    others = max(0.0, busy - server - client_s / wall)
    return {
        "cores": cores,
        "busy_percent_of_one_core": round(busy * 100.0, 1),
        "other_processes_percent_of_one_core": round(others * 100.0, 1) if server0 is not None else None,
    }


def hotspots(path: Path, top: int = 15) -> dict[str, Any]:
    """Self and inclusive shares of the functions in a py-spy raw (collapsed stacks) file (idle workers left out)."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    modules: Counter[str] = Counter()
    total = 0
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [f for f in stack.split(";") if f]
        if not frames or _IDLE.search(frames[-1]):
            continue
        total += count
        own[_short(frames[-1])] += count
        modules[_module(frames[-1])] += count
        for name in {_short(f) for f in frames}:
            if not _WRAPPER.search(name):
                inclusive[name] += count

    def share(counter: Counter[str]) -> list[list[Any]]:
        return [[name, round(n / total * 100.0, 1)] for name, n in counter.most_common(top)] if total else []

    return {"samples": total, "self": share(own), "inclusive": share(inclusive), "self_by_package": share(modules)}


# A thread-pool worker waiting for work (py-spy may count it as active).
_IDLE = re.compile(r"^_worker \(concurrent/futures/thread\.py:\d+\)$")

# Frames every sample goes through (the event loop, the entry point, Textual's callback plumbing): left out of the
# inclusive list, which would otherwise start with a dozen 90-100% lines that say nothing.
_WRAPPER = re.compile(
    r"\((asyncio/(base_events|events|runners)\.py|<frozen runpy>|dixit_tui/(__main__|cli)\.py|"
    r"dixit_tui/ssh/serve\.py|textual/_callback\.py|textual/message_pump\.py)\)"
)


def _short(frame: str) -> str:
    """`render (textual/widget.py:123)` -> `render (textual/widget.py)`; site-packages paths are cut."""
    frame = re.sub(r":\d+\)$", ")", frame.strip())
    return re.sub(r"\(.*?(?:site-packages|lib/python3\.\d+)/", "(", frame)


def _module(frame: str) -> str:
    match = re.search(r"\((.*?)\)", _short(frame))
    if not match:
        return frame
    path = match.group(1)
    parts = path.split("/")
    if parts[0] in ("asyncio", "selectors.py", "json", "re", "logging", "sqlite3", "threading.py"):
        return "stdlib:" + parts[0]
    return parts[0] if len(parts) > 1 else path


def composition(sessions: int, tables: int, terminals_share: float | None) -> list[tuple[int, int]]:
    """(bots, terminals) per table. By default 3 to 5 bots per table (3, 4, 5, 3, ...), the rest terminals; with a
    share, that share of each table's sessions are terminals (rounded, at least 1), the rest bots (at least 3)."""
    out = []
    for i, n in enumerate(split(sessions, tables)):
        share = terminals_share
        bots = min(3 + i % 3, n - 1) if share is None else n - max(1, min(n - 3, round(n * share)))
        out.append((bots, n - bots))
    return out


def split(total: int, parts: int) -> list[int]:
    base, extra = divmod(total, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


def parse_size(text: str) -> tuple[int, int]:
    cols, _, rows = text.lower().partition("x")
    return int(cols), int(rows)


def progress(text: str) -> None:
    print(f"[bench] {text}", file=sys.stderr, flush=True)


# --- the server subprocess -----------------------------------------------------------------------------------


def server_argv(workdir: Path, sessions: int, concurrency: int, *, floor: bool = False, extra: int = 0) -> list[str]:
    """The benchmark's server: `dixit-tui serve` (or the floor server, dixit_tui.bench.floor) on a loopback port,
    its limits raised for `sessions` connections from this one machine (`extra`: the joining section's)."""
    limits = {
        "max_connections": max(1000, sessions + extra + 200),
        "max_connections_per_ip": sessions + extra + 200,
        "max_unauthenticated_per_ip": max(concurrency, extra) + 20,
        "max_unauthenticated_per_prefix": max(concurrency, extra) + 40,
        "max_unauthenticated": max(200, max(concurrency, extra) + 20),
        "max_tables_per_ip": sessions + extra + 10,  # every table's host bot connects from this machine
        "max_tables": max(200, sessions + extra + 10),
    }
    server = ["dixit_tui.bench.floor"] if floor else ["dixit_tui", "serve"]
    cmd = [sys.executable, "-m", *server, "--host", HOST, "--port", "0"]
    cmd += ["--keys-dir", str(workdir / "keys"), "--data-dir", str(workdir / "data")]
    cmd += ["--allow-seeded-tables", "--log-level", "WARNING"]
    for name, value in limits.items():
        cmd += ["--limit", f"{name}={value}"]
    return cmd


# --- entry points --------------------------------------------------------------------------------------------


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    """One run (the game, or with --floor the floor); with --with-floor the game then the floor, the floor's
    result under "floor" and the ratio of their server CPU per terminal update under "floor_ratio"."""
    if not args.with_floor or args.floor:
        return await bench_one(args)
    result = await bench_one(argparse.Namespace(**{**vars(args), "floor": False}))
    progress("the floor: the same run with a one-line app")
    profile = f"{args.profile}.floor" if args.profile else None
    floor = await bench_one(argparse.Namespace(**{**vars(args), "floor": True, "profile": profile}))
    result["floor"] = floor
    result["floor_ratio"] = floor_ratio(result, floor)
    result["failures"].extend(f"floor: {f}" for f in floor["failures"])
    return result


def floor_ratio(result: dict[str, Any], floor: dict[str, Any]) -> dict[str, Any] | None:
    """Server CPU per terminal update of the game over the floor's, measured in the same invocation."""
    game_ms = (result.get("server_cpu") or {}).get("ms_per_screen_update")
    floor_ms = (floor.get("server_cpu") or {}).get("ms_per_screen_update")
    if not game_ms or not floor_ms:
        return None
    return {
        "ms_per_screen_update": game_ms,
        "floor_ms_per_screen_update": floor_ms,
        "ratio": round(game_ms / floor_ms, 1),
    }


async def bench_one(args: argparse.Namespace) -> dict[str, Any]:
    server: ServerProcess | None = None
    workdir: Path | None = None
    stats: ProcStats | None
    try:
        if args.host is None:
            workdir = Path(tempfile.mkdtemp(prefix="dixit-bench-"))
            extra = 3 * max(0, args.joins) + 3 * max(0, args.join_burst) + max(0, args.lobby_burst) + 3
            argv = server_argv(workdir, args.sessions, args.concurrency, floor=args.floor, extra=extra)
            server = ServerProcess(argv, new_session=True)
            await server.start(60.0)
            port = server.port
            host, stats = HOST, ProcStats(server.pid)
            progress(f"server pid {server.pid} listening on {host}:{port}")
        else:
            host, port = args.host, args.port
            stats = ProcStats(args.pid) if args.pid else None
        run = LoadRun(args, host, port, stats)
        try:
            result = await run.execute()
        finally:
            progress("closing the sessions")
            await asyncio.gather(*(t.close() for t in [*run.tables, *run.join_tables]), return_exceptions=True)
        result["config"]["external_server"] = server is None
        if server is not None and server.lines:
            errors = [line.rstrip() for line in server.lines if " ERROR " in line or "Traceback" in line]
            if errors:
                result["failures"].extend(f"server: {e}" for e in errors[:10])
        return result
    finally:
        if server is not None:
            await server.stop()
        if workdir is not None:
            shutil.rmtree(workdir, ignore_errors=True)


def render(result: dict[str, Any]) -> str:
    timeout = result["action_to_screen_ms"].get("timeout_ms")

    def ms(d: dict[str, Any], keys: Sequence[str] = ("p50", "p95")) -> str:
        shown = [f"{k} {d[k]} ms" if d.get(k) is not None else f"{k} > {timeout} ms (timed out)" for k in keys]
        timed_out = f", {d['timed_out']} timed out" if d.get("timed_out") else ""
        return ", ".join(shown) + f" (n={d['n']}{timed_out})"

    c = result["config"]
    a = result["action_to_screen_ms"]
    what = "the floor (a one-line app, each action changing it)" if c.get("floor") else "dixit-tui"
    think = f"think {c['think_s']:g} s (0.5x-1.5x)" if c.get("think_s") else "no think time"
    lines = [
        f"dixit-tui bench: {c['sessions']} sessions ({c['bots']} bots, {c['watchers']} terminals) at {c['tables']} "
        f"tables, {c['duration_s']:g} s of play, terminals {c['term_size']}",
        f"  server: {what}; terminals are {c.get('terminals_are', 'spectators')}; {think}",
        "",
        f"connect -> first paint         {ms(result['first_paint_ms'])}",
        "  (SSH TCP connect start -> first output leaving visible text on the terminal's pyte screen)",
        f"connect -> table screen        {ms(result['table_paint_ms'])}",
        f"connect -> SSH authenticated   {ms(result['ssh_auth_ms'])}",
        f"action -> every other screen   {ms(a, ('p50', 'p95', 'p99', 'max'))}",
        "  (a bot sends a command at t0; for EACH terminal at that table: first output received after t0 that",
        "   changes its pyte screen; one action at a time per table, tables concurrent)",
        f"  {a['actions']} actions ({a['actions_per_s']}/s), {a['games_finished']} games finished, "
        f"{a['screens_missed']} screen(s) unchanged after {timeout} ms, refused: {a['refused'] or 'none'}",
    ]
    for kind, d in a["by_kind"].items():
        lines.append(f"    {kind:<8} {ms(d)}")
    lines.append(f"action -> acting bot's state   {ms(result['bot_ack_ms'], ('p50', 'p95', 'p99'))}")
    mem = result["server_memory"]
    if mem:
        lines += [
            f"server RSS per session         {mem['per_session_mb']} MB "
            f"(({mem['rss_connected_mb']} MB connected - {mem['rss_before_mb']} MB before) / {c['sessions']}); "
            f"per terminal {mem['per_watcher_mb']} MB, per bot {mem['per_bot_mb']} MB",
            f"server RSS                     cold {mem['rss_cold_mb']} MB, after warm-up {mem['rss_before_mb']} MB, "
            f"end {mem['rss_end_mb']} MB, peak {mem['peak_rss_mb']} MB",
        ]
    else:
        lines.append("server RSS                     not measured (external server without --pid)")
    cpu = result["server_cpu"]
    if cpu:
        lines.append(
            f"server CPU                     {cpu['percent_of_one_core']}% of one core "
            f"({cpu['cpu_s']} s over {cpu['wall_s']} s of play); idle with everyone connected "
            f"{cpu['idle_percent_of_one_core']}%"
        )
        lines.append(
            f"server main thread             on a CPU {cpu['main_thread_on_cpu_percent']}% of the time, runnable but "
            f"waiting for a CPU {cpu['main_thread_waiting_for_cpu_percent']}% (/proc/PID/schedstat; the rest: asleep)"
        )
        lines.append(
            f"server CPU per action          {cpu['ms_per_action']} ms; per terminal updated "
            f"{cpu['ms_per_screen_update']} ms (play-period CPU / terminal updates measured; the CPU includes "
            "bots, recaps and reconnections after a game)"
        )
        lines.append(
            f"terminal updates per CPU-second {cpu['terminal_updates_per_cpu_s']} "
            f"({cpu['terminal_updates']} terminal updates / {cpu['cpu_s']} s of server CPU in play)"
        )
    else:
        lines.append("server CPU                     not measured (external server without --pid)")
    h = result["handshake"]
    lines.append(
        f"handshake rate                 {h['per_s']} connections/s ({h['connections']} connections, "
        f"{h['concurrency']} at a time, {h['failed']} failed; each {ms(h['latency_ms'])})"
    )
    so = result["session_open"]
    lines.append(
        f"terminal sessions opened       {so['watchers_per_s']}/s (to the table screen, {c['concurrency']} at once)"
    )
    cl = result["client"]
    lag = ms(cl["loop_lag_ms"], ("p50", "p99", "max"))
    lines.append(f"bench client                   {cl['cpu_percent']}% of one core, loop lag {lag}")
    lines.append(
        f"startup backlog                {result['startup_backlog_s']} s after the last terminal reached its table "
        "until the server was idle (under 10% of a core for 1 s); play starts after it"
    )
    machine = result.get("machine")
    if machine:
        lines.append(
            f"whole machine                  {machine['busy_percent_of_one_core']}% of one core busy "
            f"(of {machine['cores'] * 100}%); other processes: {machine['other_processes_percent_of_one_core']}%"
        )
    if result["idle_screens_changing"]:
        lines.append(f"  note: {result['idle_screens_changing']} screen(s) changed while nobody acted")
    lines += render_joining(result.get("joining"))
    prof = result.get("profile")
    if prof:
        lines.append(f"server profile ({prof['samples']} samples), self time:")
        lines += [f"  {pct:5.1f}%  {name}" for name, pct in prof["self"][:12]]
        lines.append("  inclusive:")
        lines += [f"  {pct:5.1f}%  {name}" for name, pct in prof["inclusive"][:15]]
    lines.append("")
    lines += [f"WARNING: {w}" for w in result["warnings"]]
    lines += [f"FAILURE: {f}" for f in result["failures"] if not f.startswith("floor: ")]
    floor = result.get("floor")
    if floor:
        lines += ["", "--- the floor, same options ---", render(floor)]
        ratio = result.get("floor_ratio")
        if ratio:
            lines.append(
                f"server CPU per terminal update: {ratio['ms_per_screen_update']} ms, "
                f"floor {ratio['floor_ms_per_screen_update']} ms, ratio {ratio['ratio']}"
            )
        else:
            lines.append("server CPU per terminal update: no ratio (not measured in both runs)")
    return "\n".join(lines)


def render_joining(joining: dict[str, Any] | None) -> list[str]:
    if not joining:
        return []

    def pct(d: dict[str, Any]) -> str:
        if not d.get("n"):
            return "n=0"
        return f"p50 {d['p50']} ms, p95 {d['p95']} ms (n={d['n']})"

    def cpu(d: dict[str, Any]) -> str:
        if d.get("server_cpu_ms_per_session") is None:
            return "server CPU not measured"
        return (
            f"server CPU {d['server_cpu_ms_per_session']} ms each "
            f"(net of {d['idle_cpu_subtracted_ms_per_session']} ms idle)"
        )

    def failed(d: dict[str, Any]) -> str:
        return f", {d['failed']} FAILED" if d.get("failed") else ""

    sj, sl, bj, bl = (joining[k] for k in ("sequential_join", "sequential_lobby", "burst_join", "burst_lobby"))
    bs = joining.get("burst_join_sessions") or {}
    lines = [f"joining ({joining['command']}; idle server {joining['idle_percent_of_one_core']}% of one core)"]
    if sj.get("sessions"):
        lines.append(
            f"  join, one at a time          session start -> table screen {pct(sj['session_to_screen_ms'])}; "
            f"{cpu(sj)}{failed(sj)}"
        )
    if sl.get("sessions"):
        lines.append(
            f"  lobby, one at a time         session start -> lobby {pct(sl['session_to_screen_ms'])}; "
            f"{cpu(sl)}{failed(sl)}"
        )
    if bj.get("sessions"):
        lines.append(
            f"  {bj['sessions']} joining at once{'':<{max(0, 13 - len(str(bj['sessions'])))}}"
            f"connect -> table screen {pct(bj['connect_to_screen_ms'])}, all in {bj['all_shown_s']} s; "
            f"{cpu(bj)} incl. SSH handshake{failed(bj)}"
        )
    if bs.get("sessions"):
        lines.append(
            f"  {bs['sessions']} sessions at once, connected session start -> table screen "
            f"{pct(bs['session_to_screen_ms'])}; {cpu(bs)} (no handshake){failed(bs)}"
        )
    if bl.get("sessions"):
        lines.append(
            f"  {bl['sessions']} opening the lobby at once{'':<{max(0, 4 - len(str(bl['sessions'])))}}"
            f"connect -> lobby {pct(bl['connect_to_screen_ms'])}, all in {bl['all_shown_s']} s; "
            f"{cpu(bl)} incl. SSH handshake{failed(bl)}"
        )
    return lines
