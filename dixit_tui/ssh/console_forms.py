"""The console forms of what the app draws, for a terminal whose fonts hold a few hundred glyphs (`TERM=linux`, the
Linux virtual console; the VT100 family), though its client declares UTF-8.

Such a font (CP437's set or Lat2) lacks rounded corners, eighth blocks and marks such as `⏱✎♛`: they came out as
blanks or diamonds. What the set holds stays itself; the rest gets a form as wide: rounded lines light (`╭─╮` ->
`┌─┐`), heavy double, eighth blocks the nearest half block or line, `▶◀✓` -> `►◄√`, else its ASCII form."""

from __future__ import annotations

import unicodedata

from rich.cells import cell_len

from dixit_tui.ssh.ascii_forms import ASCII_FORMS

_CP437_GRAPHICS = "☺☻♥♦♣♠•◘○◙♂♀♪♫☼►◄↕‼¶§▬↨↑↓→←∟↔▲▼⌂"
"""What CP437 (and the Linux console's default font) draws at the control codes 0x01-0x1F and 0x7F."""

CONSOLE_SET = frozenset(
    bytes(range(0x20, 0x7F)).decode("ascii")
    + bytes(range(0x80, 0x100)).decode("cp437")
    + bytes(range(0xA0, 0x100)).decode("latin-1")
    + _CP437_GRAPHICS
) - {"\xad"}  # (the soft hyphen: no width)
"""The characters a Linux console font can be counted on to draw: CP437's set and the Latin-1 letters."""

_BETTER = {
    "▶": "►",
    "◀": "◄",
    "✓": "√",
    "●": "•",
    "▔": "─",  # the top of Textual's tall border
    "▁": "─",  # its bottom
    "▕": "▐",
    "▖": "▄",
    "▗": "▄",
    "▘": "▀",
    "▝": "▀",
    "▚": "▒",
    "▞": "▒",
    "▙": "█",
    "▛": "█",
    "▜": "█",
    "▟": "█",
    "▂": " ",  # lower eighths (the ends of a scroll bar's thumb): rounded to none, a half or a full block
    "▃": "▄",
    "▅": "▄",
    "▆": "█",
    "▇": "█",
    "▉": "█",
}
for _char in "▏▎▍▋▊":  # left eighths (the sides of Textual's tall border): the left half block
    _BETTER[_char] = "▌"

_LIGHT = {
    frozenset("LR"): "─",
    frozenset("UD"): "│",
    frozenset("L"): "─",
    frozenset("R"): "─",
    frozenset("U"): "│",
    frozenset("D"): "│",
    frozenset("DR"): "┌",
    frozenset("DL"): "┐",
    frozenset("UR"): "└",
    frozenset("UL"): "┘",
    frozenset("UDR"): "├",
    frozenset("UDL"): "┤",
    frozenset("DLR"): "┬",
    frozenset("ULR"): "┴",
    frozenset("UDLR"): "┼",
}
_DOUBLE = {ways: line.translate(str.maketrans("─│┌┐└┘├┤┬┴┼", "═║╔╗╚╝╠╣╦╩╬")) for ways, line in _LIGHT.items()}
_DIRECTIONS = {"UP": "U", "DOWN": "D", "LEFT": "L", "RIGHT": "R", "HORIZONTAL": "LR", "VERTICAL": "UD"}


def _light_line(char: str) -> str | None:
    """A box-drawing line not in the console set as the line going the same ways: a heavy one double (`┏━┓` ->
    `╔═╗`: still unlike the light lines), any other light (`╭` -> `┌`, `┄` -> `─`, `╽` -> `│`); None for a diagonal."""
    words = unicodedata.name(char, "").split()
    if "DIAGONAL" in words:
        return None
    ways = frozenset("".join(_DIRECTIONS.get(word, "") for word in words))
    lines = _DOUBLE if "HEAVY" in words and "LIGHT" not in words else _LIGHT
    return lines.get(ways)


def _form(code: int) -> str:
    char = chr(code)
    if char in CONSOLE_SET:
        return char
    form = _BETTER.get(char) or (_light_line(char) if 0x2500 <= code < 0x2580 else None)
    if form is not None and cell_len(char) == 1:
        return form
    return ASCII_FORMS[code]


class _Forms(dict[int, str]):
    """Each character's console form, made when first met (a session sees few distinct characters)."""

    def __missing__(self, code: int) -> str:
        form = _form(code)
        if len(self) < 8192:
            self[code] = form
        return form


CONSOLE_FORMS: dict[int, str] = _Forms({code: chr(code) for code in range(0x80)})
"""For `str.translate`: a code point -> its form in the console set, as wide."""
