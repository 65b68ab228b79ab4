"""A line sent to each session with the colour codes of its own terminal, and fewer bytes for the same screen.

Touches: `textual.strip.Strip.render_style` and `Strip.render`, replaced; reads `Style._link`, `_link_id`,
`_attributes`, `_set_attributes`, `_color`, `_bgcolor` (rich) and `Console._color_system`. Why: Rich and Textual cache
a style's ANSI codes on the shared Style object (`style._ansi`), and a rendered line on the shared strip, whatever
the colour system: with many sessions in one process the first session's colour system leaked into every other's
(256-colour codes sent to a 16-colour terminal). Here the codes and the lines are kept per colour system. `render`
also sends only what changes from one segment's style to the next.
"""

from __future__ import annotations

from functools import lru_cache

from rich.color import ColorSystem
from rich.console import Console
from rich.style import Style
from textual.strip import SGR_STYLES, Strip


def _render_style(cls: type[Strip], style: Style, text: str, color_system: ColorSystem) -> str:
    """Textual's Strip.render_style without the colour-system-blind `style._ansi` shortcut."""
    ansi = cls.render_ansi(style, color_system)
    output = f"\x1b[{ansi}m{text}\x1b[0m" if ansi else text
    if style._link:
        output = f"\x1b]8;id={style._link_id};{style._link}\x1b\\{output}\x1b]8;;\x1b\\"
    return output


_Codes = tuple[frozenset[str], str, str]
"""A style's SGR codes: its attributes' codes, its colour's, its background's ("" for none)."""
_NO_CODES: _Codes = (frozenset(), "", "")


@lru_cache(maxsize=16384)
def _style_codes(style: Style, color_system: ColorSystem) -> tuple[_Codes, str]:
    """A style's SGR codes, and all of them as Textual sends them (`Strip.render_ansi`, the same order)."""
    attributes = style._attributes & style._set_attributes
    names = [code for bit, code in enumerate(SGR_STYLES) if attributes & (1 << bit)]
    color = ";".join(style._color.downgrade(color_system).get_ansi_codes()) if style._color is not None else ""
    bgcolor = (
        ";".join(style._bgcolor.downgrade(color_system).get_ansi_codes(False)) if style._bgcolor is not None else ""
    )
    return (frozenset(names), color, bgcolor), ";".join(filter(None, [*names, color, bgcolor]))


def _sgr_change(current: _Codes, new: _Codes, full: str) -> str:
    """The SGR sequence that takes the terminal from the style `current` to `new`: only what changes when `new` keeps
    every attribute of `current` (bold stays bold), else a reset and all of `new`'s codes."""
    attributes, color, bgcolor = current
    new_attributes, new_color, new_bgcolor = new
    if not attributes <= new_attributes:
        return f"\x1b[0;{full}m" if full else "\x1b[0m"
    codes = sorted(new_attributes - attributes, key=SGR_STYLES.index)
    if new_color != color:
        codes.append(new_color or "39")
    if new_bgcolor != bgcolor:
        codes.append(new_bgcolor or "49")
    return f"\x1b[{';'.join(codes)}m"


def _render_strip(self: Strip, console: Console) -> str:
    """Textual's Strip.render, with fewer bytes for the same screen: Textual sends each segment as its style's codes,
    its text and a reset (`ESC[1;97;40mdan ESC[0m ESC[1;97;40m, ESC[0m`), also between segments of the same style.
    Here only what changes from one segment's style to the next is sent (nothing for the same style, `ESC[46m` for a
    new background; a reset with the new codes in one sequence when an attribute ends), and one reset at the end:
    each character is drawn with the same attributes and colours as with Textual's, and the terminal is left the
    same after the line (reset). A segment with a link is sent Textual's way.

    The line as sent is kept per colour system (`_renders`), not on the strip as Textual does: sessions share strips
    (the same line drawn once for every session showing it, see `process_caches.py`), and their terminals
    may take different colour codes."""
    color_system = console._color_system or ColorSystem.TRUECOLOR
    key = (id(self), color_system)
    kept = _renders.get(key)
    if kept is not None and kept[0] is self:
        return kept[1]
    parts: list[str] = []
    append = parts.append
    current = _NO_CODES  # the codes in force (none, as after a reset)
    for text, style, _ in self._segments:
        if style is None:
            codes, full = _NO_CODES, ""
        elif style._link:
            if current != _NO_CODES:
                append("\x1b[0m")
                current = _NO_CODES
            append(_render_style(Strip, style, text, color_system))
            continue
        else:
            codes, full = _style_codes(style, color_system)
        if codes != current:
            append(_sgr_change(current, codes, full))
            current = codes
        append(text)
    if current != _NO_CODES:
        append("\x1b[0m")
    line = "".join(parts)
    if len(_renders) >= _RENDERS_KEPT:
        _renders.clear()
    _renders[key] = (self, line)
    return line


_RENDERS_KEPT = 2048
"""Lines kept as sent by `_render_strip` (the latest drawn; a screen update sends a few, a whole screen some 100)."""
_renders: dict[tuple[int, ColorSystem], tuple[Strip, str]] = {}
"""(id of a strip, colour system) -> (the strip, the line as sent): the strip is kept with it, so the id is its own."""


def render_per_colour_system() -> None:
    """Strips render with the codes of each session's colour system (see the module's docstring). Called once, by
    `patches.install_textual_patches`."""
    Strip.render_style = classmethod(_render_style)  # type: ignore[method-assign, assignment]
    Strip.render = _render_strip  # type: ignore[method-assign]
