"""What one update costs a screen, counted (never timed): an ordinary move at an 8-seat table (a card given, a vote)
changes a seat row, the status line and maybe a log line, and a watcher's screen must repaint only those lines,
without laying the screen out; the reveal must not repaint a watcher's whole screen; a phase change (the hand gives
way to the board, the board to the hand) lays the screen out once and sends and draws only the rows that changed.

The counters come from tests/tui/render_cost.py (layouts, full and partial updates, screen lines sent, widget lines
rendered, widget rows composed, strips built). "The lines that changed" are the rows of the screen whose text or
style differ before and after the update.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import replace
from typing import Any
from unittest.mock import patch

import pytest
from textual._compositor import CompositorUpdate
from textual.app import App
from textual.pilot import Pilot

from dixit_tui.coordinator import Coordinator, Identity, PlayerSession
from dixit_tui.textual_host.process_caches import forget_shared
from dixit_tui.tui import cards_picture
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.widgets.chat import Feed
from dixit_tui.tui.widgets.clue_line import ClueLine
from dixit_tui.tui.widgets.main_view import MainView
from dixit_tui.tui.widgets.recap import RecapScreen
from dixit_tui.tui.widgets.top_lines import TopLines
from tests.tui.fixtures import (
    coordinator,
    default_move,
    default_move_pending,
    options,
    phase,
    phase_of,
    play_until,
    screen_text,
    seat_many,
    settle,
)
from tests.tui.render_cost import _name
from tests.tui.screen_cost import count, eight_bots


@pytest.mark.parametrize("role", ["watcher", "player"])
async def test_an_ordinary_move_repaints_only_the_lines_it_changed(role: str) -> None:
    """A card given (seat row, status line, a log line) and a vote (seat row, status line) at an 8-seat table, seen
    by a spectator and by a player who is not the one acting (who gave their card, who voted): no layout, no
    full-screen update, and no more lines sent or rendered than the rows that changed (the dial drew its rows again
    at each vote). Slack: the feed sends every row it shows when a line scrolls in (each of them changed), and a
    row whose text is the same after the update may still be sent once (the status line's second row, a seat row
    redrawn with the same text): 2."""
    for size in ((100, 30), (80, 24)):
        coord = coordinator()
        async with AsyncExitStack() as stack:
            sessions, app, pilot = await _seat_at_eight(coord, stack, size, role)
            await play_until(sessions, lambda s=sessions[0]: phase(s) == "submit")  # type: ignore[misc]
            if role == "player":  # the player's own card first: then they watch the others give theirs
                assert app.session is not None and await default_move(app.session)
            await settle(pilot)
            movers = [s for s in sessions if default_move_pending(s)]
            checked = 0
            for session in movers[:-1]:  # every card but the last (the last one starts the vote: a phase change)
                counts, changed = await count(app, pilot, lambda s=session: default_move(s))  # type: ignore[misc]
                assert phase(sessions[0]) == "submit"
                assert counts.layouts == 0, (size, counts.refreshed)
                assert counts.full_updates == 0
                assert 3 <= changed <= 8, changed  # a seat row or two, the status line, the feed's rows
                assert counts.lines_sent <= changed + 2, (size, counts.lines_sent, changed, counts.refreshed)
                assert counts.lines_rendered <= changed + 2, (size, counts.lines_rendered, changed)
                # each row sent is composed of the widgets stacked there (screen, containers, the widget: up to 6);
                # Textual's compositor composed every row between the first and the last one changed (about 180)
                assert counts.composed <= 6 * (changed + 1), (size, counts.composed, changed)
                # a changed row builds a few strips (its widget's line, styled, filtered, cut into chops); the other
                # lines of the widgets that changed are reused (Textual built them all again: 42 for 6 rows)
                assert counts.strips <= 5 * changed + 4, (size, counts.strips, changed)
                assert not any(name.startswith(("KeyBar", "TableScreen")) for name in counts.refreshed), (
                    counts.refreshed
                )
                checked += 1
            assert checked == (6 if role == "watcher" else 5)
            await default_move(movers[-1])
            await settle(pilot)
            assert phase(sessions[0]) == "vote"
            if role == "player":  # the player's own vote first
                assert app.session is not None and await default_move(app.session)
                await settle(pilot)
            voters = [s for s in sessions if default_move_pending(s)]
            assert len(voters) == (7 if role == "watcher" else 6)
            for session in voters[:-1]:
                counts, changed = await count(app, pilot, lambda s=session: default_move(s))  # type: ignore[misc]
                assert counts.layouts == 0, (size, counts.refreshed)
                assert counts.full_updates == 0
                assert counts.lines_sent <= changed + 2, (size, counts.lines_sent, changed, counts.refreshed)
                assert counts.lines_rendered <= changed + 2, (size, counts.lines_rendered, changed)
                assert counts.composed <= 6 * (changed + 1), (size, counts.composed, changed)
                assert counts.strips <= 5 * changed + 4, (size, counts.strips, changed)  # (Textual: 28 for 2 rows)


async def test_the_clock_repaints_the_top_bar_only() -> None:
    """A table with a time limit: the countdown's tick each second redraws the top bar's row and nothing else."""
    coord = coordinator()
    async with AsyncExitStack() as stack:
        host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
        view = await host.create(options(seats=8, turn_seconds=120))
        others = [s for s, _ in await seat_many(coord, ["ben", "cara", "dan", "eve", "finn", "gus"], view.code)]
        app = DixitApp(coord, Identity("hal", "key-hal"), command=f"join {view.code}")
        pilot = await stack.enter_async_context(app.run_test(size=(100, 30)))
        await settle(pilot)
        await host.start()
        await settle(pilot)
        table = app.screen
        assert isinstance(table, TableScreen) and table.view.phase_deadline is not None
        await play_until([host, *others], lambda: phase(host) == "submit")
        await settle(pilot)
        for _ in range(3):
            before = table.query_one(TopLines).bar.plain
            forget_shared()  # (the line may have been styled by another test's app: counted here as made anew)
            counts, changed = await count(app, pilot, _tick(table))
            assert table.query_one(TopLines).bar.plain != before
            assert changed == 1
            assert counts.layouts == 0 and counts.full_updates == 0
            assert counts.lines_sent == 1 and counts.lines_rendered == 1
            assert set(counts.refreshed) == {"TopLines#top"}, counts.refreshed


def _tick(table: TableScreen) -> Callable[[], Awaitable[None]]:
    async def tick() -> None:
        deadline = table.view.phase_deadline
        assert deadline is not None
        table.view = replace(table.view, phase_deadline=deadline - 1)  # a second less on the phase's clock
        table._tick()

    return tick


async def test_the_reveal_does_not_repaint_a_watchers_whole_screen() -> None:
    """The last vote reveals the turn: the watcher's screen shows the next turn and the outcome in its clue line,
    with partial updates only (no recap over the whole screen to open and then close); r opens the recap."""
    coord = coordinator()
    async with AsyncExitStack() as stack:
        sessions, app, pilot = await eight_bots(coord, stack, (100, 30))
        await play_until(sessions, lambda: phase(sessions[0]) == "vote")
        voters = [s for s in sessions if default_move_pending(s)]
        for session in voters[:-1]:
            await default_move(session)
        counts, changed = await count(app, pilot, lambda: default_move(voters[-1]))
        assert phase(sessions[0]) == "clue"
        assert counts.full_updates == 0
        assert not isinstance(app.screen, RecapScreen)
        # the new turn changes most rows (the vote pane gives way to the hand); a second frame may follow the layout
        # (widgets refit to their new sizes): at most twice the rows changed, where the recap sent every row 4 times
        assert counts.lines_sent <= 2 * changed, (counts.lines_sent, changed)
        table = app.screen
        assert isinstance(table, TableScreen)
        clue = table.query_one(ClueLine).words.plain
        assert "Turn 1 (r: recap): ana's card was " in clue
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, RecapScreen)


async def test_moving_the_highlight_in_the_hand_redraws_two_cards_only() -> None:
    """Down in the hand moves the `▶` from one card to the next: the rows of those two cards are drawn again, the
    rest of the list is not (the whole list was)."""
    coord = coordinator()
    async with AsyncExitStack() as stack:
        host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
        view = await host.create(options(seats=8))
        others = [s for s, _ in await seat_many(coord, ["ben", "cara", "dan", "eve", "finn", "gus"], view.code)]
        app = DixitApp(coord, Identity("hal", "key-hal"), command=f"join {view.code}")
        pilot = await stack.enter_async_context(app.run_test(size=(100, 30)))
        await settle(pilot)
        await host.start()
        await settle(pilot)
        await play_until([host, *others], lambda: phase(host) == "submit")
        await settle(pilot)
        table = app.screen
        assert isinstance(table, TableScreen)
        hand = table.query_one(MainView)
        hand.focus()
        await settle(pilot)
        for _ in range(3):
            first = hand.highlighted
            counts, changed = await count(app, pilot, lambda: pilot.press("down"))
            assert hand.highlighted == (first or 0) + 1
            assert counts.layouts == 0 and counts.full_updates == 0
            assert 2 <= changed <= 8, changed  # the rows of the two cards
            # the whole list (19 rows at 100x30) was drawn again
            assert counts.lines_rendered <= changed + 1, (counts.lines_rendered, changed)


async def test_a_new_log_line_builds_the_strips_of_that_line_only() -> None:
    """The feed keeps each line's rows: a new line wraps and builds the new line's rows, the others are reused."""
    coord = coordinator()
    async with AsyncExitStack() as stack:
        _, app, pilot = await eight_bots(coord, stack, (100, 30))
        feed = app.screen.query_one(Feed)
        for n in range(12):
            feed.write_line(feed_text(f"line {n}"))
        await settle(pilot)
        shown = list(feed.shown_rows())
        feed.write_line(feed_text("the newest line"))
        new = feed.shown_rows()
        assert new[-1].text.strip() == "· the newest line"
        assert all(a is b for a, b in zip(shown[1:], new[:-1], strict=True))  # the same strips, one row up


def feed_text(text: str) -> Any:
    from dixit_tui.tui.widgets.chat import log_text

    return log_text(text)


async def _seat_at_eight(
    coord: Coordinator, stack: AsyncExitStack, size: tuple[int, int], role: str
) -> tuple[list[PlayerSession], DixitApp, Pilot[Any]]:
    """An 8-seat table, started, shown by a DixitApp: a watcher beside 8 recording sessions, or the eighth player."""
    if role == "watcher":
        return await eight_bots(coord, stack, size)
    host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
    view = await host.create(options(seats=8))
    others = [s for s, _ in await seat_many(coord, ["ben", "cara", "dan", "eve", "finn", "gus"], view.code)]
    app = DixitApp(coord, Identity("hal", "key-hal"), command=f"join {view.code}")
    pilot = await stack.enter_async_context(app.run_test(size=size))
    await settle(pilot)
    await host.start()
    await settle(pilot)
    assert isinstance(app.screen, TableScreen) and app.session is not None
    return [host, *others, app.session], app, pilot


@pytest.mark.parametrize("role", ["watcher", "player"])
@pytest.mark.parametrize("size", [(100, 30), (80, 24)], ids=["100x30", "80x24"])
async def test_a_phase_change_lays_out_once_and_repaints_only_the_rows_it_changed(
    size: tuple[int, int], role: str
) -> None:
    """clue -> submit -> vote -> clue at an 8-seat table (every pane built already: the second turn on), seen by a
    spectator and by a player who is not the one acting: the clue given lays nothing out (the clue line keeps its
    height, and the note under the hand its row: the screen was laid out for each); a new pane lays the screen out
    once (Textual laid it out twice when a card list or a column got a new virtual size), sends only the rows whose
    text or style changed (after a layout, Textual sent every row of every widget that moved or changed size, and
    the rows of the whole list a second time), and draws and builds strips only for those rows: no widget more rows
    than it has (the board and a new hand, filled while their pane was hidden, were drawn twice), a pane's blank
    rows not again, a pane hidden behind the one shown not at all."""
    coord = coordinator()
    async with AsyncExitStack() as stack:
        sessions, app, pilot = await _seat_at_eight(coord, stack, size, role)
        while phase_of(sessions[0])[1:] != (2, "clue"):  # the first turn, each move shown
            assert any([await default_move(s) for s in sessions])
            await settle(pilot)
        table = app.screen
        assert isinstance(table, TableScreen)
        top = table.query_one(TopLines)
        seen = []
        for _ in range(3):
            before = phase(sessions[0])
            movers = [s for s in sessions if default_move_pending(s)]
            movers.sort(key=lambda s: s is not app.session)  # the player's own move first: then they watch
            for session in movers[:-1]:
                await default_move(session)
            await settle(pilot)
            rows_before = top.status_rows
            counts, changed = await count(app, pilot, lambda m=movers[-1]: default_move(m))  # type: ignore[misc]
            seen.append(f"{before}->{phase(sessions[0])}")
            where = (size, role, seen[-1], counts.refreshed)
            assert changed >= 10, where  # most of the main column
            if seen[-1] == "clue->submit":  # the same pane: laid out only if the status line needs another row
                assert counts.layouts == (top.status_rows != rows_before), where
            assert counts.layouts <= 1, where
            heights: dict[str, int] = {}
            for widget in table.query("*"):
                heights[_name(widget)] = max(heights.get(_name(widget), 0), widget.outer_size.height)
            # (left: a player's new hand, dealt while its pane was hidden, gets its lines measured as it is first
            # drawn, and its new virtual size repaints it, with the widgets beside its rows, in a second frame)
            frames = 2 if role == "player" and seen[-1] == "vote->clue" else 1
            for name, drawn in counts.drawn.items():
                assert drawn <= frames * heights.get(name, 0), (name, drawn, heights.get(name), where)
            assert counts.full_updates == 0, where
            assert counts.lines_sent <= changed + 2, (counts.lines_sent, changed, where)
            # widget lines: the widgets side by side on a changed row each draw theirs (seats and hand, track and
            # hand), so up to two per row
            assert counts.lines_rendered <= 2 * changed, (counts.lines_rendered, changed, where)
            assert counts.composed <= 6 * (changed + 1), (counts.composed, changed, where)
            # about 4 strips per changed line of text, 6 per line of a card list (Textual: 10 to 17 per row changed)
            assert counts.strips <= 8 * changed, (counts.strips, changed, where)
        assert seen == ["clue->submit", "submit->vote", "vote->clue"]


async def test_the_terminal_shows_what_the_screen_draws() -> None:
    """Rows drawn the same as the terminal shows them are not sent again: fed every update a real driver would
    write, a terminal emulator shows the screen's rows exactly, through phase changes, a question (a dialog over
    the table) and a resize."""
    import pyte

    coord = coordinator()
    async with AsyncExitStack() as stack:
        host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
        view = await host.create(options(seats=8))
        others = [s for s, _ in await seat_many(coord, ["ben", "cara", "dan", "eve", "finn", "gus"], view.code)]
        app = DixitApp(coord, Identity("hal", "key-hal"), command=f"join {view.code}")
        terminal = pyte.Screen(100, 30)
        stream = pyte.Stream(terminal)
        display = App._display

        def shown(self: App[Any], screen: Any, renderable: Any) -> None:
            if isinstance(renderable, CompositorUpdate) and not self._batch_count:
                stream.feed(renderable.render_segments(self.console))
            display(self, screen, renderable)

        def check() -> None:
            assert [line.rstrip() for line in terminal.display] == [
                line.rstrip() for line in screen_text(app).splitlines()
            ]

        with patch.object(App, "_display", shown):
            pilot = await stack.enter_async_context(app.run_test(size=(100, 30)))
            await settle(pilot)
            await host.start()
            await settle(pilot)
            check()
            assert app.session is not None
            sessions = [host, *others, app.session]
            for _ in range(9):
                movers = [s for s in sessions if default_move_pending(s)]
                for session in movers:
                    await default_move(session)
                    await settle(pilot)
                    check()
            await pilot.press("l")  # Leave? (a dialog over the table), then Stay
            await settle(pilot)
            check()
            await pilot.press("escape")
            await settle(pilot)
            check()
            terminal.resize(24, 80)  # the terminal first, then the app hears of it
            await pilot.resize_terminal(80, 24)
            await settle(pilot)
            check()
            for session in [s for s in sessions if default_move_pending(s)]:
                await default_move(session)
                await settle(pilot)
                check()


async def test_an_ordinary_move_splits_no_text_and_works_out_no_feed_style() -> None:
    """A card given at an 8-seat table: the seats panel draws its changed row from the seat lines it has (it
    joined them into one text and split that again at each drawing: every span divided), and the feed keeps its
    style until a style changes (it worked it out from every ancestor's styles for each new line)."""
    from textual.content import Content
    from textual.dom import DOMNode

    coord = coordinator()
    async with AsyncExitStack() as stack:
        sessions, app, pilot = await eight_bots(coord, stack, (100, 30))
        await play_until(sessions, lambda: phase(sessions[0]) == "submit")
        await settle(pilot)
        split, styles = Content.split, DOMNode.rich_style
        splits: list[str] = []
        feed_styles = 0

        def counted_split(self: Content, *args: Any, **kwargs: Any) -> Any:
            if "\n" in self.plain:  # (a line drawn is split at its newlines: none, it returns itself)
                splits.append(self.plain)
            return split(self, *args, **kwargs)

        def counted_style(self: DOMNode) -> Any:
            nonlocal feed_styles
            feed_styles += isinstance(self, Feed)
            return styles.fget(self)  # type: ignore[attr-defined]

        movers = [s for s in sessions if default_move_pending(s)]
        with (
            patch.object(Content, "split", counted_split),
            patch.object(DOMNode, "rich_style", property(counted_style)),
        ):
            for session in movers[:3]:
                counts, changed = await count(app, pilot, lambda s=session: default_move(s))  # type: ignore[misc]
                assert changed >= 3 and "SidePanel#side" in counts.refreshed, counts.refreshed
        assert splits == [], splits
        assert feed_styles == 0


async def test_an_ordinary_move_measures_no_text_and_the_board_brings_its_lines_up_to_date_once() -> None:
    """A card given: the status line that changed fits its row, so no text is wrapped to measure its height (it
    was, twice a line). The vote starts: the board's picture is made once per drawing, not for each line drawn
    (OptionList brought its lines up to date again for every line drawn)."""
    from textual.content import Content

    from dixit_tui.tui.widgets.cards import PICTURES, CardList

    coord = coordinator()
    async with AsyncExitStack() as stack:
        sessions, app, pilot = await eight_bots(coord, stack, (100, 30))
        await play_until(sessions, lambda: phase(sessions[0]) == "submit")
        await settle(pilot)
        get_height = Content.get_height
        measured: list[str] = []

        def counted_height(self: Content, *args: Any, **kwargs: Any) -> int:
            measured.append(self.plain)
            return get_height(self, *args, **kwargs)

        movers = [s for s in sessions if default_move_pending(s)]
        with patch.object(Content, "get_height", counted_height):
            for session in movers[:2]:
                counts, _ = await count(app, pilot, lambda s=session: default_move(s))  # type: ignore[misc]
                assert "TopLines#top" in counts.refreshed, counts.refreshed
        assert measured == [], measured
        for session in movers[2:-1]:
            await default_move(session)
        await settle(pilot)
        render_lines = CardList.render_lines
        drawings = 0

        def counted_render(self: CardList, crop: Any) -> Any:
            nonlocal drawings
            drawings += 1
            return render_lines(self, crop)

        made = PICTURES.counts.drawn
        with patch.object(CardList, "render_lines", counted_render):
            counts, changed = await count(app, pilot, lambda: default_move(movers[-1]))
        assert phase(sessions[0]) == "vote" and changed >= 10
        # the board's picture is made for the new board (and the hand's note), not again for each line drawn
        made = PICTURES.counts.drawn - made
        assert drawings and made <= 2 * drawings, (made, drawings)


@pytest.mark.parametrize("command", ["watch", "join"])
async def test_the_start_lays_out_once_and_draws_each_row_once(command: str) -> None:
    """The game starts at an 8-seat table: a spectator's screen and a player's show the hand pane instead of the
    lobby. The pane is mounted then (once; at a spectator's screen without the hand and the clue row, never used),
    the screen is laid out once (a watcher's three times before, a player's twice: the layouts the pane's mounts
    asked for reached the screen one after another, and the clue row and its label, shown the first time, asked for
    one more), and each widget draws its rows once (a player's hand, seats and score track twice before: drawn again
    for the second layout, for the hand's resize and for the virtual size OptionList sets while drawing it)."""
    coord = coordinator()
    async with AsyncExitStack() as stack:
        host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
        view = await host.create(options(seats=8))
        await seat_many(coord, ["ben", "cara", "dan", "eve", "finn", "gus"], view.code)
        app = DixitApp(coord, Identity("hal", "key-hal"), command=f"{command} {view.code}")
        pilot = await stack.enter_async_context(app.run_test(size=(100, 30)))
        await settle(pilot)
        table = app.screen
        assert isinstance(table, TableScreen)
        main = table.query_one(MainView)
        assert main.mode == "lobby"
        widgets = len(table.query("*"))
        wrapped: list[tuple[str, int]] = []
        card_lines = cards_picture.card_lines

        def counted_lines(item: cards_picture.CardItem, width: int) -> Any:
            wrapped.append((item.key, width))
            return card_lines(item, width)

        cards_picture.layout.cache_clear()  # (layouts made by another test's app would not be made here)
        with patch.object(cards_picture, "card_lines", counted_lines):
            counts, changed = await count(app, pilot, host.start)
        assert main.mode == "hand"
        # no widget mounted: the main region shows the hand (at a spectator's screen, its note alone); a player's
        # clue row was composed with the screen, hidden (6 widgets were mounted at every screen when the phases were
        # panes, 2 at a spectator's)
        assert len(table.query("*")) == widgets
        # each card of a player's hand wrapped at most twice (its full height, its rows), at the one width it is
        # drawn at; it was wrapped first at a guessed width, when dealt before the hand was laid out (18 for 6 cards)
        hand = 0 if command == "watch" else len(table.query_one(MainView).items)
        assert len(wrapped) <= 2 * hand and len({key for key, _ in wrapped}) == hand, (wrapped, hand)
        assert len({width for _, width in wrapped}) <= 1, wrapped
        assert counts.layouts == 1, (counts.layouts, counts.refreshed)
        assert counts.full_updates == 0
        heights = {_name(widget): widget.outer_size.height for widget in table.query("*")}
        twice = {name: rows for name, rows in counts.drawn.items() if rows > heights.get(name, 0)}
        assert not twice, f"rows drawn more than once: {twice} {heights}"
        assert counts.lines_sent <= changed + 2, (counts.lines_sent, changed)
