"""`LineCached`: a widget that draws a changed line of its text without drawing the others again; `shared_strips`: a
line of text drawn once for every session that shows it.

Textual renders a widget's whole text again (every line wrapped and turned into strips) whenever any part of it is
refreshed: a seat row that changes redraws the sixteen rows of the seats panel, a new status line wraps the others
again. `LineCached` keeps the strips of each line of its `Content` (keyed by its text and styles) and rebuilds only
the lines whose text or styles changed; the strips of the others are reused as they are (strips are immutable).

The sessions at a table show the same lines (the seats, the log, the clue, the board; a spectator's whole screen is
every other spectator's): `shared_strips` keeps the strips of the lines drawn lately, process-wide, keyed by
everything Textual's rendering of a line depends on (its text and styles, the width, the widget's style and text
rules), so a line that changed at a table is drawn once, not once per session. A line whose styles name something
a widget resolves itself (a component class, a theme variable) is drawn for its widget alone.

The result is the same as Textual's: each line of a Content is wrapped on its own by Textual too
(`Content._wrap_and_format` splits the text at newlines first), and the same `Visual.to_strips` renders each one. A
selection, an alignment of the whole block or anything but a `Content` goes Textual's own way.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from textual.cache import LRUCache
from textual.content import Content, Span
from textual.strip import Strip
from textual.style import Style
from textual.visual import Visual
from textual.widget import Widget, _RenderCache

LineKey = tuple[str, tuple[Span, ...]]

SHARED_LINES = 4096
"""Lines kept by `shared_strips` (a line of text at one width in one style: its strips)."""


class _Clearable(Protocol):
    def clear(self) -> None: ...


_caches: list[_Clearable] = []

_Cache = TypeVar("_Cache", bound=_Clearable)


def shared_cache(maxsize: int) -> LRUCache[tuple[object, ...], list[Strip]]:
    """A process-wide cache of drawn lines (`forget_shared` empties it with the others)."""
    cache: LRUCache[tuple[object, ...], list[Strip]] = LRUCache(maxsize)
    _caches.append(cache)
    return cache


def forget_with_shared(cache: _Cache) -> _Cache:
    """`cache`, emptied by `forget_shared` with the others (a process-wide cache of other drawn things)."""
    _caches.append(cache)
    return cache


def forget_shared() -> None:
    """Empty every process-wide cache of drawn lines (tests count the lines drawn from nothing)."""
    for cache in _caches:
        cache.clear()


_shared = shared_cache(SHARED_LINES)


def _own_styles(spans: tuple[Span, ...]) -> bool:
    """Whether a span's style is resolved by its widget (a component class `.name`, a `$variable`)."""
    for span in spans:
        style = span.style
        if isinstance(style, str) and (style.startswith(".") or "$" in style):
            return True
    return False


def text_rules(widget: Widget) -> tuple[object, ...]:
    """The widget's rules that Textual's rendering of a text line reads (`Content.render_strips`)."""
    get = widget.styles.get
    return (get("text_align", "left"), get("text_overflow", "fold"), get("text_wrap", "wrap"), get("line_pad", 0))


def shared_strips(
    widget: Widget, line: Content, width: int, style: Style, rules: tuple[object, ...] | None = None
) -> list[Strip]:
    """`Visual.to_strips(widget, line, width, None, style)`, drawn once for every widget showing the same line the
    same way (`rules`: `text_rules(widget)`, when the caller has them). For a widget without a text selection whose
    content is aligned left and top (`to_strips` aligns the whole block otherwise)."""
    spans = tuple(line.spans)
    if _own_styles(spans):
        return Visual.to_strips(widget, line, width, None, style)
    key = (line.plain, spans, width, style, rules if rules is not None else text_rules(widget))
    strips = _shared.get(key)
    if strips is None:
        strips = Visual.to_strips(widget, line, width, None, style)
        _shared.set(key, strips)
    return strips


class LineCached(Widget):
    """(A mixin: list it after the widget's own class, so that CSS still matches that class's name.)"""

    _line_strips: dict[LineKey, list[Strip]]
    _line_strips_for: tuple[Any, ...] | None = None  # (width, visual style, text rules) the strips were made for
    _split: tuple[Content, list[Content]] | None = None  # the text last drawn, and its lines

    def content_lines(self) -> list[Content] | None:
        """The lines of the text, when the widget has them at hand (else its `Content` is split into lines)."""
        return None

    def _lines_of(self, visual: Content) -> list[Content]:
        """`visual` split into lines (splitting divides every span: done once per text)."""
        split = self._split
        if split is not None and split[0] is visual:
            return split[1]
        lines = [visual] if "\n" not in visual.plain else visual.split(allow_blank=True)
        self._split = (visual, lines)
        return lines

    def _render_content(self) -> None:
        width, height = self.size
        lines = self.content_lines()
        if lines is None or self.text_selection is not None or self.styles.content_align != ("left", "top"):
            visual = self._render()
            if (
                not isinstance(visual, Content)
                or self.text_selection is not None
                or self.styles.content_align != ("left", "top")
            ):
                self._line_strips_for = None
                super()._render_content()
                return
            lines = self._lines_of(visual)
        style = self.visual_style
        rules = text_rules(self)
        made_for = (width, style, rules)
        old = self._line_strips if self._line_strips_for == made_for else {}
        new: dict[LineKey, list[Strip]] = {}
        strips: list[Strip] = []
        for line in lines:
            key = (line.plain, tuple(line.spans))
            got = new.get(key)
            if got is None:
                got = old.get(key)
                if got is None:
                    got = shared_strips(self, line, width, style, rules)
                new[key] = got
            strips.extend(got)
        self._line_strips = new
        self._line_strips_for = made_for
        self._render_cache = _RenderCache(self.size, strips[:height])
        self._dirty_regions.clear()

    def notify_style_update(self) -> None:
        self._line_strips_for = None  # (a theme or CSS change: styles named in the text may mean something else)
        super().notify_style_update()
