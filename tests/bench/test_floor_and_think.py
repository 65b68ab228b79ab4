"""`dixit-tui bench --with-floor --think --spectator-cost`: the game then the floor, then one table with 10 and with 1
spectators, over real SSH sessions to real servers.

Behaviour, not time: each run acts, its terminals see the actions, the floor's server CPU per terminal update is
measured and the ratio reported, and issue 23's targets are reported with a verdict; nothing here checks how fast
anything was, nor whether a target passes.
"""

from __future__ import annotations

import pytest

from dixit_tui.bench.floor import Broadcaster, FloorApp
from dixit_tui.bench.report import render
from dixit_tui.bench.targets import MISS, PASS, targets
from tests.bench.bench_run import JOINS

pytest.importorskip("pyte")


@pytest.fixture
def result(bench_run: dict) -> dict:
    """The session's bench run (tests/bench/bench_run.py): 6 sessions, --think 0.2, --terminals-share 0.5, --with-floor,
    --spectator-cost."""
    return bench_run


@pytest.mark.e2e
@pytest.mark.timeout(270)
def test_the_game_run_thinks(result: dict) -> None:
    config = result["config"]
    assert config["floor"] is False and config["think_s"] == 0.2 and config["terminals_share"] == 0.5
    assert config["bots"] == 3 and config["watchers"] == 3  # half of 6 sessions are terminals
    assert "spectators" in config["terminals_are"]
    action = result["action_to_screen_ms"]
    assert action["actions"] >= 1 and action["n"] >= 1
    assert result["failures"] == []


@pytest.mark.e2e
@pytest.mark.timeout(270)
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
    assert floor["joining"]["sequential_join"]["sessions"] == JOINS == result["joining"]["sequential_join"]["sessions"]

    ratio = result["floor_ratio"]
    assert ratio["ms_per_screen_update"] == result["server_cpu"]["ms_per_screen_update"]
    assert ratio["floor_ms_per_screen_update"] == cpu["ms_per_screen_update"]
    assert ratio["ratio"] == round(ratio["ms_per_screen_update"] / ratio["floor_ms_per_screen_update"], 1)
    text = render(result)
    assert "--- the floor, same options ---" in text
    assert f"floor {cpu['ms_per_screen_update']} ms, ratio {ratio['ratio']}" in text


@pytest.mark.e2e
@pytest.mark.timeout(270)
def test_the_targets_are_reported_against_the_floor(result: dict) -> None:
    entries = result["targets"]
    assert set(entries) == {"cpu_per_update", "join_cpu", "lobby_cpu", "join_burst_p95", "spectator_cost"}
    floor = result["floor"]
    assert entries["cpu_per_update"]["floor"] == floor["server_cpu"]["ms_per_screen_update"]
    assert entries["join_cpu"]["floor"] == floor["joining"]["sequential_join"]["server_cpu_ms_per_session"]
    assert entries["join_burst_p95"]["value"] == result["joining"]["burst_join"]["connect_to_screen_ms"]["p95"]
    text = render(result)
    block = text[text.index("targets (issue 23") :].splitlines()[1:]
    assert len(block) == len(entries)  # the report's block and --json hold the same targets
    for line, (key, e) in zip(block, entries.items(), strict=True):
        # (one more spectator shares a drawing: a tenth of a millisecond, within the runs' noise, may come out below 0)
        assert isinstance(e["value"], int | float) if key == "spectator_cost" else e["value"] > 0, key
        assert e["verdict"] in (PASS, MISS), key
        assert line.split()[0] == e["verdict"] and e["figure"] in line and f"{e['value']} ms" in line
        if key != "spectator_cost":
            assert e["floor"] > 0 and e["ratio"] == round(e["value"] / e["floor"], 2)
            assert f"ratio {e['ratio']}x" in line


@pytest.mark.e2e
@pytest.mark.timeout(270)
def test_one_more_spectator_is_measured_on_the_same_game(result: dict) -> None:
    cost = result["spectator_cost"]
    few, many = cost["runs"]
    assert (few["spectators"], many["spectators"]) == (1, 10) and cost["size"] == "100x30"
    assert few["spectators_connected"] == 1 and many["spectators_connected"] == 10
    assert few["actions"] == many["actions"] >= 1  # as many actions of the same seeded game
    assert many["terminal_updates"] == 10 * many["actions"] and few["terminal_updates"] == few["actions"]
    assert few["games_finished"] == many["games_finished"] == 0
    expected = round((many["ms_per_action"] - few["ms_per_action"]) / 9, 2)
    assert cost["ms_per_spectator_per_update"] == expected == result["targets"]["spectator_cost"]["value"]
    assert f"one more spectator: {expected} ms" in render(result)


def test_targets_pass_or_miss_against_the_floor() -> None:
    def run(update: float, join: float, lobby: float, p95: float) -> dict:
        joining = {
            "sequential_join": {"server_cpu_ms_per_session": join},
            "sequential_lobby": {"server_cpu_ms_per_session": lobby},
            "burst_join": {"sessions": 20, "connect_to_screen_ms": {"p95": p95}},
        }
        return {"server_cpu": {"ms_per_screen_update": update}, "joining": joining}

    game = {**run(4.0, 30.0, 31.0, 1300.0), "spectator_cost": {"size": "200x60", "ms_per_spectator_per_update": 0.3}}
    game["floor"] = run(2.0, 20.0, 20.0, 1000.0)
    found = targets(game)
    assert [(k, e["ratio"], e["verdict"]) for k, e in found.items()] == [
        ("cpu_per_update", 2.0, PASS),  # at the target is a pass
        ("join_cpu", 1.5, PASS),
        ("lobby_cpu", 1.55, MISS),
        ("join_burst_p95", 1.3, PASS),
        ("spectator_cost", None, PASS),
    ]
    assert found["join_burst_p95"]["figure"].startswith("20 joining at once")
    assert found["spectator_cost"]["figure"].startswith("one more spectator at 200x60")

    alone = targets(run(4.0, 30.0, 31.0, 1300.0))  # no floor, no --spectator-cost: no verdicts
    assert all(e["verdict"] is None and e["ratio"] is None for e in alone.values())
    assert "--with-floor" in alone["cpu_per_update"]["note"]
    assert "--spectator-cost" in alone["spectator_cost"]["note"]


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
