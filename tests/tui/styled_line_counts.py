"""Styled lines counted from the test's side: the lines a widget asks of the process-wide cache
(`styled_lines._styled_line`, wrapped: it still runs) and those of them made by Textual's `StylesCache.render_line`
(the others were taken from the cache); and a widget's lines drawn Textual's own way, the patch taken off for the
length of the drawing."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar
from unittest.mock import patch

from textual._styles_cache import StylesCache
from textual.strip import Strip

from dixit_tui.textual_host import styled_lines

T = TypeVar("T")


class StyledLines:
    def __init__(self) -> None:
        self.asked = 0
        """Lines asked of the process-wide cache."""
        self.made = 0
        """Lines of those made by Textual's `render_line` (the cache could not answer)."""

    @property
    def taken(self) -> int:
        """Lines taken from the process-wide cache."""
        return self.asked - self.made


@contextmanager
def counted_styled_lines() -> Iterator[StyledLines]:
    """Inside the block, the styled lines asked of the process-wide cache and made, counted."""
    counts = StyledLines()
    styled_line = styled_lines._styled_line
    render_line = StylesCache.render_line
    inside = False

    def counted_line(*args: Any) -> Strip:
        nonlocal inside
        counts.asked += 1
        inside = True
        try:
            return styled_line(*args)
        finally:
            inside = False

    def counted_render(self: StylesCache, *args: Any) -> Strip:
        if inside:
            counts.made += 1
        return render_line(self, *args)

    with (
        patch.object(styled_lines, "_styled_line", counted_line),
        patch.object(StylesCache, "render_line", counted_render),
    ):
        yield counts


def textual_way(draw: Callable[[], T]) -> T:
    """What `draw()` gives with every widget drawn Textual's way (`StylesCache.render_widget` as Textual has it)."""
    shared = StylesCache.render_widget
    assert shared is not inspect.unwrap(shared), "the shared styled lines are not installed"
    with patch.object(StylesCache, "render_widget", inspect.unwrap(shared)):
        return draw()
