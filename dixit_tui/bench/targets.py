"""The targets of issue 23, read off one `dixit-tui bench` result: each figure of the game against the floor measured
in the same run (--with-floor), and the cost of one more spectator (--spectator-cost), with PASS or MISS.

The figures (every entry of `targets`, in the report and in `--json`):
- cpu_per_update: server CPU per terminal update, game / floor, at most 2x;
- join_cpu: a join's server CPU (`join CODE`, one at a time, net of idle), game / floor, at most 1.5x;
- lobby_cpu: opening the lobby's server CPU (one at a time, net of idle), game / floor, at most 1.5x;
- join_burst_p95: N joining at once (--join-burst), connect -> table screen p95, game / floor, at most 1.3x;
- spectator_cost: (CPU per update with 10 spectators - with 1) / 9, at most 0.3 ms per update.
A figure not measured in this run (no floor, no joining section, no --spectator-cost) has no verdict (null)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

PASS, MISS = "PASS", "MISS"
SPECTATOR_COST_LIMIT_MS = 0.3

Getter = Callable[[dict[str, Any]], float | None]


def _get(*path: str) -> Getter:
    def read(result: dict[str, Any]) -> float | None:
        node: Any = result
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        return node if isinstance(node, int | float) and not isinstance(node, bool) else None

    return read


# (key, figure as the report names it, unit, the value's place in a run's result, the largest ratio to the floor)
AGAINST_FLOOR: tuple[tuple[str, str, str, Getter, float], ...] = (
    ("cpu_per_update", "server CPU per terminal update", "ms", _get("server_cpu", "ms_per_screen_update"), 2.0),
    ("join_cpu", "a join's server CPU", "ms", _get("joining", "sequential_join", "server_cpu_ms_per_session"), 1.5),
    (
        "lobby_cpu",
        "opening the lobby, server CPU",
        "ms",
        _get("joining", "sequential_lobby", "server_cpu_ms_per_session"),
        1.5,
    ),
    (
        "join_burst_p95",
        "joining at once, connect -> table p95",
        "ms",
        _get("joining", "burst_join", "connect_to_screen_ms", "p95"),
        1.3,
    ),
)


def targets(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every target, keyed as the module's docstring lists them: the figure, its value today, the floor's, their
    ratio, the target and the verdict (null when not measured, with a note why)."""
    floor = result.get("floor")
    out: dict[str, dict[str, Any]] = {}
    for key, figure, unit, read, limit in AGAINST_FLOOR:
        value = read(result)
        floor_value = read(floor) if floor else None
        if key == "join_burst_p95":
            figure = f"{(result.get('joining') or {}).get('burst_join', {}).get('sessions', 'N')} {figure}"
        entry: dict[str, Any] = {
            "figure": figure,
            "unit": unit,
            "value": value,
            "floor": floor_value,
            "ratio": None,
            "target": f"<= {limit:g}x the floor",
            "limit": limit,
            "verdict": None,
        }
        if value is not None and floor_value:
            ratio = value / floor_value
            entry["ratio"] = round(ratio, 2)
            entry["verdict"] = PASS if ratio <= limit else MISS
        else:
            entry["note"] = "not measured (needs --with-floor)" if not floor else "not measured in both runs"
            if key != "cpu_per_update":
                entry["note"] += " and the joining section"
        out[key] = entry
    out["spectator_cost"] = _spectator_entry(result.get("spectator_cost"))
    return out


def _spectator_entry(cost: dict[str, Any] | None) -> dict[str, Any]:
    value = (cost or {}).get("ms_per_spectator_per_update")
    size = (cost or {}).get("size")
    entry: dict[str, Any] = {
        "figure": f"one more spectator{f' at {size}' if size else ''}, CPU per update",
        "unit": "ms",
        "value": value,
        "floor": None,
        "ratio": None,
        "target": f"<= {SPECTATOR_COST_LIMIT_MS:g} ms",
        "limit": SPECTATOR_COST_LIMIT_MS,
        "verdict": None,
    }
    if value is None:
        entry["note"] = "not measured (needs --spectator-cost)" if cost is None else "not measured (no actions)"
    else:
        entry["verdict"] = PASS if value <= SPECTATOR_COST_LIMIT_MS else MISS
    return entry


def render_targets(entries: dict[str, dict[str, Any]] | None) -> list[str]:
    """The report's block: one line per target."""
    if not entries:
        return []
    lines = ["targets (issue 23; the ratio is to the floor measured in this run)"]
    for e in entries.values():
        verdict = e["verdict"] or "-"
        if e["value"] is None:
            shown = e.get("note", "not measured")
        elif e["ratio"] is not None:
            shown = f"{e['value']} {e['unit']}, floor {e['floor']} {e['unit']}, ratio {e['ratio']}x"
        else:
            shown = f"{e['value']} {e['unit']}"
        lines.append(f"  {verdict:<4}  {e['figure']:<48} {shown} (target {e['target']})")
    return lines
