"""The create dialog's decks: every built-in deck is offered, any mix can be chosen, and the card count shows."""

from __future__ import annotations

import argparse
from pathlib import Path

from textual.widgets import Static

from dixit_tui.coordinator import Identity
from dixit_tui.serve import build_coordinator
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.create import CreateScreen, Tick
from tests.tui.fixtures import coordinator, settle
from tests.tui.lobby_pilot import SIZE, errors, open_create


def deck_hint(screen: CreateScreen) -> str:
    return str(screen.query_one("#decks-hint", Static).render())


async def test_the_create_dialog_mixes_base_and_atlas() -> None:
    coord = coordinator()
    app = DixitApp(coord, Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await open_create(pilot)
        ticks = [str(tick.label) for tick in screen.query("#decks Tick").results(Tick)]
        assert ticks == ["base", "atlas"]  # base first, as chosen by default
        assert screen.query_one("#deck-base", Tick).value
        assert not screen.query_one("#deck-atlas", Tick).value
        assert deck_hint(screen) == "84 cards"

        await pilot.click("#deck-atlas")
        await settle(pilot)
        assert deck_hint(screen) == "168 cards, mixed"
        await pilot.click("#deck-base")
        await settle(pilot)
        assert deck_hint(screen) == "84 cards"
        assert errors(screen) == ""
        await pilot.click("#deck-atlas")
        await settle(pilot)
        assert deck_hint(screen) == ""
        assert "Decks: pick at least one deck." in errors(screen)
        await pilot.click("#deck-atlas")
        await pilot.click("#deck-base")
        await settle(pilot)
        assert deck_hint(screen) == "168 cards, mixed"

        await pilot.press("f2")
        await settle(pilot)
        (table,) = coord.tables.values()
        assert table.options.decks == ("base", "atlas")


async def test_the_create_dialog_offers_atlas_alone() -> None:
    coord = coordinator()
    app = DixitApp(coord, Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await open_create(pilot)
        await pilot.click("#deck-atlas")
        await pilot.click("#deck-base")
        await settle(pilot)
        assert deck_hint(screen) == "84 cards"
        await pilot.press("f2")
        await settle(pilot)
        (table,) = coord.tables.values()
        assert table.options.decks == ("atlas",)


async def test_a_deck_given_to_the_server_is_offered_too(tmp_path: Path) -> None:
    mine = tmp_path / "mine.toml"
    cards = "".join(f'\n[[card]]\nid = "mine-{i}"\ntext = "Scene {i} of my own deck."\n' for i in range(30))
    mine.write_text('[deck]\nname = "mine"\ntitle = "My deck"\n' + cards, encoding="utf-8")
    coord = build_coordinator(argparse.Namespace(deck=[str(mine)], allow_seeded_tables=False))
    app = DixitApp(coord, Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await open_create(pilot)
        ticks = [str(tick.label) for tick in screen.query("#decks Tick").results(Tick)]
        assert ticks == ["base", "atlas", "mine"]
        await pilot.click("#deck-mine")
        await settle(pilot)
        assert deck_hint(screen) == "114 cards, mixed"
        await pilot.press("f2")
        await settle(pilot)
        (table,) = coord.tables.values()
        assert table.options.decks == ("base", "mine")


async def test_a_form_whose_fields_went_with_the_app_mounts_without_a_crash() -> None:
    """The connection closed as the form opened (Esc then c, then the client gone): its fields were taken down
    before its mount ran, which looked for them."""
    coord = coordinator()
    app = DixitApp(coord, Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await open_create(pilot)
        await screen.query("*").remove()
        screen.on_mount()  # its mount, still queued: nothing to do
        assert app._exception is None
