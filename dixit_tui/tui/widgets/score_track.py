"""The score track 0..target: every seat's marker (its seat number, as in the seats panel) above a ruler.

Markers at the same place are grouped (`123`) and groups that would overlap go on the next row. A score past the
target stays at the end, where the ruler reads `30+`; the exact number is next to each name in the seats panel.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget

from dixit_tui.tui.widgets.seats import seat_marker


def track_rows(scores: Sequence[tuple[int, int]], target: int, width: int) -> list[Content]:
    """The lines of the track for (seat, score) pairs: marker rows, the ruler, then the numbers under it."""
    target = max(1, target)
    over = any(score > target for _, score in scores)
    end_label = f"{target}+" if over else str(target)
    length = max(4, width - (1 if over else 0))  # cells of the ruler, 0..target (then "+" past the end)

    def col(score: int) -> int:
        return round(min(max(score, 0), target) * (length - 1) / target)

    groups: dict[int, str] = {}
    for seat, score in sorted(scores, key=lambda p: p[0]):
        c = col(score)
        groups[c] = groups.get(c, "") + seat_marker(seat)
    rows: list[list[tuple[int, str]]] = []
    for c in sorted(groups):
        label = groups[c]
        start = min(c, max(0, width - len(label)))
        for row in rows:
            last_start, last_label = row[-1]
            if last_start + len(last_label) < start:
                row.append((start, label))
                break
        else:
            rows.append([(start, label)])
    lines: list[Content] = []
    for row in reversed(rows):
        parts: list[str | tuple[str, str]] = []
        at = 0
        for start, label in row:
            parts.append(" " * (start - at))
            parts.append((label, "bold"))
            at = start + len(label)
        lines.append(Content.assemble(*parts))
    ruler = []
    for i in range(length):
        value = i * target / (length - 1)
        prev = (i - 1) * target / (length - 1)
        tick = i == 0 or i == length - 1 or int(value // 5) != int(prev // 5)
        ruler.append("┼" if tick and 0 < i < length - 1 else "├" if i == 0 else "┤" if i == length - 1 else "─")
    lines.append(Content("".join(ruler) + ("+" if over else "")))
    numbers = [" "] * (length + len(end_label))
    for value in (0, *range(10, target, 10)):
        text = str(value)
        c = col(value)
        if c + len(text) < length - len(end_label) and all(ch == " " for ch in numbers[max(0, c - 1) : c + len(text)]):
            numbers[c : c + len(text)] = text
    end = length - len(str(target))
    numbers[end : end + len(end_label)] = end_label
    lines.append(Content.styled("".join(numbers).rstrip()[:width], "dim"))
    return lines


class ScoreTrack(Widget):
    DEFAULT_CSS = """
    ScoreTrack {
        height: auto;
        border: round $border-blurred;
        border-title-align: left;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.scores: tuple[tuple[int, int], ...] = ()
        self.target = 30
        self.border_title = "Score track"

    def show(self, scores: Sequence[tuple[int, int]], target: int) -> None:
        scores = tuple(scores)
        if scores == self.scores and target == self.target:
            return
        width = self.content_size.width or 30
        relayout = len(track_rows(scores, target, width)) != len(track_rows(self.scores, self.target, width))
        self.scores, self.target = scores, target
        self.refresh(layout=relayout)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(track_rows(self.scores, self.target, width))

    def render(self) -> Content:
        width = self.content_size.width
        if width <= 0:
            return Content("")
        return Content("\n").join(track_rows(self.scores, self.target, width))
