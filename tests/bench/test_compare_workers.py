"""`dixit-tui bench --compare-workers 1,2` as a real run: a real redis-server, `serve --redis --workers 1`, then
`--workers 2`, a tiny load; both runs' figures are reported and consistent.

A behaviour test, not a timed one: it checks that the figures are there and add up (the sessions spread evenly
over the two workers, the ratio is the ratio of the two throughputs, Redis was asked something for each action),
never how fast anything was.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from dixit_tui.bench.compare import ProcGroup, median_throughputs, render, verdict
from dixit_tui.bench.proc_stats import ProcStats
from tests.redis_server import needs_redis

pytest.importorskip("pyte")

SESSIONS, TABLES = 10, 2  # 5 a table: 3 bots and 2 terminals


@pytest.fixture(scope="module")
def result() -> dict:
    command = [sys.executable, "-m", "dixit_tui.bench.cli", "--compare-workers", "1,2"]
    done = subprocess.run(
        [*command, "--sessions", str(SESSIONS), "--tables", str(TABLES), "--duration", "3", "--json"],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(done.stdout)


@needs_redis
@pytest.mark.e2e
@pytest.mark.timeout(300)
def test_both_runs_are_reported(result: dict) -> None:
    assert result["failures"] == []
    config = result["config"]
    assert config["workers"] == [1, 2]
    assert config["bots"] == 3 * TABLES and config["terminals"] == 2 * TABLES
    assert config["target"] == 100 and config["decks"] == "base,atlas" and config["balanced"] is True
    assert [r["workers"] for r in result["runs"]] == [1, 2]
    for run in result["runs"]:
        f = run["figures"]
        assert len(f["workers"]) == run["workers"]
        assert all(w["cpu_percent"] is not None and w["cpu_percent"] >= 0 for w in f["workers"])
        assert f["actions"] > 0 and f["terminal_updates"] > 0
        assert abs(f["terminal_updates_per_s"] - f["terminal_updates"] / f["wall_s"]) < 0.2
        assert f["redis_version"]
        # every action reaches Redis: at least its compare-and-append
        assert f["redis_round_trips_per_action"] >= 1
        assert f["redis_commands_per_action"].get("evalsha", 0) >= 1
        assert "info" not in f["redis_commands_per_action"]  # the benchmark's own questions are left out
        load = run["load"]
        assert load["action_to_screen_ms"]["n"] > 0
        assert load["config"]["watchers_connected"] == 2 * TABLES
    one, two = (r["figures"] for r in result["runs"])
    assert one["supervisor_cpu_percent"] is None and two["supervisor_cpu_percent"] is not None
    assert result["ratio"] == round(two["terminal_updates_per_s"] / one["terminal_updates_per_s"], 2)


@needs_redis
@pytest.mark.e2e
@pytest.mark.timeout(300)
def test_each_tables_sessions_are_spread_over_the_workers(result: dict) -> None:
    one, two = (r["figures"] for r in result["runs"])
    assert one["sessions_per_worker"] == [
        {"pid": one["workers"][0]["pid"], "terminals": 2 * TABLES, "bots": 3 * TABLES}
    ]
    split = two["sessions_per_worker"]
    assert [s["terminals"] for s in split] == [TABLES, TABLES]  # one terminal of each table on each worker
    assert sorted(s["bots"] for s in split) in ([2, 4], [3, 3])  # at most 2 of a table's 3 bots on one worker
    text = render(result)
    assert "--workers 1" in text and "--workers 2" in text
    assert "terminal updates per second" in text and "Redis round trips per action" in text
    assert f"{result['ratio']}x the terminal updates per second (target >= 1.7x" in text


def test_the_verdict_says_where_the_cpu_went() -> None:
    def run(workers: int, ups: float, per_cpu: float, shares: list[float], waits: list[float]) -> dict:
        figures = {
            "terminal_updates_per_s": ups,
            "terminal_updates_per_worker_cpu_s": per_cpu,
            "workers": [
                {"pid": i, "cpu_percent": s, "waiting_for_cpu_percent": w}
                for i, (s, w) in enumerate(zip(shares, waits, strict=True))
            ],
            "workers_cpu_percent": sum(shares),
            "redis_cpu_percent": 3.0,
            "client_cpu_percent": 10.0,
            "supervisor_cpu_percent": 0.1 if workers > 1 else None,
            "other_processes_percent": 20.0,
            "machine_busy_percent": 198.0,
            "cores": 2,
        }
        return {"workers": workers, "figures": figures}

    result: dict[str, Any] = {
        "runs": [run(1, 100.0, 100.0, [99.0], [5.0]), run(2, 160.0, 95.0, [84.0, 84.0], [20.0, 18.0])],
        "ratio": 1.6,
    }
    lines = verdict(result)
    assert lines[0] == "--workers 2 / --workers 1: 1.6x the terminal updates per second (target >= 1.7x: NOT met)"
    assert any("95.0 terminal updates per worker CPU-second against 100.0 (0.95x: the cost" in line for line in lines)
    assert any("workers 168.0%, redis-server 3.0%, this client 10.0%" in line for line in lines)
    assert any("the machine was the limit" in line and "20.0%, 18.0%" in line for line in lines)
    # one worker on one core: 100 updates/s; two on the 1.869 cores left by Redis, the client, the supervisor: 177.6
    text = "\n".join(lines)
    assert "projection, not a measurement" in text and "the same CPU per update gives 1.78x" in text

    result["runs"][1] = run(2, 190.0, 96.0, [99.0, 98.0], [2.0, 3.0])
    result["ratio"] = 1.9
    lines = verdict(result)
    assert "(target >= 1.7x: met)" in lines[0]
    assert "  the workers were saturated, each on a core of its own" in lines


def test_repeated_runs_compare_their_medians() -> None:
    def run(workers: int, ups: float) -> dict:
        return {"workers": workers, "figures": {"terminal_updates_per_s": ups, "cores": 2}}

    runs = [run(1, 100.0), run(2, 150.0), run(1, 110.0), run(2, 190.0), run(2, 175.0)]
    assert median_throughputs(runs) == {1: 105.0, 2: 175.0}
    lines = verdict({"runs": runs, "ratio": 1.67})
    assert lines[0] == (
        "--workers 2 / --workers 1: 1.67x the terminal updates per second, medians of 3 and 2 runs "
        "(target >= 1.7x: NOT met)"
    )


def test_a_group_of_processes_sums_their_counters() -> None:
    import os

    me = ProcStats(os.getpid())
    group = ProcGroup([os.getpid(), os.getpid()])
    rss, both = me.rss(), group.rss()
    assert rss is not None and both is not None and both >= 2 * rss * 0.9
    cpu = group.cpu_seconds()
    assert cpu is not None and cpu >= 2 * (me.cpu_seconds() or 0) - 0.05
    assert ProcGroup([os.getpid(), 2**22 + 12345]).cpu_seconds() is None  # a process gone: no sum
