"""The create dialog by keys: a row of choices, when it gets the focus, puts its keyboard highlight on the chosen
option, so Left and Right move from there (found by a playtest: Left from "8 s" picked "30 s")."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import RadioSet

from dixit_tui.coordinator import Identity, TableOptions
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.create import Choice, CreateScreen
from tests.tui.fixtures import coordinator
from tests.tui.lobby_pilot import SIZE, open_create, settle


async def tab_to(pilot: Pilot[int], screen: CreateScreen, row: str) -> None:
    for _ in range(12):
        if screen.focused is not None and screen.focused.id == row:
            return
        await pilot.press("tab")
        await settle(pilot)
    raise AssertionError(f"Tab never reached #{row}")


def chosen(screen: CreateScreen, row: str) -> list[str]:
    return [str(b.label) for b in screen.query_one(f"#{row}", RadioSet).query(Choice) if b.value]


async def test_left_on_the_reveal_row_picks_the_option_before_the_chosen_one() -> None:
    app = DixitApp(coordinator(), Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await open_create(pilot)
        assert chosen(screen, "reveal") == ["8 s"]
        await tab_to(pilot, screen, "reveal")
        await pilot.press("left", "space")
        await settle(pilot)
        assert chosen(screen, "reveal") == ["5 s"]
        assert screen.options().reveal_seconds == 5


async def test_right_on_the_turn_timer_row_picks_the_option_after_the_chosen_one() -> None:
    app = DixitApp(coordinator(), Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = CreateScreen(TableOptions(turn_seconds=120), title="Options", ok="Change")
        await app.push_screen(screen)
        await settle(pilot)
        assert chosen(screen, "timer") == ["2 min"]
        await tab_to(pilot, screen, "timer")
        await pilot.press("right", "space")
        await settle(pilot)
        assert chosen(screen, "timer") == ["5 min"]
        await pilot.press("shift+tab", "tab", "left", "left", "space")  # back to the row: from "5 min" now
        await settle(pilot)
        assert chosen(screen, "timer") == ["1 min"]


async def test_arrow_keys_move_between_the_deck_boxes_as_in_the_rows_of_choices() -> None:
    """Found playtesting: the arrows moved between the options of every row but Decks, where only Tab did."""
    app = DixitApp(coordinator(), Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await open_create(pilot)
        await tab_to(pilot, screen, "deck-base")
        for key, box in (("right", "deck-atlas"), ("left", "deck-base"), ("down", "deck-atlas"), ("up", "deck-base")):
            await pilot.press(key)
            await settle(pilot)
            assert screen.focused is not None and screen.focused.id == box, key
        await pilot.press("left", "up")  # the first box: they stay there, as at the first option of a row
        await settle(pilot)
        assert screen.focused is not None and screen.focused.id == "deck-base"
        await pilot.press("right", "right", "space")  # the last box: Right stays there too
        await settle(pilot)
        assert screen.focused is not None and screen.focused.id == "deck-atlas"
        assert screen.options().decks == ("base", "atlas")


async def test_right_at_the_last_option_of_a_row_stays_there_not_back_to_the_first() -> None:
    """Found playtesting: Right, Right on the 2-choice Rules row went back to "refresh" (Textual's RadioSet wraps
    round). The options of a row are in order (off, 5 s ... 30 s): Right held down ends on the last one."""
    app = DixitApp(coordinator(), Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await open_create(pilot)
        assert chosen(screen, "profile") == ["refresh"]
        await tab_to(pilot, screen, "profile")
        await pilot.press("right", "right", "space")
        await settle(pilot)
        assert chosen(screen, "profile") == ["odyssey"]
        await pilot.press("left", "left", "left", "space")
        await settle(pilot)
        assert chosen(screen, "profile") == ["refresh"]
        await tab_to(pilot, screen, "reveal")
        await pilot.press(*["right"] * 7, "space")
        await settle(pilot)
        assert chosen(screen, "reveal") == ["30 s"]
