"""Pictures and seat rows as plain text, for the tests of the pure drawing functions (`tui.picture`, `seat_rows`)."""

from __future__ import annotations

from textual.content import Content

from dixit_tui.tui.picture import Picture
from dixit_tui.tui.seat_rows import WIDE, SeatLine, legend_rows, seat_rows


def picture_text(picture: Picture) -> str:
    """A picture as plain text, one line per row."""
    return "\n".join(strip.text.rstrip() for strip in picture)


def render_seats(lines: tuple[SeatLine, ...], width: int) -> list[Content]:
    """The seats panel's rows as the side column stacks them: each seat's rows, then (narrow) the symbols' legend."""
    if width <= 0:
        return []
    out: list[Content] = []
    for line in lines:
        out.extend(seat_rows(line, width))
    if lines and width < WIDE:
        out.extend(legend_rows(frozenset("".join(line.symbols() for line in lines)), width))
    return out
