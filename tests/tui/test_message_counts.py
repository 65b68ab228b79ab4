"""The messages a watcher's app handles per update, counted (never timed): an 8-seat table of bots watched by a
spectator's app and played by a seated player's app, two turns played by the bots and the player (counts from
tests/tui/message_cost.py, per screen, for the bots' moves only).

An ordinary move costs a spectator the coordinator's update and a repaint of each widget it changed, no layout.
A phase change lays the screen out, and the screen is arranged at most twice for the layout.
"""

from __future__ import annotations

from tests.tui.message_cost import Row, run

_rows: dict[str, Row] | None = None


async def played() -> dict[str, Row]:
    """Two turns, counted once per test process (the counts are data: each test reads them)."""
    global _rows
    if _rows is None:
        _rows = await run(2)
    return _rows


def phase_changes(rows: dict[str, Row]) -> dict[str, Row]:
    changes = {label: row for label, row in rows.items() if "->" in label}
    assert {"clue->submit", "submit->vote", "vote->clue"} <= changes.keys(), list(rows)
    return changes


async def test_an_ordinary_move_costs_a_spectator_its_update_and_a_repaint_per_widget_it_changed() -> None:
    """The coordinator's update, then Textual's way of a repaint: each widget the move changed prompts itself once and
    posts its screen an Update; nothing is laid out. (Before issue 23 removed dispatch.py's repaints without messages,
    2.1% of a move's Python calls, the update was the only message.)"""
    rows = await played()
    for label in ("submit", "vote"):
        row = rows[label]
        spectator = row.counts[0]
        assert spectator.by_type["CoordinatorUpdate"] == row.n, (label, spectator.by_receiver)
        assert set(spectator.by_type) <= {"CoordinatorUpdate", "Prompt", "Update"}, (label, spectator.by_receiver)
        prompted = {name: n for name, n in spectator.by_receiver.items() if name.startswith("Prompt -> ")}
        assert all(n <= row.n for n in prompted.values()), (label, prompted)  # (each widget once per update at most)
        assert spectator.by_type["Update"] <= spectator.by_type["Prompt"], (label, spectator.by_receiver)
        assert spectator.layouts == 0


async def test_a_layout_arranges_the_screen_once() -> None:
    laid_out = 0
    for label, row in phase_changes(await played()).items():
        for who, counts in zip(("spectator", "player"), row.counts, strict=True):
            # (a phase change that resizes nothing lays nothing out: the side column's picture keeps its room when
            # a seat's line of words comes or goes)
            laid_out += counts.layouts >= 1
            # (each layout arranges the whole screen, and Textual arranges it once more where its full map was marked
            # out of date after it: the part layouts that kept to once went with issue 23, 2.3% of a move's calls and
            # 5.3% of a phase change's, tests/tui/patch_cost.py)
            assert counts.layouts <= counts.arrangements <= 2 * counts.layouts, (label, who, counts)
    assert laid_out >= 3, laid_out
