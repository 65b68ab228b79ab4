"""The test oracle of a layout of a part of the screen (`RowCompositor._reflow_part`): Textual's own layout of the
whole screen, made beside it, must give the very same map and widgets."""

from __future__ import annotations

from textual._compositor import CompositorMap
from textual.cache import FIFOCache
from textual.geometry import Size
from textual.widget import Widget

from dixit_tui.tui.compositor import RowCompositor


def part_mismatches(
    compositor: RowCompositor, screen: Widget, size: Size, part_map: CompositorMap, widgets: set[Widget]
) -> list[object]:
    """How a part laid out (its map `part_map` and `widgets`) differs from what Textual's whole layout gives: the same
    map (in the same order) and widgets; and so does a whole layout with every container below the screen arranged
    anew (the arrangements kept are not out of date; the screen's own is kept: a text box that keeps its height,
    TextBox.keep_height, relies on it). [] when they agree."""
    mismatches: list[object] = []
    full_map, full_widgets = compositor._arrange_root(screen, size, visible_only=False)
    _compare(mismatches, "whole", full_map, full_widgets, part_map, widgets, size)
    kept = {widget: widget._arrangement_cache for widget in screen.walk_children(Widget)}
    try:
        for widget in kept:
            widget._arrangement_cache = FIFOCache(4)
        fresh_map, fresh_widgets = compositor._arrange_root(screen, size, visible_only=False)
    finally:
        for widget, cache in kept.items():  # (the app goes on as it would have)
            widget._arrangement_cache = cache
    _compare(mismatches, "arranged anew", fresh_map, fresh_widgets, part_map, widgets, size)
    return mismatches


def _compare(
    mismatches: list[object],
    what: str,
    full_map: CompositorMap,
    full_widgets: set[Widget],
    part_map: CompositorMap,
    widgets: set[Widget],
    size: Size,
) -> None:
    if list(full_map.items()) != list(part_map.items()) or full_widgets != widgets:
        different = [w for w in full_map.keys() | part_map.keys() if full_map.get(w) != part_map.get(w)]
        mismatches.append(
            (
                what,
                size,
                [(w, full_map.get(w), part_map.get(w)) for w in different],
                list(full_map) == list(part_map),
                full_widgets ^ widgets,
            )
        )
