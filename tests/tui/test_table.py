"""The table screen with a real coordinator: several DixitApp instances (one pilot each) play through keys.

Extra seats are coordinator sessions with a recording sink (fast); the players under test are real apps.
"""

from __future__ import annotations

import asyncio
import random
from contextlib import AsyncExitStack
from typing import Any

from textual.widgets import Input

from dixit_tui.coordinator import (
    ChatLine,
    ChatUpdate,
    Identity,
    LobbyUpdate,
    StateUpdate,
    TableOptions,
    TableView,
)
from dixit_tui.coordinator.timers import random_stand_in
from dixit_tui.engine import view_for
from dixit_tui.tui.app import CoordinatorUpdate, DixitApp
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.widgets.cards import Board
from dixit_tui.tui.widgets.clue_line import ClueLine
from dixit_tui.tui.widgets.confirm import ConfirmScreen, SeatPicker
from dixit_tui.tui.widgets.main_view import MainView
from dixit_tui.tui.widgets.recap import RecapScreen
from dixit_tui.tui.widgets.side_panel import SidePanel
from dixit_tui.tui.widgets.top_lines import TopLines
from dixit_tui.tui.widgets.transcript import TranscriptScreen
from tests.e2e.bots import quick
from tests.e2e.clock import drive_clock, reveal_out
from tests.tui.apps import SIZE, ana_at_her_vote, dial_of, notes, open_apps, session_of, status, table, table_of
from tests.tui.fixtures import (
    coordinator,
    default_move,
    options,
    phase_of,
    play_until,
    screen_text,
    seat,
    seat_many,
    settle,
)


async def test_refresh_three_player_turn_by_keys() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        (ben, pb), (cara, pc) = await open_apps(stack, coord, ["ben", "cara"], view.code)
        pilots = (pa, pb, pc)
        await settle(*pilots)

        # the lobby: everyone at the table, the host may start
        for app in (ana, ben, cara):
            assert isinstance(app.screen, TableScreen)
        assert status(ben) == "Waiting for ana (host) to start the game."
        assert status(ana).startswith("Press s to start the game")
        assert "3 seated" in screen_text(ana)

        await pa.press("s", "y")
        await settle(*pilots)
        assert phase_of(session_of(ana)) == ("playing", 1, "clue")
        assert status(cara).startswith("Anyone may give the first clue")

        # ben gives the first clue: card 2 by number key, Enter, then the clue and Enter
        game = table(coord, ben).game
        assert game is not None
        ben_card = game.state.hands[1][1]
        await pb.press("2", "enter")
        assert table_of(ben).chosen == ben_card
        assert isinstance(ben.focused, Input) and ben.focused.id == "clue-input"
        await pb.press(*"moon", "enter")
        await settle(*pilots)
        state = game.state
        assert (state.phase, state.turn.storyteller, state.turn.clue, state.turn.clue_card) == (
            "submit",
            1,
            "moon",
            ben_card,
        )
        assert status(ben) == "Your card is in. Waiting for two cards each from ana and cara."
        assert status(ana) == "Choose 2 cards that fit the clue (Enter), then confirm."
        assert "Clue: “moon” — told by ben" in screen_text(ana)

        # ana marks two cards with Enter, sees a confirmation, confirms with y
        ana_cards = state.hands[0][:2]
        await pa.press("enter", "down", "enter")
        await settle(pa)
        assert isinstance(ana.screen, ConfirmScreen)
        assert "cannot be taken back" in screen_text(ana)
        await pa.press("y")
        await settle(*pilots)
        assert game.state.turn.submissions[0] == ana_cards
        assert status(ana) == "Your cards are in. Waiting for two cards from cara."

        # cara marks cards 3 and 5 with number keys; "n" first (not yet) unmarks the last one
        cara_cards = (game.state.hands[2][2], game.state.hands[2][4])
        await pc.press("3", "enter", "4", "enter")
        await settle(pc)
        assert isinstance(cara.screen, ConfirmScreen)
        await pc.press("n")
        await settle(pc)
        assert table_of(cara).marked == [cara_cards[0]]
        await pc.press("5", "enter")
        await settle(pc)
        await pc.press("y")
        await settle(*pilots)
        state = game.state
        assert state.phase == "vote"
        assert set(state.turn.submissions[2]) == set(cara_cards)

        # the board and the dial
        slot_of = {card: i for i, card in enumerate(state.turn.board, start=1)}
        ben_slot = slot_of[ben_card]
        ana_slots = sorted(slot_of[c] for c in ana_cards)
        assert dial_of(table_of(ana)).forbidden == frozenset(ana_slots)
        assert "[yours]" in screen_text(ana)
        assert not dial_shown(table_of(ben))
        assert status(ben).startswith("You are the storyteller. Waiting for votes from ana and cara")
        assert status(ana) == "Vote: turn the dial and press Enter."
        assert isinstance(ana.focused, Board) and ana.focused.dial is not None  # the board, voting

        # ana tries her own card: refused; then votes for a decoy of cara's and changes her mind
        await pa.press(str(ana_slots[0]))
        await settle(pa)
        note = table_of(ana).query_one(Board).note  # the board's note: above the dial
        assert note is not None and "is yours" in note.plain
        decoy = next(slot_of[c] for c in cara_cards)
        await pa.press(str(decoy), "enter")
        await settle(*pilots)
        assert game.state.turn.votes[0] == (decoy,)
        assert status(ana).startswith(f"Your vote: {decoy} (you can change it until everyone has voted)")
        await pa.press(str(ben_slot), "enter")
        await settle(*pilots)
        assert game.state.turn.votes[0] == (ben_slot,)

        # cara votes for ana's first card: the reveal comes; every clue line says how the turn went, r opens the recap
        await pc.press(str(ana_slots[0]), "enter")
        await settle(*pilots)
        for app in (ana, ben, cara):
            assert isinstance(app.screen, TableScreen), app.screen

        def clue_line(app: DixitApp) -> str:
            return table_of(app).query_one(ClueLine).words.plain.splitlines()[-1]

        assert clue_line(cara) == f"Turn 1 (r: recap): ben's card was {ben_slot}, found by ana."
        assert clue_line(ben) == f"Turn 1 (r: recap): your card was {ben_slot}, found by ana."
        assert clue_line(ana) == f"Turn 1 (r: recap): ben's card was {ben_slot}, found by you."
        assert "found by you." in screen_text(ana)  # on screen, in its own row
        await pc.press("r")
        await settle(pc)
        assert isinstance(cara.screen, RecapScreen)
        recap = screen_text(cara)
        assert "Turn 1 revealed" in recap
        assert "Some players found ben's card" in recap
        assert "moon" in recap
        reveal = game.state.last_reveal
        assert reveal is not None and reveal.outcome == "some"
        points = {p.seat: p for p in reveal.points}
        assert (points[0].delta, points[1].delta, points[2].delta) == (3 + 1, 3, 0)

        await pc.press("enter")
        await settle(*pilots)
        for app in (ana, ben, cara):
            assert isinstance(app.screen, TableScreen)
        assert phase_of(session_of(cara)) == ("playing", 2, "clue")
        assert status(cara).startswith("Choose a card")
        assert status(ana) == "Waiting for cara to give the clue."
        side = table_of(ana).query_one(SidePanel).side
        assert side is not None
        assert [line.score for line in side.seats] == [4, 3, 0]
        assert side.seats[2].storyteller

        # r shows the recap again
        await pa.press("r")
        await settle(pa)
        assert isinstance(ana.screen, RecapScreen)
        await pa.press("escape")
        await settle(pa)
        assert isinstance(ana.screen, TableScreen)


async def test_markup_in_names_and_chat_is_shown_literally() -> None:
    evil = "[@click=app.quit]x[/"
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        ((bad, pb),) = await open_apps(stack, coord, [evil], view.code)
        await seat(coord, "cara", view.code)
        await settle(pa, pb)
        await pb.press("c", *"[b]hi[/", "enter")
        await settle(pa, pb)
        for app in (ana, bad):
            text = screen_text(app)
            assert evil in text
            assert "[b]hi[/" in text
        # clicking on the name does nothing harmful
        await pa.click("#side", offset=(8, 2))
        await settle(pa)
        assert ana.is_running
        # the game with that name everywhere: seats, status, clue, log, recap
        await pa.press("s", "y")
        await settle(pa, pb)
        await pb.press("1", "enter", *"[red]boom[/", "enter")
        await settle(pa, pb)
        assert "[red]boom[/" in screen_text(ana)
        assert f"told by {evil}" in screen_text(ana)
        sessions = [session_of(ana), session_of(bad)] + [s for s in coord.sessions if s.name == "cara"]
        await play_until(sessions, lambda: phase_of(session_of(ana))[1] == 2)
        await settle(pa, pb)
        assert evil in screen_text(ana)  # the clue line's outcome of turn 1
        await pa.press("r")
        await settle(pa)
        assert isinstance(ana.screen, RecapScreen)
        assert evil in screen_text(ana)
        assert ana.is_running and bad.is_running


async def test_chat_sends_and_pauses() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        others = await seat_many(coord, ["ben", "cara"], view.code)
        await settle(pa)
        await pa.press("c", *"hello all", "enter")
        await settle(pa)
        assert "ana: hello all" in screen_text(ana)
        chat_input = ana.screen.query_one("#chat-input", Input)
        assert chat_input.value == ""
        await others[0][0].chat("hi ana")
        await settle(pa)
        assert "ben: hi ana" in screen_text(ana)
        await pa.press("escape", "s", "y")
        await settle(pa)
        await default_move(others[0][0])  # ben gives the clue: chat pauses
        await settle(pa)
        assert "chat paused until the reveal" in screen_text(ana).lower()
        await pa.press("c", *"psst", "enter")
        await settle(pa)
        assert any("paused" in n for n in notes(ana))
        assert chat_input.value == "psst"  # kept, not sent
        table_ = coord.tables[view.code]
        assert [line.text for line in table_.chat] == ["hello all", "hi ana"]


async def test_lobby_start_problem_and_non_host() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        await settle(pa)
        screen = table_of(ana)
        assert status(ana).startswith("Waiting for players. A refresh game needs 3 to 8 players")
        assert screen.check_action("start", ()) is False  # not offered: the status line says what is missing
        await pa.press("s")
        await settle(pa)
        assert phase_of(session_of(ana)) == ("lobby", 0, None)
        lobby = screen.query_one(MainView).lobby
        assert "Not ready to start. A refresh game needs 3 to 8 players" in lobby.text.plain
        assert (lobby.buttons[0].action, lobby.buttons[0].disabled) == ("start", True)
        ((ben, pb),) = await open_apps(stack, coord, ["ben"], view.code)
        await settle(pa, pb)
        assert table_of(ben).check_action("start", ()) is False
        assert table_of(ben).check_action("practice", ()) is False
        await pb.press("s")
        await settle(pb)
        assert phase_of(session_of(ben)) == ("lobby", 0, None)


async def test_practice_key_asks_the_coordinator() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        await settle(pa)
        await pa.press("p")  # one player: nothing starts
        await settle(pa)
        assert coord.tables[view.code].game is None
        for name in ("ben", "cara"):
            other = await coord.connect(Identity(name, f"key-{name}"), lambda _: None)
            await other.join(view.code)
        await settle(pa)
        await pa.press("p", "y")
        await settle(pa)
        game = coord.tables[view.code].game
        assert game is not None and game.state.practice and game.state.turn.number == 0


async def test_void_turn_is_confirmed_and_everyone_is_told() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        ((ben, pb),) = await open_apps(stack, coord, ["ben"], view.code)
        cara, _ = await seat(coord, "cara", view.code)
        await settle(pa, pb)
        assert table_of(ana).check_action("void", ()) is False  # nothing to void in the lobby
        await pa.press("s", "y")
        await settle(pa, pb)
        await default_move(cara)  # cara gives the clue
        await settle(pa, pb)
        assert table_of(ana).check_action("void", ()) is True
        assert table_of(ben).check_action("void", ()) is False  # only the host
        await pa.press("v")
        await settle(pa)
        assert isinstance(ana.screen, ConfirmScreen)
        await pa.press("escape")  # cancelled: nothing happens
        await settle(pa)
        assert phase_of(cara)[2] == "submit"
        await pa.press("v")
        await settle(pa)
        await pa.press("y")
        await settle(pa, pb)
        assert phase_of(cara) == ("playing", 1, "clue")
        for app in (ana, ben):
            assert any("Turn 1 was voided" in n for n in notes(app))
            assert "Turn 1 was voided" in screen_text(app)


async def test_the_storyteller_cannot_choose_the_voided_card_again() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        await seat_many(coord, ["ben", "cara"], view.code)
        await settle(pa)
        await pa.press("s", "y")
        await settle(pa)
        await default_move(session_of(ana))  # ana gives the first clue, with her first card
        await settle(pa)
        await pa.press("v")
        await settle(pa)
        await pa.press("y")
        await settle(pa)
        game = table_of(ana).game
        assert game is not None and game.voided_card is not None and game.storyteller == 0
        number = [c.card for c in game.hand].index(game.voided_card) + 1
        await pa.press(str(number), "enter")
        await settle(pa)
        assert table_of(ana).chosen is None
        assert any("voided turn: choose another" in n for n in notes(ana))
        assert "voided: not this turn" in screen_text(ana)


async def test_remove_a_player_and_leave() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        ((ben, pb),) = await open_apps(stack, coord, ["ben"], view.code)
        await seat_many(coord, ["cara", "dev"], view.code)
        await settle(pa, pb)
        await pa.press("s", "y")
        await settle(pa, pb)
        await pa.press("x")
        await settle(pa)
        assert isinstance(ana.screen, SeatPicker)
        assert "dev" in screen_text(ana)
        await pa.press("down", "down", "enter")  # ben, cara, dev: dev
        await settle(pa)
        assert isinstance(ana.screen, ConfirmScreen)
        assert "dev" in screen_text(ana)
        await pa.press("y")
        await settle(pa, pb)
        tbl = coord.tables[view.code]
        assert tbl.seats[3].removed
        assert "dev has left the game for good" in screen_text(ben)
        # ben leaves: a confirmation, then the lobby
        await pb.press("l")
        await settle(pb)
        assert isinstance(ben.screen, ConfirmScreen)
        assert f"join {view.code}" in screen_text(ben)
        await pb.press("y")
        await settle(pa, pb)
        assert not isinstance(ben.screen, TableScreen)
        assert ben._table_screen() is None
        assert session_of(ben).table is None


async def test_the_host_locks_the_table_and_invites_with_k() -> None:
    from dixit_tui.coordinator import TableLock
    from dixit_tui.tui.lobby import NamePrompt

    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        await settle(pa)
        await pa.press("k")
        await settle(pa)
        assert isinstance(ana.screen, SeatPicker) and "✓ Anyone" in screen_text(ana)
        await pa.press("down", "down", "enter")  # anyone, code, invited: invited
        await settle(pa)
        assert coord.tables[view.code].lock_to is TableLock.INVITED
        assert table_of(ana).view.lock is TableLock.INVITED  # shown to the host's screen
        await pa.press("k")
        await settle(pa)
        await pa.press("up", "enter")  # from the top (the lock in force): up wraps to "Invite a player…"
        await settle(pa)
        assert isinstance(ana.screen, NamePrompt)
        await pa.press(*"ben", "enter")
        await settle(pa)
        assert list(coord.tables[view.code].invited.values()) == ["ben"]
        assert table_of(ana).view.invited == ("ben",)


async def test_party_blind_clue_and_red_marker() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options(mode="party"))
        others = [s for s, _ in await seat_many(coord, ["ben", "cara", "dev", "eve", "fay"], view.code)]
        await settle(pa)
        await pa.press("s", "y")
        await settle(pa)
        # turn 1: anyone may give the first clue, blind; every hand is hidden
        screen = table_of(ana)
        assert not hand_shown(screen)
        assert "hidden" in screen_text(ana)
        # the clue box opens when asked (Enter), not by itself: typed hotkeys never become a clue
        assert status(ana).startswith("Anyone may give the first clue: press Enter to type it")
        assert not isinstance(ana.focused, Input)
        await pa.press("enter")
        assert isinstance(ana.focused, Input) and ana.focused.id == "clue-input"
        assert status(ana).startswith("Type your clue and press Enter")
        await pa.press(*"echo", "enter")
        await settle(pa)
        tbl = coord.tables[view.code]
        assert tbl.game is not None
        assert (tbl.game.state.turn.storyteller, tbl.game.state.turn.clue) == (0, "echo")
        # everyone submits, the storyteller too
        assert screen.query_one(MainView).display
        assert status(ana).startswith("Everyone gives a card, the storyteller too")
        await pa.press("enter")
        await settle(pa)
        await pa.press("y")
        await settle(pa)
        for s in others:
            await default_move(s)
        await settle(pa)
        # vote: the storyteller's green vote, then the red marker, both sent together
        dial = dial_of(screen)
        assert dial_shown(screen) and dial.places_red and not dial.forbidden
        assert status(ana).startswith("Vote: turn the dial to your green vote")
        own = tbl.game.state.turn.board.index(tbl.game.state.turn.submissions[0][0]) + 1
        await pa.press(str(own), "enter")  # own card allowed in party mode
        await settle(pa)
        assert dial.stage == "red"
        assert status(ana).startswith("Place the red marker")
        assert "[✓ green]" in screen_text(ana)
        red = 1 if own != 1 else 2
        await pa.press(str(red), "enter")
        await settle(pa)
        state = tbl.game.state
        assert state.turn.votes[0] == (own,)
        assert state.turn.red == red
        assert status(ana).startswith(f"Your vote: {own}, red marker on {red}")
        for s in others:
            await default_move(s)
        await settle(pa)
        clue = table_of(ana).query_one(ClueLine).words.plain
        assert clue.endswith(f"Turn 1 (r: recap): your card was {own}."), clue  # the red marker: in the recap
        await pa.press("r")
        await settle(pa)
        assert isinstance(ana.screen, RecapScreen)
        text = screen_text(ana)
        assert "Party scoring" in text
        assert "Party" in text
        await pa.press("end")  # the cards are under the points
        await settle(pa)
        assert "● red marker" in screen_text(ana)


async def test_team_mode_first_member_to_submit_is_the_submitter() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options(mode="team"))
        seated = await seat_many(coord, ["ben", "cara", "dev", "eve", "fay"], view.code)
        by_name = {s.name: s for s, _ in seated}
        await settle(pa)
        await pa.press("s", "y")
        await settle(pa)
        side = table_of(ana).query_one(SidePanel).side
        assert side is not None
        assert [line.team for line in side.seats] == [0, 1, 2, 0, 1, 2]
        assert "T1" in screen_text(ana)
        # ben (team 2) tells; ana's teammate is dev (seat 3)
        await default_move(by_name["ben"])
        await settle(pa)
        assert status(ana) == "Your team gives one card: you or dev. The first to give it submits; the other votes."
        await default_move(by_name["dev"])  # dev submits first: ana votes
        await settle(pa)
        assert status(ana).startswith("You vote this turn. Waiting for")
        play = [s for n, s in by_name.items() if n != "dev"]
        await play_until(play, lambda: phase_of(session_of(ana))[2] == "vote")
        await settle(pa)
        tbl = coord.tables[view.code]
        assert tbl.game is not None
        state = tbl.game.state
        team_slot = state.turn.board.index(state.turn.submissions[3][0]) + 1
        dial = dial_of(table_of(ana))
        assert dial_shown(table_of(ana))
        assert dial.forbidden == frozenset({team_slot})
        board = table_of(ana).query_one(Board)
        assert [item.number for item in board.items if "yours" in item.tags] == [team_slot]
        await pa.press("enter")
        await settle(pa)
        assert state is not tbl.game.state
        assert 0 in tbl.game.state.turn.votes or tbl.game.state.turn.number == 2


async def test_odyssey_eight_players_two_votes() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options(profile="odyssey"))
        seated = [s for s, _ in await seat_many(coord, ["ben", "cara", "dev", "eve", "fay", "gus", "hal"], view.code)]
        await settle(pa)
        await pa.press("s", "y")
        await settle(pa)
        await default_move(seated[0])  # ben tells
        await play_until([session_of(ana), *seated[1:]], lambda: phase_of(seated[0])[2] == "vote")
        await settle(pa)
        screen = table_of(ana)
        dial = dial_of(screen)
        assert dial.votes_allowed == 2
        assert status(ana) == "Vote: turn the dial, Space marks one or two cards, Enter votes."
        assert "Marked: none · Space: mark" in screen_text(ana)
        allowed = [s for s in range(1, dial.slots + 1) if s not in dial.forbidden]
        await pa.press(str(allowed[0]), "space", str(allowed[2]), "space")
        await settle(pa)
        assert "[✓ marked]" in screen_text(ana)
        await pa.press("enter")
        await settle(pa)
        tbl = coord.tables[view.code]
        assert tbl.game is not None
        assert tbl.game.state.turn.votes[0] == (allowed[0], allowed[2])
        assert status(ana).startswith(f"Your vote: {allowed[0]} and {allowed[2]} (you can change it")
        await play_until(seated[1:], lambda: phase_of(seated[0])[1] == 2)
        await settle(pa)
        await pa.press("r")
        await settle(pa)
        assert isinstance(ana.screen, RecapScreen)


async def test_game_over_shows_winners_and_scores() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options(target=10))
        seated = [s for s, _ in await seat_many(coord, ["ben", "cara"], view.code)]
        await settle(pa)
        await pa.press("s", "y")
        await settle(pa)
        everyone = [session_of(ana), *seated]
        await play_until(everyone, lambda: phase_of(seated[0])[0] == "over")
        await settle(pa)
        while isinstance(ana.screen, RecapScreen):
            await pa.press("enter")
            await settle(pa)
        tbl = coord.tables[view.code]
        assert tbl.game is not None
        state = tbl.game.state
        text = screen_text(ana)
        assert "Game over" in text
        assert "Final scores" in text
        for seat_no in state.winners:
            assert tbl.seats[seat_no].name in text
        best = max(state.scores)
        assert f"★ {best:>3}" in text
        assert "★ winner" in text  # ★ means the winners here, and only here
        assert table_of(ana).check_action("void", ()) is False
        assert table_of(ana).check_action("recap", ()) is True


async def test_resize_relayouts() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        await seat_many(coord, ["ben", "cara"], view.code)
        await settle(pa)
        await pa.press("s", "y")
        await settle(pa)
        screen = table_of(ana)
        assert screen.has_class("-narrow") and screen.has_class("-short")
        assert "◷ waiting" in screen_text(ana)  # legend of the symbols
        await pa.resize_terminal(120, 40)
        await settle(pa)
        assert screen.has_class("-wide") and screen.has_class("-tall")
        assert "host · waiting" in screen_text(ana)  # words instead of symbols
        await pa.resize_terminal(80, 24)
        await settle(pa)
        assert screen.has_class("-narrow")


async def test_board_click_points_the_dial() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ana, pa = await ana_at_her_vote(stack, coord, (120, 40))
        screen = table_of(ana)
        board, dial = screen.query_one(Board), dial_of(screen)
        target = next(s for s in range(dial.slots, 0, -1) if s not in dial.forbidden and s != dial.pointer)
        line = board.row_of(target - 1)
        assert line is not None
        await pa.click(Board, offset=(6, board.gutter.top + line))
        await settle(pa)
        assert dial.pointer == target


async def test_spectator_sees_the_table_but_no_hand() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        seated = [s for s, _ in await seat_many(coord, ["ben", "cara"], view.code)]
        watcher = DixitApp(coord, Identity("zed", "key-zed"), command=f"watch {view.code}")
        pw = await stack.enter_async_context(watcher.run_test(size=SIZE, notifications=True))
        await settle(pa, pw)
        assert status(watcher) == "You are watching. Waiting for ana to start."
        assert "you are watching" in screen_text(watcher)
        await pa.press("s", "y")
        await settle(pa, pw)
        screen = table_of(watcher)
        assert not hand_shown(screen)
        assert "hands stay hidden" in screen_text(watcher)
        assert screen.check_action("void", ()) is False
        await default_move(seated[0])
        await play_until([session_of(ana), seated[1]], lambda: phase_of(seated[0])[2] == "vote")
        await settle(pa, pw)
        assert not dial_shown(screen)
        assert status(watcher).startswith("You are watching. Waiting for votes from")
        await pw.press("c", *"nice one", "enter")  # chat is paused for spectators too
        await settle(pw)
        assert any("paused" in n for n in notes(watcher))


async def test_a_new_recap_replaces_an_unread_one() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        seated = [s for s, _ in await seat_many(coord, ["ben", "cara"], view.code)]
        await settle(pa)
        await pa.press("s", "y")
        await settle(pa)
        everyone = [session_of(ana), *seated]
        await play_until(everyone, lambda: phase_of(seated[0])[1] == 2)
        await settle(pa)
        assert not isinstance(ana.screen, RecapScreen)  # it opens when asked for
        await pa.press("r")  # ana reads turn 1's recap, and leaves it open while the others play turn 2
        await settle(pa)
        assert isinstance(ana.screen, RecapScreen) and ana.screen.reveal.turn == 1
        await play_until(everyone, lambda: phase_of(seated[0])[1] == 3)  # ana's moves made by her session
        await settle(pa)
        recaps = [s for s in ana.screen_stack if isinstance(s, RecapScreen)]
        assert len(recaps) == 1
        assert recaps[0].reveal.turn == 2
        await pa.press("enter")
        await settle(pa)
        assert isinstance(ana.screen, TableScreen)


async def test_game_over_offers_the_transcript_to_copy() -> None:
    coord = coordinator()
    app = DixitApp(coord, Identity("ana"))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert app.session is not None
        view = await app.session.create(TableOptions(seed=5, target=10))
        await app.session.add_bots(2)
        table = coord.tables[view.code]
        for bot_session in [s.session for s in table.seats[1:]]:
            assert bot_session is not None
        assert len(quick(coord, view.code)) == 2  # (their pace is not what is tested here)
        clock = drive_clock(coord)
        await app.session.start()
        # play ana's part with the stand-in strategy until the game ends (the bots play their own)
        rng = random.Random(0)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60  # the bots think 0.2-1 s a move: a busy machine needs more than a few seconds
        while loop.time() < deadline:
            await pilot.pause(0.02)
            game = table.game
            assert game is not None
            if table.status == "over":
                break
            if table.reveal_until is not None:  # each turn's reveal is held for ana: over by the clock
                await reveal_out(coord, view.code, clock)
            command = random_stand_in(view_for(game.state, 0), rng)
            if command is not None and 0 in game.state.waiting_for():
                await app.session._run(table, command)
        assert table.status == "over"
        await pilot.pause()
        for _ in range(5):  # close the recap and any other modal above the table
            if isinstance(app.screen, TableScreen):
                break
            await pilot.press("escape")
            await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, TranscriptScreen)
        assert "Turn 1:" in app.screen.text and "Winner" in app.screen.text
        await pilot.press("y")


async def test_the_deadline_counts_down_for_everyone() -> None:
    coord = coordinator()
    app = DixitApp(coord, Identity("ana"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.session is not None
        await app.session.create(TableOptions(seed=5, turn_seconds=120))
        await app.session.add_bots(2)
        await app.session.start()
        await pilot.pause(0.3)
        topbar = app.screen.query_one(TopLines).bar.plain
        assert "⏱ 1:5" in topbar or "⏱ 2:00" in topbar, topbar


async def test_a_busy_session_draws_only_the_newest_of_queued_views() -> None:
    coord = coordinator()
    app = DixitApp(coord, Identity("ana"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.session is not None
        view = await app.session.create(options())
        _ben, sink = await seat(coord, "ben", view.code)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)
        elsewhere = await (await coord.connect(Identity("cy"), sink)).create(options())
        first, last = StateUpdate(view), StateUpdate(app.session.view())
        chat = ChatUpdate(ChatLine(1, "ben", "hi"))
        assert CoordinatorUpdate(first).can_replace(CoordinatorUpdate(last))
        assert not CoordinatorUpdate(first).can_replace(CoordinatorUpdate(StateUpdate(elsewhere)))
        assert not CoordinatorUpdate(first).can_replace(CoordinatorUpdate(chat))
        assert not CoordinatorUpdate(chat).can_replace(CoordinatorUpdate(first))
        assert not CoordinatorUpdate(first).can_replace(CoordinatorUpdate(StateUpdate(None)))
        listing, newer = LobbyUpdate(coord.summaries()), LobbyUpdate(())
        assert CoordinatorUpdate(listing).can_replace(CoordinatorUpdate(newer))  # the lobby draws the last listing
        assert not CoordinatorUpdate(listing).can_replace(CoordinatorUpdate(first))
        assert not CoordinatorUpdate(first).can_replace(CoordinatorUpdate(listing))

        shown: list[Any] = []
        real_show = screen.show_view

        def counting(view: TableView) -> None:
            shown.append(view)
            real_show(view)

        screen.show_view = counting  # type: ignore[method-assign]
        for _ in range(5):  # queued back to back, as on a busy server
            app.post_message(CoordinatorUpdate(first))
        app.post_message(CoordinatorUpdate(last))
        await pilot.pause()
        assert shown == [last.view]


async def test_at_four_players_the_status_asks_for_one_card() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        others = [s for s, _ in await seat_many(coord, ["ben", "cara", "dan"], view.code)]
        await pa.press("s", "y")
        await settle(pa)
        assert await default_move(others[0])  # ben tells (anyone may give the first clue)
        await settle(pa)
        assert status(ana) == "Choose a card that fits the clue (Enter), then confirm."


def hand_shown(screen: TableScreen) -> bool:
    """Whether the screen shows a hand's cards (never at a spectator's screen, nor for a hidden hand; the hand's
    widget holds the note under it too, which a spectator has)."""
    main = screen.query_one(MainView)
    return main.display and main.mode == "hand" and bool(main.items)


def dial_shown(screen: TableScreen) -> bool:
    """Whether the screen shows the dial (under the board's cards while you vote: never at a spectator's screen)."""
    return screen._dial() is not None
