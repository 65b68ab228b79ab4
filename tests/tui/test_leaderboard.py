"""The lobby's leaderboard page (issue 26): l opens it, with the same players, order, ratings and games as
`ssh HOST leaderboard`; your own row is marked; names are shown as typed, never as markup; Esc closes it."""

from __future__ import annotations

import random

from textual.widgets import DataTable, Static

from dixit_tui.coordinator import Coordinator, Identity
from dixit_tui.ratings import leaderboard_text
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.leaderboard import EMPTY_TEXT, GUEST_TEXT, LeaderboardScreen
from dixit_tui.tui.lobby import LobbyScreen
from tests.tui.fixtures import EVERY_CHANGE
from tests.tui.lobby_pilot import SIZE, settle

HOSTILE = "[@click=app.quit]x[/"


def rated_coordinator() -> Coordinator:
    """A coordinator whose ratings fold three games of four players with keys (as committed results would)."""
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, limits=EVERY_CHANGE)
    players = [("key-ben", "ben"), ("key-x", HOSTILE), ("key-ana", "ana"), ("key-cara", "cara")]
    for _ in range(3):
        coord.ratings.rate([(key, name, place) for place, (key, name) in enumerate(players, 1)])
    return coord


def board_rows(screen: LeaderboardScreen) -> list[list[str]]:
    table = screen.query_one("#leaderboard", DataTable)
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


async def test_l_opens_the_leaderboard_with_your_row_marked_and_esc_closes_it() -> None:
    coord = rated_coordinator()
    app = DixitApp(coord, Identity("ana", "key-ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("l")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, LeaderboardScreen)
        shown = board_rows(screen)
        # the same rows as `ssh HOST leaderboard` prints (rank, name, rating, games), ana's marked
        text = leaderboard_text(coord.ratings).splitlines()[1:]
        assert [line.split(maxsplit=1)[0] for line in text] == [row[1] for row in shown]
        assert [row[2] for row in shown] == ["ben", HOSTILE, "ana", "cara"]  # the hostile name as typed, no markup
        assert [row[3] for row in shown] == [f"{r.conservative:.1f}" for r in coord.ratings.leaderboard()]
        assert [row[4] for row in shown] == ["3"] * 4
        assert [row[0] for row in shown] == ["", "", "▶", ""]
        assert screen.query_one("#leaderboard", DataTable).cursor_row == 2
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert app.is_running  # the hostile name's [@click=app.quit] did nothing


async def test_your_row_is_added_below_the_best_when_you_are_not_among_them() -> None:
    coord = rated_coordinator()
    app = DixitApp(coord, Identity("cara", "key-cara"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        assert lobby.host.session is not None
        app.push_screen(LeaderboardScreen(lobby.host.session.standings(limit=2), guest=False))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, LeaderboardScreen)
        assert [(row[0], row[1], row[2]) for row in board_rows(screen)] == [
            ("", "1", "ben"),
            ("", "2", HOSTILE),
            ("▶", "4", "cara"),
        ]


async def test_an_empty_leaderboard_says_how_to_be_rated_and_a_guest_is_told_why_not() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, limits=EVERY_CHANGE)
    app = DixitApp(coord, Identity("guest1"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, LeaderboardScreen)
        assert str(screen.query_one("#leaderboard-empty", Static).render()) == EMPTY_TEXT
        assert str(screen.query_one("#leaderboard-guest", Static).render()) == GUEST_TEXT
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
