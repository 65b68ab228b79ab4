"""The vote dial as a picture (under the board's cards while you vote): a rule, the slot numbers with the pointer,
an arrow under it where there is room, and a caption of what the keys and Enter do. Cached per (`DialLook`, size,
styles). Nothing by colour alone: `▲` under the pointer, `✗3` forbidden, `✓3` marked, `●3` the red marker.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.content import Content
from textual.style import Style

from dixit_tui.tui.picture import Line, Picture, PictureCache
from dixit_tui.tui.text_row import text_row
from dixit_tui.tui.vote_dial import DialLook, is_in, pending

NO_CARDS = "No cards on the board."
PAD = 1  # a blank cell either side of the dial's rows


def label(look: DialLook, slot: int) -> tuple[str, str]:
    """The text and style of one number on the dial."""
    pointer, stage = look.pointer, look.stage
    if stage == "red" and slot == look.green:
        return (f"✓●{slot}", "bold reverse") if slot == pointer else (f"✓{slot}", "bold")
    if stage == "red" and slot == pointer:
        return f"●{slot}", "bold reverse"
    if stage == "green" and slot in look.forbidden:
        return f"✗{slot}", "dim strike"
    if slot in look.marks:
        return f"✓{slot}", "bold reverse" if slot == pointer else "bold"
    if slot == pointer:
        return str(slot), "bold reverse"
    return str(slot), ""


def cells(look: DialLook, width: int) -> list[tuple[int, int, str, str]]:
    """(x, cell width, text, style) of each slot on the number row. The pointer's number is always in brackets:
    evenly spaced cells where they fit (3 to 6 cells a number), else each number as narrow as it can be."""
    n = max(1, look.slots)
    labels = [label(look, slot) for slot in range(1, look.slots + 1)]
    labels = [(f"[{t}]", st) if slot == look.pointer else (f" {t} ", st) for slot, (t, st) in enumerate(labels, 1)]
    cell = max(3, min(6, width // n))
    if all(len(t) <= cell for t, _ in labels) and cell * n <= width:
        pad = max(0, (width - cell * n) // 2)
        return [(pad + i * cell, cell, t, st) for i, (t, st) in enumerate(labels)]
    out = []
    x = max(0, (width - sum(len(t) for t, _ in labels)) // 2)
    for text, style in labels:
        out.append((x, len(text), text, style))
        x += len(text)
    return out


def captions(look: DialLook) -> list[str]:
    """The dial's own one-line help, longest first: what the keys do and what Enter sends now."""
    if not look.slots:
        return [NO_CARDS]
    green, pointer = look.green, look.pointer
    if is_in(look):  # Enter would send the same again: say that the vote is in, and that the table waits
        votes = " and ".join(map(str, look.voted))
        if look.voted_red is not None:
            vote = f"Green {votes} and red {look.voted_red} are in"
        else:
            vote = f"Your votes for {votes} are in" if len(look.voted) > 1 else f"Your vote for {votes} is in"
        return [f"{vote} · waiting for the others · you can change it", f"{vote} · waiting for the others", vote]
    if look.stage == "red":
        return [
            f"Green {green} · red {pointer} · Enter: send both · Esc: back",
            f"Green {green} · red {pointer} · Enter: send · Esc: back",
            f"Green {green}, red {pointer} · Enter · Esc",
        ]
    if look.places_red:
        return [
            f"Step 1 of 2: green vote {pointer} · Enter: then the red",
            f"Step 1/2: green {pointer} · Enter: then red",
            f"Green {pointer} · Enter: then red",
        ]
    if look.votes_allowed > 1:
        slots, _ = pending(look)
        marked = ", ".join(map(str, look.marks)) if look.marks else "none"
        vote = " and ".join(map(str, slots))
        return [
            f"Marked: {marked} · Space: mark · Enter: vote {vote}",
            f"Marked: {marked} · Space · Enter: vote {vote}",
            f"Marked: {marked} · Enter: vote {vote}",
        ]
    return [f"←→ or 1-9 turn · Enter: vote for {pointer}", f"←→ turn · Enter: vote {pointer}"]


def caption(look: DialLook, width: int | None = None) -> str:
    """The longest caption that fits `width` (all of it when no width is given)."""
    found = captions(look)
    if width is None:
        return found[0]
    return next((c for c in found if len(c) <= width), found[-1])


def dial_rows(look: DialLook, width: int, arrow: bool) -> list[Content]:
    """The dial's rows: the numbers, the arrow under the pointer (`arrow`: where there is room), the caption."""
    if not look.slots or width <= 0:
        return [Content(NO_CARDS)]
    numbers: list[str | tuple[str, str]] = []
    arrows = [" "] * width
    at = 0
    for slot, (x, cell, text, style) in enumerate(cells(look, width), start=1):
        left = (cell - len(text)) // 2
        numbers.append(" " * (x + left - at))
        numbers.append((text, style))
        at = x + left + len(text)
        middle = x + left + len(text) // 2
        if slot == look.pointer and middle < width:
            arrows[middle] = "▲"
    rows = [Content.assemble(*numbers).truncate(width)]
    if arrow:
        rows.append(Content("".join(arrows)))
    rows.append(Content(caption(look, width)).truncate(width, ellipsis=True))
    return rows


def dial_height(look: DialLook, arrow: bool) -> int:
    """The rows of `dial_picture`: the rule, then `dial_rows`."""
    return 2 if not look.slots else 3 + arrow


def dial_picture(cache: PictureCache, look: DialLook, width: int, arrow: bool, style: Style, rule: Style) -> Picture:
    """The dial at `width` in `style`, under a rule in `rule` (`dial_height` rows)."""
    key = ("dial", look, width, arrow, style, rule)
    return cache.picture(key, width, lambda: _draw(look, width, arrow, style, rule))


def _draw(look: DialLook, width: int, arrow: bool, style: Style, rule: Style) -> list[Line]:
    blank = RichStyle(bgcolor=style.rich_style.bgcolor)  # (the cells after a text: its background, as Textual's)
    inside = max(1, width - 2 * PAD)
    rows = [text_row(row, width, style, left=PAD, blank=blank) for row in dial_rows(look, inside, arrow)]
    return [[Segment("─" * width, rule.rich_style)], *rows]


def slot_at(look: DialLook, width: int, x: int) -> int:
    """The slot whose number is at column `x` of the dial's number row, in a dial `width` cells wide (0: none)."""
    for slot, (start, cell, _text, _style) in enumerate(cells(look, max(1, width - 2 * PAD)), start=1):
        if start <= x - PAD < start + cell:
            return slot
    return 0
