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
joining tables and --lobby-burst players opening the lobby at once (connect -> first screen). --spectator-cost then
plays one table with 10 spectators and with 1 (--spectator-size) for the cost of one more spectator per update. The
report ends with issue 23's targets against the floor of the same run, each PASS or MISS (targets.py).

The client and the server share the machine's cores: on a small machine the client's own work (SSH, pyte) slows
the server and is included in every latency. The report says how busy the client was.

The parts: load_run.py (the run and its figures), table_run.py (one table's driver), bot_session.py and watcher.py
(the sessions), measurement.py, joining.py (the joining section), composition.py (who sits where), proc_stats.py,
stats.py, profiler.py (--profile), spectator_cost.py, targets.py, report.py (the printed report); this module
starts the server and runs them.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import tempfile
from pathlib import Path
from typing import Any

from dixit_tui.bench.load_run import LoadRun
from dixit_tui.bench.proc_stats import ProcStats
from dixit_tui.bench.progress import progress
from dixit_tui.bench.server import HOST, ServerProcess, serve_argv
from dixit_tui.bench.spectator_cost import measure_spectator_cost
from dixit_tui.bench.targets import targets


def server_argv(
    workdir: Path,
    sessions: int,
    concurrency: int,
    *,
    floor: bool = False,
    extra: int = 0,
    screen_cast: bool = True,
) -> list[str]:
    """The benchmark's server: `dixit-tui serve` (or the floor server, dixit_tui.bench.floor) on a loopback port,
    its limits raised for `sessions` connections from this one machine (`extra`: the joining section's); screen casts
    off unless `screen_cast` (`--no-screen-cast`: the floor's app shares nothing either way)."""
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
    return serve_argv(workdir / "keys", workdir / "data", server=server, limits=limits, screen_cast=screen_cast)


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    """One run (the game, or with --floor the floor); with --with-floor the game then the floor, the floor's
    result under "floor" and the ratio of their server CPU per terminal update under "floor_ratio"; with
    --spectator-cost then the cost of one more spectator (dixit_tui/bench/spectator_cost.py). A game's result has
    issue 23's targets under "targets" (dixit_tui/bench/targets.py)."""
    if args.floor:
        return await bench_one(args)
    result = await bench_one(argparse.Namespace(**{**vars(args), "floor": False}))
    if args.with_floor:
        progress("the floor: the same run with a one-line app")
        profile = f"{args.profile}.floor" if args.profile else None
        floor = await bench_one(argparse.Namespace(**{**vars(args), "floor": True, "profile": profile}))
        result["floor"] = floor
        result["floor_ratio"] = floor_ratio(result, floor)
        result["failures"].extend(f"floor: {f}" for f in floor["failures"])
    if getattr(args, "spectator_cost", False):
        cost = await measure_spectator_cost(args, bench_one)
        result["spectator_cost"] = cost
        result["failures"].extend(f"spectator cost: {f}" for f in cost.pop("failures"))
        result["warnings"].extend(f"spectator cost: {w}" for w in cost.pop("warnings"))
    result["targets"] = targets(result)
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
            cast = not getattr(args, "no_screen_cast", False)
            argv = server_argv(
                workdir, args.sessions, args.concurrency, floor=args.floor, extra=extra, screen_cast=cast
            )
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
        result["config"]["screen_cast"] = None if server is None else not getattr(args, "no_screen_cast", False)
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
