"""Keys typed ahead in one packet act in the order they came: an arrow and then Enter pick the card or vote for the
slot the arrow moved to. (The arrows were bindings, which act only once the key has bubbled up to the app; Enter
acted at the hand or the dial itself, so it came first and picked the card above, or voted the old slot.)"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import pytest
from textual.widgets import Input

from dixit_tui.coordinator import Identity
from dixit_tui.textual_host import key_order
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.help import HelpScreen
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.widgets.cards import Board
from dixit_tui.tui.widgets.confirm import ConfirmScreen
from dixit_tui.tui.widgets.main_view import MainView
from tests.tui.apps import dial_of
from tests.tui.fixtures import coordinator, default_move, options, seat_many
from tests.tui.keys import alive, keys_at_once, type_keys
from tests.tui.lobby_pilot import open_create, settle

SIZE = (100, 30)


def lost_trails(caplog: pytest.LogCaptureFixture) -> int:
    """Keys the app's key gate let the next one go behind after GIVE_UP seconds, as its log says (the caller's test
    takes `caplog`: `watch_the_gate` sets its level)."""
    return sum("not seen done after" in r.getMessage() for r in caplog.records if r.name == key_order.__name__)


@pytest.fixture(autouse=True)
def watch_the_gate(caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    caplog.set_level(logging.DEBUG, logger=key_order.__name__)
    # The gate lets the next key go after GIVE_UP seconds of the machine's clock: on a loaded machine (or a Textual
    # before 8.2.2, whose screens cost three times the calls) a key can take that long to act, and a loss counted
    # here would be the machine's, not the gate's. Here it waits as long as a test does (the test of giving up sets
    # its own, short, GIVE_UP).
    monkeypatch.setattr(key_order, "GIVE_UP", 60.0)


def held_keys(app: DixitApp) -> list[object]:
    """From now on, the keys and pastes the app's key gate makes wait for the one before them (its `admit` says no)."""
    held: list[object] = []
    gate = app._key_gate
    admit = gate.admit

    def counted(event: Any) -> bool:
        if admit(event):
            return True
        held.append(event)
        return False

    gate.admit = counted  # type: ignore[method-assign]
    return held


async def _table(target: int = 10) -> tuple[Any, Any, list[Any], DixitApp]:
    coord = coordinator()
    host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
    view = await host.create(options(target=target))
    others = [s for s, _ in await seat_many(coord, ["cara", "dev"], view.code)]
    app = DixitApp(coord, Identity("ben", "key-ben"), command=f"join {view.code}")
    return coord, view.code, [host, *others], app


async def _started(pilot: Any, host: Any) -> TableScreen:
    """The table screen once the host has started the game (anyone may give the first clue)."""
    await pilot.pause()
    await host.start()
    for _ in range(3):
        await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, TableScreen)
    return screen


async def test_down_then_enter_at_once_picks_the_card_the_arrow_moved_to() -> None:
    _, _, (host, _, _), app = await _table()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await host.start()
        assert await default_move(host)  # ana tells: ben (seat 3) gives one card
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)
        asked: list[list[str]] = []
        screen._confirm_submit = asked.append  # type: ignore[method-assign,assignment]
        hand = screen.query_one("#main-view", MainView)
        hand.focus()
        hand.highlighted = 0
        await pilot.pause()
        cards = [item.key for item in hand.items]
        await type_keys(app, ["down", "down", "enter"])
        for _ in range(3):
            await pilot.pause()
        alive(app)
        assert hand.highlighted == 2
        assert asked == [[cards[2]]], (asked, cards)  # not the first or the second card


async def test_right_then_enter_at_once_votes_for_the_slot_the_dial_moved_to() -> None:
    _, _, (host, cara, dev), app = await _table()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await host.start()
        assert await default_move(host)
        for session in (cara, dev):
            assert await default_move(session)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        assert app.session is not None and await default_move(app.session)  # ben's card: now the vote
        for _ in range(3):
            await pilot.pause()
        dial = dial_of(screen)
        screen.query_one(Board).focus()
        await pilot.pause()
        cast: list[Any] = []
        session = app.session
        real = session.vote

        async def spy(slots: Any, red: Any = None) -> None:
            cast.append(tuple(slots))
            await real(slots, red)

        session.vote = spy  # type: ignore[method-assign]
        start = dial.pointer
        dial._typed_at = None
        await type_keys(app, ["right", "enter"])
        for _ in range(3):
            await pilot.pause()
        alive(app)
        assert dial.pointer != start
        assert cast == [(dial.pointer,)], (cast, start, dial.pointer)


async def test_enter_then_a_clue_at_once_writes_the_whole_clue() -> None:
    """The storyteller's Enter at the hand opens the clue box; the letters typed right behind it, in the same packet,
    go into the box (they reached the hand first, and were lost there, or worse: `r` opened the recap)."""
    _, _, (host, _, _), app = await _table()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _started(pilot, host)  # anyone may give the first clue
        hand = screen.query_one("#main-view", MainView)
        hand.focus()
        await pilot.pause()
        keys_at_once(app, ["enter", "r", "i", "p", "p", "l", "e", "s", "enter"])  # in one packet: no step between them
        for _ in range(5):
            await pilot.pause()
        alive(app)
        view = host.view()
        assert view.game is not None and view.game.clue == "ripples", view.game
        assert app.screen is screen


async def test_esc_then_a_key_at_once_closes_the_dialog_and_the_key_acts_on_the_table() -> None:
    """Esc (or n) closes the open question, and the key typed right behind it, in the same packet, acts on the
    table under it (it went to the closing dialog, which dropped it: `Esc c` did not open the chat box)."""
    _, _, (host, _, _), app = await _table()
    async with app.run_test(size=SIZE) as pilot:
        await _started(pilot, host)

        async def at_once(keys: list[str], shown: type[Any]) -> None:
            keys_at_once(app, keys)
            for _ in range(5):
                await pilot.pause()
            alive(app)
            assert isinstance(app.screen, shown), (keys, app.screen_stack)

        def chat_focused() -> bool:
            return app.focused is not None and app.focused.id == "chat-input"

        for opener, dialog, closer in (
            ("l", ConfirmScreen, "escape"),
            ("l", ConfirmScreen, "n"),
            ("f1", HelpScreen, "escape"),
        ):
            await at_once([opener], dialog)
            await at_once([closer, "c"], TableScreen)
            assert chat_focused(), (opener, closer, app.focused)
            await at_once(["escape"], TableScreen)
            assert not chat_focused()


async def test_editing_keys_and_letters_in_one_packet_act_in_the_order_typed(caplog: pytest.LogCaptureFixture) -> None:
    """Ctrl+U, Backspace, Home, Ctrl+K and Tab act before the letters typed right behind them. (They are bindings,
    which Textual looks up only once the key has bubbled back up to the app; the letter went to the text box
    meanwhile: "Ctrl+U 8" left the box empty, "Backspace 8" deleted the 8, "Home 9" typed the 9 at the end.)"""
    app = DixitApp(coordinator(), Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await open_create(pilot)
        seats = screen.query_one("#seats", Input)
        target = screen.query_one("#target", Input)
        seats.focus()
        await settle(pilot)
        held = held_keys(app)

        async def at_once(keys: list[str]) -> str:
            keys_at_once(app, keys)
            await settle(pilot)
            alive(app)
            return seats.value

        assert seats.value == "8"
        assert await at_once(["ctrl+u", "7"]) == "7"
        assert await at_once(["backspace", "6"]) == "6"
        assert await at_once(["home", "1"]) == "16"
        assert await at_once(["ctrl+k", "2"]) == "12"  # (the cursor was after the 1)
        assert await at_once(["backspace", "backspace", "ctrl+u", "5", "left", "x", "4"]) == "45"  # (x: not a digit)
        assert await at_once(["tab", "2", "0"]) == "45"
        assert app.focused is target and target.value == "20"  # Tab chose the whole target: the 2 replaced it
        assert held and lost_trails(caplog) == 0


async def test_a_key_typed_behind_one_that_opens_a_dialog_does_not_answer_it(caplog: pytest.LogCaptureFixture) -> None:
    """`l` opens "Leave table?"; a `y` in the same packet was typed at the table, before the question showed: it
    waits for the `l` to be done, and then does not act on the dialog (a key acts only on the screen it was typed
    at). The keys after it, once the dialog shows, do."""
    _, _, (host, _, _), app = await _table()
    async with app.run_test(size=SIZE) as pilot:
        table = await _started(pilot, host)
        keys_at_once(app, ["l", "y", "y", "enter"])
        for _ in range(5):
            await pilot.pause()
        alive(app)
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen) and not dialog.answered, app.screen_stack
        assert not dialog.again  # (dropped before the dialog: not refused by its guard either)
        assert any(seat.name == "ben" for seat in host.view().seats)
        keys_at_once(app, ["n"])
        for _ in range(3):
            await pilot.pause()
        assert app.screen is table
        keys_at_once(app, ["l"])
        for _ in range(3):
            await pilot.pause()
        keys_at_once(app, ["enter", "c"])  # Stay; the c was typed at the dialog: it does not open the chat
        for _ in range(5):
            await pilot.pause()
        assert app.screen is table and (app.focused is None or app.focused.id != "chat-input")
        assert lost_trails(caplog) == 0  # each key was seen done (none waited for the GIVE_UP time)


async def test_a_key_whose_trail_is_lost_lets_the_next_one_go_after_a_while(
    monkeypatch: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Should the callback that follows a key never run (its widget closed under it), the keys behind it still go,
    GIVE_UP seconds later: typing never stops for good."""
    monkeypatch.setattr(key_order, "GIVE_UP", 0.05)
    app = DixitApp(coordinator(), Identity("ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await open_create(pilot)
        seats = screen.query_one("#seats", Input)
        seats.focus()
        await settle(pilot)
        lost: list[object] = []
        step = key_order.KeyGate._step

        def lost_at_the_box(gate: key_order.KeyGate, event: Any, node: Any) -> None:
            if node is seats:
                lost.append(event)  # as if the box had closed with the callback still in its queue
                return
            step(gate, event, node)

        monkeypatch.setattr(key_order.KeyGate, "_step", lost_at_the_box)
        before = lost_trails(caplog)  # (the c that opened the dialog took longer than this short GIVE_UP)
        keys_at_once(app, ["ctrl+u", "7", "3"])
        for _ in range(200):  # (each of the three keys waits GIVE_UP for a callback that never comes; at most 4 s)
            if lost_trails(caplog) - before >= 3:
                break
            await asyncio.sleep(0.02)
        await settle(pilot)
        alive(app)
        assert seats.value == "73", seats.value  # in order, and none left waiting
        assert len(lost) == 3 and lost_trails(caplog) - before == 3


def _edited(keys: list[str]) -> str:
    """What a text box holds after `keys`, typed one at a time into an empty box (Textual's Input's editing)."""
    text, cursor = "", 0
    for key in keys:
        if len(key) == 1:
            text, cursor = text[:cursor] + key + text[cursor:], cursor + 1
        elif key == "backspace" and cursor:
            text, cursor = text[: cursor - 1] + text[cursor:], cursor - 1
        elif key == "delete":
            text = text[:cursor] + text[cursor + 1 :]
        elif key == "left":
            cursor = max(0, cursor - 1)
        elif key == "right":
            cursor = min(len(text), cursor + 1)
        elif key == "home":
            cursor = 0
        elif key == "end":
            cursor = len(text)
        elif key == "ctrl+u":
            text, cursor = text[cursor:], 0
        elif key == "ctrl+k":
            text = text[:cursor]
    return text


async def test_random_bursts_of_typing_and_editing_keys_edit_the_chat_box_as_typed_one_by_one(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Forty bursts of letters mixed with Backspace, Delete, the arrows, Home, End, Ctrl+U and Ctrl+K, each burst in
    one packet: the chat box ends as if they had been typed slowly."""
    rng = random.Random(11)
    editing = ["backspace", "delete", "left", "right", "home", "end", "ctrl+u", "ctrl+k"]
    _, _, _, app = await _table()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("c")
        for _ in range(3):
            await pilot.pause()
        box = app.focused
        assert isinstance(box, Input) and box.id == "chat-input"
        for burst in range(40):
            keys = [
                rng.choice("abcxyz") if rng.random() < 0.6 else rng.choice(editing) for _ in range(rng.randint(2, 14))
            ]
            keys_at_once(app, keys)
            for _ in range(3):
                await pilot.pause()
            assert box.value == _edited(keys), (burst, keys, box.value)
            keys_at_once(app, ["end", "ctrl+u"])  # empty again
            for _ in range(2):
                await pilot.pause()
            assert box.value == ""
        alive(app)
        assert lost_trails(caplog) == 0
