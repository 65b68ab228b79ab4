"""What one more spectator on the wall costs per table update (issue 23: at most 0.3 ms): the work each spectator's
own app does for a move is counted here, with two spectators of the same size watching one table (counts, never
times).

Found with py-spy on `bench --sessions 13 --tables 1 --term-size 200x60`: `DOMNode.rich_style` (a walk of every
ancestor's styles) was 20% of the server's CPU, worked out for each of the wall's 60 lines at each redraw; and the
focus hopped to the hidden hand or board at each phase, restyling the screen (7%); and each move updated the seats,
the score track and the panes the wall hides (and built the hand and the board panes under it)."""

from __future__ import annotations

from typing import Any

import pytest
from rich.style import Style
from textual.dom import DOMNode
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget

from dixit_tui.coordinator import Identity, PlayerSession
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.widgets.cards import Board
from dixit_tui.tui.widgets.main_view import MainView
from dixit_tui.tui.widgets.side_panel import SidePanel
from dixit_tui.tui.widgets.wall import Wall
from tests.tui.fixtures import (
    Recorder,
    coordinator,
    default_move,
    options,
    phase_of,
    play_until,
    seat_many,
    settle,
    steady,
)

NAMES = ["ann", "bo", "cy"]


async def _two_spectators(first: DixitApp, second: DixitApp, pilots: tuple[Pilot[Any], ...]) -> list[PlayerSession]:
    """Both apps watch a standard table that others play up to turn 1's vote; the players' sessions."""
    coord = first.coordinator
    host = await coord.connect(Identity(NAMES[0], key=f"key-{NAMES[0]}"), Recorder())
    view = await host.create(options())
    sessions = [host, *[s for s, _ in await seat_many(coord, NAMES[1:], view.code)]]
    for app in (first, second):
        assert app.session is not None
        await app.session.watch(view.code)
    for pilot in pilots:  # (each step drawn: the screens open on the lobby)
        await steady(pilot)
    await host.start()
    for step in ("submit", "vote"):
        await play_until(sessions, lambda: phase_of(host)[2] == step)  # noqa: B023  # (used at once)
        for pilot in pilots:
            await steady(pilot)
    for app in (first, second):
        assert isinstance(app.screen, TableScreen) and app.screen.has_class("-wall")
    return sessions


async def test_a_wall_works_out_its_style_once_not_once_per_line(monkeypatch: pytest.MonkeyPatch) -> None:
    walks = 0
    lines = 0
    style_property: property = vars(DOMNode)["rich_style"]
    rich_style = style_property.fget
    render_line = Wall.render_line
    assert rich_style is not None

    def counted_style(self: Wall) -> Style:
        nonlocal walks
        walks += 1
        return rich_style(self)

    def counted_line(self: Wall, y: int) -> Any:
        nonlocal lines
        lines += 1
        return render_line(self, y)

    monkeypatch.setattr(Wall, "rich_style", property(counted_style))
    monkeypatch.setattr(Wall, "render_line", counted_line)
    first = DixitApp(coordinator(), Identity("tv0", "key-tv0"))
    second = DixitApp(first.coordinator, Identity("tv1", "key-tv1"))
    async with first.run_test(size=(200, 60)) as one, second.run_test(size=(200, 60)) as two:
        sessions = await _two_spectators(first, second, (one, two))
        walks = lines = 0
        host = sessions[0]
        await play_until(sessions, lambda: phase_of(host)[1] == 2)  # the votes, the reveal: the wall changes
        await settle(one, two)
        await steady(one)
        await steady(two)
        assert lines >= 10, f"the walls drew {lines} lines"  # (the lines the votes and the reveal changed)
        assert walks <= 2, f"the style was worked out {walks} times for {lines} lines"  # (was once per line)


async def test_the_wall_puts_the_keyboard_on_nothing_it_hides() -> None:
    first = DixitApp(coordinator(), Identity("tv0", "key-tv0"))
    second = DixitApp(first.coordinator, Identity("tv1", "key-tv1"))
    async with first.run_test(size=(200, 60)) as one, second.run_test(size=(200, 60)) as two:
        await _two_spectators(first, second, (one, two))
        for app in (first, second):  # the vote: the board is under the wall, not focused (focus restyles a screen)
            assert app.screen.focused is None, app.screen.focused
        await one.resize_terminal(159, 60)  # the usual table: the keyboard on the board again
        await steady(one)
        table = first.screen
        assert isinstance(table, TableScreen) and not table.has_class("-wall")
        assert isinstance(table.focused, Board)
        await one.resize_terminal(200, 60)
        await steady(one)
        assert table.has_class("-wall") and table.focused is None


async def test_a_move_leaves_what_the_wall_hides_alone_until_it_gives_way(monkeypatch: pytest.MonkeyPatch) -> None:
    shows = 0
    show = SidePanel.show

    def counted_show(self: SidePanel, *args: Any, **kwargs: Any) -> Any:
        nonlocal shows
        shows += 1
        return show(self, *args, **kwargs)

    monkeypatch.setattr(SidePanel, "show", counted_show)
    first = DixitApp(coordinator(), Identity("tv0", "key-tv0"))
    second = DixitApp(first.coordinator, Identity("tv1", "key-tv1"))
    async with first.run_test(size=(200, 60)) as one, second.run_test(size=(200, 60)) as two:
        await _two_spectators(first, second, (one, two))  # (watching from the lobby to the vote)
        assert shows == 0, f"the hidden seats were updated {shows} times"
        for app in (first, second):  # the main region under the wall: left as it was (the lobby) for the turn played
            assert app.screen.query_one(MainView).mode == "lobby"
        await one.resize_terminal(159, 60)  # the wall gives way: the seats and the vote as they are now
        await steady(one)
        table = first.screen
        assert isinstance(table, TableScreen) and table.query_one(MainView).mode == "vote"
        assert shows == 1 and table.query_one(Board).display
        view = first.session.view() if first.session is not None else None
        assert view is not None and view.game is not None
        assert len(table.query_one(Board).items) == len(view.game.board)


async def test_a_move_redraws_only_the_rows_of_the_wall_it_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = 0
    render_line = Wall.render_line

    def counted_line(self: Wall, y: int) -> Any:
        nonlocal lines
        lines += 1
        return render_line(self, y)

    monkeypatch.setattr(Wall, "render_line", counted_line)
    first = DixitApp(coordinator(), Identity("tv0", "key-tv0"))
    second = DixitApp(first.coordinator, Identity("tv1", "key-tv1"))
    async with first.run_test(size=(200, 60)) as one, second.run_test(size=(200, 60)) as two:
        sessions = await _two_spectators(first, second, (one, two))
        host = sessions[0]
        await play_until(sessions, lambda: phase_of(host)[1:] == (2, "submit"))
        for pilot in (one, two):
            await steady(pilot)
        walls = [app.screen.query_one(Wall) for app in (first, second)]
        height = walls[0].size.height
        assert height >= 40
        before = [wall.picture for wall in walls]
        lines = 0
        view = host.view()
        assert view is not None and view.game is not None
        waiting = view.game.waiting_for
        await default_move(
            next(s for s in sessions if (seen := s.view()) is not None and seen.you in waiting)
        )  # one card comes in: that seat's line (and the count of cards in) changes
        for pilot in (one, two):
            await steady(pilot)
        changed = [
            sum(a is not b for a, b in zip(old, wall.picture, strict=True))
            for old, wall in zip(before, walls, strict=True)
        ]
        assert 0 < changed[0] <= 6 and changed[0] == changed[1], changed
        # (drawn at one screen, the other takes them: two spectators of one size, KeptLines; before: each drew its own)
        assert lines == changed[0], f"{lines} wall rows drawn for {changed} changed lines (of {height})"


async def test_moves_ask_no_layout_of_a_screen_showing_the_wall(monkeypatch: pytest.MonkeyPatch) -> None:
    layouts: list[str] = []
    refresh = Widget.refresh

    def counted_refresh(self: Widget, *regions: Region, layout: bool = False, **kwargs: Any) -> Widget:
        if layout:
            layouts.append(f"{type(self).__name__}#{self.id}")
        return refresh(self, *regions, layout=layout, **kwargs)

    monkeypatch.setattr(Widget, "refresh", counted_refresh)
    first = DixitApp(coordinator(), Identity("tv0", "key-tv0"))
    second = DixitApp(first.coordinator, Identity("tv1", "key-tv1"))
    async with first.run_test(size=(200, 60)) as one, second.run_test(size=(200, 60)) as two:
        sessions = await _two_spectators(first, second, (one, two))
        host = sessions[0]
        layouts.clear()
        for goal in ((2, "clue"), (2, "submit"), (2, "vote"), (3, "clue")):  # (the clue line under the wall changes)
            await play_until(sessions, lambda: phase_of(host)[1:] == goal)  # noqa: B023  # (used at once)
            for pilot in (one, two):
                await steady(pilot)
        assert not layouts, layouts  # (the clue line hidden under the wall; the wall's picture changed length)
