"""`share_styled_lines`: a widget's final lines (its content lines with the padding, border, title, background and
opacity CSS puts around them) made once per process for every session that shows the same widget the same way.

The Line-API widgets' content lines are shared pictures (`tui/picture.py`), but Textual's `StylesCache`
(one per widget) then made the styled line from it again at every session: each dirty line of each widget of each
screen went through `StylesCache.render_line` (the padding added, the border boxes looked up, the background and
opacity blended, a new `Strip` built), about a seventh of the server's CPU at a busy table, for lines that are the
same at every spectator's screen.

`StylesCache.render_widget` is replaced by one that asks a process-wide cache first for each line it would render.
A styled line is a function of what `render_line` is given and reads, all in its key:
- the widget's styles as `render_line` reads them (gutter, padding, border, outline, hatch, text opacity, title
  alignments), worked out again whenever the widget's styles change (`RenderStyles._cache_key`, as Textual does for
  the gutter); a tint is blended with the active app's colours: such a widget goes Textual's way;
- the widget's size and content size, its background and the one beneath it (all its ancestors' backgrounds and
  opacities, as `background_colors` blends them), its opacity, its border title and subtitle with their styles,
  the app's ANSI theme and whether it sends native ANSI colours (hover, focus and the theme reach the line through
  these: they are resolved into the styles);
- the row, and the content line drawn there, by value (its segments: text, style and control codes, and its cell
  length): a line drawn for one session is only reused where the content is the same.

What Textual does after its own per-widget cache stays per session: the line filters (the colour conversion of
each terminal), the crop to the visible columns and the hover style of links. A content line holding a hyperlink
or a click action is never stored (Rich's styles compare equal whatever their link id, which is per session).
The lines are Textual's own, made by its `render_line` on a miss: the output is the same, only made once.

Measured (tests/tui/patch_cost.py --off styled_lines, Python calls, 2026-12-07, the table's regions Line-API
pictures): a join +26%, opening the lobby +17%, a move +16%, a phase change +9%: kept (issue 23).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from typing import Any

from rich.terminal_theme import TerminalTheme
from textual._styles_cache import StylesCache
from textual.cache import LRUCache
from textual.color import Color
from textual.content import Content
from textual.css.styles import StylesBase
from textual.filter import LineFilter
from textual.geometry import Region, Size, Spacing
from textual.strip import Strip
from textual.style import Style
from textual.widget import Widget

from dixit_tui.textual_host.compat import STYLES_CACHE_NATIVE_ANSI, native_ansi_color
from dixit_tui.textual_host.process_caches import forget_with_shared

SHARED_STYLED_LINES = 4096
"""Styled lines kept process-wide (one row of one widget drawn one way)."""
_SIGNATURES = 4096
"""Ways of drawing a widget kept (each a small number in the lines' keys). Past this, the numbering starts over."""

Label = tuple[Content, Color, Color, Style]
_STYLES = "_dixit_styled_signature"
"""Set on a widget: (its styles' cache key, what `render_line` reads of them)."""
_BACKGROUNDS = "_dixit_styled_backgrounds"
"""Set on a widget: (the nodes from it up to the app and their styles' cache keys, its backgrounds and opacity as
worked out from them). Not on its StylesCache: Textual's `get_inner_outer` is an `lru_cache` on a method, which
keeps StylesCache objects alive (with their nodes, the apps) after their widgets are gone."""

_WAY = "_dixit_styled_way"
"""Set on a widget: (what its way of drawing was worked out from, its number, the arguments for `render_line`),
kept while none of those changes (see `_way`)."""

_lines: LRUCache[tuple[object, ...], Strip] = forget_with_shared(LRUCache(SHARED_STYLED_LINES))
_by_content: dict[tuple[int, int, int], tuple[Strip, Strip]] = forget_with_shared({})
"""(way's number, row, id of the content line) -> (the content line, the styled line): content lines are shared
objects (the pictures' strips), so the line met again is found by identity, without hashing its segments (the
content line is kept with it: while kept, the id is its own)."""
_signatures: dict[tuple[object, ...], int] = {}
_numbers = itertools.count(1)  # (never reused: a number cleared from `_signatures` is not given to another way)
_installed = False


def _style_signature(widget: Widget, styles: StylesBase) -> tuple[Any, ...] | None:
    """What `StylesCache.render_line` reads of `styles`, the widget's (None: a tint, which goes Textual's way), kept
    on the widget until its styles change."""
    stamp = styles._cache_key  # type: ignore[attr-defined]  # (RenderStyles: changes with any of its rules)
    kept: tuple[int, tuple[Any, ...] | None] | None = getattr(widget, _STYLES, None)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    signature: tuple[Any, ...] | None = None
    if not styles.tint.a:
        signature = (
            styles.gutter,
            styles.padding,
            styles.border,
            styles.outline,
            styles.hatch if styles.has_rule("hatch") else None,
            styles.text_opacity,
            styles.border_title_align,
            styles.border_subtitle_align,
        )
    setattr(widget, _STYLES, (stamp, signature))
    return signature


def _backgrounds(widget: Widget) -> tuple[Color, Color, float]:
    """`widget.background_colors` and `widget.opacity` (each blends the styles of every node up to the app), kept on
    the widget until a style of one of those nodes changes or the widget moves."""
    nodes: list[object] = []
    node: Any = widget
    while node is not None:
        nodes.append(node)
        nodes.append(node.styles._cache_key)
        node = node._parent
    kept: tuple[list[object], tuple[Color, Color, float]] | None = getattr(widget, _BACKGROUNDS, None)
    if kept is not None and kept[0] == nodes:  # (nodes compare by identity)
        return kept[1]
    base_background, background = widget.background_colors
    found = (base_background, background, widget.opacity)
    setattr(widget, _BACKGROUNDS, (nodes, found))
    return found


def _number(way: tuple[object, ...]) -> int:
    """A small number for one way of drawing a widget (the same for every widget drawn that way)."""
    number = _signatures.get(way)
    if number is None:
        if len(_signatures) >= _SIGNATURES:
            _signatures.clear()
        number = _signatures[way] = next(_numbers)
    return number


def _storable(content: Strip) -> bool:
    """Whether a content line may be shared: no hyperlink and no click action (their link ids are per session)."""
    for _, style, _ in content._segments:
        if style is not None and (style._link or (style._meta and b"@click" in style._meta)):
            return False
    return True


def _styled_line(
    cache: StylesCache,
    number: int,
    y: int,
    top: int,
    args: tuple[Any, ...],
    render_content_line: Callable[[int], Strip],
) -> Strip:
    """Row `y` of the widget, from the process-wide cache or made by Textual's `render_line` (`args`: its arguments
    but the row and the content callback, which are put in their places)."""
    styles, size, content_size, padding, base_background, background, title, subtitle, opacity, theme, native = args
    content_y = y - top
    content: Strip | None = None
    if 0 <= content_y < content_size.height:  # (every row `render_line` draws from the content, and only those)
        content = render_content_line(content_y)
        same = (number, y, id(content))
        kept = _by_content.get(same)
        if kept is not None and kept[0] is content:
            return kept[1]
        key: tuple[object, ...] = (number, y, content.cell_length, tuple(content._segments))
    else:
        key = (number, y)
    strip = _lines.get(key)
    if strip is not None:
        if content is not None:
            _keep_by_content(same, content, strip)
        return strip
    if content is not None:
        line = content
        render_content_line = lambda _: line  # noqa: E731  # (drawn already: not drawn twice)
    strip = cache.render_line(
        styles,
        y,
        size,
        content_size,
        padding,
        base_background,
        background,
        render_content_line,
        title,
        subtitle,
        opacity,
        theme,
        *((native,) if STYLES_CACHE_NATIVE_ANSI else ()),
    )
    if content is None:
        _lines.set(key, strip)
    elif _storable(content):
        _lines.set(key, strip)
        _keep_by_content(same, content, strip)
    return strip


def _keep_by_content(same: tuple[int, int, int], content: Strip, strip: Strip) -> None:
    if len(_by_content) >= SHARED_STYLED_LINES:
        _by_content.clear()
    _by_content[same] = (content, strip)


def _render(
    cache: StylesCache,
    number: int,
    top: int,
    args: tuple[Any, ...],
    render_content_line: Callable[[int], Strip],
    filters: Sequence[LineFilter],
    crop: Region,
) -> list[Strip]:
    """`StylesCache.render`, each line it would render asked of the process-wide cache first."""
    width = args[1].width
    if width != cache._width:
        cache.clear()
        cache._width = width
    lines = cache._cache
    dirty = cache._dirty_lines
    background: Color = args[5]
    strips: list[Strip] = []
    for y in crop.line_range:
        if y in dirty or y not in lines:
            strip = lines[y] = _styled_line(cache, number, y, top, args, render_content_line)
        else:
            strip = lines[y]
        for line_filter in filters:
            strip = strip.apply_filter(line_filter, background)
        strips.append(strip)
    dirty.difference_update(crop.line_range)
    if crop.column_span != (0, width):
        x1, x2 = crop.column_span
        strips = [strip.crop(x1, x2) for strip in strips]
    return strips


def _label(widget: Widget, base_background: Color, subtitle: bool) -> Label | None:
    """The border title (or subtitle) as `render_widget` hands it to `render_line`."""
    if subtitle:
        text = widget._border_subtitle
        return None if text is None else (text, *widget._get_subtitle_style_information(base_background))
    text = widget._border_title
    return None if text is None else (text, *widget._get_title_style_information(base_background))


def _way(widget: Widget, signature: tuple[Any, ...]) -> tuple[int, tuple[Any, ...]]:
    """The number of the widget's way of drawing and the arguments `render_line` takes (but the row and the content
    callback), worked out again only when something they are made of changes: its styles (any rule: the border
    title's colour and style are read here, not in `signature`), its and its ancestors' backgrounds and opacity
    (`_backgrounds`), its size, its border title and subtitle, the app's ANSI theme and colours."""
    base_background, background, opacity = found = _backgrounds(widget)
    region: Region = widget.region  # (not `outer_size`: a widget not in the screen's map has none, and no lines)
    size: Size = region.size
    app = widget.app
    theme: TerminalTheme = app.ansi_theme
    native = native_ansi_color(app)
    styles = widget.styles
    stamp = (
        styles._cache_key,  # (changes with any rule: the titles' styles read below too)
        signature,
        found,
        size,
        widget._border_title,
        widget._border_subtitle,
        theme,
        native,
    )
    kept: tuple[tuple[object, ...], int, tuple[Any, ...]] | None = getattr(widget, _WAY, None)
    if kept is not None and kept[0] == stamp:  # (the same objects: compared by identity first)
        return kept[1], kept[2]
    gutter: Spacing = signature[0]
    padding: Spacing = signature[1]
    content_size = region.shrink(gutter).size  # (`widget.content_region`, without finding the region again)
    title = _label(widget, base_background, subtitle=False)
    subtitle = _label(widget, base_background, subtitle=True)
    number = _number(
        (signature, size, content_size, base_background, background, title, subtitle, opacity, theme, native)
    )
    args = (styles, size, content_size, padding, base_background, background, title, subtitle, opacity, theme, native)
    setattr(widget, _WAY, (stamp, number, args))
    return number, args


Way = tuple[tuple[Any, ...], int, tuple[Any, ...]]
"""A widget's way of drawing as `drawn_as` found it: its style signature, the way's number, `render_line`'s
arguments."""

_ahead: tuple[Widget, Way] | None = None
"""The widget drawn now by `drawing` and its way, found before it was drawn (not worked out again)."""


def drawn_as(widget: Widget) -> tuple[tuple[object, ...], Way] | None:
    """What a widget's final lines are made of besides their rows and content lines, as one key: its way of drawing
    (`_way`'s number: its styles, size, content size, backgrounds, border title and subtitle, the theme) and its line
    filters (the terminal's colours; the objects themselves, held by the key); and that way, for `drawing`. None when
    its lines are not made that way: a tint (Textual's own way), a blank widget, links styled on hover."""
    if widget.BLANK or (widget.auto_links and widget.hover_style.link_id):
        return None
    signature = _style_signature(widget, widget.styles)
    if signature is None:
        return None
    number, args = _way(widget, signature)
    return (number, *widget.get_line_filters()), (signature, number, args)


def drawing(widget: Widget, way: Way, draw: Callable[[], list[Strip]]) -> list[Strip]:
    """`draw()`, the widget's Textual drawing (`Widget.render_lines`), its styled lines made the way `drawn_as` found
    just before (a way is worked out from its styles, backgrounds, size and theme: not twice)."""
    global _ahead
    _ahead = (widget, way)
    try:
        return draw()
    finally:
        _ahead = None


def shareable(strips: Sequence[Strip | None]) -> bool:
    """Whether lines may be shown by other sessions: no hyperlink and no click action (their ids are per session)."""
    for strip in strips:  # noqa: SIM110  # (a loop: cheaper than all() of a generator)
        if strip is not None and not _storable(strip):
            return False
    return True


def share_styled_lines() -> None:
    """Make every widget's StylesCache take its lines from the process-wide cache when it can. Idempotent."""
    global _installed
    if _installed:
        return
    render_widget = StylesCache.render_widget

    @functools.wraps(render_widget)  # (Textual's own way: `inspect.unwrap(StylesCache.render_widget)`)
    def shared_render_widget(self: StylesCache, widget: Widget, crop: Region) -> list[Strip]:
        ahead = _ahead
        if ahead is not None and ahead[0] is widget:  # (found by `drawn_as` just before: `drawing`)
            signature, number, args = ahead[1]
        else:
            found = _style_signature(widget, widget.styles)
            if found is None:
                return render_widget(self, widget, crop)
            signature = found
            number, args = _way(widget, signature)
        self._simple_strip = None
        strips = _render(
            self,
            number,
            signature[0].top,
            args,
            widget.render_line,
            widget.get_line_filters(),
            crop,
        )
        if widget.auto_links:  # (Textual's, as it is)
            hover_style = widget.hover_style
            if hover_style._link_id and hover_style._meta and "@click" in hover_style.meta:
                link_style_hover = widget.link_style_hover
                if link_style_hover:
                    strips = [strip.style_links(hover_style.link_id, link_style_hover) for strip in strips]
        return strips

    StylesCache.render_widget = shared_render_widget  # type: ignore[method-assign]
    _installed = True
