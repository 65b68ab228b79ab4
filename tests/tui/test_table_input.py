"""Where typed keys go at the table (Pilot, fast): questions that are answered at once, twice, or left open while
the table moves on; keys typed before a question opened; the hand, which Space and letters do not play.
(The same behaviours over real SSH: tests/e2e/test_tui_typing.py.)"""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest
from textual.app import App
from textual.content import Content
from textual.screen import Screen
from textual.widgets import OptionList

from dixit_tui.coordinator import Identity
from dixit_tui.engine import RuleError
from dixit_tui.engine.reveal import Reveal
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.widgets.confirm import ConfirmScreen, SeatPicker
from dixit_tui.tui.widgets.recap import RecapScreen
from tests.tui.fixtures import coordinator, default_move, options, seat_many
from tests.tui.keys import alive, type_keys

SIZE = (100, 30)


async def test_a_question_answered_before_it_has_drawn_does_not_crash() -> None:
    """The crash of issue 9: `n` typed with the key that opened the question answered it before its buttons were
    mounted; its on_mount then looked for them."""
    app: App[None] = App()
    async with app.run_test() as pilot:
        for ticks in range(4):
            screen = ConfirmScreen("Give this card?", "x")
            app.push_screen(screen)
            for _ in range(ticks):
                await asyncio.sleep(0)
            screen.action_answer(False)
            await pilot.pause()
            assert app._exception is None, app._exception
            assert len(app.screen_stack) == 1


async def test_a_question_answers_once() -> None:
    """Two answers (n, n typed at once) close the question, not the screen under it."""
    app: App[None] = App()
    async with app.run_test() as pilot:
        answers: list[bool | None] = []
        screen = ConfirmScreen("Leave?", "x")
        await app.push_screen(screen, answers.append)
        await pilot.pause()
        screen.action_answer(False)
        screen.action_answer(True)
        await pilot.pause()
        assert answers == [False]
        assert len(app.screen_stack) == 1 and app._exception is None


async def test_keys_typed_at_the_hand_neither_stack_nor_answer_questions() -> None:
    coord = coordinator()
    host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
    view = await host.create(options(target=10))
    (cara, _dev) = [s for s, _ in await seat_many(coord, ["cara", "dev"], view.code)]
    app = DixitApp(coord, Identity("ben", "key-ben"), command=f"join {view.code}")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await host.start()
        assert await default_move(cara)
        await pilot.pause()
        table = coord.tables[view.code]
        assert table.game is not None
        await type_keys(app, ["space", "s", "k", "y", "enter", "enter", "y", "space", "enter", "y"])
        for _ in range(3):
            await pilot.pause()
        alive(app)
        names = [type(s).__name__ for s in app.screen_stack]
        assert names.count("ConfirmScreen") == 1, names
        assert 3 not in table.game.state.turn.submissions  # ben sits in seat 3


async def test_typing_words_while_the_table_moves_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cheap fuzz: ben types words, spaces, `y` and Enter in bursts while the others move (clues, cards, votes,
    voids) between and inside the bursts. The app lives on, and ben never gives a card nor votes: with the typing
    guard on, no question is ever confirmed, and Enter after letters at the dial is not a vote."""
    monkeypatch.setattr(ConfirmScreen, "GUARD", 60.0)
    rng = random.Random(9)
    coord = coordinator()
    host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
    view = await host.create(options(target=30))
    others = [host, *[s for s, _ in await seat_many(coord, ["cara", "dev"], view.code)]]
    app = DixitApp(coord, Identity("ben", "key-ben"), command=f"join {view.code}")
    words = ["yes", "sky", "lyc", "yellow", "moon", "ny", "ly", "crt"]
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await host.start()
        table = coord.tables[view.code]
        assert table.game is not None
        assert isinstance(app.screen, TableScreen)
        mine: set[tuple[int, str]] = set()  # (turn, phase) where the test itself made ben's move
        phases: set[str] = set()
        for _ in range(60):
            burst: list[str] = []
            for _ in range(rng.randint(1, 4)):
                burst += [*rng.choice(words), rng.choice(["space", "space", "enter"])]
            cut = rng.randint(0, len(burst))
            await type_keys(app, burst[:cut])
            roll = rng.random()
            if roll < 0.1:
                with contextlib.suppress(RuleError):  # nothing to void now: fine
                    await host.void()
            elif roll < 0.3 and app.session is not None:  # ben's own move, made for him (not by his keys)
                state = table.game.state
                if await default_move(app.session, clue=rng.choice(words)):
                    mine.add((state.turn.number, state.phase.value))
            else:
                for session in rng.sample(others, len(others)):
                    if await default_move(session, clue=rng.choice(words)):
                        break
            await type_keys(app, burst[cut:])
            await pilot.pause()
            alive(app)
            state = table.game.state
            turn = state.turn.number
            phases.add(state.phase.value)
            if state.turn.storyteller != 3 and (turn, "submit") not in mine:
                assert 3 not in state.turn.submissions, "ben's typing gave a card"
            if (turn, "vote") not in mine:
                assert 3 not in state.turn.votes, "ben's typing voted"
        assert phases >= {"clue", "submit", "vote"}, phases  # the keys flew in every phase


async def test_a_question_withdrawn_under_another_screen_closes_when_back_on_top() -> None:
    """The table moved past a question while the help was open over it: the help stays; the question closes when
    the help does (and says why), without popping anything else."""
    app: App[None] = App()
    async with app.run_test() as pilot:
        answers: list[bool | None] = []
        question = ConfirmScreen("Give this card?", "x")
        await app.push_screen(question, answers.append)
        cover: Screen[None] = Screen()  # the help, say
        await app.push_screen(cover)
        question.withdraw("the vote has begun")
        await pilot.pause()
        assert app.screen_stack[-2:] == [question, cover] and answers == []
        await app.pop_screen()
        await pilot.pause()
        assert answers == [None]
        assert len(app.screen_stack) == 1 and app._exception is None
        assert any("was closed: the vote has begun" in n.message for n in app._notifications)


async def test_picking_a_seat_twice_at_once_closes_only_the_picker() -> None:
    app: App[None] = App()
    async with app.run_test() as pilot:
        picks: list[int | None] = []
        picker = SeatPicker("Remove which player?", [(1, Content("ben")), (2, Content("cara"))])
        await app.push_screen(picker, picks.append)
        await pilot.pause()
        option_list = picker.query_one(OptionList)
        option_list.action_select()
        option_list.action_select()
        await pilot.pause()
        assert picks == [1]
        assert len(app.screen_stack) == 1 and app._exception is None


async def test_closing_the_recap_twice_at_once_keeps_the_table() -> None:
    app: App[None] = App()
    async with app.run_test() as pilot:
        table: Screen[None] = Screen()  # the table, say
        await app.push_screen(table)
        recap = RecapScreen(Reveal(1, 0, "moon", "all", (), ()), ["ana"])
        await app.push_screen(recap)
        await pilot.pause()
        recap.action_close()
        recap.action_close()
        await pilot.pause()
        assert app.screen is table and app._exception is None


async def test_a_recap_or_picker_closed_before_it_has_drawn_does_not_crash() -> None:
    """Enter typed with the key that opened the recap (or a seat picker) closes it before its widgets are mounted;
    its on_mount, and a newer turn's recap shown in its place, must then find nothing to do, not crash."""
    app: App[None] = App()
    async with app.run_test() as pilot:
        table: Screen[None] = Screen()  # the table, say
        await app.push_screen(table)
        for ticks in range(4):
            recap = RecapScreen(Reveal(1, 0, "moon", "all", (), ()), ["ana"])
            app.push_screen(recap)
            for _ in range(ticks):
                await asyncio.sleep(0)
            recap.show(Reveal(2, 0, "sun", "all", (), ()), ["ana"])  # a newer turn, before it drew
            recap.action_close()
            await pilot.pause()
            assert app._exception is None, app._exception
            assert app.screen is table
            picker = SeatPicker("Remove which player?", [(1, Content("ben"))])
            app.push_screen(picker)
            for _ in range(ticks):
                await asyncio.sleep(0)
            picker.action_cancel()
            await pilot.pause()
            assert app._exception is None, app._exception
            assert app.screen is table


async def test_a_lobby_dialog_closed_before_it_has_drawn_does_not_crash() -> None:
    """`c` then Esc at once (or `r` then Esc): the dialog is closed before its fields are mounted."""
    from dixit_tui.tui.create import CreateScreen
    from dixit_tui.tui.lobby import NamePrompt, ReconnectPrompt

    app: App[None] = App()
    async with app.run_test() as pilot:
        base: Screen[None] = Screen()  # the lobby, say
        await app.push_screen(base)
        for make in (
            CreateScreen,
            lambda: NamePrompt("Name taken", "ana"),
            lambda: ReconnectPrompt("Back?", "K7QF", None),
        ):
            for ticks in range(4):
                dialog = make()
                app.push_screen(dialog)
                for _ in range(ticks):
                    await asyncio.sleep(0)
                dialog.dismiss(None)
                await pilot.pause()
                assert app._exception is None, (make, ticks, app._exception)
                assert app.screen is base
