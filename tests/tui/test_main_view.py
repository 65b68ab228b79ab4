"""The table's main region is one widget whose mode follows the game (the lobby, the hand, the vote, the end): no
pane is mounted as the phases go, a spectator's screen never builds the clue box, and the lobby's
buttons, drawn as a row of its picture, answer a click as their keys do."""

from __future__ import annotations

from textual.widgets import Input

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.widgets.confirm import ConfirmScreen
from dixit_tui.tui.widgets.main_view import MainView
from tests.tui.fixtures import coordinator, default_move, options, phase_of, play_until, screen_text, seat, settle

SIZE = (100, 30)


async def test_a_spectator_never_builds_the_clue_box_and_nothing_is_mounted_as_the_phases_go() -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    others = [(await seat(coord, name, view.code))[0] for name in ("ben", "cara")]
    app = DixitApp(coord, Identity("dan", "key-dan"), command=f"watch {view.code}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        main = screen.query_one(MainView)
        assert main.mode == "lobby"
        widgets = set(screen.walk_children())
        seen = set()
        await host.start()
        for phase in ("submit", "vote"):

            def reached(phase: str = phase) -> bool:
                return phase_of(host)[2] == phase

            await play_until([host, *others], reached)
            await settle(pilot)
            seen.add(main.mode)
            assert "You are watching" in screen_text(app)
        await play_until([host, *others], lambda: phase_of(host)[1:] == (2, "clue"))
        await settle(pilot)
        seen.add(main.mode)
        assert seen == {"hand", "vote"}
        assert set(screen.walk_children()) == widgets  # the same widgets: the main region changed its mode
        assert not screen.query(Input).filter("#clue-input") and main.dial is None
        assert not main.items  # a spectator's hand: the note alone


async def test_a_click_on_a_lobby_button_does_what_its_key_does() -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    await seat(coord, "ben", view.code)
    app = DixitApp(coord, Identity("cara", "key-cara"), command=f"join {view.code}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        main = screen.query_one(MainView)
        assert main.mode == "lobby" and [b.label for b in main.lobby.buttons] == ["Leave (l)"]  # not the host
        row = len(main.picture) - 1  # the buttons' row (the lobby fits: nothing scrolled)
        assert main.picture[row].text.strip() == "Leave (l)"
        await pilot.click(MainView, offset=(1 + 20, row))  # (padding 1) right of the only button: nothing
        await settle(pilot)
        assert app.screen is screen
        await pilot.click(MainView, offset=(1 + 3, row))  # on it: the question `l` asks
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert "Leave" in screen_text(app)


async def test_the_hosts_start_button_is_dimmed_and_deaf_until_the_table_can_start() -> None:
    coord = coordinator()
    app = DixitApp(coord, Identity("ana", "key-ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.session is not None
        view = await app.session.create(options())
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        main = screen.query_one(MainView)
        assert [(b.action, b.disabled) for b in main.lobby.buttons] == [
            ("start", True),
            ("practice", False),
            ("leave", False),
        ]
        row = len(main.picture) - 1
        await pilot.click(MainView, offset=(1 + 3, row))  # Start, dimmed: nothing
        await settle(pilot)
        assert app.screen is screen
        for name in ("ben", "cara"):
            await seat(coord, name, view.code)
        await settle(pilot)
        assert main.lobby.buttons[0].disabled is False
        await pilot.click(MainView, offset=(1 + 3, row))  # Start: the question `s` asks
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert "Start the game" in screen_text(app)


async def test_the_hand_keeps_its_cursor_through_the_vote() -> None:
    """Each cards mode keeps its own cards and cursor: back at the hand after the vote, the cursor is on the card it
    was on (as when the hand and the board were two widgets), not where the board's was."""
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    others = [(await seat(coord, name, view.code))[0] for name in ("ben", "cara")]
    app = DixitApp(coord, Identity("dan", "key-dan"), command=f"join {view.code}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await host.start()
        assert await default_move(host)  # the host tells
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen) and app.session is not None
        main = screen.query_one(MainView)
        assert main.mode == "hand"
        main.highlighted = 3
        kept = main.highlighted_key()
        sessions = [host, *others, app.session]  # (dan gives his first card: not the one under the cursor)
        await play_until(sessions, lambda: phase_of(host)[2] == "vote")
        await settle(pilot)
        assert main.mode == "vote" and main.highlighted_key() != kept
        await play_until(sessions, lambda: phase_of(host)[1:] == (2, "clue"))
        await settle(pilot)
        assert main.mode == "hand" and kept in [item.key for item in main.items]
        assert main.highlighted_key() == kept
