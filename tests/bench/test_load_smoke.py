"""`dixit-tui bench` as a real run: a small server, a table of bots and terminals; every figure is in the JSON.

A behaviour test, not a timed one: it checks that each figure is there and consistent (orders of percentiles,
counts, memory arithmetic), never how fast anything was.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dixit_tui.bench.composition import composition, split
from dixit_tui.bench.load import floor_ratio, server_argv
from dixit_tui.bench.profiler import hotspots
from dixit_tui.bench.report import cast_line, render
from dixit_tui.bench.stats import percentile, summary_ms
from tests.bench.bench_run import SESSIONS

pytest.importorskip("pyte")


@pytest.fixture
def result(bench_run: dict) -> dict:
    """The session's bench run (tests/bench/bench_run.py): 6 sessions at one table, 3 of them terminals; its joining
    section 2 sequential, 3 and 2 at once."""
    return bench_run


@pytest.mark.e2e
@pytest.mark.timeout(270)
def test_every_figure_is_reported(result: dict) -> None:
    for key in (
        "config",
        "first_paint_ms",
        "table_paint_ms",
        "action_to_screen_ms",
        "bot_ack_ms",
        "server_memory",
        "server_cpu",
        "handshake",
        "session_open",
        "client",
        "machine",
        "joining",
        "warnings",
        "failures",
    ):
        assert key in result, key
    assert result["failures"] == []
    assert any("share this machine" in w for w in result["warnings"])

    config = result["config"]
    assert config["sessions"] == SESSIONS
    assert config["bots"] == 3 and config["watchers"] == 3 and config["watchers_connected"] == 3
    assert config["external_server"] is False and config["server_pid"] > 0
    assert config["screen_cast"] is True  # (the default: `--no-screen-cast` not given)


@pytest.mark.e2e
@pytest.mark.timeout(270)
def test_latency_figures_are_consistent(result: dict) -> None:
    paint = result["first_paint_ms"]
    assert paint["n"] == 3
    assert 0 < paint["p50"] <= paint["p95"] <= paint["max"]
    assert result["table_paint_ms"]["p50"] >= paint["p50"]

    action = result["action_to_screen_ms"]
    assert action["actions"] >= 1  # at least the start
    assert action["n"] + action["screens_missed"] == 3 * action["actions"]  # every terminal, every action
    assert 0 < action["p50"] <= action["p95"] <= action["p99"] <= action["max"]
    assert "start" in action["by_kind"]
    assert sum(d["n"] for d in action["by_kind"].values()) == action["n"]


@pytest.mark.e2e
@pytest.mark.timeout(270)
def test_server_figures_are_consistent(result: dict) -> None:
    mem = result["server_memory"]
    assert 0 < mem["rss_cold_mb"] <= mem["peak_rss_mb"]
    assert mem["rss_connected_mb"] <= mem["peak_rss_mb"]
    expected = (mem["rss_connected_mb"] - mem["rss_before_mb"]) / SESSIONS
    assert abs(mem["per_session_mb"] - expected) < 0.05

    cpu = result["server_cpu"]
    assert cpu["cpu_s"] > 0
    assert 0 < cpu["percent_of_one_core"] <= 100 * (result["config"]["cpu_count"] or 1) + 5

    handshake = result["handshake"]
    assert handshake["connections"] == SESSIONS and handshake["failed"] == 0
    assert handshake["per_s"] > 0

    updates = result["action_to_screen_ms"]["n"] + result["action_to_screen_ms"]["screens_missed"]
    assert cpu["terminal_updates"] == updates > 0
    per_cpu_s = cpu["terminal_updates_per_cpu_s"]  # from the unrounded CPU seconds
    assert updates / (cpu["cpu_s"] + 0.006) <= per_cpu_s <= updates / max(0.001, cpu["cpu_s"] - 0.006)


@pytest.mark.e2e
@pytest.mark.timeout(270)
def test_joining_is_measured(result: dict) -> None:
    joining = result["joining"]
    for key, sessions in (("sequential_join", 2), ("sequential_lobby", 2)):
        d = joining[key]
        assert d["sessions"] == sessions and d["failed"] == 0, d
        assert d["session_to_screen_ms"]["n"] == sessions
        assert d["server_cpu_ms_per_session"] > 0
    for key, sessions in (("burst_join", 3), ("burst_lobby", 2)):
        d = joining[key]
        assert d["sessions"] == sessions and d["failed"] == 0, d
        assert d["connect_to_screen_ms"]["n"] == sessions
        assert 0 < d["connect_to_screen_ms"]["p50"] <= d["connect_to_screen_ms"]["p95"]
        assert d["server_cpu_ms_per_session"] > 0
    d = joining["burst_join_sessions"]  # the same burst with the SSH connections made beforehand
    assert d["sessions"] == 3 and d["failed"] == 0 and d["session_to_screen_ms"]["n"] == 3
    assert d["server_cpu_ms_per_session"] > 0
    text = render(result)
    assert "3 joining at once" in text and "2 opening the lobby at once" in text
    assert "3 sessions at once, connected" in text
    assert "terminal updates per CPU-second" in text


def test_percentile_is_nearest_rank() -> None:
    values = [0.001 * i for i in range(1, 101)]
    assert percentile(values, 50) == pytest.approx(0.050)
    assert percentile(values, 95) == pytest.approx(0.095)
    assert percentile(values, 99) == pytest.approx(0.099)
    assert percentile([], 50) is None
    assert summary_ms([0.010, 0.020]) == {"n": 2, "p50": 10.0, "p95": 20.0, "p99": 20.0, "max": 20.0, "mean": 15.0}


def test_sessions_are_split_evenly() -> None:
    assert split(50, 5) == [10] * 5
    assert split(7, 3) == [3, 2, 2]


def test_composition_of_the_tables() -> None:
    # the default, as the before-figures were measured: 3 to 5 bots per table, the rest terminals
    assert composition(20, 2, None) == [(3, 7), (4, 6)]
    assert sum(w for _, w in composition(50, 5, None)) == 31
    # 25 tables of 8, half of each table terminals
    assert composition(200, 25, 0.5) == [(4, 4)] * 25
    assert composition(4, 1, 0.9) == [(3, 1)]  # a game needs 3 players
    assert composition(4, 1, 0.5) == [(3, 1)]  # even when half of 4 would be terminals
    assert composition(10, 1, 0.01) == [(9, 1)]  # and a table at least one terminal


def test_floor_ratio() -> None:
    game = {"server_cpu": {"ms_per_screen_update": 12.0}}
    assert floor_ratio(game, {"server_cpu": {"ms_per_screen_update": 2.0}}) == {
        "ms_per_screen_update": 12.0,
        "floor_ms_per_screen_update": 2.0,
        "ratio": 6.0,
    }
    assert floor_ratio(game, {"server_cpu": None}) is None


def test_no_screen_cast_is_handed_to_the_server_and_said_in_the_report(tmp_path: Path) -> None:
    assert "--no-screen-cast" not in server_argv(tmp_path, 10, 5)
    assert server_argv(tmp_path, 10, 5, screen_cast=False)[-1] == "--no-screen-cast"
    assert "screen casts on" in cast_line(True) and "--no-screen-cast" in cast_line(False)


def test_hotspots_read_collapsed_stacks(tmp_path: Path) -> None:
    raw = tmp_path / "profile.txt"
    raw.write_text(
        "run (asyncio/events.py:80);render (textual/widget.py:12);Strip.__init__ (textual/strip.py:4) 3\n"
        "run (asyncio/events.py:80);write (asyncio/selector_events.py:9) 1\n"
    )
    found = hotspots(raw)
    assert found["samples"] == 4
    assert found["self"][0] == ["Strip.__init__ (textual/strip.py)", 75.0]
    assert ["render (textual/widget.py)", 75.0] in found["inclusive"]
    assert all("asyncio/events.py" not in name for name, _ in found["inclusive"])  # the loop itself is left out
