"""A layout of a part of the screen (`RowCompositor._reflow_part`: the hand and the board switched, the clue line above
them a row taller or shorter) makes the very map a layout of the whole screen makes: every widget's region, clip,
paint order and sizes, in the same order, and the same widgets. Checked at each part laid out (part_oracle.py: the
whole screen is arranged again beside it and compared) over games at several terminal sizes, with the terminal
resized between the moves, at a spectator's screen and at a player's."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any

import pytest

from dixit_tui.tui import compositor, subtree_layout
from dixit_tui.tui.compositor import RowCompositor
from dixit_tui.tui.line_cache import forget_shared
from tests.tui import screen_cost
from tests.tui.fixtures import coordinator, default_move, default_move_pending, phase_of, settle
from tests.tui.part_oracle import part_mismatches
from tests.tui.screen_cost import short_game


async def _game_checked(monkeypatch: pytest.MonkeyPatch, role: str, sizes: list[tuple[int, int]]) -> tuple[int, int]:
    """A short game (screen_cost.short_game), the terminal resized to the next of `sizes` before each move, every part
    laid out compared with the whole screen's layout: (parts laid out, mismatches)."""
    forget_shared()
    mismatches: list[object] = []
    reflow_part = RowCompositor._reflow_part

    def checked(self: RowCompositor, screen: Any, size: Any) -> Any:
        result = reflow_part(self, screen, size)
        if result is not None:  # a part was laid out: its map and widgets are the compositor's now
            mismatches.extend(part_mismatches(self, screen, size, self._full_map, self.widgets))
        return result

    monkeypatch.setattr(RowCompositor, "_reflow_part", checked)
    parts = compositor.part_reflows
    coord = coordinator()
    async with AsyncExitStack() as stack:
        sessions, _, pilot = await short_game(coord, stack, sizes[0], role)
        for step in range(40):
            movers = [s for s in sessions if default_move_pending(s)]
            if not movers:
                break
            await pilot.resize_terminal(*sizes[step % len(sizes)])
            await settle(pilot)
            await default_move(movers[0])
            await settle(pilot)
        assert phase_of(sessions[0])[2] == "over"
    return compositor.part_reflows - parts, len(mismatches)


@pytest.mark.parametrize("role", ["watcher", "player"])
@pytest.mark.parametrize("sizes", [[(100, 30)], [(80, 24), (100, 30), (140, 45)], [(60, 20), (80, 24)]])
async def test_a_part_laid_out_is_what_the_whole_layout_makes(
    monkeypatch: pytest.MonkeyPatch, role: str, sizes: list[tuple[int, int]]
) -> None:
    parts, mismatches = await _game_checked(monkeypatch, role, sizes)
    assert mismatches == 0, (role, sizes)
    assert parts >= 3, (role, sizes, parts)  # (the board, the hand, the board again, at least)


async def test_the_check_sees_a_part_placed_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """(The comparison can fail: a part placed one row lower than Textual places it is seen.)"""
    arrange = subtree_layout.arrange_subtree

    def one_row_lower(root: Any, size: Any, geometry: Any) -> Any:
        map, widgets = arrange(root, size, geometry)
        return {w: g._replace(region=g.region.translate((0, 1))) for w, g in map.items()}, widgets

    monkeypatch.setattr(compositor, "arrange_subtree", one_row_lower)
    parts, mismatches = await _game_checked(monkeypatch, "watcher", [(100, 30)])
    assert parts >= 3 and mismatches == 2 * parts  # (against the whole layout, and one arranged anew)


async def test_another_phase_arranges_only_the_main_column(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another phase arranges again only what changed: the main column (the clue line above the main region a row
    shorter; the main region changes its mode, not its widgets)."""
    import textual.widget

    arranged: list[str] = []
    arrange = textual.widget.arrange

    def counted(widget: Any, *args: Any, **kwargs: Any) -> Any:
        arranged.append(widget.id or type(widget).__name__)
        return arrange(widget, *args, **kwargs)

    monkeypatch.setattr(textual.widget, "arrange", counted)
    seen: dict[str, list[str]] = {}
    count = screen_cost.count

    async def count_arranged(app: Any, pilot: Any, update: Any) -> Any:
        arranged.clear()
        result = await count(app, pilot, update)
        seen[f"{len(seen)}"] = list(arranged)
        return result

    monkeypatch.setattr(screen_cost, "count", count_arranged)
    transitions = [transition for transition, _, _ in await screen_cost.phase_changes((100, 30), "watcher")]
    by_transition = dict(zip(transitions, seen.values(), strict=True))
    assert sorted(by_transition["2:submit->vote"]) == ["main"], by_transition
