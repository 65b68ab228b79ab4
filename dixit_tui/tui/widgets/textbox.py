"""`TextBox`: a Static fed `Content` that does as little as it can on each update.

Every view update re-renders the table screen's text lines (status, clue, notes). A plain `Static.update` repaints
and asks for a layout of the whole screen each time, even when nothing changed. `TextBox.show` skips an update that
changes nothing, and asks for a layout only when the text's height changes.
"""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.widgets import Static

from dixit_tui.tui.compositor import LaidOutOnce


def same_content(a: Content, b: Content) -> bool:
    """Same text and same styles (Content's own `==` compares the text only)."""
    if a is b:
        return True
    return a.plain == b.plain and list(a.spans) == list(b.spans)


def _height(content: Content, rules: Any, width: int) -> int:
    """The rows `content` takes at `width` (a line that fits takes one: no need to wrap it to know)."""
    plain = content.plain
    if plain and "\n" not in plain and content.cell_length <= width and not rules.line_pad:
        return 1
    return content.get_height(rules, width)


class TextBox(Static, LaidOutOnce):
    """`keep_height`: a shorter text does not shrink the box until `fit_height` is called (the table calls it when
    the phase changes, which lays the screen out anyway), so a line that shortens as players act (the status line)
    never lays the screen out."""

    def __init__(
        self,
        content: Content | None = None,
        *,
        id: str | None = None,
        classes: str | None = None,
        keep_height: bool = False,
    ) -> None:
        self._shown = content if content is not None else Content("")
        self._keep_height = keep_height
        self._too_tall = False  # (keep_height) taller than the text: `fit_height` lays it out again
        super().__init__(self._shown, id=id, classes=classes, markup=False)

    @property
    def shown(self) -> Content:
        return self._shown

    def show(self, content: Content) -> None:
        old = self._shown
        if same_content(content, old):
            return
        self._shown = content
        width, box_height = self.content_region.size  # (looked up once: each lookup asks the compositor)
        rules: Any = self.styles  # what Textual itself passes to measure a visual
        if width <= 0:
            relayout = True
        elif self._keep_height:  # lay out only to grow: a shorter text leaves a blank row until `fit_height`
            height = _height(content, rules, width)
            relayout = height > box_height
            self._too_tall = not relayout and height < box_height
        else:
            relayout = _height(content, rules, width) != _height(old, rules, width)
        self.update(content, layout=relayout)

    def fit_height(self) -> None:
        """(keep_height) Shrink to the text if it got shorter since the box was last laid out."""
        if self._too_tall:
            self._too_tall = False
            self.refresh(layout=True)
