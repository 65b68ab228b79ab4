"""Random keys (and a few pastes) into a DixitApp through Pilot, at the lobby and at a table in every phase.

Seeded and bounded (KEYS per app). After every burst: the app still runs, no exception was raised in it, and the
coordinator's game is whole (every card of the deck in exactly one place: a hand, the draw pile, the discard pile,
or given this turn). The other seats are recording sessions that make no move while the keys fly, so whatever
changes at the table is the fuzzed player's doing, through the UI.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from textual import events
from textual._node_list import DuplicateIds
from textual.pilot import Pilot

from dixit_tui.coordinator import Coordinator, Identity, PlayerSession
from dixit_tui.coordinator.table import Table
from dixit_tui.tui.app import DixitApp
from tests.tui.fixtures import coordinator, default_move, options, play_until, seat_many
from tests.tui.keys import alive, type_keys

KEYS = 300
BURST = 25
SIZE = (90, 28)

# Never ctrl+c / ctrl+q (quit) nor q (quit from the lobby): quitting is legal, it would just end the fuzzing.
KEY_NAMES = [
    *"abcdefghijklmnoprstuvwxyz0123456789",
    *"ABCXYZ",
    "exclamation_mark", "question_mark", "full_stop", "comma", "minus", "plus", "slash", "backslash",
    "left_square_bracket", "right_square_bracket", "at", "number_sign", "dollar_sign", "percent_sign",
    "space", "enter", "escape", "tab", "shift+tab", "backspace", "delete", "insert",
    "up", "down", "left", "right", "home", "end",
    "ctrl+a", "ctrl+e", "ctrl+k", "ctrl+u", "ctrl+w", "ctrl+left", "ctrl+right", "shift+up", "shift+down",
    "f1", "f2", "f3", "f5", "f10", "f12", "pageup", "pagedown",
]  # fmt: skip
# Weighted towards what moves the game: Enter, digits, arrows, y/n of confirmations, the table's letter keys.
WEIGHTED = KEY_NAMES + ["enter"] * 12 + list("123456789") * 2 + ["up", "down", "left", "right"] * 3 + list("yn") * 4
PASTES = ["", "a quiet storm", "[bold]x[/]", "[@click=app.quit]y[/]", "\x1b[2J\x1b]0;t\x07", "é😀宽\u202e", "x" * 500]


def check_whole(table: Table) -> None:
    """Every card of the deck in exactly one place; scores and hands sane."""
    if table.game is None:
        return
    state = table.game.state
    places = [c for hand in state.hands for c in hand] + [*state.draw_pile, *state.discard]
    places += [c for s in state.seats for c in state.given_by(s)]
    assert sorted(places) == sorted(state.cards), "a card is lost or in two places"
    if state.phase.value == "vote":
        assert sorted(state.turn.board) == sorted(c for s in state.seats for c in state.given_by(s))
    assert all(score >= 0 for score in state.scores)
    assert all(len(hand) <= state.rules.hand_size for hand in state.hands)


async def fuzz(pilot: Pilot[Any], app: DixitApp, coord: Coordinator, rng: random.Random) -> int:
    """KEYS random keys in bursts (and now and then a paste); checks after each burst. Returns keys pressed."""
    pressed = 0
    while pressed < KEYS:
        keys = [rng.choice(WEIGHTED) for _ in range(min(BURST, KEYS - pressed))]
        await type_keys(app, keys)
        pressed += len(keys)
        if rng.random() < 0.3:
            app.post_message(events.Paste(rng.choice(PASTES)))
        await pilot.pause()
        alive(app)
        for table in list(coord.tables.values()):
            check_whole(table)
    return pressed


async def others_at(coord: Coordinator, code: str, names: list[str]) -> list[PlayerSession]:
    return [session for session, _ in await seat_many(coord, names, code)]


def table_of(coord: Coordinator, code: str) -> Table:
    return coord.tables[code]


async def test_random_keys_in_the_lobby() -> None:
    coord = coordinator()
    host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
    view = await host.create(options())  # a table to join or watch from the list
    await others_at(coord, view.code, ["ben"])
    app = DixitApp(coord, Identity("fuzz", "key-fuzz"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert await fuzz(pilot, app, coord, random.Random(1)) == KEYS
        alive(app)


PHASES = ["table-lobby", "clue", "submit", "vote", "over"]


@pytest.mark.parametrize("phase", PHASES)
async def test_random_keys_at_a_table(phase: str) -> None:
    """The fuzzed player sits at seat 1 of a three-player refresh game. The table is brought to `phase` by default
    moves (seat 1 played by a recording session with the player's key), then the app takes the seat back."""
    coord = coordinator()
    host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
    view = await host.create(options(target=10))
    code = view.code
    (me, cara) = await others_at(coord, code, ["fuzz", "cara"])
    table = table_of(coord, code)
    if phase != "table-lobby":
        await host.start()
        game = table.game
        assert game is not None
        await host.clue("a first clue", game.state.hands[0][0])
        if phase == "clue":  # turn 2 after a whole turn: cara tells, the fuzzer waits (or chats)
            await play_until([host, me, cara], lambda: game.state.turn.number == 2)
        elif phase == "submit":
            await default_move(cara)
        elif phase == "vote":
            await default_move(cara)
            await default_move(me)
            await default_move(cara)  # cara's vote: the fuzzer's is the one missing
        else:
            await play_until([host, me, cara], lambda: game.state.phase.value == "over")
        assert game.state.phase.value == phase, game.state.phase
        assert 1 in game.state.waiting_for() or phase in ("clue", "over")
    app = DixitApp(coord, Identity("fuzz", "key-fuzz"), command=f"join {code}")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.session is not None and table.seat_of(app.session) == 1
        check_whole(table)
        assert await fuzz(pilot, app, coord, random.Random(phase)) == KEYS
        alive(app)
        # the table still answers everyone else
        assert host.view() is not None and cara.view() is not None
        check_whole(table)


async def test_help_again_over_a_table_that_arrived_under_it() -> None:
    coord = coordinator()
    host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
    view = await host.create(options())
    app = DixitApp(coord, Identity("fuzz", "key-fuzz"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # Over SSH, `w` and F1 in one packet do it (found by the fuzzing in tests/e2e/test_bad_input.py): F1 is
        # queued before the watched table's view, so the help opens first and the table is pushed above it.
        await pilot.press("f1")
        assert app.session is not None
        await app.session.watch(view.code)
        await pilot.pause()
        # the table replaces whatever was open above the lobby (the help included), so nothing is left under it
        assert [type(s).__name__ for s in app.screen_stack][-2:] == ["LobbyScreen", "TableScreen"]
        try:  # what F1 does now (called here, so the failure is this test's and not a crash of the app)
            app.action_help()
        except DuplicateIds as err:
            raise AssertionError(f"F1 would crash the app: {err}") from err
        await pilot.pause()
        alive(app)


async def test_page_up_on_a_hand_without_height() -> None:
    coord = coordinator()
    host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
    view = await host.create(options())
    await others_at(coord, view.code, ["cara"])
    app = DixitApp(coord, Identity("fuzz", "key-fuzz"), command=f"join {view.code}")
    async with app.run_test(size=(100, 4)) as pilot:
        await pilot.pause()
        await host.start()  # turn 1: the hand is shown and focused
        await pilot.pause()
        await pilot.press("pageup")
        await pilot.pause()
        alive(app)
