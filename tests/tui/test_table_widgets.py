"""Pure rendering of the table's small widgets: score track, seats, recap text, card prompts."""

from __future__ import annotations

import itertools
import re

from rich.console import Console
from textual.content import Content

from dixit_tui.engine import Points, Reveal, SlotResult
from dixit_tui.tui.score_track import track_rows
from dixit_tui.tui.seat_rows import SeatLine
from dixit_tui.tui.table_words import name_list
from dixit_tui.tui.widgets.recap import outcome_sentence, recap_renderable
from tests.tui.pictures import render_seats


def plain(lines: list[Content]) -> list[str]:
    return [line.plain for line in lines]


def test_track_places_markers_and_groups_ties() -> None:
    rows = plain(track_rows([(0, 0), (1, 0), (2, 15), (3, 30)], 30, 31))
    ruler, numbers, legend = rows[-3], rows[-2], rows[-1]
    assert rows[0].startswith("a ")  # the tie at 0: one letter, its seats in the legend
    assert rows[0][ruler.index("┼", len(ruler) // 2 - 1)] == "3"  # 15 of 30: on the middle tick
    assert rows[0].rstrip().endswith("4")
    assert ruler.startswith("├") and ruler.endswith("┤")
    assert numbers.startswith("0") and numbers.rstrip().endswith("30")
    assert legend == "a: 1 2 · goal 30"
    assert plain(track_rows([(0, 1), (1, 0), (2, 15), (3, 30)], 30, 31))[-1] == "seats 1-4 · goal 30"  # no tie


def test_track_ticks_are_even_and_numbered_at_their_ticks() -> None:
    for target, width in ((30, 23), (30, 31), (10, 23), (17, 25), (100, 23), (50, 40)):
        rows = plain(track_rows([(0, 3), (1, 9)], target, width))
        ruler, numbers = rows[-3], rows[-2]
        assert len(ruler) <= width and len(numbers) <= width, (target, width, rows)
        ticks = [i for i, ch in enumerate(ruler) if ch in "├┼┤"]
        gaps = {b - a for a, b in itertools.pairwise(ticks)}
        assert len(gaps) == 1 and min(gaps) >= 3, (target, width, ruler)
        for match in re.finditer(r"\d+", numbers):  # every number stands under a tick, or the goal's ┃
            assert ruler[match.start()] in "├┼┤┃" or match.end() == len(numbers), (target, width, rows)


def test_track_beyond_the_goal_runs_on_and_marks_the_goal() -> None:
    rows = plain(track_rows([(0, 34), (1, 31), (2, 3)], 30, 24))
    ruler, numbers, legend = rows[-3], rows[-2], rows[-1]
    assert "+" not in "".join(rows)  # no "30+": the ruler goes on past the goal
    assert "┃" in ruler and numbers[ruler.index("┃") : ruler.index("┃") + 2] == "30"
    assert legend == "seats 1-3 · ┃ goal 30"
    assert rows[0].index("1") > ruler.index("┃") and rows[1].index("2") > ruler.index("┃")  # both past the goal
    assert all(len(r) <= 24 for r in rows)


def test_track_without_a_goal_for_party_and_team() -> None:
    rows = plain(track_rows([(0, 3), (1, 14)], None, 23))
    assert rows[-1] == "seats 1-2" and "goal" not in "".join(rows) and "┃" not in rows[-3]
    assert rows[-2].rstrip().endswith("14")


def test_track_overlapping_groups_go_on_new_rows() -> None:
    rows = plain(track_rows([(0, 10), (1, 10), (2, 10), (3, 11)], 30, 31))
    assert len(rows) == 5  # two marker rows, ruler, numbers, legend
    assert rows[1].strip() == "a" and rows[0].strip() == "4" and rows[0].index("4") == rows[1].index("a") + 1, rows


def test_tied_markers_stand_on_their_score_not_spread_over_the_track() -> None:
    """Tied markers written side by side ("12345") ran over the next scores' columns: seat 8 read as 9 points (issue
    22 item 13). A tie is one letter on its score's column and the legend says whose it is; the track keeps its
    height."""
    scores = [(0, 2), (1, 5), (2, 5), (3, 5), (4, 5), (7, 5), (5, 20)]
    rows = plain(track_rows(scores, 30, 31))
    ruler = rows[-3]
    five = ruler.index("┼")  # the first tick: 5 points (31 cells: a tick every 5 points, 4 cells apart)
    at = {ch: x for row in rows[:-3] for x, ch in enumerate(row) if ch != " "}
    assert set(at) == {"1", "a", "6"} and at["a"] == five, rows  # no marker on another score's column
    assert rows[-1] == "a: 2 3 4 5 8 · goal 30", rows
    start = plain(track_rows([(i, 0) for i in range(8)], 30, 23))
    assert len(start) == 4 and start[0] == "a" and start[-1] == "a: seats 1-8 · goal 30", start


def lines() -> tuple[SeatLine, ...]:
    return (
        SeatLine(0, "ana", 12, you=True, host=True, waiting=True),
        SeatLine(1, "ben", 7, storyteller=True, connected=False),
        SeatLine(2, "a-very-long-name-xx", 31, bot=True, team=1),
    )


def test_seats_narrow_symbols_and_legend() -> None:
    out = plain(render_seats(lines(), 24))
    assert out[0].startswith("1  ◷♛ ") and "ana (you)" in out[0] and out[0].endswith(" 12")
    assert out[1].startswith("2 ✎  ✗") and out[1].endswith("  7")
    assert "T2" in out[2] and "…" in out[2] and out[2].endswith(" 31")  # (the name, cut)
    assert all(len(line) <= 24 for line in out)
    legend = " ".join(out[3:])
    for word in ("storyteller", "waiting", "host", "offline", "bot"):
        assert word in legend
    assert "left" not in legend  # only the symbols in use


def test_seats_wide_words() -> None:
    out = plain(render_seats(lines(), 40))
    assert out[0].startswith("1 ana (you)") and out[0].endswith("12")
    assert out[1].strip() == "host · waiting"
    assert "storyteller · offline" in out[3]
    assert "team 2 · bot" in out[5]


def test_name_list() -> None:
    assert name_list([]).plain == "nobody"
    assert name_list(["ana"]).plain == "ana"
    assert name_list(["ana", "ben"]).plain == "ana and ben"
    assert name_list(["ana", "ben", "cara"]).plain == "ana, ben and cara"
    assert name_list(["a", "b", "c", "d", "e", "f"]).plain == "a, b, c and 3 others"


def reveal(outcome: str = "some") -> Reveal:
    return Reveal(
        turn=3,
        storyteller=0,
        clue="[b]x[/",
        outcome=outcome,
        slots=(
            SlotResult(1, "c1", 1, (0,), red=outcome == "party", text="one"),
            SlotResult(2, "c0", 0, (1, 2), text="a [red]door[/"),
            SlotResult(3, "c2", 2, (), text="two"),
        ),
        points=(
            Points(0, pass1=3, delta=3, score=10),
            Points(1, pass1=3, bonus_raw=4, bonus=3, extra=1, delta=7, score=31),
            Points(2, delta=0, score=5),
        ),
    )


def render_text(renderable: object, width: int = 100) -> str:
    console = Console(width=width, record=True, file=None, color_system=None)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


def test_recap_text_by_pass_with_cap_and_markup_literal() -> None:
    names = ["[@click=app.quit]x[/", "ben", "cara"]
    text = render_text(recap_renderable(reveal(), names, "standard", {}, 1))
    assert "[@click=app.quit]x[/" in text
    assert "“[b]x[/”" in text
    assert "a [red]door[/" in text
    assert "4→3 capped" in text
    assert "Extra" in text
    assert "ben (you)" in text
    assert "votes: ben (you), cara" in text
    assert "✎ storyteller's card" in text
    assert "★" not in text  # ★ marks the winners at game over only; the storyteller is ✎ everywhere


def test_the_storytellers_own_card_reads_yours() -> None:
    # The storyteller's own recap: "(yours)", never the doubled "(ana (you))" (found by a playtest).
    mine = render_text(recap_renderable(reveal(), ["ana", "ben", "cara"], "standard", {}, 0))
    assert "✎ storyteller's card (yours)" in mine and "(you))" not in mine, mine
    theirs = render_text(recap_renderable(reveal(), ["ana", "ben", "cara"], "standard", {}, 1))
    assert "✎ storyteller's card (ana)" in theirs, theirs


def test_outcome_sentences() -> None:
    names = ["ana", "ben", "cara"]
    assert "Some players found ana's card" in outcome_sentence(reveal("some"), names, "standard", None).plain
    assert "Everyone found ana's card" in outcome_sentence(reveal("all"), names, "standard", None).plain
    assert "Nobody found ana's card" in outcome_sentence(reveal("none"), names, "standard", None).plain
    assert "ana's team scores 0" in outcome_sentence(reveal("none"), names, "team", None).plain
    assert "red marker" in outcome_sentence(reveal("party"), names, "party", None).plain
    # The storyteller reading their own recap: "your card", never "ana (you)'s card".
    mine = outcome_sentence(reveal("none"), names, "standard", 0).plain
    assert "Nobody found your card" in mine and "you score 0" in mine and "(you)'s" not in mine, mine
    assert "Some players found your card" in outcome_sentence(reveal("some"), names, "standard", 0).plain
    assert "your team scores 0" in outcome_sentence(reveal("all"), names, "team", 0).plain
    assert "Everyone found ana's card" in outcome_sentence(reveal("all"), names, "standard", 1).plain


def test_team_recap_groups_teammates() -> None:
    r = Reveal(
        turn=1,
        storyteller=0,
        clue="tide",
        outcome="some",
        slots=(SlotResult(1, "c0", 0, (1,)), SlotResult(2, "c3", 3, (2,)), SlotResult(3, "c1", 1, ())),
        points=(
            Points(0, pass1=3, bonus=1, bonus_raw=1, delta=4, score=4),
            Points(1, pass1=3, delta=3, score=3),
            Points(2, delta=0, score=0),
            Points(3, pass1=3, bonus=1, bonus_raw=1, delta=4, score=4),
        ),
    )
    names = ["ana", "ben", "cara", "dev"]
    teams = {0: 0, 1: 1, 2: 0, 3: 1}
    text = render_text(recap_renderable(r, names, "team", teams, None))
    assert "Team 1: ana & cara" in text
    assert "Team 2: ben & dev" in text
    assert text.count("Team 1:") == 1
    assert "given by dev, team 2" in text
    assert "(card text not available)" in text
