"""What a session's text is sent in, by the glyphs its terminal can draw (`TerminalInfo.glyphs`): as it is (all of
Unicode), in console forms or in ASCII forms, cell for cell; the one choice both the full-screen app's output
(`SSHDriver.flush`) and the line mode's lines use.

ASCII (the client does not declare UTF-8, `LANG=C`): each line, corner and mark becomes ASCII as wide (`╭─ Seats ─╮`
-> `+- Seats -+`, `✎◷♛` -> `SwH`); what players typed becomes its letter sans accents (`é` -> `e`), else `?` a cell
(`猫` -> `??`), none for a zero-width mark. Console (`TERM=linux`: a font of CP437's set or Lat2, which lacks rounded
corners, eighth blocks and marks such as `⏱✎♛`): what the set holds stays itself; the rest gets a form as wide
(rounded lines light, `╭─╮` -> `┌─┐`, heavy double, eighth blocks the nearest half block, `▶◀✓` -> `►◄√`), else its
ASCII form."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from rich.cells import cell_len

from dixit_tui.ssh.terminal import Glyphs

_MARKS = {
    # the table's marks (tui/table_words.py, seat_rows.py, score_track.py, widgets/cards.py, dial.py, recap.py)
    "★": "*",
    "✎": "S",  # storyteller
    "◷": "w",  # waiting
    "✍": "c",  # writing a clue
    "♛": "H",  # host
    "✗": "x",
    "⚙": "B",  # bot
    "✓": "v",
    "●": "o",
    "•": "*",
    "▶": ">",
    "▲": "^",
    "▼": "v",
    "◀": "<",
    "↑": "^",
    "↓": "v",
    "←": "<",
    "→": ">",
    "⏎": "<",  # Enter, in the key bar
    "⏱": "@",  # the turn's clock
    "·": "-",
    "…": "~",
    "\u201c": '"',
    "\u201d": '"',
    "\u2018": "'",
    "\u2019": "'",
    "—": "-",
    "\u2013": "-",
    "\u00d7": "x",
    "≤": "<",
    "≥": ">",
    "\u00a0": " ",
}


def _box(char: str) -> str:
    """Box drawing (U+2500-257F): horizontal lines -> -, vertical -> |, corners and crossings -> +."""
    name_hint = ord(char) - 0x2500
    horizontal = {0x00, 0x01, 0x04, 0x05, 0x08, 0x09, 0x4C, 0x4D, 0x50, 0x74, 0x76, 0x78, 0x7A, 0x7C, 0x7E}
    vertical = {0x02, 0x03, 0x06, 0x07, 0x0A, 0x0B, 0x4E, 0x4F, 0x51, 0x75, 0x77, 0x79, 0x7B, 0x7D, 0x7F}
    if name_hint in horizontal:
        return "-"
    if name_hint in vertical:
        return "|"
    if 0x71 <= name_hint <= 0x73:  # diagonals
        return "/\\X"[name_hint - 0x71]
    return "+"


def _block(char: str) -> str:
    """Block elements (U+2580-259F), as Textual draws tall borders, scroll bars and bars: ▔▁▀▄ -> -, left and right
    eighths -> |, the full block and shades -> #, the rest (lower eighths of a scroll bar) -> a space."""
    if char in "▔▁▀▄":
        return "-"
    if char in "▏▎▍▌▋▊▉▐▕":
        return "|"
    if char in "█░▒▓":
        return "#"
    return " "


def _typed(code: int) -> str:
    """The ASCII form of a character not in the table, as wide as `rich.cells.cell_len` (Textual's layout) counts it:
    the letters of its compatibility decomposition without the combining marks when they fill exactly its cells
    (`é` -> `e`, `ï` -> `i`), else one `?` a cell (`ß` -> `?`, `猫` -> `??`); a character of no width -> nothing."""
    char = chr(code)
    width = cell_len(char)
    if width == 0:
        return ""
    letters = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    if len(letters) == width and letters.isascii() and letters.isprintable():
        return letters
    return "?" * width


class _Forms(dict[int, str]):
    """Each character's form, made by `make` when first met and kept (a session sees few distinct characters)."""

    def __init__(self, table: dict[int, str], make: Callable[[int], str]) -> None:
        super().__init__(table)
        self._make = make

    def __missing__(self, code: int) -> str:
        form = self._make(code)
        if len(self) < 8192:
            self[code] = form
        return form


def _table() -> dict[int, str]:
    table: dict[int, str] = {}
    for char, ascii_form in _MARKS.items():
        table[ord(char)] = ascii_form
    for code in range(0x2500, 0x2580):
        table[code] = _box(chr(code))
    for code in range(0x2580, 0x25A0):
        table[code] = _block(chr(code))
    # the same width: a mark a terminal draws two cells wide gets two ASCII characters
    return {code: form.ljust(cell_len(chr(code)), form[-1]) for code, form in table.items()}


ASCII_FORMS: dict[int, str] = _Forms({code: chr(code) for code in range(0x80)} | _table(), _typed)
"""For `str.translate`: a code point -> its ASCII form, as wide (every code point outside ASCII)."""


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


CONSOLE_FORMS: dict[int, str] = _Forms({code: chr(code) for code in range(0x80)}, _form)
"""For `str.translate`: a code point -> its form in the console set, as wide."""


_FORMS: dict[Glyphs, dict[int, str] | None] = {"unicode": None, "console": CONSOLE_FORMS, "ascii": ASCII_FORMS}


def in_glyphs(text: str, glyphs: Glyphs) -> str:
    """`text` as a terminal that draws `glyphs` is sent it (terminal escape sequences are ASCII: unchanged)."""
    forms = _FORMS[glyphs]
    return text if forms is None else text.translate(forms)
