"""The whole load run: a warm-up, the handshake probe, every table's bots and terminals opened, an idle check, play
for --duration seconds (tables concurrent), the joining section, and the figures of it all (its result: what
`dixit-tui bench --json` prints and dixit_tui/bench/report.py renders)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import asyncssh

from dixit_tui import ssh_client
from dixit_tui.bench.composition import composition
from dixit_tui.bench.joining import measure_joining
from dixit_tui.bench.proc_stats import ProcStats, machine_cpu, machine_share
from dixit_tui.bench.profiler import finish_profiler, start_profiler
from dixit_tui.bench.progress import progress
from dixit_tui.bench.stats import CLOCK, summary_ms
from dixit_tui.bench.table_run import FloorTableRun, TableRun
from dixit_tui.bench.watcher import Watcher

WARM_UP_TABLE = 9999  # the index of the warm-up's table


async def ssh_connect(host: str, port: int, username: str, timeout: float = 30.0) -> asyncssh.SSHClientConnection:
    """A keyless connection that skips the host key check (a loopback benchmark), without keepalives."""
    return await ssh_client.connect(host, port, username, timeout=timeout, keepalive_interval=0)


def parse_size(text: str) -> tuple[int, int]:
    cols, _, rows = text.lower().partition("x")
    return int(cols), int(rows)


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
        # --spectator-cost (dixit_tui/bench/spectator_cost.py): stop play after this many measured actions; with
        # whole_actions, play ends at --duration after the action in flight (so the CPU measured is whole actions')
        self.action_limit: int | None = getattr(args, "action_limit", None)
        self.whole_actions = bool(getattr(args, "whole_actions", False))

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
        limit = f" or {self.action_limit} actions" if self.action_limit is not None else ""
        progress(f"playing for {args.duration:g} s{limit}")
        profiler = None
        if args.profile:
            profiler = start_profiler(stats.pid if stats else None, args.profile, args.duration, self.warnings)
        cpu0 = stats.cpu_seconds() if stats else None
        sched0 = stats.schedstat() if stats else None
        own0 = time.process_time()
        machine0 = machine_cpu()
        lag_index = len(self.lags)
        self.mark("play0")
        t_play = CLOCK()
        players = [asyncio.create_task(t.play()) for t in self.tables]
        await asyncio.wait(players, timeout=args.duration)
        if self.whole_actions and not self.stopping:
            self.action_limit = sum(self.measured_actions.values()) + 1  # (one table: the action in flight)
            await asyncio.wait(players, timeout=args.action_timeout + 10.0)
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
        hotspots = await finish_profiler(profiler, args.profile, self.warnings) if profiler is not None else None
        joining = None
        if args.joins > 0 or args.join_burst > 0 or args.lobby_burst > 0:
            progress(
                f"joining: {args.joins} sequential joins and lobby openings, {args.join_burst} joins at once, "
                f"{args.lobby_burst} lobby openings at once"
            )
            try:
                joining = await measure_joining(self)
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
