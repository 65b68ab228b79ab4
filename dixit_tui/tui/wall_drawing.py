"""The wall's drawing tools: marks in UTF-8 or ASCII, styles without colour when the terminal shows none, lines of
`Segment`s (player text only plain text) fitted, centred, wrapped, boxed, side by side, and big letters."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from dixit_tui.tui import banner_font
from dixit_tui.tui.capabilities import Capabilities
from dixit_tui.tui.table_words import Words

GAP = 2  # between columns, and between cards

Line = list[Segment]

# --- the marks, in UTF-8 or ASCII -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Marks:
    ink: str  # a big letter's ink
    frame: str  # ╭╮╰╯─│
    heavy: str  # the storyteller's card
    teller: str
    red: str
    dot: str
    open_quote: str
    close_quote: str
    more: str  # an ellipsis


UTF8 = Marks("█", "╭╮╰╯─│", "┏┓┗┛━┃", "✎", "●", "·", "“", "”", "…")
# (the heavy frame in ASCII: corners "#", lines "=" and "#")
ASCII = Marks("#", "++++-|", "####=#", "S", "o", "-", '"', '"', "...")


def marks_for(caps: Capabilities) -> Marks:
    return UTF8 if caps.utf8 else ASCII


@lru_cache(maxsize=256)
def style_of(spec: str, colors: bool) -> Style | None:
    """A style from a spec such as "bold italic" or "bold yellow"; without its colours when the terminal shows none."""
    if not spec:
        return None
    style = Style.parse(spec)
    return style if colors else style.without_color


# --- lines --------------------------------------------------------------------------------------------------------


class Pen:
    """Makes segments in the terminal's styles."""

    def __init__(self, caps: Capabilities) -> None:
        self.colors = caps.colors != "none"
        self.marks = marks_for(caps)

    def seg(self, text: str, spec: str = "") -> Segment:
        return Segment(text, style_of(spec, self.colors))

    def line(self, *parts: str | tuple[str, str]) -> Line:
        out: Line = []
        for part in parts:
            text, spec = (part, "") if isinstance(part, str) else part
            if text:
                out.append(self.seg(text, spec))
        return out

    def words(self, text: Words, extra: str = "") -> Line:
        return [self.seg(t, f"{s} {extra}".strip()) for t, s in text.parts if t]


def width_of(line: Line) -> int:
    return sum(cell_len(s.text) for s in line)


def fit(line: Line, width: int) -> Line:
    """`line` cut or padded with spaces to exactly `width` cells."""
    return list(Segment.adjust_line_length(line, width, pad=True))


def centred(line: Line, width: int) -> Line:
    room = width - width_of(line)
    if room <= 0:
        return fit(line, width)
    return fit([Segment(" " * (room // 2)), *line], width)


def side_by_side(blocks: Sequence[tuple[list[Line], int]], gap: int = GAP) -> list[Line]:
    """Blocks of lines (each with its width) next to each other, `gap` cells apart, top-aligned."""
    height = max((len(lines) for lines, _ in blocks), default=0)
    out: list[Line] = []
    for row in range(height):
        line: Line = []
        for i, (lines, width) in enumerate(blocks):
            if i:
                line.append(Segment(" " * gap))
            line.extend(fit(lines[row] if row < len(lines) else [], width))
        out.append(line)
    return out


_TOKENS = re.compile(r"\S+|\s+")


def wrap(line: Line, width: int) -> list[Line]:
    """`line` wrapped at spaces to lines of at most `width` cells (a word wider than that is cut where it must)."""
    width = max(1, width)
    out: list[Line] = []
    current: Line = []
    used = 0
    for segment in line:
        if "\n" in segment.text:  # a line break in the words
            first, *rest = segment.text.split("\n")
            pieces = [Segment(first, segment.style)]
            for after in rest:
                pieces.extend([Segment("\n"), Segment(after, segment.style)])
        else:
            pieces = [segment]
        for piece in pieces:
            if piece.text == "\n":
                out.append(current)
                current, used = [], 0
                continue
            for token in _TOKENS.findall(piece.text):
                size = cell_len(token)
                if token.isspace():
                    if used and used + size <= width:
                        current.append(Segment(token, piece.style))
                        used += size
                    elif used:
                        out.append(current)
                        current, used = [], 0
                    continue
                if used + size > width and used:
                    out.append(_rstrip(current))
                    current, used = [], 0
                while size > width:  # a word longer than a line
                    head, token = _cut(token, width - used)
                    current.append(Segment(head, piece.style))
                    out.append(current)
                    current, used = [], 0
                    size = cell_len(token)
                current.append(Segment(token, piece.style))
                used += size
    if current or not out:
        out.append(_rstrip(current))
    return out


def _rstrip(line: Line) -> Line:
    while line and line[-1].text.isspace():
        line = line[:-1]
    return line


def _cut(text: str, width: int) -> tuple[str, str]:
    """`text` cut after at most `width` cells (at least one character)."""
    used = 0
    for i, char in enumerate(text):
        used += cell_len(char)
        if used > width:
            return text[: max(1, i)], text[max(1, i) :]
    return text, ""


def from_text(text: Text) -> Words:
    """A rich `Text` (plain strings with style spans, never markup) as `Words`."""
    cuts = sorted({0, len(text.plain), *[b for span in text.spans for b in (span.start, span.end)]})
    parts: list[tuple[str, str]] = []
    for start, end in pairwise(cuts):
        styles = [str(span.style) for span in text.spans if span.start <= start and end <= span.end]
        parts.append((text.plain[start:end], " ".join([str(text.style), *styles]).strip()))
    return Words.of(*parts)


# --- the parts of the picture -------------------------------------------------------------------------------------


def box(pen: Pen, body: list[Line], width: int, title: Line, *, heavy: bool = False, spec: str = "") -> list[Line]:
    """`body` in a frame `width` cells wide (one space inside each side), `title` in its top edge."""
    tl, tr, bl, br, h, v = tuple(pen.marks.heavy if heavy else pen.marks.frame)
    inner = width - 4
    title = fit(title, min(width_of(title), max(0, width - 6)))
    top = [pen.seg(tl + h, spec), *title, pen.seg(h * max(0, width - 3 - width_of(title)) + tr, spec)]
    out = [top]
    for line in body:
        out.append([pen.seg(v + " ", spec), *fit(line, inner), pen.seg(" " + v, spec)])
    out.append([pen.seg(bl + h * (width - 2) + br, spec)])
    return out


def clue_banner(pen: Pen, clue: str, width: int, *, big: bool = True) -> list[Line]:
    """The clue in big letters, centred: two cells per ink cell on at most two banner lines (`big`), else one cell on
    at most three; a clue the font cannot draw that big, in a frame, bold, centred."""
    for scale, most in ((2, 2), (1, 3)) if big else ((1, 3),):
        lines = banner_font.banner_lines(clue, width, scale, pen.marks.ink)
        if lines is not None and len(lines) <= most:
            out: list[Line] = []
            for i, rows in enumerate(lines):
                if i:
                    out.append([])
                out.extend(centred([pen.seg(row, "bold")], width) for row in rows)
            return out
    quoted = [pen.seg(f"{pen.marks.open_quote}{clue}{pen.marks.close_quote}", "bold")]
    inner = min(width - 4, width_of(quoted) + 4)
    body = [centred(line, inner - 4) for line in wrap(quoted, inner - 4)]
    return [centred(line, width) for line in box(pen, [[], *body, []], inner, [])]
