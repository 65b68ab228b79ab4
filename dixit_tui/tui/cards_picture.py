"""Numbered lists of text cards (your hand, the board) as pictures, cached so that every screen showing the same
cards the same way gets the same picture. Shown by `widgets/cards.py`.

A row reads `▶ 3  [✓ chosen] A fox in a waistcoat...` (the `▶` shows the cursor without colour). When not every card
fits whole (80x24), the others take one line cut with `…` and the card under the cursor shows whole, the list
scrolling to it; at smaller heights (60x20) it is cut too, so that two other cards stay in sight (else the hand
looked like one card). A note (what Enter does, a refusal's hint) takes the last rows. Card text: plain text only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rich.segment import Segment
from textual.content import Content
from textual.style import Style

from dixit_tui.tui.picture import Line, Picture, PictureCache
from dixit_tui.tui.text_row import text_row

GUTTER = 5  # "▶ 12 " before the text
RIGHT = 1  # a blank cell after the text
NOTE_ROWS = 3  # a note takes at most this many rows
NOTE_MARGIN = 1  # blank cells on each side of a note
OTHERS = 2  # the card under the cursor leaves room for this many other cards' lines (when there are that many)


@dataclass(frozen=True, slots=True)
class CardItem:
    key: str  # a card id, or "slot-3"
    number: int
    text: str
    tags: tuple[str, ...] = ()
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class CardStyles:
    """The styles of a list's rows (from its CSS: they change with the focus and the theme)."""

    card: Style
    highlighted: Style
    disabled: Style
    note: Style


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the cards go: each card's first row and its rows (in the whole list, before it is scrolled)."""

    starts: tuple[int, ...]
    heights: tuple[int, ...]

    @property
    def total(self) -> int:
        return self.starts[-1] + self.heights[-1] if self.starts else 0

    def card_at(self, row: int) -> int | None:
        """The card shown on row `row` of the whole list."""
        for index, (start, height) in enumerate(zip(self.starts, self.heights, strict=True)):
            if start <= row < start + height:
                return index
        return None


@lru_cache(maxsize=2048)
def card_lines(item: CardItem, width: int) -> tuple[Content, ...]:
    """The card's tags and text wrapped at `width` cells (without the gutter)."""
    parts: list[str | tuple[str, str]] = []
    for tag in item.tags:
        parts.append((f"[{tag}]", "bold" if not item.disabled else ""))
        parts.append(" ")
    parts.append(item.text)
    return tuple(Content.assemble(*parts).wrap(max(1, width))) or (Content(""),)


def text_width(width: int) -> int:
    return max(1, width - GUTTER - RIGHT)


@lru_cache(maxsize=1024)
def layout(items: tuple[CardItem, ...], cursor: int | None, width: int, room: int) -> Layout:
    """Every card in full if all fit in `room` rows, else one row each and the card under the cursor in full, or
    in as many rows as leave `OTHERS` rows for other cards (one row each, at least)."""
    full = [len(card_lines(item, text_width(width))) for item in items]
    if room > 0 and sum(full) > room:
        lit = max(1, room - min(OTHERS, len(items) - 1, room - 1))
        full = [min(height, lit) if index == cursor else 1 for index, height in enumerate(full)]
    starts, at = [], 0
    for height in full:
        starts.append(at)
        at += height
    return Layout(tuple(starts), tuple(full))


@lru_cache(maxsize=1024)
def fits_whole(items: tuple[CardItem, ...], width: int, room: int) -> bool:
    """Whether every card's full text fits in `room` rows."""
    return sum(len(card_lines(item, text_width(width))) for item in items) <= room


def scrolled(top: int, area: Layout, cursor: int | None, room: int) -> int:
    """The first row shown: `top` moved as little as shows the card under the cursor (its top if it is taller than
    the room), and no further than the list's end allows."""
    if cursor is not None and 0 <= cursor < len(area.starts):
        start, height = area.starts[cursor], area.heights[cursor]
        if start < top or height > room:
            top = start
        elif start + height > top + room:
            top = start + height - room
    return max(0, min(top, area.total - room))


_NOTES: dict[tuple[object, ...], tuple[Content, ...]] = {}
NOTES_MAX = 1024


def note_lines(note: Content | None, width: int) -> tuple[Content, ...]:
    """A note wrapped to the list's width, at most `NOTE_ROWS` rows (the last cut with "…"), a cell of margin on each
    side (in the frame at 80x24 a note's last word touched the right border). Kept by text and styles (Content's `==`
    compares no styles): asked at each update."""
    if note is None:
        return ()
    key = (note.plain, tuple(note.spans), width)
    found = _NOTES.get(key)
    if found is None:
        if len(_NOTES) >= NOTES_MAX:
            _NOTES.clear()
        wide = max(1, width - 2 * NOTE_MARGIN)
        wrapped = note.wrap(wide)
        if len(wrapped) > NOTE_ROWS:  # the rest on the last row, cut with "…" (it was dropped without a mark)
            last = Content.assemble(wrapped[NOTE_ROWS - 1], " ", *wrapped[NOTE_ROWS:]).truncate(wide, ellipsis=True)
            wrapped = [*wrapped[: NOTE_ROWS - 1], last]
        found = _NOTES[key] = tuple(wrapped) or (Content(""),)
    return found


def _card_rows(item: CardItem, index: int, lit: bool, width: int, lines: int, style: Style) -> list[Line]:
    wrapped = card_lines(item, text_width(width))
    if len(wrapped) > lines:
        keep = max(1, lines)
        last = Content.assemble(wrapped[keep - 1], " ", *wrapped[keep:])
        wrapped = (*wrapped[: keep - 1], last.truncate(text_width(width), ellipsis=True))
    gutter = Content.assemble(("▶" if lit else " ", "bold"), (f"{item.number:>2}", "bold"), "  ")
    indent = Content(" " * GUTTER)
    meta: dict[str, object] = {"card": index}
    return [
        text_row(Content.assemble(gutter if row == 0 else indent, line), width, style, meta, right=RIGHT)
        for row, line in enumerate(wrapped)
    ]


def cards_picture(
    cache: PictureCache,
    items: tuple[CardItem, ...],
    cursor: int | None,
    top: int,
    note: Content | None,
    width: int,
    height: int,
    styles: CardStyles,
) -> Picture:
    """The list at `width` x `height`: the cards from row `top` (see `scrolled`), and the note in the last rows."""
    note_key = (note.plain, tuple(note.spans)) if note is not None else None
    key = ("cards", items, cursor, top, note_key, width, height, styles)
    return cache.picture(key, width, lambda: _draw(items, cursor, top, note, width, height, styles))


def _draw(
    items: tuple[CardItem, ...],
    cursor: int | None,
    top: int,
    note: Content | None,
    width: int,
    height: int,
    styles: CardStyles,
) -> list[Line]:
    noted = note_lines(note, width)
    note_rows = [text_row(line, width, styles.note, None, NOTE_MARGIN, NOTE_MARGIN) for line in noted]
    if not items:  # (a spectator's hand: the note alone, at the top)
        return note_rows
    room = max(0, height - len(noted))
    area = layout(items, cursor, width, room)
    rows: list[Line] = []
    for index, item in enumerate(items):
        start, lines = area.starts[index], area.heights[index]
        if start + lines <= top or start >= top + room:
            continue
        style = styles.disabled if item.disabled else styles.highlighted if index == cursor else styles.card
        card = _card_rows(item, index, index == cursor, width, lines, style)
        rows.extend(card[max(0, top - start) : max(0, top + room - start)])
    blank = [Segment(" " * width, styles.card.rich_style)]
    rows.extend(blank for _ in range(room - len(rows)))
    return rows + note_rows
