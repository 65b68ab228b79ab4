"""The side column as data: the seats panel, the score track (or the practice turn's help), each in a frame with its
title, as one picture (`tui.picture`) of a width.

Kept per (what it shows, width, styles): every session showing the same seats and scores at that width gets the
same picture object.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.content import Content
from textual.strip import Strip
from textual.style import NULL_STYLE as NULL

from dixit_tui.coordinator import TableView
from dixit_tui.engine import Mode
from dixit_tui.textual_host.process_caches import forget_with_shared
from dixit_tui.tui import table_words as words
from dixit_tui.tui.picture import Line, Picture, PictureCache
from dixit_tui.tui.score_track import track_rows
from dixit_tui.tui.seat_rows import WIDE, SeatLine, legend_rows, seat_lines, seat_rows
from dixit_tui.tui.table_words import Words
from dixit_tui.tui.text_row import style_of

NOBODY = Content("Nobody is seated.")

PAD = Style.from_meta({"pad": True})
"""A frame's padding: blank, kept apart from the row's own blank cells (as Textual's padding is: a picture draws as
the widgets it replaced did, to the segment)."""


@dataclass(frozen=True, slots=True)
class Frames:
    """The styles of the column's frames, as its CSS gives them (`SidePanel`'s component classes)."""

    frame: Style  # a panel's border
    title: Style  # a panel's title, in its top border
    help: Style  # the practice turn's help's border


@dataclass(frozen=True, slots=True)
class Side:
    """What the column shows of a view (equal: the same picture)."""

    seats: tuple[SeatLine, ...]
    scores: tuple[tuple[int, int], ...] | None  # (seat, score) on the track; None: no track
    goal: int | None  # a standard game's goal (party and team games end by storytelling)
    help: Words | None  # the practice turn's help, in the track's place


def side_of(view: TableView) -> Side:
    game = view.game
    help_text = words.practice_help(view)
    scores = goal = None
    if game is not None and help_text is None:  # (all at 0 during the practice turn)
        scores = tuple([(p.seat, p.score) for p in game.players if p.active])
        goal = game.target if game.mode == Mode.STANDARD else None
    return Side(seat_lines(view), scores, goal, help_text)


_cache = forget_with_shared(PictureCache())
"""The column's pictures, and the lines of their parts (the same line: the same strip, in every part)."""
counts = _cache.counts


def segments(content: Content) -> Line:
    """`content.render_segments()`, its styles parsed once per process (`text_row.style_of`)."""
    return [Segment(text, style.rich_style if style else None) for text, style in content.render(NULL, "", style_of)]


def framed_rows(rows: list[Content] | tuple[Content, ...], width: int, border: Style) -> tuple[Strip, ...]:
    """`rows` between the sides of a frame `width` cells wide, with one cell of padding each side."""
    inner = width - 4
    side = Segment("│", border)
    out = []
    for row in rows:
        row = row.truncate(inner)
        pad = Segment(" " * (inner - row.cell_length + 1), PAD)
        out.append(_cache.strip([side, Segment(" ", PAD), *segments(row), pad, side], width))
    return tuple(out)


class Parts:
    """The parts of the column's pictures at one width in one set of styles, each made once and kept (a move
    changes one or two seats: the other seats' rows, the frames and the track are found made, in every picture)."""

    MAX = 1024  # parts of each kind kept (emptied when full: a cache)

    def __init__(self, width: int, frames: Frames) -> None:
        self.width, self.frames = width, frames
        border = frames.frame
        self.seats_top = frame_top(width, border, "Seats", frames.title)
        self.bottom = frame_top(width, border, bottom=True)
        self.nobody = framed_rows([NOBODY], width, border)
        self._kept: dict[str, dict[object, tuple[Strip, ...]]] = {"seat": {}, "legend": {}, "track": {}, "help": {}}

    def _part(self, kind: str, key: object, make: Callable[[], tuple[Strip, ...]]) -> tuple[Strip, ...]:
        kept = self._kept[kind]
        found = kept.get(key)
        if found is None:
            if len(kept) >= self.MAX:
                kept.clear()
            found = kept[key] = make()
        return found

    def seat(self, line: SeatLine) -> tuple[Strip, ...]:
        width, frame = self.width, self.frames.frame
        return self._part("seat", line, lambda: framed_rows(seat_rows(line, width - 4), width, frame))

    def legend(self, used: str) -> tuple[Strip, ...]:
        width, frame = self.width, self.frames.frame
        return self._part("legend", used, lambda: framed_rows(legend_rows(frozenset(used), width - 4), width, frame))

    def track(self, scores: tuple[tuple[int, int], ...], goal: int | None) -> tuple[Strip, ...]:
        def make() -> tuple[Strip, ...]:
            width, frames = self.width, self.frames
            top = frame_top(width, frames.frame, "Score track", frames.title)
            return (top, *framed_rows(track_rows(scores, goal, width - 4), width, frames.frame), self.bottom)

        return self._part("track", (scores, goal), make)

    def help(self, text: Words) -> tuple[Strip, ...]:
        def make() -> tuple[Strip, ...]:
            width, border = self.width, self.frames.help
            rows = framed_rows(Content.assemble(*text.parts).wrap(width - 4), width, border)
            return (frame_top(width, border), *rows, frame_top(width, border, bottom=True))

        return self._part("help", text, make)


def frame_top(
    width: int, border: Style, title: str = "", title_style: Style | None = None, *, bottom: bool = False
) -> Strip:
    """A frame's top line with its title (or its bottom line)."""
    if bottom:
        return _cache.strip([Segment("╰" + "─" * (width - 2) + "╯", border)], width)
    label = f" {title} " if title else ""
    top: Line = [Segment("╭─", border)]
    if label:
        top.append(Segment(label, border + title_style if title_style is not None else border))
    top.append(Segment("─" * max(0, width - 3 - len(label)) + "╮", border))
    return _cache.strip(top, width)


def side_lines(side: Side, parts: Parts) -> list[Strip]:
    """The column's lines, made of its parts."""
    out = [parts.seats_top]
    seat = parts.seat
    for line in side.seats:
        out.extend(seat(line))
    if not side.seats:
        out.extend(parts.nobody)
    elif parts.width - 4 < WIDE:
        out.extend(parts.legend("".join([line.symbols() for line in side.seats])))
    out.append(parts.bottom)
    if side.scores is not None:
        out.extend(parts.track(side.scores, side.goal))
    if side.help is not None:
        out.extend(parts.help(side.help))
    return out


_parts: dict[tuple[int, Frames], Parts] = forget_with_shared({})


def parts_of(width: int, frames: Frames) -> Parts:
    """The parts at `width` in `frames` (a widget keeps them while its width and styles stay)."""
    found = _parts.get((width, frames))
    if found is None:
        if len(_parts) >= 64:
            _parts.clear()
        found = _parts[width, frames] = Parts(width, frames)
    return found


def side_picture(side: Side, parts: Parts) -> Picture:
    """The column showing `side` with `parts`: the same picture object for every session showing the same."""
    if parts.width < 8:
        return ()
    return _cache.picture((side, parts), parts.width, lambda: side_lines(side, parts))
