"""Text that wraps at 80x24, read on the screen as a player sees it (the scenes of the 80x24 snapshots): a card's text
that wraps in the transcript or in "Give these cards?" lines up under the text, not at the left edge; a note in the
framed hand keeps a blank cell before the frame."""

from __future__ import annotations

import re

from textual.widget import Widget

from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.widgets.confirm import ConfirmScreen
from dixit_tui.tui.widgets.main_view import MainView
from dixit_tui.tui.widgets.transcript import TranscriptScreen
from tests.tui import scenes_80x24 as scenes
from tests.tui.fixtures import make_app, screen_text, settle, steady

NUMBERED = re.compile(r"^( *\d+\. )\S")


def rows_in(app: DixitApp, widget: Widget) -> list[str]:
    """The rows of the screen inside `widget`'s content region."""
    region = widget.content_region
    lines = screen_text(app).splitlines()[region.y : region.y + region.height]
    return [line[region.x : region.x + region.width] for line in lines]


def hanging_rows(rows: list[str], stop: re.Pattern[str]) -> list[tuple[str, str]]:
    """Each numbered row ("  3. text") with every row after it up to the next numbered row, a blank row or a row
    matching `stop` (its own next line): a wrapped row should start under the text, after the number."""
    out: list[tuple[str, str]] = []
    lead: str | None = None
    for row in rows:
        numbered = NUMBERED.match(row)
        if numbered:
            lead = numbered.group(1)
        elif lead is not None and row.strip() and not stop.match(row):
            out.append((lead, row))
        else:
            lead = None
    return out


async def test_a_cards_wrapped_text_hangs_under_its_text_in_the_transcript() -> None:
    app = make_app()
    async with app.run_test(size=scenes.SIZE) as pilot:
        await scenes.SCENARIOS["standard-over"](pilot)
        await pilot.press("t")
        await steady(pilot)
        assert isinstance(app.screen, TranscriptScreen)
        rows = [row.strip("▊▎") for row in rows_in(app, app.screen.query_one("#transcript"))]
        wrapped = hanging_rows(rows, re.compile(r"^ *given by "))
        assert len(wrapped) >= 3, rows  # (the deck's texts are longer than a row: several wrap)
        for lead, row in wrapped:
            assert row.startswith(" " * len(lead)) and row[len(lead)] != " ", (lead, row, rows)


async def test_a_cards_wrapped_text_hangs_under_its_text_in_give_these_cards() -> None:
    app = make_app()
    async with app.run_test(size=scenes.SIZE) as pilot:
        await scenes.SCENARIOS["standard-submit"](pilot)  # the cursor on card 2
        await pilot.press("enter", "down", "enter")  # cards 2 and 3 marked: the question opens
        await settle(pilot)
        await steady(pilot)
        assert isinstance(app.screen, ConfirmScreen) and app.screen.title_text == "Give these cards?"
        rows = rows_in(app, app.screen.query_one("#confirm-body"))
        wrapped = hanging_rows(rows, re.compile(r"^Once given"))
        assert wrapped, rows  # (cards 2 and 3 of this seed's hand are longer than a row)
        for lead, row in wrapped:
            assert row.startswith(" " * len(lead)) and row[len(lead)] != " ", (lead, row, rows)


async def test_the_note_in_the_framed_hand_keeps_a_blank_cell_before_the_frame() -> None:
    for keys in ((), ("enter",)):  # no card marked, then one
        app = make_app()
        async with app.run_test(size=scenes.SIZE) as pilot:
            await scenes.SCENARIOS["standard-submit"](pilot)
            await pilot.press(*keys)
            await settle(pilot)
            await steady(pilot)
            hand = app.screen.query_one(MainView)
            assert hand.note is not None
            rows = rows_in(app, hand)
            assert hand.note.plain.split()[0] in "".join(rows)
            touching = [row for row in rows if row[-1:] != " "]
            assert not touching, rows
