"""The reveal as people meet it (issue 23), found playing over OpenSSH: the last turn's reveal shows before the final
standings; a key typed for the vote does not close the reveal it opened; a vote key typed as the vote ended says
the table moved on. A coordinator in-process, its hold's clock stopped; the recap's guard on a clock the test drives."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Button, Input

from dixit_tui.coordinator import Coordinator, Identity, PlayerSession
from dixit_tui.engine import Phase
from dixit_tui.tui import table_screen
from dixit_tui.tui import table_words as words
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.widgets import recap
from dixit_tui.tui.widgets.cards import CardList
from dixit_tui.tui.widgets.keybar import KeyBar
from dixit_tui.tui.widgets.recap import RecapScreen
from tests.e2e.clock import DrivenClock, drive_clock, reveal_out
from tests.tui.apps import SIZE, notes, open_apps, session_of, table_of
from tests.tui.fixtures import coordinator, default_move, options, phase_of, screen_text, seat_many, settle

MOVED_ON = "did nothing: the table moved on"


async def _table(
    stack: AsyncExitStack, coord: Coordinator, **kwargs: Any
) -> tuple[DixitApp, Pilot[Any], list[PlayerSession]]:
    """ana's app at a table she hosts with ben and cara (sessions), its reveals held, started."""
    coord.timers.clock = lambda: 1000.0  # the hold never runs out by itself
    ((ana, pa),) = await open_apps(stack, coord, ["ana"])
    await settle(pa)
    view = await session_of(ana).create(options(**{"reveal_seconds": 8, **kwargs}))
    seated = [s for s, _ in await seat_many(coord, ["ben", "cara"], view.code)]
    await session_of(ana).start()
    await settle(pa)
    return ana, pa, seated


async def test_the_last_turns_reveal_shows_before_the_final_standings() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ana, pa, seated = await _table(stack, coord, target=10)
        session = session_of(ana)
        for _ in range(200):  # ana reads each reveal and moves on, as people do
            await settle(pa)
            if phase_of(session)[0] == "over":
                break
            if isinstance(ana.screen, RecapScreen):
                await pa.press("enter")
                await settle(pa)
            for s in (session, *seated):
                await default_move(s)
        await settle(pa)
        screen = ana.screen
        assert isinstance(screen, RecapScreen), "the game ended without its last reveal"
        view = session.view()
        assert view is not None and view.game is not None and view.game.last_reveal is not None
        assert screen.reveal.turn == view.game.last_reveal.turn == view.game.turn
        assert screen.final and view.reveal_until is None  # no hold: agents and bots went on to the standings
        # the key bar says what Enter does, as the button does (it said "⏎ Close" beside "Final standings (Enter)")
        assert str(screen.query_one("#recap-close", Button).label) == "Final standings (Enter)"
        bar = str(screen.query_one(KeyBar).render())
        assert "⏎ Final standings" in bar and "Close" not in bar and "Next" not in bar, bar
        await pa.press("enter")
        await settle(pa)
        assert not isinstance(ana.screen, RecapScreen)
        assert table_of(ana).game is not None and table_of(ana).game.phase == Phase.OVER  # type: ignore[union-attr]


async def _to_anas_vote(pa: Pilot[Any], others: list[PlayerSession], now: list[float]) -> None:
    """Play until only ana's vote is missing (the others' moves by their sessions, ana's clue or card too; a
    reveal held on her screen read and closed)."""
    session = session_of(pa.app)  # type: ignore[arg-type]
    for _ in range(50):
        await settle(pa)
        if isinstance(pa.app.screen, RecapScreen):
            now[0] += 5.0
            await pa.press("enter")
            await settle(pa)
        view = session.view()
        assert view is not None and view.game is not None
        game = view.game
        if game.phase == Phase.VOTE and game.waiting_for == (view.you,):
            await settle(pa)
            return
        if game.phase != Phase.VOTE or view.you not in game.waiting_for:
            moved = await default_move(session)
        else:
            moved = False
        for other in others:
            moved = await default_move(other) or moved
        assert moved, "nobody could move"
    raise AssertionError("ana never came to vote last")


def _screen_clock(monkeypatch: pytest.MonkeyPatch, reaction: float | None = None) -> list[float]:
    """The table screen's and the recap's clock, driven by the test: `now[0]` is the time (and REACTION set)."""
    now = [0.0]
    if reaction is not None:
        monkeypatch.setattr(table_screen, "REACTION", reaction)
    monkeypatch.setattr(table_screen, "clock", lambda: now[0])
    monkeypatch.setattr(recap, "clock", lambda: now[0])
    return now


def _first_slot(session: PlayerSession) -> int:
    view = session.view()
    assert view is not None and view.game is not None
    return next(s.slot for s in view.game.board if s.slot not in view.game.forbidden_slots)


@pytest.mark.parametrize(("typed", "apart"), [(("enter",), 0.4), (("c", "h", "i"), 0.1), (("c", "space", "y"), 0.3)])
async def test_an_enter_typed_after_the_vote_does_not_close_its_reveal(
    monkeypatch: pytest.MonkeyPatch, typed: tuple[str, ...], apart: float
) -> None:
    """An Enter typed for the vote does not close the reveal it opened. Nor do letters typed behind the vote go to it
    without a word (playtest, OpenSSH, keys 0.3 s apart: ana voted last and typed c, Space, y... to chat; the recap
    took the c silently, and the Space, 0.6 s after it opened, closed it unread): a key within REACTION of a recap
    opening by itself, or of such a key, does nothing there and says so, once."""
    now = _screen_clock(monkeypatch, reaction=0.5)
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ana, pa, seated = await _table(stack, coord)
        session = session_of(ana)
        await _to_anas_vote(pa, seated, now)
        now[0] += 5.0
        turn = phase_of(session)[1]
        await pa.press(str(_first_slot(session)), "enter")  # the last vote: the reveal opens by itself
        await settle(pa)
        assert phase_of(session)[1] == turn + 1
        assert isinstance(ana.screen, RecapScreen) and ana.screen.held
        for key in typed:
            now[0] += apart
            await pa.press(key)  # meant for the table, within 0.4 s: it does not act on what nobody read yet
            await settle(pa)
        assert isinstance(ana.screen, RecapScreen), "a key typed for the vote closed the reveal"
        said = notes(ana)
        assert said and said[-1] == words.key_dropped(typed[0]), said
        now[0] += 0.5  # a pause: the recap is seen
        await pa.press("enter")  # read: Enter moves on
        await settle(pa)
        assert not isinstance(ana.screen, RecapScreen)


async def test_a_vote_key_typed_as_the_vote_ended_says_the_table_moved_on() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ana, pa, seated = await _table(stack, coord)
        await _to_anas_vote(pa, seated, [0.0])
        session = session_of(ana)
        turn = phase_of(session)[1]
        slot = str(_first_slot(session))
        for key, char in ((slot, slot), ("enter", "\r"), ("right", None), ("enter", "\r")):
            ana.post_message(events.Key(key, char))  # in one send, as over SSH: all in before the vote's update
        await settle(pa)
        assert phase_of(session)[1] == turn + 1
        said = [str(n) for n in notes(ana)]
        assert not any("Voting has not started yet" in n for n in said), said
        assert any(MOVED_ON in n for n in said), said


async def test_an_enter_typed_as_the_reveal_closed_by_itself_does_not_act_at_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Playtest: the next storyteller pressed Enter for "Next turn (Enter)" just as the held reveal closed on the
    table's clock: the table took it and opened the clue box for card 3, which nobody chose. Enter, Space and Esc
    that come within REACTION of a recap closing by itself do nothing (one notice says so); later ones act."""
    now = _screen_clock(monkeypatch, reaction=0.5)
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ana, pa, seated = await _table(stack, coord, reveal_seconds=60)
        clock = drive_clock(coord)  # the hold ends when the test says (60 s: never by itself meanwhile)
        session = session_of(ana)
        code = session.view().code  # type: ignore[union-attr]
        for _ in range(80):  # play until ana's recap is held and she tells the next turn
            await settle(pa)
            view = session.view()
            assert view is not None and view.game is not None
            if isinstance(ana.screen, RecapScreen):
                if view.game.phase == Phase.CLUE and view.game.can_clue:
                    break
                now[0] += 5.0
                await pa.press("enter")
                continue
            for s in (*seated, session):  # one move at a time: ana sees each
                if await default_move(s):
                    break
        else:
            raise AssertionError("ana's held reveal before her turn to tell never came")
        screen = table_of(ana)
        now[0] += 5.0  # the recap has been read a while
        await reveal_out(coord, code, clock)  # its hold is over on the table's clock: it closes by itself
        await settle(pa)
        assert not isinstance(ana.screen, RecapScreen)
        before = len(notes(ana))
        now[0] += 0.2
        await pa.press("enter", "space", "escape")  # meant for "Next turn (Enter)"
        await settle(pa)
        assert screen.chosen is None and not screen.query_one("#clue-input").has_focus, "the Enter picked a card"
        said = [str(n) for n in notes(ana)[before:]]
        assert sum(MOVED_ON in n for n in said) == 1, said
        now[0] += 0.5
        await pa.press("enter")  # seen: Enter picks the card highlighted, its clue box opens
        await settle(pa)
        assert screen.chosen is not None and screen.query_one("#clue-input").has_focus


async def _held_recap(stack: AsyncExitStack, coord: Coordinator) -> tuple[DixitApp, Pilot[Any], DrivenClock, str]:
    """ana's app with her first held recap open (its hold on a clock the test drives: it ends when the test says)."""
    ana, pa, seated = await _table(stack, coord, reveal_seconds=60)
    clock = drive_clock(coord)
    session = session_of(ana)
    code = session.view().code  # type: ignore[union-attr]
    for _ in range(80):
        await settle(pa)
        if isinstance(ana.screen, RecapScreen):
            assert ana.screen.held
            return ana, pa, clock, code
        for s in (*seated, session):  # one move at a time: ana sees each
            if await default_move(s):
                break
    raise AssertionError("ana's held reveal never came")


@pytest.mark.parametrize("by", ["down", "wheel", "typing"])
async def test_a_held_recap_being_read_stays_open_when_the_table_moves_on(
    monkeypatch: pytest.MonkeyPatch, by: str
) -> None:
    """Playtest (80x24, 8 cards): the recap did not fit; ana scrolled it with Down every 0.5 s and it still closed
    under her at the hold's end. Scrolled within READING seconds, it stays open as a recap opened with r: "Close
    (Enter)", a line says the table moved on, the table beneath is on the next turn; Enter closes it. So does one
    typed at blind (playtest, OpenSSH: "c who was it then" 0.4 s apart, right behind the vote that opened it: the
    hold ended meanwhile, the recap closed under her, and the t of "it" opened the table's transcript)."""
    now = _screen_clock(monkeypatch, reaction=0.5)
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ana, pa, clock, code = await _held_recap(stack, coord)
        turn = phase_of(session_of(ana))[1]
        if by == "typing":
            for key in ("c", "i", "t", "space", "t"):  # each within REACTION of the one before: typed blind
                now[0] += 0.4
                await pa.press(key)
                await settle(pa)
        else:
            now[0] += 2.0
        if by == "typing":
            pass
        elif by == "down":
            await pa.press("down")  # reading: scrolls the recap
        else:  # the mouse wheel turned over the recap, as a terminal sends it
            region = ana.screen.query_one("#recap-scroll").region
            x, y = region.x + 2, region.y + 1
            ana.post_message(events.MouseScrollDown(None, x, y, 0, 1, 0, False, False, False, screen_x=x, screen_y=y))
        await settle(pa)
        now[0] += 2.5  # within READING (3 s) of the Down
        await reveal_out(coord, code, clock)
        await settle(pa)
        screen = ana.screen
        assert isinstance(screen, RecapScreen), "the recap closed under a player reading it"
        assert not screen.held and screen.moved_on
        assert str(screen.query_one("#recap-close", Button).label) == "Close (Enter)"
        shown = screen_text(ana)
        assert f"The table moved on: Enter closes this and shows turn {turn}." in shown, shown
        table = table_of(ana)
        assert table.game is not None and table.game.turn == turn and table.game.phase == Phase.CLUE
        assert table.view.reveal_until is None  # the table did not wait for her
        now[0] += 10.0
        await pa.press("enter")
        await settle(pa)
        assert ana.screen is table, "Enter did not close the recap"
        ana.clear_notifications()  # (the notice that the c did nothing, typing: it covers the top bar)
        await settle(pa)
        shown = screen_text(ana)
        hand = session_of(ana).view().game.hand  # type: ignore[union-attr]
        assert f"turn {turn} " in shown.splitlines()[0] and table.query_one(CardList).display, shown
        assert hand and hand[0].text[:30] in shown, shown  # her hand for the new turn


@pytest.mark.parametrize("scrolled", [False, True])
async def test_a_held_recap_not_being_read_closes_when_the_hold_ends(
    monkeypatch: pytest.MonkeyPatch, scrolled: bool
) -> None:
    """Not scrolled, or scrolled more than READING seconds before the hold ends: it closes by itself, as ever."""
    now = _screen_clock(monkeypatch)
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ana, pa, clock, code = await _held_recap(stack, coord)
        now[0] += 2.0
        if scrolled:
            await pa.press("down")
            await settle(pa)
            now[0] += 3.5
        await reveal_out(coord, code, clock)
        await settle(pa)
        assert not isinstance(ana.screen, RecapScreen), "a recap nobody read held the screen past the hold"


async def _last_vote_to_come(
    stack: AsyncExitStack, coord: Coordinator
) -> tuple[list[tuple[DixitApp, Pilot[Any]]], PlayerSession, DrivenClock, str]:
    """ana (a player) and eve (a spectator) at ana's table, the vote waiting for one voter, not ana: the apps, that
    voter's session (ben's or cara's), the table's clock (driven by the test: its reveals held 60 s) and its code."""
    ana, pa, seated = await _table(stack, coord, reveal_seconds=60)
    clock = drive_clock(coord)
    session = session_of(ana)
    code = session.view().code  # type: ignore[union-attr]
    eve = DixitApp(coord, Identity("eve", "key-eve"))
    pe = await stack.enter_async_context(eve.run_test(size=SIZE, notifications=True))
    await session_of(eve).watch(code)
    apps = [(ana, pa), (eve, pe)]
    for _ in range(40):  # play until one vote is missing, not ana's
        await settle(pa, pe)
        view = session.view()
        assert view is not None and view.game is not None
        game = view.game
        if game.phase == Phase.VOTE and len(game.waiting_for) == 1 and game.waiting_for[0] != view.you:
            break
        for s in (session, *seated):
            if await default_move(s):
                break
    else:
        raise AssertionError("the vote never came to its last voter")
    last = next(s for s in seated if (seen := s.view()) is not None and seen.you == game.waiting_for[0])
    return apps, last, clock, code


async def _typing_as_the_reveal_is_held(
    stack: AsyncExitStack, coord: Coordinator
) -> tuple[list[tuple[DixitApp, Pilot[Any]]], DrivenClock, str]:
    """ana (a player) and eve (a spectator) each have "hel" in the chat box when the last vote comes in (cara's or
    ben's, by their session) and the table holds the turn's reveal (on a clock the test drives)."""
    apps, last, clock, code = await _last_vote_to_come(stack, coord)
    (_, pa), (_, pe) = apps
    for _, pilot in apps:
        await pilot.press("c", "h", "e", "l")
    await settle(pa, pe)
    await default_move(last)  # the last vote: the table holds its reveal
    await settle(pa, pe)
    for app, _ in apps:
        assert table_of(app).view.reveal_until is not None
        assert not isinstance(app.screen, RecapScreen), "the held reveal took the keyboard from a line being typed"
    return apps, clock, code


async def _opens_at_a_pause(apps: list[tuple[DixitApp, Pilot[Any]]], now: list[float]) -> None:
    """No key for `TYPING_PAUSE` seconds, then the table screen's once-a-second tick (in its app's context, as its
    timer runs it): the reveal, still held, opens at each app."""
    now[0] += table_screen.TYPING_PAUSE
    for app, pilot in apps:
        table = table_of(app)
        table.call_later(table._tick)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RecapScreen) and screen.held, "the held reveal did not open once you paused"
        assert table.view.reveal_until is not None


async def test_a_held_reveal_waits_for_the_line_being_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    """CI: a held reveal's recap opened by itself over a chat line being typed: the rest of the line's keys acted on
    the recap (a space closed it) and the line was left half-typed. It opens once the line is sent."""
    now = _screen_clock(monkeypatch, reaction=0.5)
    coord = coordinator()
    async with AsyncExitStack() as stack:
        apps, _, _ = await _typing_as_the_reveal_is_held(stack, coord)
        now[0] += 5.0
        for app, pilot in apps:
            await pilot.press("l", "o", "space", "x")  # the rest of the line goes into the box
            await settle(pilot)
            box = table_of(app).query_one("#chat-input", Input)
            assert box.has_focus and box.value == "hello x" and app.screen is table_of(app)
        for app, pilot in apps:  # both sent before either recap closes (ana's closing ends the hold: all moved on)
            await pilot.press("enter")  # sent: the next line's letters may follow, the reveal waits for a pause
            await settle(pilot)
            assert not table_of(app).query_one("#chat-input", Input).value
            assert app.screen is table_of(app), "the held reveal opened right behind the line sent"
        await _opens_at_a_pause(apps, now)  # the line went, then a pause: the reveal, still held, opens
        now[0] += 5.0
        for app, pilot in apps:
            await pilot.press("enter")  # read: Enter moves on
            await settle(pilot)
            assert app.screen is table_of(app)
            assert "hello x" in screen_text(app), "the line was not sent"
            await pilot.press("a", "backspace")  # the box emptied again: the recap does not open twice
            await settle(pilot)
            assert app.screen is table_of(app)
        assert table_of(apps[0][0]).view.reveal_until is None, "the table was not told ana moved on"


async def test_a_reveal_whose_hold_ended_while_typing_does_not_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hold ended while the line was typed: leaving the box (Enter sends, Esc) opens no recap (r shows it)."""
    now = _screen_clock(monkeypatch, reaction=0.5)
    coord = coordinator()
    async with AsyncExitStack() as stack:
        apps, clock, code = await _typing_as_the_reveal_is_held(stack, coord)
        now[0] += 5.0
        await reveal_out(coord, code, clock)
        for (app, pilot), leave in zip(apps, ("enter", "escape"), strict=True):
            await settle(pilot)
            assert table_of(app).view.reveal_until is None
            await pilot.press("l", "o", leave)
            await settle(pilot)
            assert not isinstance(app.screen, RecapScreen), f"a reveal no longer held opened at {leave}"


async def test_the_last_turns_reveal_waits_for_the_line_being_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    """ana has words in the chat box at each turn's last vote: each reveal (held, and the last turn's over the game's
    end) opens when she leaves the box with Esc, not over her typing."""
    now = _screen_clock(monkeypatch, reaction=0.5)
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ana, pa, seated = await _table(stack, coord, target=10)
        session = session_of(ana)
        for _ in range(300):
            await settle(pa)
            view = session.view()
            assert view is not None and view.game is not None
            game = view.game
            if game.phase == Phase.OVER:
                raise AssertionError("the game ended without its last reveal")
            if not (game.phase == Phase.VOTE and len(game.waiting_for) == 1 and game.waiting_for[0] != view.you):
                for s in (session, *seated):
                    if await default_move(s):
                        break
                continue
            await pa.press("c", "h", "e", "l")
            last = next(s for s in seated if (seen := s.view()) is not None and seen.you == game.waiting_for[0])
            await default_move(last)  # the turn's last vote
            await settle(pa)
            assert not isinstance(ana.screen, RecapScreen), "a reveal took the keyboard from a line being typed"
            now[0] += 5.0
            await pa.press("escape")  # the box left: the reveal opens now
            await settle(pa)
            screen = ana.screen
            assert isinstance(screen, RecapScreen), "the reveal did not open once the box was left"
            if phase_of(session)[0] == "over":
                assert screen.final
                break
            now[0] += 5.0
            await pa.press("enter")
        else:
            raise AssertionError("the game never ended")


async def _typed(*pilots: Pilot[Any]) -> None:
    """Every app has handled the keys sent, one after the other, and what they set off."""
    await settle(*pilots, rounds=30)


def _burst(app: DixitApp, *keys: str) -> None:
    """Keys in one send, as a fast typist's come over SSH: all in the app's queue at once."""
    for key in keys:
        char = {"enter": "\r", "tab": "\t", "space": " "}.get(key, key if len(key) == 1 else None)
        app.post_message(events.Key(key, char))


@pytest.mark.parametrize("apart", [False, True], ids=["in-one-send", "apart"])
async def test_the_letters_typed_behind_a_line_sent_stay_in_the_chat_box(
    monkeypatch: pytest.MonkeyPatch, apart: bool
) -> None:
    """A reveal held while "hel" was typed: "lo", Enter and "ok" typed on (in one send, or 0.4 s apart). The recap
    opened as Enter sent the line, and the "ok" behind it went to the recap, which ignored it (lost). The line goes,
    "ok" stays in the box; the recap opens once you pause (`TYPING_PAUSE`), still held, long enough to read."""
    now = _screen_clock(monkeypatch, reaction=0.5)
    async with AsyncExitStack() as stack:
        apps, _, _ = await _typing_as_the_reveal_is_held(stack, coordinator())
        now[0] += 5.0
        for app, pilot in apps:
            if apart:
                for key in ("l", "o", "enter", "o", "k"):
                    await pilot.press(key)
                    await settle(pilot)
                    now[0] += 0.4
            else:
                _burst(app, "l", "o", "enter", "o", "k")
                await _typed(pilot)
            box = table_of(app).query_one("#chat-input", Input)
            assert app.screen is table_of(app), "the reveal opened over the next line being typed"
            assert box.has_focus and box.value == "ok", box.value
            assert "hello" in screen_text(app), "the line was not sent"
        for app, pilot in apps:
            await pilot.press("backspace", "backspace")  # the box emptied: you are still in it, typing
            await settle(pilot)
            assert app.screen is table_of(app)
        await _opens_at_a_pause(apps, now)


@pytest.mark.parametrize("key", ["tab", "c"])
async def test_the_letters_typed_behind_the_key_to_the_chat_box_as_a_reveal_comes_go_into_it(
    monkeypatch: pytest.MonkeyPatch, key: str
) -> None:
    """Tab (or c) to the chat box, and the letters behind it, typed as the last vote came: the reveal's recap opened
    between them (the box was still empty) and took the letters, which it ignored (lost). They go into the box, typed
    before the recap was drawn; the recap opens once the line is sent and you pause."""
    now = _screen_clock(monkeypatch, reaction=0.5)
    coord = coordinator()
    async with AsyncExitStack() as stack:
        apps, last, _, _ = await _last_vote_to_come(stack, coord)
        (_, pa), (_, pe) = apps
        now[0] += 5.0
        for app, _ in apps:
            _burst(app, key)
        await default_move(last)  # the last vote: the table holds its reveal (its update queued behind the key)
        for app, _ in apps:
            _burst(app, "h", "i")
        await _typed(pa, pe)
        for app, _ in apps:
            box = table_of(app).query_one("#chat-input", Input)
            assert table_of(app).view.reveal_until is not None
            assert app.screen is table_of(app), "the reveal opened over the line being typed"
            assert box.has_focus and box.value == "hi", box.value
        for app, pilot in apps:
            await pilot.press("enter")
            await settle(pilot)
            assert app.screen is table_of(app)
        for app, _ in apps:
            assert "hi" in screen_text(app)
        await _opens_at_a_pause(apps, now)


@pytest.mark.parametrize("before", [False, True], ids=["after-the-reveal", "before-the-reveal"])
async def test_a_focus_out_report_is_not_leaving_the_chat_box(monkeypatch: pytest.MonkeyPatch, before: bool) -> None:
    """The terminal reports it lost the focus (another window, a tmux pane) while "hel" is in the chat box, just before
    or after the reveal came: Textual takes the keyboard out of the box, and the table took that for leaving it: the
    recap opened, the box did not get the keyboard back with the focus, and the "lo" typed on went to the recap
    (lost). The report is not a person's key: the box keeps its place, the recap waits for the line."""
    now = _screen_clock(monkeypatch, reaction=0.5)
    coord = coordinator()
    async with AsyncExitStack() as stack:
        apps, last, _, _ = await _last_vote_to_come(stack, coord)
        (_, pa), (_, pe) = apps
        for _, pilot in apps:
            await pilot.press("c", "h", "e", "l")
        await settle(pa, pe)
        if before:
            for app, _ in apps:
                app.post_message(events.AppBlur())
            await settle(pa, pe)
        now[0] += 5.0
        await default_move(last)  # the last vote: the table holds its reveal
        await settle(pa, pe)
        for app, pilot in apps:
            if not before:
                app.post_message(events.AppBlur())
                await settle(pilot)
            assert app.screen is table_of(app), "the reveal opened as the terminal lost the focus"
            now[0] += 5.0
            app.post_message(events.AppFocus())
            await settle(pilot)
            await pilot.press("l", "o")
            await settle(pilot)
            box = table_of(app).query_one("#chat-input", Input)
            assert app.screen is table_of(app) and box.has_focus and box.value == "hello", box.value
