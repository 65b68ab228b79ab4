"""A line the ANSI-to-truecolor filter leaves as it is is not copied for every frame, nor worked out per session.

Touches: `textual.strip.Strip.apply_filter`, replaced (reads `Strip._filter_cache`, `_segments`, `_cell_length`);
`textual.filter.ANSIToTruecolor._terminal_theme` read, and what `ANSIToTruecolor.truecolor_style` and `apply` change
relied on. Why: Textual copies every rendered line into a new strip, with its caches, for every frame that renders
it, and keys its filter cache by the filter object: each session has its own, so the same shared strip was checked
and copied again for every session. Here a strip the filter leaves unchanged is returned as it is, and one it changes
is made once per theme and background for every session.

Measured (issue 23, 2026-12-07): without it (tests/tui/patch_cost.py --off strip_filter) a join +7.9% of Python calls,
opening the lobby +4.2%, a move +1.9%, a phase change +1.6%; `dixit-tui bench --seed 7 --sessions 20 --tables 2
--duration 20 --with-floor` (13 spectators share the strips), back to back, twice: 7.0 / 7.0 ms of server CPU per
terminal update without it, 6.5 / 6.3 ms with it (floor 1.2 / 1.2 and 1.0 / 1.3 ms): kept.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, cast

from rich.style import Style
from textual.color import Color
from textual.filter import ANSIToTruecolor, LineFilter
from textual.strip import Strip

_UNCHANGED: Any = object()
"""Kept in a strip's filter cache for a filter that leaves the strip as it is (the strip itself there would be a
reference cycle)."""


@lru_cache(maxsize=4096)
def _truecolor_changes(style: Style) -> bool:
    """Whether `ANSIToTruecolor.truecolor_style` changes `style`: an ANSI (palette) colour or background, or dim text
    with a colour (whatever the background)."""
    color, bgcolor = style.color, style.bgcolor
    return (color is not None and (color.triplet is None or bool(style.dim))) or (
        bgcolor is not None and bgcolor.triplet is None
    )


_ANY_TRUECOLOR: Any = (ANSIToTruecolor, None)
"""The key, in a strip's filter cache, of "every `ANSIToTruecolor` leaves this strip as it is" (whatever its theme
and the background: see `_truecolor_changes`). Each session has its own filter object, and a strip's filter cache
holds four: keyed by the filter, the answer was worked out again at each session for the same shared strip (and a
strip it changes was copied again for each: it is kept by the filter's theme and the background)."""


def _apply_filter(self: Strip, filter: LineFilter, background: Color) -> Strip:
    """Textual's Strip.apply_filter, but a strip that `ANSIToTruecolor` would leave unchanged is returned as it is
    (Textual copies every rendered line into a new strip, with its five caches, for every frame that renders it)."""
    truecolor = type(filter) is ANSIToTruecolor
    cache = self._filter_cache
    if truecolor and cache.get(_ANY_TRUECOLOR) is _UNCHANGED:
        return self
    # (what `ANSIToTruecolor` makes depends on its theme and the background only: one strip for every session)
    key: Any = (
        (ANSIToTruecolor, cast(ANSIToTruecolor, filter)._terminal_theme, background)
        if truecolor
        else (filter, background)
    )
    cached = cache.get(key)
    if cached is _UNCHANGED:
        return self
    if cached is None:
        if truecolor and not any(
            control is not None or (style is not None and _truecolor_changes(style))
            for _, style, control in self._segments
        ):
            cache[_ANY_TRUECOLOR] = _UNCHANGED
            return self
        cached = Strip(filter.apply(self._segments, background), self._cell_length)
        self._filter_cache[key] = cached
    return cached


def filter_unchanged_lines_once() -> None:
    """See the module's docstring. Called once, by `patches.install_textual_patches`."""
    Strip.apply_filter = _apply_filter  # type: ignore[method-assign]
