"""The ASCII forms of what the app draws, for a terminal whose client does not declare UTF-8 (`LANG=C`).

One cell for one cell, so the layout holds (`╭─ Seats ─╮` -> `+- Seats -+`, `✎◷♛` -> `SwH`); applied to a session's
output as it is sent (`SSHDriver.flush`), so every screen is covered. Other characters (what players typed) become
ASCII as wide: the letter sans accents (`é` -> `e`), else `?` a cell (`猫` -> `??`), none for a zero-width mark."""

from __future__ import annotations

import functools
import unicodedata

from rich.cells import cell_len

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


@functools.lru_cache(maxsize=4096)
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
    """The table, and every other character outside ASCII as `_typed` makes it (the last few thousand kept, not all a
    client could send)."""

    def __missing__(self, code: int) -> str:
        return _typed(code)


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


ASCII_FORMS: dict[int, str] = _Forms({code: chr(code) for code in range(0x80)} | _table())  # (ASCII: no lookups)
"""For `str.translate`: a code point -> its ASCII form, as wide (every code point outside ASCII)."""
