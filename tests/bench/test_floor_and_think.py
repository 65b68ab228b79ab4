"""`dixit-tui bench --with-floor --think`: the game then the floor, over real SSH sessions to real servers.

Behaviour, not time: each run acts, its terminals see the actions, the floor's server CPU per terminal update is
measured and the ratio reported; nothing here checks how fast anything was.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dixit_tui.bench.floor import Broadcaster, FloorApp
from dixit_tui.bench.report import render

pytest.importorskip("pyte")


@pytest.fixture(scope="module")
def result() -> dict:
    command = [sys.executable, "-m", "dixit_tui.bench.cli", "--sessions", "4", "--tables", "1", "--duration", "2"]
    command += ["--think", "0.2", "--terminals-share", "0.5", "--with-floor", "--seed", "3"]
    command += ["--joins", "0", "--join-burst", "0", "--lobby-burst", "0", "--json"]  # (test_load_smoke has them)
    done = subprocess.run(command, capture_output=True, text=True, timeout=150)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.mark.e2e
@pytest.mark.timeout(180)
def test_the_game_run_thinks(result: dict) -> None:
    config = result["config"]
    assert config["floor"] is False and config["think_s"] == 0.2 and config["terminals_share"] == 0.5
    assert config["bots"] == 3 and config["watchers"] == 1  # a game needs 3 players: one terminal of 4
    assert "spectators" in config["terminals_are"]
    action = result["action_to_screen_ms"]
    assert action["actions"] >= 1 and action["n"] >= 1
    assert result["failures"] == []


@pytest.mark.e2e
@pytest.mark.timeout(180)
def test_the_floor_is_measured_over_the_same_path(result: dict) -> None:
    floor = result["floor"]
    assert floor["config"]["floor"] is True and floor["config"]["think_s"] == 0.2
    action = floor["action_to_screen_ms"]
    assert action["actions"] >= 1 and set(action["by_kind"]) == {"bump"}
    assert action["n"] >= 1 and action["screens_missed"] == 0
    cpu = floor["server_cpu"]
    assert cpu["terminal_updates"] == action["n"] > 0
    assert cpu["ms_per_screen_update"] > 0 and cpu["terminal_updates_per_cpu_s"] > 0
    assert floor["server_memory"]["per_watcher_mb"] is not None
    assert floor["joining"] is None and result["joining"] is None  # skipped when every count is 0

    ratio = result["floor_ratio"]
    assert ratio["ms_per_screen_update"] == result["server_cpu"]["ms_per_screen_update"]
    assert ratio["floor_ms_per_screen_update"] == cpu["ms_per_screen_update"]
    assert ratio["ratio"] == round(ratio["ms_per_screen_update"] / ratio["floor_ms_per_screen_update"], 1)
    text = render(result)
    assert "--- the floor, same options ---" in text
    assert f"floor {cpu['ms_per_screen_update']} ms, ratio {ratio['ratio']}" in text


async def test_the_floor_app_shows_one_line_and_its_updates() -> None:
    broadcaster = Broadcaster()
    code = broadcaster.create()
    app = FloorApp(broadcaster, f"watch {code}")
    async with app.run_test(size=(60, 5)) as pilot:
        await pilot.pause()
        assert broadcaster.watchers[code] == {app}
        assert broadcaster.bump(code) == 1 and broadcaster.bump(code) == 2
        await pilot.pause()
        assert str(app.query_one("#line").render()) == f"table {code} · update 2"
    assert broadcaster.watchers[code] == set()


async def test_the_floor_lobby_line() -> None:
    app = FloorApp(Broadcaster(), None)
    async with app.run_test(size=(60, 5)) as pilot:
        await pilot.pause()
        assert str(app.query_one("#line").render()) == "dixit-tui floor: lobby"
