"""`dixit-tui bench --compare-workers 1,2`: the same saturated load against `serve --redis URL --workers 1`, then
`--workers 2` (any list), in one invocation, and how far the second scales past the first.

    dixit-tui bench --compare-workers 1,2 --sessions 120 --tables 8 --terminals-share 0.8 --duration 20

Each run gets a fresh `redis-server` (a free loopback port, a temporary folder, `appendonly yes`,
`appendfsync always`: the settings docs/operations.md asks for) and a fresh server on it. The load is the
benchmark's own (dixit_tui/bench/load.py: bots playing seeded games with no think time, one action at a time per
table, tables concurrent; terminals watching each table), made as cheap for this machine's cores as it can be:

- the terminals count output instead of emulating a terminal: once a terminal's table screen showed (read with
  pyte), the first output it receives after an action is that action's update of it (no pyte, so the client's
  CPU is the SSH layer alone); latency is action sent -> that first output;
- three bots per table by default here (the fewest a game needs): most sessions are terminals;
- each table's terminals and bots are spread evenly over the workers (a connection that lands on a worker whose
  share of that table is full is closed and made again), as a least-connections TCP balancer would; the kernel's
  SO_REUSEPORT hash alone (`--no-balance`) leaves one worker with more, and the slower worker sets the pace;
- longer games (target 100, both decks) so that few tables end a game, and reconnect their terminals, during play;
- no handshake probe and no joining section.

"Saturated": every table acts again as soon as its screens settled, with enough tables that the workers never wait
for the client. The figures say whether that held: each worker's share of a core, and how long its main thread was
runnable but waiting for a CPU (/proc/PID/schedstat), which is the machine, not the server, being the limit.

Figures, per run, over the play period after its first quarter (at most 5 s: the tables all busy by then):
- terminal updates per second: (action, terminal) pairs whose output arrived in the period / seconds;
- server CPU: utime + stime of each worker (/proc/PID/stat), their sum, and the supervisor's;
- Redis round trips per action: `total_reads_processed` of Redis's INFO (one per request batch a client sends,
  so a pipeline counts once) over the period, minus the benchmark's own INFO, divided by the actions sent in the
  period; also net of the periodic ones (each worker's tick: presence renewals, leases; what a tick costs is read
  in the idle check before play, how many ticks there were from the play period's SMEMBERS, which only the tick
  sends); and Redis commands per action by command (INFO commandstats; the commands a Lua script runs count
  there too, under their own names);
- redis-server's CPU, this client's CPU, and the rest of the machine's (other processes), from /proc.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from dixit_tui.bench.load import server_argv
from dixit_tui.bench.load_run import WARM_UP_TABLE, LoadRun
from dixit_tui.bench.local_redis import LocalRedis, RedisStartError, redis_server_path
from dixit_tui.bench.proc_stats import ProcStats, machine_cpu
from dixit_tui.bench.progress import progress
from dixit_tui.bench.server import HOST, ServerProcess
from dixit_tui.bench.table_run import TableRun
from dixit_tui.bench.workers import socket_owner, worker_pids

TARGET = 1.7  # issue 13: two workers give at least 1.7 times the terminal updates per second of one


class ProcGroup(ProcStats):
    """ProcStats summed over several processes (the workers and their supervisor): the benchmark's "server"."""

    def __init__(self, pids: list[int]) -> None:
        super().__init__(pids[0])
        self.members = [ProcStats(p) for p in pids]

    def _sum(self, values: list[Any]) -> Any:
        return None if any(v is None for v in values) else sum(values)

    def rss(self) -> int | None:
        return self._sum([m.rss() for m in self.members])

    def hwm(self) -> int | None:
        return self._sum([m.hwm() for m in self.members])

    def cpu_seconds(self) -> float | None:
        return self._sum([m.cpu_seconds() for m in self.members])

    def cpu_seconds_precise(self) -> float | None:
        return self._sum([m.cpu_seconds_precise() for m in self.members])

    def schedstat(self) -> tuple[float, float] | None:
        found = [m.schedstat() for m in self.members]
        if any(f is None for f in found):
            return None
        return sum(f[0] for f in found if f), sum(f[1] for f in found if f)


class Placer:
    """Where each session's SSH connection may stay: at most its even share of its table's terminals (or bots) on
    each worker (`balance`), or wherever it landed; counts the split either way."""

    def __init__(self, workers: list[int], balance: bool) -> None:
        self.workers = workers
        self.balance = balance and len(workers) > 1
        self.counts: Counter[tuple[int, int, str, int]] = Counter()

    def __call__(self, conn: asyncssh.SSHClientConnection, seat: tuple[TableRun, str]) -> bool:
        table, kind = seat
        if len(self.workers) < 2:
            self.counts[(table.index, table.game, kind, self.workers[0])] += 1
            return True
        sockname = conn.get_extra_info("sockname")
        owner = socket_owner(self.workers, int(sockname[1])) if sockname else None
        if owner is None:
            return True
        key = (table.index, table.game, kind, owner)
        if table.index == WARM_UP_TABLE:
            # the warm-up's bot and terminal on one worker: its bot closes the table by leaving, which on another
            # worker races the terminal's own leaving (an error in that worker's log, found by this benchmark)
            return owner == self.workers[0]
        n = table.n_watchers if kind == "terminal" else table.n_bots
        if self.balance and self.counts[key] >= math.ceil(n / len(self.workers)):
            return False
        self.counts[key] += 1
        return True

    def split(self, tables: list[TableRun]) -> list[dict[str, int]]:
        """Terminals and bots of the measured tables (their current games) on each worker."""
        current = {(t.index, t.game) for t in tables} | {(t.index, 0) for t in tables}
        out = []
        for pid in self.workers:
            row = {"pid": pid, "terminals": 0, "bots": 0}
            for (index, game, kind, owner), n in self.counts.items():
                if owner == pid and (index, game) in current and (kind == "bot" or game > 0):
                    row["terminals" if kind == "terminal" else "bots"] += n
            out.append(row)
        return out


@dataclass
class Snapshot:
    t: float
    actions: int
    updates: int
    procs: dict[int, tuple[float | None, tuple[float, float] | None]]
    redis_cpu: float | None
    redis_reads: int
    commands: dict[str, int]
    client_cpu: float
    machine: tuple[float, float] | None


@dataclass
class Recorder:
    """Counters of every process at the marks of a run (idle check, play)."""

    run: LoadRun
    workers: list[int]
    supervisor: int | None
    redis: LocalRedis
    ramp: float = 0.0  # seconds of play before the measured period starts ("window0"), so the tables are all busy
    snaps: dict[str, Snapshot] = field(default_factory=dict)
    _ramp: asyncio.TimerHandle | None = None

    def mark(self, name: str) -> None:
        if name == "play0" and self.ramp > 0:
            self._ramp = asyncio.get_running_loop().call_later(self.ramp, self.snapshot, "window0")
        if name == "play1" and self._ramp is not None:
            self._ramp.cancel()
        self.snapshot(name)

    def snapshot(self, name: str) -> None:
        info = self.redis.info("everything")
        commands = {
            key.removeprefix("cmdstat_"): int(value["calls"])
            for key, value in info.items()
            if key.startswith("cmdstat_") and isinstance(value, dict)
        }
        procs = {}
        for pid in [*self.workers, *([self.supervisor] if self.supervisor else [])]:
            p = ProcStats(pid)
            procs[pid] = (p.cpu_seconds_precise(), p.schedstat())
        self.snaps[name] = Snapshot(
            t=time.perf_counter(),
            actions=sum(t.actions for t in self.run.tables),
            updates=self.run.updates,
            procs=procs,
            redis_cpu=ProcStats(self.redis.pid).cpu_seconds_precise(),
            redis_reads=int(info.get("total_reads_processed", 0)),
            commands=commands,
            client_cpu=time.process_time(),
            machine=machine_cpu(),
        )

    def figures(self) -> dict[str, Any]:
        a, b = self.snaps.get("window0") or self.snaps["play0"], self.snaps["play1"]
        wall = b.t - a.t
        actions = b.actions - a.actions
        updates = b.updates - a.updates

        def pct(seconds: float | None) -> float | None:
            return round(seconds / wall * 100.0, 1) if seconds is not None and wall > 0 else None

        def cpu(pid: int) -> float | None:
            before, after = a.procs[pid][0], b.procs[pid][0]
            return after - before if before is not None and after is not None else None

        def waiting(pid: int) -> float | None:
            before, after = a.procs[pid][1], b.procs[pid][1]
            return after[1] - before[1] if before is not None and after is not None else None

        workers = [
            {"pid": pid, "cpu_percent": pct(cpu(pid)), "waiting_for_cpu_percent": pct(waiting(pid))}
            for pid in self.workers
        ]
        worker_cpus = [cpu(pid) for pid in self.workers]
        workers_cpu = None if None in worker_cpus else sum(c for c in worker_cpus if c is not None)
        supervisor_cpu = cpu(self.supervisor) if self.supervisor else 0.0
        redis_cpu = b.redis_cpu - a.redis_cpu if a.redis_cpu is not None and b.redis_cpu is not None else None
        client_cpu = b.client_cpu - a.client_cpu
        cores = os.cpu_count() or 1
        busy = None
        if a.machine and b.machine:
            busy = (b.machine[0] - a.machine[0]) / max(1.0, b.machine[1] - a.machine[1]) * cores * wall
        others = None
        if busy is not None and None not in (workers_cpu, supervisor_cpu, redis_cpu):
            others = max(0.0, busy - (workers_cpu or 0) - (supervisor_cpu or 0) - (redis_cpu or 0) - client_cpu)

        reads = b.redis_reads - a.redis_reads - 1  # the INFO at the end of the period is one read
        commands = Counter(b.commands)
        commands.subtract(a.commands)
        periodic = self.periodic(commands, wall)
        per_action: dict[str, float] = {}
        net_per_action: dict[str, float] = {}
        for name, n in commands.most_common():
            if n <= 0 or not actions or name == "info":
                continue
            per_action[name] = round(n / actions, 2)
            if periodic is not None:
                net = n - periodic[0][name]
                if net / actions >= 0.005:
                    net_per_action[name] = round(net / actions, 2)
        net_per_action = dict(sorted(net_per_action.items(), key=lambda item: -item[1]))
        periodic_reads = periodic[1] if periodic is not None else None
        return {
            "ramp_s": round(a.t - self.snaps["play0"].t, 2),
            "wall_s": round(wall, 2),
            "actions": actions,
            "actions_per_s": round(actions / wall, 1) if wall > 0 else None,
            "terminal_updates": updates,
            "terminal_updates_per_s": round(updates / wall, 1) if wall > 0 else None,
            "workers": workers,
            "workers_cpu_percent": pct(workers_cpu),
            "supervisor_cpu_percent": pct(supervisor_cpu) if self.supervisor else None,
            "terminal_updates_per_worker_cpu_s": round(updates / workers_cpu, 1) if workers_cpu else None,
            "redis_cpu_percent": pct(redis_cpu),
            "client_cpu_percent": pct(client_cpu),
            "other_processes_percent": pct(others),
            "machine_busy_percent": pct(busy),
            "cores": cores,
            "redis_round_trips": reads,
            "redis_round_trips_per_action": round(reads / actions, 2) if actions else None,
            "redis_periodic_round_trips_per_s": (
                round(periodic_reads / wall, 1) if periodic_reads is not None and wall > 0 else None
            ),
            "redis_round_trips_per_action_net_of_periodic": (
                round(max(0.0, reads - periodic_reads) / actions, 2) if actions and periodic_reads is not None else None
            ),
            "redis_commands_per_action": per_action,
            "redis_commands_per_action_net_of_periodic": net_per_action if periodic is not None else None,
        }

    def periodic(self, commands: Counter[str], wall: float) -> tuple[Counter[str], float] | None:
        """The periodic share of the play period's Redis traffic: (commands by name, round trips). Each worker's
        tick (coordinator/shared: presence renewals, leases, catching up) is one pipeline a second, and the only place
        SMEMBERS is sent: the idle check gives what one tick costs, the play period's SMEMBERS how many ticks there
        were (a saturated worker ticks less often than once a second). Without SMEMBERS in the idle check: the idle
        check's rate."""
        a, b = self.snaps.get("idle0"), self.snaps.get("idle1")
        if a is None or b is None or b.t <= a.t:
            return None
        idle = Counter(b.commands)
        idle.subtract(a.commands)
        idle["info"] -= 1
        reads = max(0, b.redis_reads - a.redis_reads - 1)
        ticks_idle, ticks_play = idle.get("smembers", 0), commands.get("smembers", 0)
        scale = ticks_play / ticks_idle if ticks_idle > 0 else wall / (b.t - a.t)
        return Counter({name: round(n * scale) for name, n in idle.items() if n > 0}), reads * scale


def apply_defaults(args: argparse.Namespace) -> argparse.Namespace:
    """The compare mode's load: longer games, no joining section, no handshake probe, 3 bots per table (unless
    --terminals-share says otherwise)."""
    values = dict(vars(args))
    values["target"] = args.target if args.target is not None else 100
    values["decks"] = args.decks or "base,atlas"
    values["settle"] = args.settle if args.settle is not None else 0.05
    values["joins"] = values["join_burst"] = values["lobby_burst"] = 0
    values["handshakes"] = args.handshakes if args.handshakes is not None else 0
    if args.terminals_share is None:
        per_table = args.sessions // max(1, args.tables)
        values["terminals_share"] = (per_table - 3) / per_table if per_table > 3 else None
    values["floor"] = values["with_floor"] = False
    values["profile"] = None
    return argparse.Namespace(**values)


async def one_run(args: argparse.Namespace, workers: int) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="dixit-bench-workers-"))
    redis = LocalRedis(workdir / "redis")
    server: ServerProcess | None = None
    try:
        await redis.start()
        version = str(redis.info("server").get("redis_version"))
        cast = not getattr(args, "no_screen_cast", False)
        argv = server_argv(workdir, args.sessions, args.concurrency, extra=4, screen_cast=cast)
        server = ServerProcess([*argv, "--redis", redis.url, "--workers", str(workers)], new_session=True)
        await server.start(120.0)
        if workers == 1:
            pids, supervisor = [server.pid], None
        else:
            pids, supervisor = worker_pids(server.lines), server.pid
            if len(pids) != workers:
                raise RuntimeError(f"the server named {len(pids)} workers, not {workers}: {server.tail()}")
        progress(f"--workers {workers}: listening on {HOST}:{server.port}, worker pids {pids}, Redis {redis.url}")
        run = LoadRun(args, HOST, server.port, ProcGroup([*pids, *([supervisor] if supervisor else [])]))
        run.count_frames = True
        run.idle_seconds = 5.0  # the rate of the periodic Redis round trips (about one a second a worker) is read here
        placer = Placer(pids, balance=not args.no_balance)
        run.placement = placer
        recorder = Recorder(run, pids, supervisor, redis, ramp=min(5.0, args.duration / 4))
        run.mark_hooks.append(recorder.mark)
        try:
            result = await run.execute()
        finally:
            progress("closing the sessions")
            await asyncio.gather(*(t.close() for t in run.tables), return_exceptions=True)
        result["failures"].extend(f"server: {e}" for e in server_errors(server.lines))
        figures = recorder.figures() if {"play0", "play1"} <= recorder.snaps.keys() else {}
        figures["sessions_per_worker"] = placer.split(run.tables)
        figures["balanced"] = placer.balance
        figures["placement_retries"] = run.placement_retries
        figures["redis_version"] = version
        return {"workers": workers, "figures": figures, "load": result}
    finally:
        if server is not None:
            await server.stop()
        await redis.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def server_errors(lines: list[str], most: int = 3) -> list[str]:
    """The server's ERROR lines, each with the traceback that follows it (its last lines)."""
    found: list[str] = []
    for i, line in enumerate(lines):
        if " ERROR " in line and len(found) < most:
            tail = []
            for follow in lines[i + 1 : i + 40]:
                if " ERROR " in follow or " WARNING " in follow:
                    break
                tail.append(follow.split("] ", 1)[-1])
            found.append("\n".join([line.rstrip(), *tail[-12:]]))
    return found


async def compare(args: argparse.Namespace, counts: list[int]) -> dict[str, Any]:
    runs: list[dict[str, Any]] = []
    for n in counts:
        progress(f"run {len(runs) + 1} of {len(counts)}: serve --redis URL --workers {n}")
        runs.append(await one_run(args, n))
    first = runs[0]["figures"].get("terminal_updates_per_s")
    for r in runs:
        ups = r["figures"].get("terminal_updates_per_s")
        r["ratio_to_first"] = round(ups / first, 2) if first and ups is not None else None
    medians = median_throughputs(runs)
    fewest, most = min(counts), max(counts)
    low, high = medians.get(fewest), medians.get(most)
    ratio = round(high / low, 2) if fewest != most and low and high is not None else None
    load = runs[0]["load"]["config"]
    return {
        "config": {
            "workers": counts,
            "sessions": args.sessions,
            "tables": args.tables,
            "bots": load["bots"],
            "terminals": load["watchers"],
            "duration_s": args.duration,
            "term_size": load["term_size"],
            "settle_s": args.settle,
            "target": args.target,
            "decks": args.decks,
            "balanced": not args.no_balance,
            "screen_cast": not getattr(args, "no_screen_cast", False),
            "cores": os.cpu_count(),
            "seed": args.seed,
        },
        "runs": runs,
        "median_terminal_updates_per_s": {str(n): v for n, v in medians.items()},
        "ratio": ratio,
        "target_ratio": TARGET,
        "failures": [f"--workers {r['workers']}: {f}" for r in runs for f in r["load"]["failures"]],
    }


def typical(runs: list[dict[str, Any]], workers: int) -> dict[str, Any]:
    """The run of that many workers whose throughput is the median (the lower of the middle two)."""
    mine = [r for r in runs if r["workers"] == workers]
    mine.sort(key=lambda r: r["figures"].get("terminal_updates_per_s") or 0.0)
    return mine[(len(mine) - 1) // 2]


def median_throughputs(runs: list[dict[str, Any]]) -> dict[int, float | None]:
    """Terminal updates per second by worker count, the median of its runs (`--compare-workers 1,2,1,2`)."""
    found: dict[int, list[float]] = {}
    for r in runs:
        ups = r["figures"].get("terminal_updates_per_s")
        found.setdefault(r["workers"], [])
        if ups is not None:
            found[r["workers"]].append(float(ups))
    return {n: (round(statistics.median(v), 1) if v else None) for n, v in found.items()}


def _val(value: Any, unit: str = "") -> str:
    return "-" if value is None else f"{value}{unit}"


def render(result: dict[str, Any]) -> str:
    c = result["config"]
    runs = result["runs"]
    width = max(22, *(12 * len(r["figures"].get("workers", [])) + 2 for r in runs))
    lines = [
        f"dixit-tui bench --compare-workers {','.join(str(n) for n in c['workers'])}: {c['sessions']} sessions "
        f"({c['bots']} bots, {c['terminals']} terminals) at {c['tables']} tables,",
        f"  {c['duration_s']:g} s of play each, no think time, {c['cores']} cores",
        f"  Redis {runs[0]['figures'].get('redis_version')} on loopback (appendonly yes, appendfsync always), a fresh "
        "one per run",
        "  terminals count output (no terminal emulation); "
        + (
            "each table's sessions spread evenly over the workers" if c["balanced"] else "sessions placed by the kernel"
        ),
        "",
        f"{'':<40}" + "".join(f"{'--workers ' + str(r['workers']):<{width}}" for r in runs),
    ]

    def row(label: str, cell: Any) -> None:
        lines.append(f"{label:<40}" + "".join(f"{cell(r):<{width}}" for r in runs))

    def f(r: dict[str, Any]) -> dict[str, Any]:
        figures: dict[str, Any] = r["figures"]
        return figures

    def a(r: dict[str, Any]) -> dict[str, Any]:
        found: dict[str, Any] = r["load"]["action_to_screen_ms"]
        return found

    row(
        "terminal updates per second",
        lambda r: (
            f"{_val(f(r).get('terminal_updates_per_s'))}"
            + (f" ({r['ratio_to_first']}x)" if r is not runs[0] and r.get("ratio_to_first") else "")
        ),
    )
    row("actions per second", lambda r: _val(f(r).get("actions_per_s")))
    row("action -> every screen p50 / p95", lambda r: f"{_val(a(r).get('p50'))} / {_val(a(r).get('p95'))} ms")
    row("server CPU: the workers' sum", lambda r: f"{_val(f(r).get('workers_cpu_percent'), '%')} of a core")
    row(
        "  each worker, % (% waiting for a CPU)",
        lambda r: ", ".join(
            f"{_val(w['cpu_percent'])} ({_val(w['waiting_for_cpu_percent'])})" for w in f(r).get("workers", [])
        ),
    )
    row(
        "  terminals / bots on each worker",
        lambda r: ", ".join(f"{s['terminals']}/{s['bots']}" for s in f(r).get("sessions_per_worker", [])),
    )
    row("  supervisor", lambda r: _val(f(r).get("supervisor_cpu_percent"), "%"))
    row("terminal updates per worker CPU-second", lambda r: _val(f(r).get("terminal_updates_per_worker_cpu_s")))
    row("Redis round trips per action", lambda r: _val(f(r).get("redis_round_trips_per_action")))
    row("  net of periodic ones", lambda r: _val(f(r).get("redis_round_trips_per_action_net_of_periodic")))
    row("  periodic round trips per second", lambda r: _val(f(r).get("redis_periodic_round_trips_per_s")))
    row("redis-server CPU", lambda r: _val(f(r).get("redis_cpu_percent"), "%"))
    row("this client's CPU (bots, terminals)", lambda r: _val(f(r).get("client_cpu_percent"), "%"))
    row("other processes' CPU", lambda r: _val(f(r).get("other_processes_percent"), "%"))
    row("whole machine busy", lambda r: f"{_val(f(r).get('machine_busy_percent'), '%')} of {c['cores'] * 100}%")
    for r in runs:
        commands = f(r).get("redis_commands_per_action_net_of_periodic") or f(r).get("redis_commands_per_action") or {}
        shown = ", ".join(f"{name} {n}" for name, n in list(commands.items())[:7])
        lines.append(f"Redis commands per action, --workers {r['workers']}: {shown or '-'}")
    lines.append(
        "  (net of periodic; round trips: Redis's total_reads_processed, one per request or pipeline; commands: INFO"
    )
    lines.append("   commandstats, with those a Lua script runs; both over the actions sent during play; periodic:")
    lines.append("   the workers' ticks (presence renewals, leases) during play, at what a tick cost in the idle")
    lines.append("   check, taken away)")
    lines.append("")
    lines += verdict(result)
    lines += [f"FAILURE: {x}" for x in result["failures"]]
    return "\n".join(lines)


def verdict(result: dict[str, Any]) -> list[str]:
    """Whether the ratio met the target, and if not, where the CPU went."""
    runs = result["runs"]
    if len(runs) < 2 or result.get("ratio") is None:
        return []
    fewest, most = min(r["workers"] for r in runs), max(r["workers"] for r in runs)
    first, last = typical(runs, fewest), typical(runs, most)
    fl, ff = last["figures"], first["figures"]
    ratio = result["ratio"]
    met = "met" if ratio >= TARGET else "NOT met"
    repeats = Counter(r["workers"] for r in runs)
    of = f", medians of {repeats[most]} and {repeats[fewest]} runs" if max(repeats[most], repeats[fewest]) > 1 else ""
    lines = [
        f"--workers {last['workers']} / --workers {first['workers']}: {ratio}x the terminal updates per second{of} "
        f"(target >= {TARGET}x: {met})"
    ]
    per_cpu_first, per_cpu_last = (
        ff.get("terminal_updates_per_worker_cpu_s"),
        fl.get("terminal_updates_per_worker_cpu_s"),
    )
    if per_cpu_first and per_cpu_last:
        lines.append(
            f"  CPU per update: {per_cpu_last} terminal updates per worker CPU-second against {per_cpu_first} "
            f"({round(per_cpu_last / per_cpu_first, 2)}x: the cost of sharing)"
        )
    cores = fl.get("cores") or 1
    lines.append(
        f"  where the CPU went with --workers {last['workers']} (of {cores * 100}%): workers "
        f"{_val(fl.get('workers_cpu_percent'), '%')}, redis-server {_val(fl.get('redis_cpu_percent'), '%')}, "
        f"this client {_val(fl.get('client_cpu_percent'), '%')},"
    )
    lines.append(
        f"  supervisor {_val(fl.get('supervisor_cpu_percent'), '%')}, "
        f"other processes {_val(fl.get('other_processes_percent'), '%')}"
    )
    busy = fl.get("machine_busy_percent") or 0.0
    waits = [w.get("waiting_for_cpu_percent") or 0.0 for w in fl.get("workers", [])]
    shares = [w.get("cpu_percent") or 0.0 for w in fl.get("workers", [])]
    if busy >= cores * 100 * 0.9 and max(waits, default=0) >= 10:
        lines.append(
            f"  the machine was the limit: it was {busy}% busy and the workers' main threads waited for a CPU "
            f"{', '.join(f'{w}%' for w in waits)} of the time"
        )
    elif min(shares, default=0) < 90:
        lines.append(
            f"  the workers were not saturated ({', '.join(f'{s}%' for s in shares)} of a core each): more tables "
            "or sessions, or a less loaded machine"
        )
    else:
        lines.append("  the workers were saturated, each on a core of its own")
    projected = projection(first, last)
    if projected is not None:
        lines.append(
            "  projection, not a measurement: with nothing else running (each run's workers getting every core but"
        )
        lines.append(
            f"  what its redis-server, client and supervisor used, at most one each), the same CPU per update gives "
            f"{projected}x"
        )
    return lines


def projection(first: dict[str, Any], last: dict[str, Any]) -> float | None:
    """The ratio of the two runs if their workers had had every core the run's own other processes left them (at
    most one core per worker), at the CPU per update each run measured."""

    def ups(run: dict[str, Any]) -> float | None:
        f = run["figures"]
        per_cpu = f.get("terminal_updates_per_worker_cpu_s")
        if not per_cpu:
            return None
        used = sum(f.get(k) or 0.0 for k in ("redis_cpu_percent", "client_cpu_percent", "supervisor_cpu_percent"))
        usable = min(float(run["workers"]), (f.get("cores") or 1) - used / 100.0)
        return float(per_cpu) * max(0.0, usable)

    a, b = ups(first), ups(last)
    return round(b / a, 2) if a and b is not None else None


def run(args: argparse.Namespace) -> int:
    try:
        counts = [int(n) for n in str(args.compare_workers).split(",") if n.strip()]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        print("dixit-tui bench: --compare-workers takes worker counts, e.g. 1,2", file=sys.stderr)
        return 2
    if args.host is not None:
        print("dixit-tui bench: --compare-workers starts its own Redis and servers (no --host)", file=sys.stderr)
        return 2
    if redis_server_path() is None:
        print("dixit-tui bench: --compare-workers needs redis-server (apt-get install redis-server)", file=sys.stderr)
        return 2
    args = apply_defaults(args)
    try:
        result = asyncio.run(compare(args, counts))
    except KeyboardInterrupt:
        return 130
    except (RuntimeError, RedisStartError, OSError, asyncssh.Error) as error:
        print(f"dixit-tui bench: {error}", file=sys.stderr)
        return 1
    print(json.dumps(result) if args.json else render(result), flush=True)
    return 0 if not result["failures"] else 1
