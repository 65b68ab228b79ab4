"""`dixit-tui bench --spectator-cost`: what one more spectator of the same size costs the server per table update.

The same table (one table, 3 bots, the same seed, so the same game) is played twice on a server of its own: with 10
spectators (`watch CODE`, all --spectator-size, default --term-size) for --duration seconds, ended at the end of an
action; then with 1 spectator for exactly as many actions. The figure is

    (server CPU per action with 10 spectators - with 1) / 9

in ms per update: the bots, the table and the coordinator cost the same in both, so the difference is the nine
more spectators'. Spectators of the same size and terminal that sit still share one drawing (`ssh/screen_cast.py`,
`tui/watch_cast.py`): one app draws, the others' apps hold their updates, and what each more one costs is the write
of the frame's bytes to its channel (2026-12-07, `--seed 7 --sessions 20 --tables 2 --duration 20`: 3.97 -> 0.14 ms
at 100x30, 1.84 -> 0.12 ms at 200x60; the bench's spectators send no input). The games are long (target 100, both
decks, as --compare-workers plays) so that no game ends and no spectator reconnects during play; no joining section,
no think time."""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable
from typing import Any

from dixit_tui.bench.progress import progress

SPECTATORS = (1, 10)
BOTS = 3  # composition(3 + n, 1, None): 3 bots and n terminals at table 0

RunOne = Callable[[argparse.Namespace], Awaitable[dict[str, Any]]]


def spectator_args(args: argparse.Namespace, spectators: int, actions: int | None) -> argparse.Namespace:
    """The options of one run: one table with `spectators` terminals; `actions`: stop after that many actions
    (else after --duration, at the end of the action in flight)."""
    values = {
        **vars(args),
        "sessions": BOTS + spectators,
        "tables": 1,
        "terminals_share": None,
        "term_size": args.spectator_size or args.term_size,
        "floor": False,
        "with_floor": False,
        "spectator_cost": False,
        "think": 0.0,
        "joins": 0,
        "join_burst": 0,
        "lobby_burst": 0,
        "handshakes": 1,
        "profile": None,
        "target": max(100, args.target or 0),
        "decks": args.decks or "base,atlas",
        "action_limit": actions,
        "whole_actions": True,
    }
    if actions is not None:  # the 1-spectator run is faster; the duration only caps it
        values["duration"] = 3.0 * args.duration + 30.0
    return argparse.Namespace(**values)


def _run_figures(spectators: int, result: dict[str, Any]) -> dict[str, Any]:
    cpu = result.get("server_cpu") or {}
    action = result["action_to_screen_ms"]
    return {
        "spectators": spectators,
        "spectators_connected": result["config"]["watchers_connected"],
        "actions": action["actions"],
        "ms_per_action": cpu.get("ms_per_action"),
        "cpu_s": cpu.get("cpu_s"),
        "wall_s": cpu.get("wall_s"),
        "terminal_updates": cpu.get("terminal_updates"),
        "action_to_screen_p95_ms": action.get("p95"),
        "games_finished": action["games_finished"],
    }


async def measure_spectator_cost(args: argparse.Namespace, run_one: RunOne) -> dict[str, Any]:
    """The two runs and the cost of one more spectator (`run_one`: dixit_tui/bench/load.py's bench_one)."""
    few, many = SPECTATORS
    size = args.spectator_size or args.term_size
    progress(f"spectator cost: one table with {many} spectators at {size}")
    many_result = await run_one(spectator_args(args, many, None))
    actions = many_result["action_to_screen_ms"]["actions"]
    progress(f"spectator cost: the same table with {few} spectator, {actions} actions")
    few_result = await run_one(spectator_args(args, few, max(1, actions)))
    runs = [_run_figures(few, few_result), _run_figures(many, many_result)]
    warnings: list[str] = []
    failures = [
        f"{r['spectators']} spectators: {f}"
        for r, res in zip(runs, (few_result, many_result), strict=True)
        for f in res["failures"]
    ]
    if runs[0]["actions"] != runs[1]["actions"]:
        warnings.append(f"the runs measured {runs[0]['actions']} and {runs[1]['actions']} actions, not the same")
    if any(r["games_finished"] for r in runs):
        warnings.append("a game ended during play: its spectators' reconnections count in the figure")
    for r in runs:
        if r["spectators_connected"] != r["spectators"]:
            failures.append(f"only {r['spectators_connected']} of {r['spectators']} spectators reached the table")
    one, ten = runs[0]["ms_per_action"], runs[1]["ms_per_action"]
    cost = round((ten - one) / (many - few), 2) if one is not None and ten is not None and actions else None
    return {
        "size": size,
        "spectators": list(SPECTATORS),
        "target": spectator_args(args, few, None).target,
        "decks": spectator_args(args, few, None).decks,
        "runs": runs,
        "ms_per_spectator_per_update": cost,
        "warnings": warnings,
        "failures": failures,
    }


def render_spectator_cost(cost: dict[str, Any] | None) -> list[str]:
    if not cost:
        return []
    few, many = cost["runs"]
    shown = cost["ms_per_spectator_per_update"]

    def run(r: dict[str, Any]) -> str:
        return f"{r['ms_per_action']} ms per action ({r['cpu_s']} s over {r['actions']} actions)"

    return [
        f"spectator cost ({cost['size']}, one table of {BOTS} bots, target {cost['target']}, decks {cost['decks']})",
        f"  {many['spectators']} spectators {run(many)}; {few['spectators']} spectator {run(few)}",
        f"  one more spectator: {shown} ms of server CPU per update "
        f"(({many['ms_per_action']} - {few['ms_per_action']}) / {many['spectators'] - few['spectators']})",
    ]
