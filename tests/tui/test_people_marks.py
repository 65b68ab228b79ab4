"""The table screen tells the table when you write a clue, and shows who else is writing one."""

from __future__ import annotations

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.seat_rows import SeatLine
from tests.tui.fixtures import coordinator, options, screen_text, seat_many, settle
from tests.tui.pictures import render_seats


async def test_typing_a_clue_tells_the_table_and_others_writing_are_shown() -> None:
    coord = coordinator()
    app = DixitApp(coord, Identity("ana", "key-ana"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.session is not None
        view = await app.session.create(options())
        (ben, _), _cara = await seat_many(coord, ["ben", "cara"], view.code)
        await settle(pilot)
        await pilot.press("s", "y")
        await settle(pilot)
        table = coord.tables[view.code]

        await ben.typing(True)
        await settle(pilot)
        assert "ben is writing a clue…" in screen_text(app)
        await ben.typing(False)
        await settle(pilot)
        assert "is writing a clue" not in screen_text(app)

        await pilot.press("2", "enter")  # choose card 2: the clue box gets the focus
        await settle(pilot)
        await pilot.press(*"moo")
        await settle(pilot)
        assert set(table.typing) == {0}  # one report, not three: the others see ana writing
        for _ in range(3):
            await pilot.press("backspace")
        await settle(pilot)
        assert table.typing == {}  # the text is gone: so is the mark


def test_the_seats_panel_marks_a_writer_in_both_widths() -> None:
    lines = (SeatLine(0, "ana", 0, you=True, waiting=True), SeatLine(1, "ben", 0, waiting=True, typing=True))
    narrow = [c.plain for c in render_seats(lines, 26)]
    assert narrow[1].startswith("2  ✍") and any("✍ writing a clue" in line for line in narrow)
    wide = [c.plain for c in render_seats(lines, 40)]
    assert "writing a clue…" in wide[3] and "waiting" in wide[1]
