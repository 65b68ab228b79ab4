"""The keys a spectator has keep working on the wall (the big screen a call shares): c opens the chat under it, r the
recap, F1 the help, l leaves; the table's screen switches between the wall and the usual panes as it is resized."""

from __future__ import annotations

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.help import HelpScreen
from dixit_tui.tui.lobby import LobbyScreen
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.widgets.confirm import ConfirmScreen
from dixit_tui.tui.widgets.recap import RecapScreen
from dixit_tui.tui.widgets.wall import Wall
from tests.tui.fixtures import make_app, settle
from tests.tui.wall_pilot import over, watched


async def test_a_spectators_keys_work_on_the_wall() -> None:
    app = make_app()
    async with app.run_test(size=(200, 60)) as pilot:
        await watched("standard", "reveal")(pilot)
        assert isinstance(app, DixitApp) and app.session is not None
        table = app.screen
        assert isinstance(table, TableScreen) and table.has_class("-wall")
        assert not table.query_one("#side").display and not table.query_one("#main-view").display  # in their place

        await pilot.press("c", *"hello all", "enter")  # the chat under the wall
        await settle(pilot)
        view = app.session.view()
        assert view is not None and any(line.text == "hello all" and line.name == "ana" for line in view.chat)

        await pilot.press("escape", "r")
        await settle(pilot)
        assert isinstance(app.screen, RecapScreen)
        await pilot.press("enter", "f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is table

        await pilot.resize_terminal(159, 60)  # under 160 columns: the usual table
        await settle(pilot)
        assert not table.has_class("-wall") and not table.query_one(Wall).display
        await pilot.resize_terminal(200, 60)
        await settle(pilot)
        assert table.has_class("-wall") and table.query_one(Wall).picture

        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)


async def test_the_wall_holds_the_last_reveal_then_shows_the_standings_and_a_latecomer_gets_them_at_once() -> None:
    app = make_app()
    async with app.run_test(size=(200, 60)) as pilot:
        await over(standings=False)(pilot)  # (asserts the last turn's reveal is on the wall)
        wall = app.screen.query_one(Wall)
        wall.end_final_reveal()  # (what its timer does after the table's reveal_seconds)
        await settle(pilot)
        shown = "\n".join(strip.text for strip in wall.picture)
        assert "Final standings" in shown and "That was the last turn" not in shown
        assert app.session is not None
        view = app.session.view()
        assert view is not None
        code = view.code

        late = DixitApp(app.coordinator, Identity("eve", "key-eve"))
        async with late.run_test(size=(200, 60)) as later:
            assert late.session is not None
            await late.session.watch(code)
            await settle(later)
            picture = "\n".join(strip.text for strip in late.screen.query_one(Wall).picture)
            assert "Final standings" in picture and "That was the last turn" not in picture
