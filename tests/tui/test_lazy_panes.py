"""Opening a table builds only the pane it shows: the hand, the board with its dial and the end of the game are
mounted the first time they are shown (a join to a table in its lobby composes none of them), and work as before."""

from __future__ import annotations

from typing import Any

import pytest
from textual.screen import Screen
from textual.widgets import Button

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.panes import Panes
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.widgets.cards import Board, Hand
from dixit_tui.tui.widgets.over_view import OverView
from tests.tui.fixtures import coordinator, options, phase_of, play_until, screen_text, seat, settle

SIZE = (100, 30)


def built(screen: TableScreen) -> dict[str, int]:
    """How many of each pane's own widgets are in the DOM."""
    return {
        "lobby": len(screen.query("#lobby-info")) + len(screen.query(Button)),
        # (the hand's widget also holds the note under it: a watcher's shows the note alone, no cards)
        "hand": len([hand for hand in screen.query(Hand) if hand.items]) + len(screen.query("#clue-input")),
        "vote": len(screen.query(Board)) + len([board for board in screen.query(Board) if board.dial is not None]),
        "over": len(screen.query(OverView)),
    }


async def test_a_join_to_a_table_in_its_lobby_builds_only_the_lobby_pane() -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    ben, _ = await seat(coord, "ben", view.code)
    app = DixitApp(coord, Identity("ana", "key-ana"), command=f"join {view.code}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        assert built(screen) == {"lobby": 4, "hand": 0, "vote": 0, "over": 0}
        widgets = len(list(screen.walk_children()))

        # the game starts: the hand is built when it is first shown, filled and focused at once
        await host.start()
        await settle(pilot)
        assert built(screen) == {"lobby": 4, "hand": 2, "vote": 0, "over": 0}
        panes = screen.query_one(Panes)
        assert panes.mounted_late == 1 and panes.current == "hand-pane"
        assert len(list(screen.walk_children())) > widgets
        assert app.session is not None and (mine := app.session.view()) is not None and mine.game is not None
        assert screen.query_one(Hand).option_count == len(mine.game.hand) > 0
        await settle(pilot)
        assert "Choose the card for your clue: ↑↓ or 1-7, then Enter." in screen_text(app)
        assert "A moth as large as a sail" in screen_text(app)
        assert screen.focused is screen.query_one(Hand)

        # the vote: the board and its dial, built once; back at the hand nothing new is built
        sessions = [host, ben, app.session]
        await play_until([s for s in sessions if s is not None], lambda: phase_of(host)[2] == "vote")
        await settle(pilot)
        telling = host.view().game.storyteller == 2  # type: ignore[union-attr]
        dial = 0 if telling else 1  # (the dial is built the first time you vote: not while you tell)
        assert built(screen)["vote"] == 1 + dial and panes.current == "vote-pane"
        assert (isinstance(screen.focused, Board) and screen.focused.dial is not None) or telling
        await play_until([s for s in sessions if s is not None], lambda: phase_of(host)[1:] == (2, "clue"))
        await settle(pilot)
        assert panes.current == "hand-pane" and panes.mounted_late == 2
        assert built(screen) == {"lobby": 4, "hand": 2, "vote": 1 + dial, "over": 0}


async def test_a_watcher_arriving_at_the_vote_builds_only_the_board() -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    others = [(await seat(coord, name, view.code))[0] for name in ("ben", "cara")]
    await host.start()
    await play_until([host, *others], lambda: phase_of(host)[2] == "vote")
    app = DixitApp(coord, Identity("dan", "key-dan"), command=f"watch {view.code}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        assert built(screen) == {"lobby": 0, "hand": 0, "vote": 1, "over": 0}  # the board (no dial: never votes)
        assert screen.query_one(Panes).mounted_late == 0
        assert "You are watching the vote." in screen_text(app)
        # the next turn's clue phase: the hand pane, without a hand or a clue box (a watcher never has them)
        await play_until([host, *others], lambda: phase_of(host)[1:] == (2, "clue"))
        await settle(pilot)
        panes = screen.query_one(Panes)
        assert panes.current == "hand-pane" and panes.is_built("hand-pane")
        assert built(screen)["hand"] == 0 and panes.parts_mounted == 0
        assert "You are watching" in screen_text(app)


async def test_a_pane_built_late_is_drawn_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """No frame shows a pane before its widgets have mounted (an empty pane first, then the board)."""
    drawn: list[tuple[str | None, bool]] = []  # at each drawing of the table: (its pane, all its widgets mounted)
    refresh = Screen._compositor_refresh

    def spy(self: Screen[Any]) -> None:
        if isinstance(self, TableScreen) and self.is_current:
            panes = self.query_one(Panes)
            pane = panes.visible_content
            whole = pane is not None and all(w.is_mounted for w in [pane, *pane.query("*")])
            drawn.append((panes.current, whole))
        refresh(self)

    monkeypatch.setattr(Screen, "_compositor_refresh", spy)
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    others = [(await seat(coord, name, view.code))[0] for name in ("ben", "cara")]
    app = DixitApp(coord, Identity("dan", "key-dan"), command=f"watch {view.code}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await host.start()
        await settle(pilot)
        await play_until([host, *others], lambda: phase_of(host)[2] == "vote")
        await settle(pilot)
        assert [pane for pane, _ in drawn if pane is not None][-1] == "vote-pane"
        assert all(whole for _, whole in drawn), drawn
