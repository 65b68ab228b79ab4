"""One real `dixit-tui bench` run for the whole session (the `bench_run` fixture, tests/bench/conftest.py), shared
by test_load_smoke.py (every figure reported and consistent) and test_floor_and_think.py (the floor, --think, the
targets, one more spectator): each load run starts a server, warms up, checks the idle screens and measures the
joining section, so one run that gives both modules what they assert takes half the time of a run each.

6 sessions at 1 table, half of them terminals (3 bots and 3 watchers); 2 s of play with think time; the joining
section with 2 sequential joins and lobby openings, 3 joining at once and 2 opening the lobby at once; then the
floor with the same options, then one table with 10 and with 1 spectators.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

SESSIONS = 6
JOINS, JOIN_BURST, LOBBY_BURST = 2, 3, 2


def run_bench() -> dict[str, Any]:
    """The JSON of `dixit-tui bench --with-floor --think 0.2 --terminals-share 0.5 --spectator-cost` (above)."""
    command = [sys.executable, "-m", "dixit_tui.bench.cli", "--sessions", str(SESSIONS), "--tables", "1"]
    command += ["--duration", "2", "--think", "0.2", "--terminals-share", "0.5", "--with-floor", "--seed", "3"]
    command += ["--joins", str(JOINS), "--join-burst", str(JOIN_BURST), "--lobby-burst", str(LOBBY_BURST)]
    command += ["--spectator-cost", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result
