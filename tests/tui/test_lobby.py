"""The lobby with a real coordinator: live table list, create dialog, join, name clash, watch, reconnect, commands."""

from __future__ import annotations

import asyncio
import dataclasses
import random

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from dixit_tui.coordinator import Coordinator, Identity, PlayerSession, TableOptions, TableView, Update
from dixit_tui.engine import RuleError
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.create import Choice, CreateScreen, Tick
from dixit_tui.tui.lobby import EMPTY_TEXT, LobbyScreen, NamePrompt, ReconnectPrompt, TableList, shell_hint
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.widgets.keybar import KeyBar
from tests.tui.fixtures import EVERY_CHANGE, screen_text
from tests.tui.lobby_pilot import SIZE, errors, hint_of, open_create, settle

HOSTILE = "[@click=app.quit]x[/"


def coordinator() -> Coordinator:
    return Coordinator(rng=random.Random(1), allow_seeded_tables=True, limits=EVERY_CHANGE)


def ignore(_: Update) -> None:
    pass


async def player(coord: Coordinator, name: str, key: str | None = None) -> PlayerSession:
    """A session that is not a TUI (as if another player were connected elsewhere)."""
    return await coord.connect(Identity(name, key), ignore)


def lobby_of(app: DixitApp) -> LobbyScreen:
    screen = next(s for s in app.screen_stack if isinstance(s, LobbyScreen))
    return screen


def rows(app: DixitApp) -> list[list[str]]:
    return [list(cells) for cells in lobby_of(app).query_one("#tables", TableList).rows]


def notes(app: DixitApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


def seat_names(coord: Coordinator, code: str) -> list[str]:
    return [seat.name for seat in coord.tables[code].seats]


async def test_lobby_shows_tables_of_others_live() -> None:
    coord = coordinator()
    app = DixitApp(coord, Identity("ana", "key-ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        assert EMPTY_TEXT in screen_text(app)
        assert "ana" in str(lobby.query_one("#welcome", Static).render())

        ben = await player(coord, "ben", "key-ben")
        party = await ben.create(TableOptions(mode="party"))
        await settle(pilot)
        assert rows(app) == [[party.code, "party", "1/12", "lobby", "", "ben"]]
        assert EMPTY_TEXT not in screen_text(app)

        cara = await player(coord, "cara", "key-cara")
        await cara.join(party.code)
        dev = await player(coord, "dev", "key-dev")
        odyssey = await dev.create(TableOptions(profile="odyssey", seats=5, turn_seconds=60))
        await settle(pilot)
        assert sorted(rows(app)) == sorted(  # the lobby shows each table's time limit (issue 22, item 11)
            [
                [party.code, "party", "2/12", "lobby", "", "ben"],
                [odyssey.code, "standard (odyssey)", "1/5", "lobby", "1 min", "dev"],
            ]
        )

        await dev.leave()  # an empty table before the game is forgotten
        await settle(pilot)
        assert rows(app) == [[party.code, "party", "2/12", "lobby", "", "ben"]]


async def test_hostile_host_name_is_shown_literally() -> None:
    coord = coordinator()
    app = DixitApp(coord, Identity(HOSTILE))
    async with app.run_test(size=SIZE) as pilot:
        other = await player(coord, HOSTILE, "key-x")
        view = await other.create(TableOptions())
        await settle(pilot)
        assert rows(app) == [[view.code, "standard (refresh)", "1/8", "lobby", "", HOSTILE]]
        welcome = str(lobby_of(app).query_one("#welcome", Static).render())
        assert HOSTILE in welcome
        await pilot.click("#tables", offset=(40, 1))  # on the host cell: no action may run
        await settle(pilot)
        assert app.is_running
        assert app.return_code is None


async def test_quit_key_exits_with_status_0() -> None:
    app = DixitApp(coordinator(), Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("q")
        await settle(pilot)
    assert app.return_code == 0


async def test_typing_q_in_a_code_box_does_not_quit() -> None:
    app = DixitApp(coordinator(), Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j", "q", "w", "c")
        await settle(pilot)
        assert app.is_running
        assert lobby_of(app).query_one("#join-code", Input).value == "qwc"
        assert isinstance(app.screen, LobbyScreen)


# --- the create dialog ---------------------------------------------------------------------------------------


async def set_input(pilot: Pilot[int], selector: str, text: str) -> None:
    widget = pilot.app.screen.query_one(selector, Input)
    widget.focus()
    widget.value = ""
    await pilot.press(*text)
    await settle(pilot)


async def test_create_dialog_validates_inline() -> None:
    coord = coordinator()
    app = DixitApp(coord, Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await open_create(pilot)
        assert errors(screen) == ""
        assert screen.query_one("#seats", Input).value == "8"
        assert "3 to 8 players" in str(screen.query_one("#players-hint", Static).render())

        await set_input(pilot, "#seats", "2")
        assert "Seats: a number from 3 to 8." in errors(screen)
        assert screen.query_one("#seats", Input).has_class("-invalid")
        await set_input(pilot, "#target", "5")
        assert "Target score: a number from 10 to 100." in errors(screen)
        await pilot.click("#deck-base")
        await settle(pilot)
        assert not screen.query_one("#deck-base", Tick).value
        assert "Decks: pick at least one deck." in errors(screen)

        await pilot.click("#create-ok")  # refused: the dialog stays, nothing is created
        await settle(pilot)
        assert app.screen is screen
        assert coord.tables == {}

        await set_input(pilot, "#seats", "6")
        await set_input(pilot, "#target", "40")
        await pilot.click("#deck-base")
        await settle(pilot)
        assert errors(screen) == ""

        await pilot.click("#mode-team")  # team: an even number of seats; storytells instead of a target
        await settle(pilot)
        assert screen.query_one("#profile-odyssey", Choice).value
        assert not screen.query_one("#profile-refresh", Choice).value
        assert "always use the Odyssey rules" in str(screen.query_one("#profile-note", Static).render())
        assert not screen.query_one("#target-row").display
        assert screen.query_one("#storytells-row").display
        await set_input(pilot, "#seats", "7")
        assert "even number" in errors(screen)
        await set_input(pilot, "#storytells", "9")
        assert "Storytells: a number from 1 to 5." in errors(screen)

        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert coord.tables == {}


async def create_with(pilot: Pilot[int], mode: str, profile: str | None = None) -> None:
    await open_create(pilot)
    await pilot.click(f"#mode-{mode}")
    if profile is not None:
        await pilot.click(f"#profile-{profile}")
    await settle(pilot)
    await pilot.press("f2")
    await settle(pilot)


async def test_create_a_table_of_each_mode() -> None:
    expected = {
        ("standard", "refresh"): ("refresh", 8),
        ("standard", "odyssey"): ("odyssey", 12),
        ("party", None): ("odyssey", 12),
        ("team", None): ("odyssey", 12),
    }
    for (mode, profile), (want_profile, seats) in expected.items():
        coord = coordinator()
        app = DixitApp(coord, Identity("ana"))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await create_with(pilot, mode, profile)
            assert len(coord.tables) == 1, mode
            table = next(iter(coord.tables.values()))
            assert table.options.mode == mode
            assert table.options.profile == want_profile
            assert table.max_seats == seats
            assert table.options.decks == ("base",)
            assert table.options.chat_pause is True
            assert [s.name for s in table.seats] == ["ana"]
            assert app.table_view is not None and app.table_view.code == table.code
            assert app.table_view.is_host


async def test_create_passes_every_option() -> None:
    coord = coordinator()
    app = DixitApp(coord, Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await open_create(pilot)
        await pilot.click("#mode-party")
        await settle(pilot)
        assert screen.query_one("#seats", Input).value == "12"  # follows the mode until typed into
        await set_input(pilot, "#seats", "8")
        await set_input(pilot, "#storytells", "2")
        await pilot.click("#first-random")
        await pilot.click("#chat-pause")
        await settle(pilot)
        assert screen.options().turn_seconds is None  # the turn timer is off by default
        screen._press("timer", "60")
        await settle(pilot)
        await pilot.click("#create-ok")
        await settle(pilot)
        table = next(iter(coord.tables.values()))
        options = table.options
        assert (options.mode, options.profile, options.seats, options.storytells) == ("party", "odyssey", 8, 2)
        assert options.first == "random"
        assert options.chat_pause is False
        assert options.turn_seconds == 60


# --- joining -------------------------------------------------------------------------------------------------


async def test_join_by_code() -> None:
    coord = coordinator()
    ben = await player(coord, "ben", "key-ben")
    view = await ben.create(TableOptions())
    app = DixitApp(coord, Identity("ana", "key-ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j", *view.code.lower(), "enter")
        await settle(pilot)
        assert seat_names(coord, view.code) == ["ben", "ana"]
        assert app.table_view is not None and app.table_view.you == 1


async def test_join_by_unknown_code_explains() -> None:
    coord = coordinator()
    app = DixitApp(coord, Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j", *"zzzz", "enter")
        await settle(pilot)
        assert any("There is no table ZZZZ" in n for n in notes(app))
        assert isinstance(app.screen, LobbyScreen)
        assert app.table_view is None


async def test_join_selected_row_with_enter() -> None:
    coord = coordinator()
    ben = await player(coord, "ben", "key-ben")
    view = await ben.create(TableOptions())
    app = DixitApp(coord, Identity("ana", "key-ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert seat_names(coord, view.code) == ["ben", "ana"]


async def test_name_clash_asks_for_another_name_and_retries() -> None:
    coord = coordinator()
    host = await player(coord, "ana", "key-1")
    view = await host.create(TableOptions())
    app = DixitApp(coord, Identity("ana", "key-2"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        prompt = app.screen
        assert isinstance(prompt, NamePrompt)
        assert "already called ana" in str(prompt.query_one("#name-message", Static).render())

        await pilot.press(*"ANA", "enter")  # the same name, other case: asked again
        await settle(pilot)
        assert isinstance(app.screen, NamePrompt)

        await pilot.press(*"   ", "enter")  # nothing visible: said so inline
        await settle(pilot)
        assert isinstance(app.screen, NamePrompt)
        await pilot.press(*"anna", "enter")
        await settle(pilot)
        assert seat_names(coord, view.code) == ["ana", "anna"]
        assert app.session is not None and app.session.name == "anna"


async def test_name_prompt_cancel_changes_nothing() -> None:
    coord = coordinator()
    host = await player(coord, "ana", "key-1")
    view = await host.create(TableOptions())
    app = DixitApp(coord, Identity("ana", "key-2"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, NamePrompt)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert seat_names(coord, view.code) == ["ana"]


async def test_watch_the_selected_table() -> None:
    coord = coordinator()
    ben = await player(coord, "ben", "key-ben")
    view = await ben.create(TableOptions())
    app = DixitApp(coord, Identity("ana", "key-ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert len(coord.tables[view.code].spectators) == 1
        assert seat_names(coord, view.code) == ["ben"]
        assert app.table_view is not None and app.table_view.you is None


async def test_watch_without_tables_explains() -> None:
    app = DixitApp(coordinator(), Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert any("no table to watch" in n for n in notes(app))


async def test_reconnect_code_takes_the_seat_back() -> None:
    coord = coordinator()
    ben = await player(coord, "ben", "key-ben")
    view = await ben.create(TableOptions())
    await (await player(coord, "dev", "key-dev")).join(view.code)
    cara = await player(coord, "cara")  # no key: she gets a reconnect code
    cara_view = await cara.join(view.code)
    assert cara_view.reconnect_code is not None
    await ben.start()
    await cara.close()  # the connection drops; the running game keeps her seat

    app = DixitApp(coord, Identity("cara"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "No SSH key? Keep the reconnect code" in screen_text(app)  # keyless: told about reconnect codes
        await pilot.press("r", *cara_view.reconnect_code.lower(), "enter")
        await settle(pilot)
        assert app.table_view is not None and app.table_view.you == 2
        assert coord.tables[view.code].seats[2].session is app.session


async def test_join_after_the_start_asks_a_returning_name_for_the_code_and_others_learn_of_r() -> None:
    coord = coordinator()
    ben = await player(coord, "ben", "key-ben")
    view = await ben.create(TableOptions())
    await (await player(coord, "dev", "key-dev")).join(view.code)
    cara = await player(coord, "cara")
    await cara.join(view.code)
    await ben.start()
    await cara.close()

    app = DixitApp(coord, Identity("cara"), command=f"join {view.code}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ReconnectPrompt)
        await pilot.press("escape")  # giving up changes nothing
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert coord.tables[view.code].seats[2].session is None and len(coord.tables[view.code].seats) == 3

    app = DixitApp(coord, Identity("zoe"), command=f"join {view.code}")  # no seat under this name
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert any("watch it instead" in n and "Press r and type your reconnect code" in n for n in notes(app))


async def test_enter_on_a_table_whose_game_is_over_shows_its_end_instead_of_asking_for_a_seat() -> None:
    """A player who left a finished game, and anyone else, pressing Enter on it in the list (or typing its code)
    watches its final scores: there is no seat to take any more, nor one to reclaim (they were asked for a
    reconnect code, told the game "has started")."""
    coord = coordinator()
    ben = await player(coord, "ben", "key-ben")
    view = await ben.create(TableOptions())
    dev = await player(coord, "dev", "key-dev")
    await dev.join(view.code)
    cara = await player(coord, "cara")
    await cara.join(view.code)
    await ben.start()
    await ben.remove(1)  # the house remedy: two players are too few, the game ends
    game = coord.tables[view.code].game
    assert game is not None and coord.tables[view.code].status.value == "over"
    await cara.leave()
    await cara.close()

    for who, how in (("cara", "enter"), ("zoe", "enter"), ("cara", "code")):
        app = DixitApp(coord, Identity(who))
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await settle(pilot)
            assert rows(app)[0][0] == view.code and rows(app)[0][3] == "over"
            if how == "enter":
                await pilot.press("enter")
            else:
                await pilot.press("j", *view.code.lower(), "enter")
            await settle(pilot)
            assert isinstance(app.screen, TableScreen), (who, how, app.screen_stack, notes(app))
            assert f"The game at {view.code} is over: here are its final scores." in notes(app)
            assert not any(isinstance(s, ReconnectPrompt) for s in app.screen_stack)
            assert app.session is not None and coord.tables[view.code].seat_of(app.session) is None  # watching
    assert [seat.name for seat in coord.tables[view.code].seats] == ["ben", "dev", "cara"]


async def test_a_table_whose_game_is_over_says_so_when_a_seat_is_asked_for() -> None:
    coord = coordinator()
    ben = await player(coord, "ben", "key-ben")
    view = await ben.create(TableOptions())
    for name in ("dev", "cara"):
        await (await player(coord, name, f"key-{name}")).join(view.code)
    await ben.start()
    late = await player(coord, "zoe")
    with pytest.raises(RuleError, match=r"^The game has already started: you can watch it instead\.$"):
        await late.join(view.code)
    await ben.remove(1)
    with pytest.raises(RuleError, match=r"^The game is over: you can watch it instead\.$"):
        await late.join(view.code)
    returning = r"^The game at table \w+ is over, and cara has a seat there, taken with an SSH key"
    with pytest.raises(RuleError, match=returning):
        await late.join(view.code, name="cara")


async def test_the_code_boxes_key_bar_shows_the_keys_the_box_takes() -> None:
    """In the reconnect box (r) and the join box (j) the key bar said only "f1 Help": Textual's input shows no key of
    its own and hides the lobby's letters. It says what Enter does there and that Esc goes back to the list."""
    app = DixitApp(coordinator(), Identity("cara"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        for key, enter in (("r", "⏎ Reconnect"), ("j", "⏎ Join")):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.focused, Input)
            bar = str(app.screen.query_one(KeyBar).render())
            assert bar.split() == [*enter.split(), "esc", "Back", "to", "the", "list", "f1", "Help"], bar
            await pilot.press("enter")  # (an empty box: it says what to type)
            await settle(pilot)
            assert notes(app)[-1].startswith("Type ")
            await pilot.press("escape")
            await settle(pilot)
            assert app.focused is lobby_of(app).query_one("#tables")


async def test_wrong_reconnect_code_explains() -> None:
    app = DixitApp(coordinator(), Identity("cara"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("r", *"abc-def", "enter")
        await settle(pilot)
        assert any("matches no seat" in n for n in notes(app))


async def test_ssh_join_command_goes_straight_to_the_table() -> None:
    coord = coordinator()
    ben = await player(coord, "ben", "key-ben")
    view = await ben.create(TableOptions())
    app = DixitApp(coord, Identity("ana", "key-ana"), command=f"join {view.code.lower()}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert seat_names(coord, view.code) == ["ben", "ana"]
        assert app.table_view is not None and app.table_view.you == 1


async def test_ssh_join_command_with_a_bad_code_stays_in_the_lobby() -> None:
    app = DixitApp(coordinator(), Identity("ana"), command="join QQQQ")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert any("There is no table QQQQ" in n for n in notes(app))


def test_shell_hint() -> None:
    assert shell_hint("ana", None, None, None) == "ssh -t -p PORT ana@HOST join CODE"
    assert shell_hint("ana", "example.org", 2222, "K7QF") == "ssh -t -p 2222 ana@example.org join K7QF"
    assert shell_hint("ana", "example.org", 22, "K7QF") == "ssh -t ana@example.org join K7QF"
    assert shell_hint("a b;rm", "h", 22, None) == "ssh -t NAME@h join CODE"


async def test_hint_follows_the_selected_table() -> None:
    coord = coordinator()
    ben = await player(coord, "ben", "key-ben")
    view = await ben.create(TableOptions())
    app = DixitApp(coord, Identity("ana", "key-ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        hint = hint_of(lobby_of(app))
        assert f"ssh -t -p PORT ana@HOST join {view.code}" in hint


async def test_the_hint_never_names_a_table_nobody_new_can_join() -> None:
    """The shell hint's `join CODE` names a table a new player can sit at: with a full table selected (every seat of
    its mode's most taken) it names the open one; once that one has started too, no table, and it says how to make
    one (it named the selected table, full or started, and `join` was refused)."""
    coord = coordinator()
    ben = await player(coord, "ben", "key-ben")
    full = await ben.create(TableOptions())
    for index in range(1, TableOptions().max_seats()):
        await (await player(coord, f"p{index}", f"key-p{index}")).join(full.code)
    cara = await player(coord, "cara", "key-cara")
    open_table = await cara.create(TableOptions())
    app = DixitApp(coord, Identity("ana", "key-ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lobby = lobby_of(app)
        most = TableOptions().max_seats()
        assert [(t.code, t.players, t.seats) for t in app.tables] == [
            (full.code, most, most),
            (open_table.code, 1, most),
        ]
        assert lobby.selected_code() == full.code
        hint = hint_of(lobby)
        assert f"join {open_table.code}" in hint and full.code not in hint, hint
        for name in ("dan", "eve"):
            await (await player(coord, name, f"key-{name}")).join(open_table.code)
        await cara.start()
        await settle(pilot)
        assert [t.status for t in app.tables] == ["lobby", "playing"]
        for row in (0, 1):
            lobby.query_one("#tables", TableList).move_cursor(row)
            await settle(pilot)
            hint = hint_of(lobby)
            assert full.code not in hint and open_table.code not in hint and "join CODE" in hint, hint
            assert "press c to create one" in hint, hint
            # playtest: it said "No table here has a free seat" beside a started table listed with 3/8 seats
            assert "No table here takes new players: press c to create one." in hint, hint


async def test_without_colour_the_selected_row_and_choices_still_show() -> None:
    coord = coordinator()
    ben = await player(coord, "ben", "key-ben")
    await ben.create(TableOptions())
    app = DixitApp(coord, Identity("ana"))
    app.no_color = True  # what the SSH layer sets for NO_COLOR terminals
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = lobby_of(app).query_one("#tables", TableList)
        style = table.get_component_styles("datatable--cursor").text_style
        assert style.reverse and style.bold
        screen = await open_create(pilot)
        assert str(screen.query_one("#mode-standard", Choice).render()).startswith("(•)")
        assert str(screen.query_one("#mode-party", Choice).render()).startswith("( )")
        assert str(screen.query_one("#deck-base", Tick).render()).startswith("[X]")


async def test_a_reconnect_the_table_shows_before_it_returns_stays_at_the_table() -> None:
    """On a shared table (`serve --workers`) a reclaim that raced another worker's move is made again: its view
    reaches the app (which replaces the prompt by the table) before the call returns. The prompt must not then
    close the table screen in its place (the player would sit at the table, shown the lobby)."""
    coord = coordinator()
    ben = await player(coord, "ben", "key-ben")
    view = await ben.create(TableOptions())
    await (await player(coord, "dev", "key-dev")).join(view.code)
    cara = await player(coord, "cara")
    cara_view = await cara.join(view.code)
    assert cara_view.reconnect_code is not None
    await ben.start()
    await cara.close()

    app = DixitApp(coord, Identity("cara"), command=f"join {view.code}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        prompt = app.screen
        assert isinstance(prompt, ReconnectPrompt) and app.session is not None
        session = app.session
        real = session.reclaim

        async def slow_reclaim(reconnect_code: str) -> TableView:  # returns only once the app shows the table
            result = await real(reconnect_code)
            for _ in range(200):
                if isinstance(app.screen, TableScreen):
                    break
                await asyncio.sleep(0.01)
            return result

        session.reclaim = slow_reclaim  # type: ignore[method-assign]
        prompt.query_one("#prompt-code", Input).value = cara_view.reconnect_code
        await pilot.press("enter")
        await settle(pilot)
        await settle(pilot)
        assert coord.tables[view.code].seats[2].session is session
        assert isinstance(app.screen, TableScreen), app.screen_stack
        assert app.table_view is not None and app.table_view.you == 2


async def test_g_queues_for_a_quick_game_and_the_table_opens_once_enough_wait() -> None:
    from dixit_tui.coordinator.matchmaker import quick_game_ask

    coord = coordinator()
    app = DixitApp(coord, Identity("ana", "key-ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("g")
        await settle(pilot)
        assert coord.matchmaker.waiting() == 1 and "In the queue" in notes(app)[-1]
        # the lobby says so while you wait, not only in a notice gone after a few seconds (seen playing)
        welcome = str(app.screen.query_one("#welcome", Static).render())
        assert "In the queue for a refresh table of 4 to 6 players: 1 waiting." in welcome, welcome
        assert "Press g again to leave the queue." in welcome
        await pilot.press("g")  # again: out of the queue
        await settle(pilot)
        assert coord.matchmaker.waiting() == 0 and notes(app)[-1] == "You left the queue."
        assert "In the queue" not in str(app.screen.query_one("#welcome", Static).render())
        await pilot.press("g")
        await settle(pilot)
        others = [await player(coord, name) for name in ("ben", "cy", "dan")]
        for session in others:
            await coord.matchmaker.queue(session, quick_game_ask(bots=False))
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        view = app.table_view
        assert (
            view is not None and view.game is not None and [s.name for s in view.seats] == ["ana", "ben", "cy", "dan"]
        )


async def test_a_create_the_server_refuses_opens_the_dialog_again_with_what_was_chosen() -> None:
    """Found playing over SSH: alice, with tables enough already, chose a 1-minute timer and pressed F2; the server
    refused the create, and the app ended ("internal error, sorry"): the dialog opened again under the id of the one
    still closing (DuplicateIds)."""
    coord = Coordinator(rng=random.Random(1), limits=dataclasses.replace(EVERY_CHANGE, max_tables_per_player=0))
    app = DixitApp(coord, Identity("ana"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        dialog = await open_create(pilot)
        dialog.query_one("#timer-60", Choice).value = True
        await pilot.press("f2")
        await settle(pilot)
        assert app.is_running and not coord.tables
        again = app.screen
        assert isinstance(again, CreateScreen) and again is not dialog
        assert again.initial.turn_seconds == 60  # what was chosen is kept


async def test_the_lobby_is_a_handful_of_widgets() -> None:
    """Each widget is composed, styled, laid out and drawn for itself in every session: the lobby is the welcome, the
    list in its box, the code boxes' row (drawing its labels and the hint under it) with its two text boxes, and the
    key bar, for a keyless player too (it had a container, two labels and three texts more: 11-12 widgets)."""
    for key in ("key-ana", None):
        app = DixitApp(Coordinator(limits=EVERY_CHANGE), Identity("ana", key))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            widgets = [type(widget).__name__ for widget in lobby_of(app).walk_children()]
            assert sorted(widgets) == ["CodeBoxes", "JoinBox", "KeyBar", "ReconnectBox", "Static", "TableList"]
