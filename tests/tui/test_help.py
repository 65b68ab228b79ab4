"""The help screen: opens with F1, closes with Esc, tells the rules of the table's mode."""

from __future__ import annotations

import random

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Markdown, Static

from dixit_tui.coordinator import Coordinator, Identity, TableOptions
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.help import HelpScreen, help_text
from dixit_tui.tui.lobby import LobbyScreen

SIZE = (80, 24)


async def settle(pilot: Pilot[int]) -> None:
    for _ in range(3):
        await pilot.pause()


def shown(screen: HelpScreen) -> str:
    return screen.query_one("#help-text", Markdown).source


async def test_f1_opens_help_from_the_lobby_and_esc_closes_it() -> None:
    app = DixitApp(Coordinator(rng=random.Random(1)), Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        assert screen.mode is None
        assert "all modes" in str(screen.query_one("#help-title", Static).render())
        text = shown(screen)
        assert "The modes" in text and "Clue tips" in text
        await pilot.press("pagedown", "down", "end")  # scrolls, stays open
        await settle(pilot)
        assert app.screen is screen
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("f1")
        await settle(pilot)
        await pilot.press("f1")  # F1 again closes too
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)


@pytest.mark.parametrize(
    ("options", "label"),
    [
        (TableOptions(), "refresh"),
        (TableOptions(profile="odyssey"), "odyssey"),
        (TableOptions(mode="party"), "party"),
        (TableOptions(mode="team"), "team"),
    ],
)
async def test_help_at_a_table_shows_its_mode(options: TableOptions, label: str) -> None:
    coord = Coordinator(rng=random.Random(1))
    app = DixitApp(coord, Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.session is not None
        await app.session.create(options)
        await settle(pilot)
        app.action_help()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        assert screen.mode == label
        assert shown(screen) == help_text(label)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, HelpScreen)


def test_help_texts_are_mode_specific_and_exact() -> None:
    refresh, odyssey, party, team = (help_text(m) for m in ("refresh", "odyssey", "party", "team"))
    for text in (refresh, odyssey, party, team, help_text(None)):
        assert "neither too precise nor too obscure" in text
        assert "Too obvious" in text and "Too obscure" in text and "Good" in text
        assert "Esc" in text and "F1" in text
    assert "3 to 8 players" in refresh and "No limit on the decoy bonus" in refresh
    assert "two** cards" in refresh  # the 3-player variant
    assert "3 to 12 players" in odyssey and "capped at +3" in odyssey
    assert "one or two votes" in odyssey and "single vote scores +1 more" in odyssey
    assert "two** cards" in odyssey
    assert "red" in party and "may vote for their own card" in party and "at most 5" in party
    assert "passes their whole hand to the next seat" in party
    assert "6, 8, 10 or 12" in team and "at most +3 per team per turn" in team and "teammate" in team
    for text in (refresh, odyssey):  # team mode scores per team: its own section says how
        assert "storyteller **+3**, each voter who found it **+3**" in text
        assert "every other player **+2**" in text
        assert "Turn: Ana 3, Ben 4, Cara 3, Dev 0." in text
    assert "Party mode" not in refresh and "Team mode" not in party


async def test_question_mark_opens_help_in_the_lobby_and_at_the_table_but_types_in_the_chat_box() -> None:
    coord = Coordinator(rng=random.Random(1))
    app = DixitApp(coord, Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("?")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen) and app.screen.mode is None
        await pilot.press("?")  # closes it, as F1 does
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)

        assert app.session is not None
        await app.session.create(TableOptions())
        await settle(pilot)
        table = app.screen
        await pilot.press("?")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen) and app.screen.mode == "refresh"
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is table

        await pilot.press("c", *"why?")  # the chat box has the keys: "?" is typed, no help
        await settle(pilot)
        assert app.screen is table
        assert table.query_one("#chat-input", Input).value == "why?"
