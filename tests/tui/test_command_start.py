"""`ssh -t host join CODE` (and `watch CODE`) go straight to the table: the lobby is built only once it is needed
(the table left, or the command did not work), not composed, styled and laid out unseen under the table."""

from __future__ import annotations

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.lobby import LobbyScreen, NamePrompt
from dixit_tui.tui.table_screen import TableScreen
from tests.tui.fixtures import coordinator, options, settle

SIZE = (100, 30)


def lobbies(app: DixitApp) -> int:
    return sum(isinstance(screen, LobbyScreen) for screen in app.screen_stack)


async def test_join_and_watch_commands_build_no_lobby_until_the_table_is_left() -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    for command in (f"join {view.code}", f"watch {view.code}"):
        app = DixitApp(coord, Identity("ana", "key-ana"), command=command)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, TableScreen)
            assert lobbies(app) == 0, f"`{command}` built a lobby nobody sees"
            assert app.session is not None
            await app.session.leave()
            await settle(pilot)
            assert isinstance(app.screen, LobbyScreen)  # leaving the table opens the lobby
            assert lobbies(app) == 1 and len(app.screen_stack) == 2


async def test_a_join_command_that_fails_opens_the_lobby_and_says_why() -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    app = DixitApp(coord, Identity("ana", "key-ana"), command="join ZZZZ")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert any("There is no table ZZZZ" in str(note.message) for note in app._notifications)

    # a name already taken at the table: the lobby asks for another one, as if the code had been typed there
    app = DixitApp(coord, Identity("host", "key-other"), command=f"join {view.code}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, NamePrompt)
        assert [type(screen) for screen in app.screen_stack][1:] == [LobbyScreen, NamePrompt]


async def test_a_replay_command_with_a_terminal_says_to_ask_without_one() -> None:
    """`ssh -t HOST replay CODE` said "Unknown command": replay (like tables) answers without a terminal."""
    coord = coordinator()
    app = DixitApp(coord, Identity("ana", "key-ana"), command="replay K7QF")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        said = [str(note.message) for note in app._notifications]
        assert said == ["replay answers without a terminal: ssh HOST replay CODE (no -t)."], said
