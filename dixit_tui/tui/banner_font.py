"""A small block font for big letters on a shared screen: A-Z, 0-9 and common punctuation, 5 rows high, as data.

A text with a character the font lacks (after taking accents off) gets None: the caller shows it another way. Not
pyfiglet: 40 glyphs are less than a dependency, and its fonts come under several licences.
"""

from __future__ import annotations

import unicodedata

HEIGHT = 5

_GLYPHS = """
A .###. #...# ##### #...# #...#
B ####. #...# ####. #...# ####.
C .#### #.... #.... #.... .####
D ####. #...# #...# #...# ####.
E ##### #.... ####. #.... #####
F ##### #.... ####. #.... #....
G .#### #.... #..## #...# .####
H #...# #...# ##### #...# #...#
I ### .#. .#. .#. ###
J ..### ...#. ...#. #..#. .##..
K #...# #..#. ###.. #..#. #...#
L #.... #.... #.... #.... #####
M #...# ##.## #.#.# #...# #...#
N #...# ##..# #.#.# #..## #...#
O .###. #...# #...# #...# .###.
P ####. #...# ####. #.... #....
Q .###. #...# #.#.# #..#. .##.#
R ####. #...# ####. #..#. #...#
S .#### #.... .###. ....# ####.
T ##### ..#.. ..#.. ..#.. ..#..
U #...# #...# #...# #...# .###.
V #...# #...# #...# .#.#. ..#..
W #...# #...# #.#.# ##.## #...#
X #...# .#.#. ..#.. .#.#. #...#
Y #...# .#.#. ..#.. ..#.. ..#..
Z ##### ...#. ..#.. .#... #####
0 .###. #..## #.#.# ##..# .###.
1 .#. ##. .#. .#. ###
2 ####. ....# .###. #.... #####
3 ####. ....# .###. ....# ####.
4 #...# #...# ##### ....# ....#
5 ##### #.... ####. ....# ####.
6 .###. #.... ####. #...# .###.
7 ##### ....# ...#. ..#.. ..#..
8 .###. #...# .###. #...# .###.
9 .###. #...# .#### ....# .###.
. . . . . #
, .. .. .. .# #.
! # # # . #
? ###. ...# .##. .... .#..
' # # . . .
" #.# #.# ... ... ...
- .... .... #### .... ....
: . # . # .
; .. .# .. .# #.
( .# #. #. #. .#
) #. .# .# .# #.
& .##.. #..#. .##.# #..#. .##.#
/ ....# ...#. ..#.. .#... #....
+ ... .#. ### .#. ...
= ... ### ... ### ...
* ..... #.#.# .###. #.#.# .....
# .#.#. ##### .#.#. ##### .#.#.
"""


def _load() -> dict[str, tuple[str, ...]]:
    glyphs: dict[str, tuple[str, ...]] = {" ": ("...",) * HEIGHT}
    for line in _GLYPHS.strip().splitlines():
        char, *rows = line.split(" ")
        assert len(rows) == HEIGHT and len({len(r) for r in rows}) == 1, line
        glyphs[char] = tuple(rows)
    return glyphs


GLYPHS = _load()

_SAME = {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2014": "-", "\u2013": "-", "\u2026": "..."}


def plain_letters(text: str) -> str | None:
    """`text` in the font's characters (upper case, accents taken off, typographic quotes and dashes as plain ones);
    None when a character has no glyph."""
    out = []
    for char in text.upper():
        char = _SAME.get(char, char)
        if all(c in GLYPHS for c in char):
            out.append(char)
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
        if not base or not all(c in GLYPHS for c in base.upper()):
            return None
        out.append(base.upper())
    return "".join(out)


def word_width(word: str, scale: int) -> int:
    """The cells `word` (in the font's characters) takes at `scale` cells per ink cell, one gap between letters."""
    if not word:
        return 0
    return sum(len(GLYPHS[c][0]) * scale for c in word) + (len(word) - 1) * scale


def banner(word_line: str, scale: int, ink: str) -> list[str]:
    """`word_line` (in the font's characters) as HEIGHT rows: each ink cell as `scale` copies of `ink`, paper as
    spaces, one blank column (times `scale`) between letters."""
    rows = [""] * HEIGHT
    for i, char in enumerate(word_line):
        glyph = GLYPHS[char]
        for r in range(HEIGHT):
            gap = " " * scale if i else ""
            rows[r] += gap + "".join(ink * scale if c == "#" else " " * scale for c in glyph[r])
    return rows


def banner_lines(text: str, width: int, scale: int, ink: str) -> list[list[str]] | None:
    """`text` in big letters, broken between words into banner lines each at most `width` cells wide: a list of
    banner lines, each HEIGHT rows. None when a character has no glyph or a word alone is too wide."""
    letters = plain_letters(text)
    if letters is None:
        return None
    words = letters.split()
    if not words:
        return None
    lines: list[list[str]] = []
    current: list[str] = []
    for word in words:
        if word_width(word, scale) > width:
            return None
        trial = " ".join([*current, word])
        if current and word_width(trial, scale) > width:
            lines.append(banner(" ".join(current), scale, ink))
            current = [word]
        else:
            current.append(word)
    if current:
        lines.append(banner(" ".join(current), scale, ink))
    return lines
