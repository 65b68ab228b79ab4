"""`LineCached`: a widget that draws a changed line of its text without drawing the others again.

Textual renders a widget's whole text again (every line wrapped and turned into strips) whenever any part of it is
refreshed: a seat row that changes redraws the sixteen rows of the seats panel, a new status line wraps the others
again. `LineCached` keeps the strips of each line of its `Content` (keyed by its text and styles) and rebuilds only
the lines whose text or styles changed; the strips of the others are reused as they are (strips are immutable).

The result is the same as Textual's: each line of a Content is wrapped on its own by Textual too
(`Content._wrap_and_format` splits the text at newlines first), and the same `Visual.to_strips` renders each one. A
selection, an alignment of the whole block or anything but a `Content` goes Textual's own way.
"""

from __future__ import annotations

from typing import Any

from textual.content import Content, Span
from textual.strip import Strip
from textual.visual import Visual
from textual.widget import Widget, _RenderCache

LineKey = tuple[str, tuple[Span, ...]]


class LineCached(Widget):
    """(A mixin: list it after the widget's own class, so that CSS still matches that class's name.)"""

    _line_strips: dict[LineKey, list[Strip]]
    _line_strips_for: tuple[Any, ...] | None = None  # (width, visual style) the strips were made for

    def _render_content(self) -> None:
        width, height = self.size
        visual = self._render()
        if (
            not isinstance(visual, Content)
            or self.text_selection is not None
            or self.styles.content_align != ("left", "top")
        ):
            self._line_strips_for = None
            super()._render_content()
            return
        style = self.visual_style
        made_for = (width, style)
        old = self._line_strips if self._line_strips_for == made_for else {}
        new: dict[LineKey, list[Strip]] = {}
        strips: list[Strip] = []
        for line in visual.split(allow_blank=True):
            key = (line.plain, tuple(line.spans))
            got = new.get(key)
            if got is None:
                got = old.get(key)
                if got is None:
                    got = Visual.to_strips(self, line, width, None, style)
                new[key] = got
            strips.extend(got)
        self._line_strips = new
        self._line_strips_for = made_for
        self._render_cache = _RenderCache(self.size, strips[:height])
        self._dirty_regions.clear()

    def notify_style_update(self) -> None:
        self._line_strips_for = None  # (a theme or CSS change: styles named in the text may mean something else)
        super().notify_style_update()
