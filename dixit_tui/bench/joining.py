"""The joining section of the load benchmark, after play, on a quiet server: sessions started one at a time (server
CPU per join, net of idle), then players joining tables and opening the lobby at once (connect -> first screen)."""

from __future__ import annotations

import asyncio
import math
from typing import Any, Protocol

import asyncssh

from dixit_tui.bench.proc_stats import ProcStats
from dixit_tui.bench.stats import CLOCK, summary_ms
from dixit_tui.bench.table_run import Run, TableRun
from dixit_tui.bench.watcher import Watcher

JOINERS_PER_TABLE = 7  # players joining one table in the joining section (with its host bot: 8 seats)


class JoiningRun(Run, Protocol):
    """What the joining section needs of its run (dixit_tui/bench/load_run.py) besides what its tables need."""

    stats: ProcStats | None
    table_class: type[TableRun]
    join_tables: list[TableRun]

    async def quiesce(self, quiet: float, timeout: float) -> bool: ...


async def measure_joining(run: JoiningRun) -> dict[str, Any]:
    """Sessions opened onto a quiet server: sequentially (server CPU per join, from the session's start to its
    first screen, nothing else going on), then in bursts (`--join-burst` players joining tables at once,
    `--lobby-burst` opening the lobby at once: connect -> first screen, and server CPU per session)."""
    args = run.args
    n_seq, n_burst, n_lobby = max(0, args.joins), max(0, args.join_burst), max(0, args.lobby_burst)
    # fresh tables (not started), each with its host bot: one per sequential joiner (so that a join's CPU is its
    # own, no other screen at the table redraws), and up to JOINERS_PER_TABLE seats each for the burst
    count = n_seq + 2 * math.ceil(n_burst / JOINERS_PER_TABLE)
    tables = [run.table_class(run, 5000 + k, 1, 0) for k in range(count + 1)]  # the last: the warm-up's
    lobby = run.table_class(run, 7000, 0, 0)
    lobby.code = "\0lobby"  # never on a screen: a plain connection's first screen is the lobby
    run.join_tables = [*tables, lobby]
    await asyncio.gather(*(t.open_bots() for t in tables))
    await asyncio.gather(*(t.new_table() for t in tables))
    seats = [*tables[:n_seq], *(t for t in tables[n_seq:] for _ in range(JOINERS_PER_TABLE))]

    def joiner(name: str, table: TableRun, command: str | None) -> Watcher:
        w = Watcher(name, table, run.size, command)
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
    await asyncio.gather(*(w.open(run.host, run.port, 60.0) for w in warm))
    await asyncio.gather(warm[0].wait_table(60.0), warm[1].wait_table(60.0, lobby=True))
    await asyncio.gather(*(w.close() for w in warm))
    # the sequential joiners' SSH connections first: their sessions alone are measured
    await asyncio.gather(*(run.limited(w.connect(run.host, run.port, 60.0)) for w in [*seq_join, *seq_lobby]))
    await run.quiesce(1.0, 60.0)
    idle = await idle_rate(run, 2.0)
    result: dict[str, Any] = {
        "command": "join CODE: a seat at a table not started yet (alone with its host bot when one at a time, "
        f"up to {JOINERS_PER_TABLE} joining one table at once)",
        "idle_percent_of_one_core": round(idle * 100.0, 2) if idle is not None else None,
    }
    # each group closes before the next starts (an open lobby would redraw at every later join)
    result["sequential_join"] = await _sequential(run, seq_join, False, idle)
    await asyncio.gather(*(w.close() for w in seq_join))
    result["sequential_lobby"] = await _sequential(run, seq_lobby, True, idle)
    await asyncio.gather(*(w.close() for w in seq_lobby))
    result["burst_join"] = await _burst(run, burst_join, False, idle)
    await asyncio.gather(*(w.close() for w in burst_join))
    result["burst_join_sessions"] = await _burst(run, burst_sessions, False, idle, preconnected=True)
    await asyncio.gather(*(w.close() for w in burst_sessions))
    result["burst_lobby"] = await _burst(run, burst_lobby, True, idle)
    return result


async def idle_rate(run: JoiningRun, seconds: float) -> float | None:
    """Server CPU (cores) with nothing happening."""
    stats = run.stats
    if stats is None:
        return None
    cpu0, t0 = stats.cpu_seconds_precise(), CLOCK()
    await asyncio.sleep(seconds)
    cpu1 = stats.cpu_seconds_precise()
    return (cpu1 - cpu0) / (CLOCK() - t0) if cpu0 is not None and cpu1 is not None else None


def _cpu_per_session(
    run: JoiningRun, cpu0: float | None, wall: float, idle: float | None, sessions: int
) -> tuple[float | None, float | None]:
    """(server CPU ms per session net of idle, the idle CPU subtracted in ms per session)."""
    cpu1 = run.stats.cpu_seconds_precise() if run.stats else None
    if cpu0 is None or cpu1 is None or idle is None or not sessions:
        return None, None
    idle_s = idle * wall
    return round(max(0.0, cpu1 - cpu0 - idle_s) * 1000.0 / sessions, 1), round(idle_s * 1000.0 / sessions, 1)


async def _sequential(run: JoiningRun, joiners: list[Watcher], lobby: bool, idle: float | None) -> dict[str, Any]:
    """One session at a time: start it, wait for its first screen, then for the server to go quiet."""
    if not joiners:
        return {"sessions": 0}
    await run.quiesce(1.0, 60.0)
    stats = run.stats
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
        await run.quiesce(0.3, 30.0)
    cpu, idle_ms = _cpu_per_session(run, cpu0, CLOCK() - t0, idle, len(joiners))
    return {
        "sessions": len(joiners),
        "failed": failed,
        "server_cpu_ms_per_session": cpu,
        "idle_cpu_subtracted_ms_per_session": idle_ms,
        "session_to_screen_ms": summary_ms(times, (50, 95)),
    }


async def _burst(
    run: JoiningRun, joiners: list[Watcher], lobby: bool, idle: float | None, preconnected: bool = False
) -> dict[str, Any]:
    """Every session at once, from its TCP connect (SSH handshake included) to its first screen; or, when
    `preconnected`, with the SSH connections made beforehand, from the session's start to its first screen."""
    if not joiners:
        return {"sessions": 0}
    if preconnected:
        await asyncio.gather(*(run.limited(w.connect(run.host, run.port, 60.0)) for w in joiners))
    await run.quiesce(1.0, 60.0)
    stats = run.stats
    cpu0, t0 = (stats.cpu_seconds_precise() if stats else None), CLOCK()

    async def one(w: Watcher) -> bool:
        if preconnected:
            await w.start_session(60.0)
        else:
            await w.open(run.host, run.port, 60.0)
        return await w.wait_table(120.0, lobby=lobby)

    results = await asyncio.gather(*(one(w) for w in joiners), return_exceptions=True)
    all_shown = CLOCK() - t0
    await run.quiesce(0.5, 60.0)
    cpu, idle_ms = _cpu_per_session(run, cpu0, CLOCK() - t0, idle, len(joiners))
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
