"""The score track's rows (pure; drawn in the side column, `tui.side_picture`): every seat's marker (its seat
number, as in the seats panel) above an evenly ticked ruler.

Seats tied at one place show one letter there (`a`, reversed) and the legend says whose it is (`a: 1 2 3`); marks
that would touch go on the next row. The ticks are even (every 1, 2, 5, 10... points), and the ruler runs to the goal
or past it, so a score is never folded into a `30+`.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content

from dixit_tui.tui.legend import pack_legend
from dixit_tui.tui.seat_rows import seat_marker

STEPS = (1, 2, 5, 10, 20, 25, 50, 100)
TIE_MARKS = "abcdefghijklmnopqrstuvwxyz"  # a tie's mark (seat markers are digits and A-C)
MIN_CELLS = 3  # cells between two ticks: closer ticks would blur into a solid line


def scale(top: int, width: int) -> tuple[int, int, int]:
    """(points per tick, cells per tick, ticks) for a ruler from 0 to at least `top` in at most `width` cells."""
    for step in STEPS:
        ticks = max(1, -(-top // step))
        cells = (width - 1) // ticks
        if cells >= MIN_CELLS or step == STEPS[-1]:
            break
    return step, max(1, cells), ticks


def track_rows(scores: Sequence[tuple[int, int]], target: int | None, width: int) -> list[Content]:
    """The lines of the track for (seat, score) pairs: marker rows, the ruler, its numbers, then the legend.
    `target` is the goal of a standard game (None for party and team games, which end after the storytelling)."""
    width = max(8, width)
    best = max((score for _, score in scores), default=0)
    top = max(target or 10, best, 1)
    step, cells, ticks = scale(top, width - len(str(top)) + 1)  # room for the last number under the last tick
    end = step * ticks  # the ruler's last value (>= top)
    length = cells * ticks + 1

    def col(score: int) -> int:
        return round(min(max(score, 0), end) * cells / step)

    groups: dict[int, str] = {}
    for seat, score in sorted(scores, key=lambda p: p[0]):
        c = col(score)
        groups[c] = groups.get(c, "") + seat_marker(seat)
    ties: list[tuple[str, str]] = []  # (letter, the tied seats' markers), left to right
    rows: list[list[tuple[int, str]]] = []
    for c in sorted(groups):
        label = groups[c]
        if len(label) > 1:  # a tie: one letter on its own column, its seats in the legend (side by side they spread
            ties.append((TIE_MARKS[len(ties) % len(TIE_MARKS)], label))  # over the next scores' columns)
            label = ties[-1][0]
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
            parts.append((label, "bold reverse" if label in TIE_MARKS else "bold"))
            at = start + len(label)
        lines.append(Content.assemble(*parts))

    goal = col(target) if target is not None and target < end else None  # the goal inside the ruler: ┃
    ruler = ["┃" if i == goal else "┼" if i % cells == 0 else "─" for i in range(length)]
    ruler[0], ruler[-1] = "├", "┤"
    lines.append(Content("".join(ruler)))

    # Numbers: 0, the goal and the end, then every k-th tick, each only where it does not crowd another number.
    room = len(str(end)) + 2
    every = next(k for k in range(1, ticks + 1) if k * cells >= room or k == ticks)
    values = [0, *([target] if goal is not None and target is not None else []), end]
    values += [t * step for t in range(every, ticks, every)]
    numbers = [" "] * (length + len(str(end)))
    placed: list[int] = []
    for value in values:
        c = col(value)
        if any(abs(c - other) < room for other in placed):
            continue
        placed.append(c)
        text = str(value)
        c = min(c, width - len(text))
        numbers[c : c + len(text)] = text
    lines.append(Content.styled("".join(numbers).rstrip()[:width], "dim"))

    legend = []
    markers = sorted(seat for seat, _ in scores)
    if len(ties) == 1 and len(ties[0][1]) == len(markers):  # everyone on one spot
        legend.append(f"{ties[0][0]}: seats {ties[0][1][0]}-{ties[0][1][-1]}")
    elif ties:
        legend.extend(f"{letter}: {' '.join(seats)}" for letter, seats in ties)
    elif markers:
        first, last = seat_marker(markers[0]), seat_marker(markers[-1])
        legend.append(f"seats {first}-{last}" if first != last else f"seat {first}")
    if target is not None:
        legend.append(f"┃ goal {target}" if goal is not None else f"goal {target}")
    lines.extend(pack_legend(legend, width, " · "))
    return lines
