"""SVG snapshots of the lobby, the create dialog, and the help, at 80x24 and 120x40.

Deterministic: a seeded coordinator gives the same table codes every run. Regenerate with
`.venv/bin/python -m pytest tests/tui --snapshot-update` and look at the SVGs before committing them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from dixit_tui.coordinator import Coordinator, Identity, TableOptions, Update
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.help import HelpScreen
from tests.tui.fixtures import EVERY_CHANGE

SIZES = [(80, 24), (120, 40)]
Compare = Callable[..., bool]


def make_app(name: str = "ana", key: str | None = None) -> DixitApp:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, limits=EVERY_CHANGE)
    return DixitApp(coord, Identity(name, key))


def ignore(_: Update) -> None:
    pass


async def settle(pilot: Pilot[Any]) -> None:
    for _ in range(3):
        await pilot.pause()


async def add_tables(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, DixitApp)
    coord = app.coordinator
    ben = await coord.connect(Identity("ben", "key-ben"), ignore)
    await ben.create(TableOptions(mode="party"))
    hostile = await coord.connect(Identity("[@click=app.quit]x[/", "key-x"), ignore)
    view = await hostile.create(TableOptions(profile="odyssey", seats=6))
    cara = await coord.connect(Identity("cara", "key-cara"), ignore)
    await cara.join(view.code)
    dev = await coord.connect(Identity("dev", "key-dev"), ignore)
    await dev.create(TableOptions(mode="team", seats=8))
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES)
def test_lobby_empty(snap_compare: Compare, size: tuple[int, int]) -> None:
    assert snap_compare(make_app(), terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES)
def test_lobby_with_tables(snap_compare: Compare, size: tuple[int, int]) -> None:
    assert snap_compare(make_app(key="key-ana"), terminal_size=size, run_before=add_tables)


@pytest.mark.parametrize("size", SIZES)
def test_create_dialog(snap_compare: Compare, size: tuple[int, int]) -> None:
    assert snap_compare(make_app(), press=["c", "_"], terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES)
def test_create_dialog_team_with_errors(snap_compare: Compare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        await pilot.click("#mode-team")
        pilot.app.screen.query_one("#seats", Input).focus()
        await pilot.press("end", "backspace", "backspace", "7")
        await pilot.click("#deck-base")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_help_odyssey(snap_compare: Compare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.app.push_screen(HelpScreen("odyssey"))
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


def test_leaderboard(snap_compare: Compare) -> None:
    """The lobby's leaderboard page (l) at 80x24: ranks, names (a hostile one drawn as typed), ratings, games, your
    row marked."""
    app = make_app("ana", "key-ana")
    players = [("key-ben", "ben"), ("key-x", "[@click=app.quit]x[/"), ("key-ana", "ana"), ("key-cara", "cara")]
    for _ in range(3):
        app.coordinator.ratings.rate([(key, name, place) for place, (key, name) in enumerate(players, 1)])
    assert snap_compare(app, terminal_size=(80, 24), press=["l"], run_before=settle)
