"""The seats panel's rows (pure: shared by the side column, `tui.side_picture`, and the wall): who sits where, their
score, and their state in words or symbols (never colour alone).

Narrow (under 32 cells) one line a seat with symbol columns and a legend (`1 ✎◷♛  ana (you)      12`); wide, a line
of words under the name (`host · storyteller · waiting`). Names are plain text, never markup.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.cells import cell_len
from textual.content import Content

from dixit_tui.coordinator import TableView
from dixit_tui.engine import Phase
from dixit_tui.tui.legend import pack_legend

MARKERS = "123456789ABC"
WIDE = 32

LEGEND = (
    ("✎", "storyteller"),
    ("◷", "waiting"),  # (not "…": next to a name it read as a name cut short)
    ("✍", "writing a clue"),
    ("♛", "host"),
    ("✗", "offline"),
    ("⚙", "bot"),
    ("-", "left"),
)


def seat_marker(seat: int) -> str:
    return MARKERS[seat] if 0 <= seat < len(MARKERS) else "?"


class SeatLine(NamedTuple):
    """One seat as the seats panel shows it (a named tuple: hashed fast, each update looks the picture up by it)."""

    seat: int
    name: str
    score: int | None
    you: bool = False
    host: bool = False
    storyteller: bool = False
    waiting: bool = False
    connected: bool = True
    bot: bool = False
    removed: bool = False
    team: int | None = None
    typing: bool = False  # writing a clue right now

    @property
    def marker(self) -> str:
        return seat_marker(self.seat)

    def words(self) -> list[str]:
        team = f"team {self.team + 1}" if self.team is not None else ""
        wait = "writing a clue…" if self.typing else "waiting" if self.waiting else ""
        conn = "left the game" if self.removed else "bot" if self.bot else "offline" if not self.connected else ""
        roles = ("host" if self.host else "", "storyteller" if self.storyteller else "")
        return [word for word in (team, *roles, wait, conn) if word]

    def symbols(self) -> str:
        conn = "-" if self.removed else "⚙" if self.bot else "✗" if not self.connected else " "
        wait = "✍" if self.typing else "◷" if self.waiting else " "
        return ("✎" if self.storyteller else " ") + wait + ("♛" if self.host else " ") + conn


def seat_lines(view: TableView) -> tuple[SeatLine, ...]:
    game = view.game
    out = []
    for info in view.seats:
        score = team = None
        teller = waiting = False
        removed = info.removed
        if game is not None and info.seat < len(game.players):
            player = game.players[info.seat]
            score, team = player.score, player.team
            removed = removed or not player.active
            teller = game.storyteller == info.seat and game.phase != Phase.OVER
            waiting = info.seat in game.waiting_for
        out.append(
            SeatLine(
                seat=info.seat,
                name=info.name,
                score=score,
                you=info.seat == view.you,
                host=info.host,
                storyteller=teller,
                waiting=waiting,
                connected=info.connected,
                bot=info.bot,
                removed=removed,
                team=team,
                typing=info.seat in view.typing,
            )
        )
    return tuple(out)


def _fit(name: str, width: int) -> str:
    """Cut `name` to `width` cells, with an ellipsis when cut."""
    if cell_len(name) <= width:
        return name
    out = ""
    for ch in name:
        if cell_len(out + ch) > width - 1:
            break
        out += ch
    return out + "…"


def _styled(text: str, style: str) -> str | tuple[str, str]:
    """A stretch of text in `style` (no span for an empty stretch or style: it would cut the line's segments)."""
    return (text, style) if text and style else text


def _name_part(line: SeatLine, room: int) -> Content:
    you = " (you)" if line.you else ""
    name = _fit(line.name, max(1, room - len(you)))
    style = "bold" if line.you else "dim strike" if line.removed else "dim" if not line.connected else ""
    return Content.assemble(_styled(name, style), _styled(you, "bold"))


def seat_rows(line: SeatLine, width: int) -> tuple[Content, ...]:
    """The rows of one seat at `width` (> 0): wide, its name line and its line of words (if any); narrow, one line."""
    score = "" if line.score is None else f"{line.score:>3}"
    if width >= WIDE:
        room = width - 2 - len(score) - 1
        name = _name_part(line, room)
        pad = max(1, width - 2 - name.cell_length - len(score))
        first = Content.assemble((line.marker, "bold"), " ", name, " " * pad, _styled(score, "bold"))
        words = line.words()
        if words:
            return (first, Content.styled("  " + " · ".join(words), "italic").truncate(width, ellipsis=True))
        return (first,)
    team = f"T{line.team + 1}" if line.team is not None else ""
    head = line.marker + " " + line.symbols() + (team and f" {team}")  # (a space: "1 ✎", never "1✎")
    room = width - len(head) - 1 - len(score) - 1
    name = _name_part(line, room)
    pad = max(1, width - len(head) - 1 - name.cell_length - len(score))
    return (Content.assemble((head, "bold"), " ", name, " " * pad, _styled(score, "bold")),)


def legend_rows(used: frozenset[str], width: int) -> list[Content]:
    """The legend of the symbols `used`, packed at `width`."""
    return pack_legend((f"{symbol} {word}" for symbol, word in LEGEND if symbol in used), width, "  ")
