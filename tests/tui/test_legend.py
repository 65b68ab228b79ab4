"""The legend lines the seats panel and the score track share: items packed into lines of a width, never split."""

from __future__ import annotations

from collections.abc import Sequence

from dixit_tui.tui.legend import pack_legend
from dixit_tui.tui.score_track import track_rows
from dixit_tui.tui.seat_rows import LEGEND


def plain(lines: Sequence[object]) -> list[str]:
    return [str(line) for line in lines]


def test_items_fill_a_line_then_wrap_whole() -> None:
    assert plain(pack_legend(["seats 1-3", "goal 10"], 30, " · ")) == ["seats 1-3 · goal 10"]
    assert plain(pack_legend(["seats 1-3", "goal 10"], 18, " · ")) == ["seats 1-3", "goal 10"]
    assert plain(pack_legend(["♛ host", "★ teller", "… waiting"], 18, "  ")) == ["♛ host  ★ teller", "… waiting"]
    assert plain(pack_legend([], 10, " · ")) == []
    assert [line.plain for line in pack_legend(["a", "b"], 1, " ")] == ["a", "b"]  # too narrow: one item a line


def test_the_seats_panel_legend_uses_it() -> None:
    items = [f"{symbol} {word}" for symbol, word in LEGEND[:3]]
    assert plain(pack_legend(items, 80, "  ")) == ["  ".join(items)]


def test_the_score_track_legend_uses_it() -> None:
    lines = plain(track_rows([(0, 3), (1, 5), (2, 0)], 10, 24))
    assert lines[-1] == "seats 1-3 · goal 10", lines
