"""One row of a picture made of text, as Textual draws a text in a widget (player text: plain text in a `Content`)."""

from __future__ import annotations

from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.content import Content
from textual.markup import parse_style
from textual.style import Style
from textual.visual import RenderOptions

from dixit_tui.tui.picture import Line


def style_of(style: str | Style) -> Style:
    """A text's style from its words' style (e.g. "bold"): parsed once per process, the same for every app. (Textual
    parses it with the app's stylesheet, once per app, whose first parse reads all its CSS variables: 1.3k Python
    calls of each join and each lobby's opening.) A style naming a CSS variable is the app's: parsed by it."""
    if isinstance(style, Style):
        return style
    if "$" in style:
        return Style.parse(style)
    return _parsed(style)


@lru_cache(maxsize=256)
def _parsed(style: str) -> Style:
    return parse_style(style, {})


BOLD = style_of("bold")

_OPTIONS = RenderOptions(style_of, {})  # (no rules: text wraps and folds as Textual's default)


def text_row(
    text: Content,
    width: int,
    style: Style,
    meta: dict[str, object] | None = None,
    left: int = 0,
    right: int = 0,
    blank: RichStyle | None = None,
) -> Line:
    """`text` in `style` after `left` blank cells, then blank to `width` cells (`right` of them at least; in `blank`,
    else `style`), as Textual draws a list's item or a padded text: the text's cells marked with `meta`, the blanks
    not (so a screen's cells join into runs as they did)."""
    strips = text.render_strips(max(1, width - left - right), None, style, _OPTIONS)
    blank = blank or style.rich_style
    segments: Line = [Segment(" " * left, blank)] if left else []
    segments.extend(strips[0] if strips else ())
    used = sum(cell_len(segment.text) for segment in segments)
    if used < width:
        segments.append(Segment(" " * (width - used), blank))
    return list(Segment.apply_style(segments, post_style=RichStyle.from_meta(meta))) if meta else segments
