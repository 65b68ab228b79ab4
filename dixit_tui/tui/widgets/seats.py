"""The seats panel: who sits where, their score, and their state in words or symbols (never colour alone).

Narrow (under 32 cells) one line per seat with fixed symbol columns and a legend underneath:
`1 ✎◷♛  ana (you)      12`. Wide, the name line plus a line of words: `host · storyteller · waiting`.
Every name is player text: it only ever goes into Content as plain text.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rich.cells import cell_len
from textual.content import Content
from textual.geometry import Region, Size

from dixit_tui.coordinator import TableView
from dixit_tui.engine import Phase
from dixit_tui.tui.compositor import LaidOutOnce
from dixit_tui.tui.line_cache import LineCached
from dixit_tui.tui.widgets.legend import pack_legend
from dixit_tui.tui.widgets.textbox import same_content

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


@dataclass(frozen=True, slots=True)
class SeatLine:
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
        out = []
        if self.team is not None:
            out.append(f"team {self.team + 1}")
        if self.host:
            out.append("host")
        if self.storyteller:
            out.append("storyteller")
        if self.typing:
            out.append("writing a clue…")
        elif self.waiting:
            out.append("waiting")
        if self.removed:
            out.append("left the game")
        elif self.bot:
            out.append("bot")
        elif not self.connected:
            out.append("offline")
        return out

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


def _seat_rows(line: SeatLine, width: int) -> tuple[Content, ...]:
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


_shared_seat_rows = lru_cache(maxsize=1024)(_seat_rows)
"""A seat's rows worked out once for every session showing that seat alike at that width (a move changes one or two
seats: the others are the rows shown before; a player's own seat differs from the others' views of it, the rest are
shared)."""


@lru_cache(maxsize=256)
def _shared_legend(used: frozenset[str], width: int) -> tuple[Content, ...]:
    """The legend of the symbols `used`, packed at `width` (the same for every session and most moves)."""
    return tuple(pack_legend((f"{symbol} {word}" for symbol, word in LEGEND if symbol in used), width, "  "))


def render_seats(lines: tuple[SeatLine, ...], width: int) -> list[Content]:
    if width <= 0:
        return []
    out: list[Content] = []
    for line in lines:
        out.extend(_shared_seat_rows(line, width))
    if lines and width < WIDE:
        out.extend(_shared_legend(frozenset("".join(line.symbols() for line in lines)), width))
    return out


_shared_render = lru_cache(maxsize=256)(render_seats)
"""`render_seats` done once for every session showing the same seats at the same width (the lines are not changed)."""


class SeatsPanel(LaidOutOnce, LineCached):
    """Shows `seat_lines(view)`; re-renders only when they change, re-lays out only when the height changes."""

    DEFAULT_CSS = """
    SeatsPanel {
        height: auto;
        border: round $border-blurred;
        border-title-align: left;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.lines: tuple[SeatLine, ...] = ()
        self._drawn: tuple[tuple[SeatLine, ...], int, list[Content]] | None = None  # (lines, width, rendered)
        self.border_title = "Seats"

    def show(self, view: TableView) -> None:
        """Show the seats of `view`: only the rows that changed are drawn again (a vote changes one or two of them),
        and the panel is laid out again only when its height changes."""
        lines = seat_lines(view)
        if lines == self.lines:
            return
        width = self.content_size.width
        old, new = self._rendered(self.lines, width), _shared_render(lines, width)
        self.lines = lines
        self._drawn = (lines, width, new)
        if width <= 0 or len(old) != len(new):
            self.refresh(layout=True)
            return
        pairs = enumerate(zip(old, new, strict=True))
        changed = [Region(0, y, width, 1) for y, (a, b) in pairs if not same_content(a, b)]
        if changed:
            self.refresh(*changed)

    def _rendered(self, lines: tuple[SeatLine, ...], width: int) -> list[Content]:
        """`render_seats`, kept for the last lines and width drawn."""
        drawn = self._drawn
        if drawn is not None and drawn[0] == lines and drawn[1] == width:
            return drawn[2]
        rendered = _shared_render(lines, width)
        self._drawn = (lines, width, rendered)
        return rendered

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(1, len(self._rendered(self.lines, width)))

    def content_lines(self) -> list[Content] | None:
        """The rendered seat lines as they are (joined into one text, they were split again at every drawing)."""
        return self._rendered(self.lines, self.content_size.width) or None

    def render(self) -> Content:
        lines = self._rendered(self.lines, self.content_size.width)
        return Content("\n").join(lines) if lines else Content("Nobody is seated.")
