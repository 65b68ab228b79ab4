"""Text boxes and the focus: a box you come back to keeps its text (the next key goes on after it, it does not
replace it); a phase change moves the keyboard out of a box that takes no input now, keeping the text.
(Found playing over OpenSSH: "stairs to", Esc, Enter, " nowhere", Enter sent the clue "nowhere".)"""

from __future__ import annotations

from contextlib import AsyncExitStack

import pytest
from textual import events
from textual.widgets import Input

from dixit_tui.coordinator import ChatUpdate, Identity
from dixit_tui.tui import table_screen
from dixit_tui.tui import table_words as words
from dixit_tui.tui.widgets.main_view import MainView
from tests.tui.apps import ana_hosting, notes, open_apps, session_of, status, table, table_of
from tests.tui.fixtures import (
    Recorder,
    coordinator,
    default_move,
    options,
    phase_of,
    play_until,
    screen_text,
    seat_many,
    settle,
)


async def test_the_clue_box_keeps_its_text_when_you_come_back_to_it() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ana, pa, _, _ = await ana_hosting(stack, coord, ["ben", "cara"], start=True)
        await pa.press("1", "enter", *"stairs to", "escape")
        await settle(pa)
        assert not isinstance(ana.focused, Input)
        # letters typed now go nowhere: the words say how to get back to the box, not "type your clue"
        assert status(ana) == "Anyone may give the first clue: card 1 chosen: press Enter to type your clue."
        assert "Card 1 chosen: press Enter to type your clue." in screen_text(ana)
        assert "type your clue below" not in screen_text(ana)
        await pa.press("enter", *" nowhere", "enter")  # back in the box (card 1 still chosen), more words
        await settle(pa)
        game = table(coord, ana).game
        assert game is not None
        assert game.state.turn.clue == "stairs to nowhere"


async def test_the_chat_box_keeps_its_text_when_you_come_back_to_it() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        (_, ben), _ = await seat_many(coord, ["ben", "cara"], view.code)
        await settle(pa)
        await pa.press("c", *"hello", "escape")
        await settle(pa)
        await pa.press("c", *" world", "enter")
        await settle(pa)
        heard = [u.line.text for u in ben.updates if isinstance(u, ChatUpdate)]
        assert heard == ["hello world"]


async def test_a_chat_line_being_typed_when_the_chat_pauses_gives_the_keyboard_back_and_stays() -> None:
    """cy typed "nice clue" in the chat, unsent; ben gave the clue (the chat pauses): `2` went into the chat box
    under "Choose 2 cards that fit the clue". Now the keyboard goes to the hand, the line stays in the box."""
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ana, pa, _, (ben, _) = await ana_hosting(stack, coord, ["ben", "cara"], start=True)
        await pa.press("c", *"nice clue")
        await settle(pa)
        chat = ana.screen.query_one("#chat-input", Input)
        assert chat.has_focus
        enter = events.Key("enter", "\r")
        typed_for = table_of(ana).key_role(enter, arriving=True)  # an Enter on its way to the chat box...
        assert await default_move(ben)  # ...as ben gives the clue
        await settle(pa)
        assert isinstance(ana.focused, MainView) and chat.value == "nice clue"
        assert status(ana).startswith("Choose 2 cards that fit the clue")
        # the Enter typed into the box acts on nothing at the hand (it would have marked a card)
        now_for = table_of(ana).key_role(enter, arriving=False, typed_for=typed_for)
        assert now_for is not None and now_for != typed_for
        await pa.press("2")
        await settle(pa)
        assert chat.value == "nice clue" and isinstance(ana.focused, MainView)


async def test_a_chat_line_being_typed_keeps_the_keyboard_while_the_chat_is_open() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ana, pa, _, _ = await ana_hosting(stack, coord, ["ben", "cara"])
        await pa.press("c", *"good luck")
        await session_of(ana).start()  # the game starts: the chat stays open until the clue
        await settle(pa)
        chat = ana.screen.query_one("#chat-input", Input)
        assert chat.has_focus
        await pa.press(*" all")
        assert chat.value == "good luck all"


async def test_a_clue_being_typed_when_another_gives_the_first_gives_the_keyboard_back() -> None:
    """Party: ana lost the race for the first clue with "thunder" in the box; `2 Enter` typed into it."""
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ana, pa, _, others = await ana_hosting(
            stack, coord, ["ben", "cara", "dev", "eve", "fay"], mode="party", start=True
        )
        await pa.press("enter", *"thunder")
        box = ana.screen.query_one("#clue-input", Input)
        assert box.has_focus
        assert await default_move(others[0])  # ben's clue first
        await settle(pa)
        assert not isinstance(ana.focused, Input) and box.value == "thunder"
        await pa.press("2")
        await settle(pa)
        assert box.value == "thunder"


@pytest.mark.parametrize("pace", [0.0, 0.4], ids=["in-one-send", "at-a-typists-pace"])
async def test_keys_typed_as_the_chat_pauses_act_on_nothing(monkeypatch: pytest.MonkeyPatch, pace: float) -> None:
    """Enter (and letters) that come within REACTION of the table taking the keyboard out of the box were typed for
    the box: they mark no card; one notice says so. So are keys that keep coming, each within REACTION of the one
    before (playtest: " 54z" typed on 0.4 s apart after ben's clue paused the chat moved the hand's cursor, while the
    notice said they did nothing). After a pause, keys play the hand."""
    now = [100.0]
    monkeypatch.setattr(table_screen, "REACTION", 0.5)
    monkeypatch.setattr(table_screen, "clock", lambda: now[0])
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ana, pa, _, (ben, _) = await ana_hosting(stack, coord, ["ben", "cara"], start=True)
        await pa.press("c", *"nice")
        now[0] += 5
        assert await default_move(ben)  # the chat pauses
        await settle(pa)
        screen = table_of(ana)
        for key in [*" 54z", "enter"]:
            now[0] += pace
            await pa.press(key)
            await settle(pa)
        assert screen.marked == [] and notes(ana).count(words.BOX_KEYS_DROPPED) == 1
        assert ana.screen.query_one("#chat-input", Input).value == "nice"
        now[0] += 1
        await pa.press("enter")
        await settle(pa)
        assert len(screen.marked) == 1


async def test_a_clue_kept_from_a_lost_race_does_not_start_the_next_turns_clue() -> None:
    """Playtest: "reflect" typed for card 1, cara's first clue won the race (the text kept, not sent); a turn later
    ana is the storyteller, chooses card 2 and types "tick tock": the clue sent was "reflecttick tock". The kept text
    belongs to its turn: the next turn's box starts empty."""
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ana, pa, _, (ben, cara) = await ana_hosting(stack, coord, ["ben", "cara"])
        await session_of(ana).start()
        await settle(pa)
        await pa.press("1", "enter", *"reflect")
        await settle(pa)
        box = ana.screen.query_one("#clue-input", Input)
        assert box.has_focus and box.value == "reflect"
        assert await default_move(cara, clue="first")  # cara wins the race: ana's text is kept in its turn
        await settle(pa)
        assert box.value == "reflect" and not box.has_focus
        sessions = [session_of(ana), ben, cara]
        await play_until(sessions, lambda: phase_of(cara)[1] == 2)
        await settle(pa)
        game = table(coord, ana).game
        assert game is not None and game.state.turn.storyteller == 0  # ana tells turn 2
        assert box.value == ""  # the kept text went with its turn
        await pa.press("2", "enter", *"tick tock", "enter")
        await settle(pa)
        assert game.state.turn.clue == "tick tock"


async def test_a_spectator_typing_in_the_paused_chat_keeps_the_keyboard_through_the_turn() -> None:
    """Playtest over OpenSSH (a spectator at 100x30): zoe typed "hello friends all" in the paused chat; the last card
    came in (submit -> vote) and the keyboard went to the board: "iends all" acted on the table, its l asking
    "Leave table?". A spectator plays nothing: the box keeps the keyboard and the text goes on."""
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((zoe, pz),) = await open_apps(stack, coord, ["zoe"])
        await settle(pz)
        ben = await coord.connect(Identity("ben", key="key-ben"), Recorder())
        view = await ben.create(options())
        others = [s for s, _ in await seat_many(coord, ["cara", "dev"], view.code)]
        await ben.start()
        await session_of(zoe).watch(view.code)
        await settle(pz)
        players = [ben, *others]
        assert await default_move(ben)  # the first clue: the chat pauses
        await settle(pz)
        await pz.press("c", *"hello fr")
        await settle(pz)
        chat = zoe.screen.query_one("#chat-input", Input)
        assert chat.has_focus
        for session in players:  # the cards: the vote
            await default_move(session)
        await settle(pz)
        assert phase_of(ben)[2] == "vote"
        await pz.press(*"iends all")
        await settle(pz)
        assert chat.has_focus and chat.value == "hello friends all"
        assert isinstance(zoe.screen, table_screen.TableScreen)  # no "Leave table?" over it
