"""80x24, the common terminal size, shows everything that matters (issue 9, item 8), and a smaller terminal says so.

Each test drives the real app with Pilot at 80x24 through the same scenarios as the 80x24 snapshots and reads the
screen as text: every card of the board and of the hand, every key of the key bar, who is watching in the top bar,
the recap's points table and red-marker line without scrolling; a "terminal too small" notice under the minimum;
and the dial's card still on screen after a resize.
"""

from __future__ import annotations

import re
from typing import Any

from textual.binding import Binding
from textual.pilot import Pilot
from textual.widget import Widget

from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.lobby import LobbyScreen
from dixit_tui.tui.widgets.cards import Board
from dixit_tui.tui.widgets.keybar import KeyBar
from dixit_tui.tui.widgets.main_view import MainView
from dixit_tui.tui.widgets.recap import RecapScreen
from dixit_tui.tui.widgets.too_small import MIN_HEIGHT, MIN_WIDTH
from tests.tui import scenes_80x24 as scenes
from tests.tui.apps import dial_of
from tests.tui.fixtures import default_move, make_app, me, screen_text, settle

SIZE = (80, 24)


def rows(app: DixitApp) -> list[str]:
    return screen_text(app).splitlines()


def words_in(app: DixitApp, widget: Widget) -> str:
    """The words shown inside `widget`'s region of the screen, one space apart."""
    region = widget.content_region
    lines = rows(app)[region.y : region.y + region.height]
    return " ".join(" ".join(line[region.x : region.x + region.width].split()) for line in lines)


def card_start(text: str) -> str:
    """The first 24 characters of a card's text: on its line whether the card is shown in full or cut."""
    return text[:24]


async def test_every_card_of_a_seven_or_twelve_card_board_is_on_screen() -> None:
    for name, cards in (("party-vote", 7), ("odyssey12-vote", 12)):
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await scenes.SCENARIOS[name](pilot)
            _, session = me(pilot)
            view = session.view()
            assert view is not None and view.game is not None
            board = view.game.board
            assert len(board) == cards
            screen = screen_text(app)
            for slot in board:
                assert card_start(slot.text) in screen, (name, slot.slot, screen)
            # the highlighted card (the dial's) is there in full
            pointed = board[dial_of(app.screen).pointer - 1]
            assert f"▶ {pointed.slot} {pointed.text}" in words_in(app, app.screen.query_one(Board)), screen


async def test_every_card_of_a_seven_card_hand_is_on_screen() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await scenes.SCENARIOS["standard-submit"](pilot)
        _, session = me(pilot)
        view = session.view()
        assert view is not None and view.game is not None
        assert len(view.game.hand) == 7
        screen = screen_text(app)
        for card in view.game.hand:
            assert card_start(card.text) in screen, (card.card, screen)
        assert app.screen.query_one(MainView).max_scroll_y == 0  # nothing to scroll to


async def test_the_key_bar_shows_every_key_of_the_host_at_the_vote() -> None:
    for name in ("standard-vote", "party-red_marker", "team-vote"):
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await scenes.SCENARIOS[name](pilot)
            bar = app.screen.query_one(KeyBar)
            assert len(bar.keys) >= 7, bar.keys
            shown = "\n".join(rows(app)[-bar.size.height :])
            for key in bar.keys:
                assert f" {key.display} " in shown + " ", (name, key, shown)
            assert "l Leave" in shown and "f1 Help" in shown, (name, shown)


async def test_the_top_bar_keeps_who_is_watching_and_the_timer() -> None:
    async def timed_party(pilot: Pilot[Any]) -> None:
        scenes.MODES["party-timed"] = {"others": 6, "mode": "party", "turn_seconds": 120}
        try:
            await scenes.sit(pilot, "party-timed")
        finally:
            del scenes.MODES["party-timed"]
        await settle(pilot)

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await timed_party(pilot)
        top = rows(app)[0]
        assert "1 watching" in top, top
        assert "⏱" in top and "turn 1" in top, top


async def test_the_recap_shows_points_totals_and_the_red_marker_without_scrolling() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await scenes.SCENARIOS["party-recap"](pilot)
        assert isinstance(app.screen, RecapScreen)
        screen = screen_text(app)
        assert "● red marker on card" in screen.lower(), screen
        assert "Total" in screen
        for name in ("ana (you) ✎", "ben", "cara", "dev", "eve", "fay", "gus"):
            row = re.compile(rf"^█ {re.escape(name)} +\d+ +\+?\d+ +\d+ ")  # party, turn, total
            assert any(row.search(line) for line in rows(app)), (name, screen)
        assert "Close (Enter)" in screen


async def test_a_terminal_too_small_says_so_ignores_keys_and_recovers() -> None:
    app = make_app()
    async with app.run_test(size=(50, 15)) as pilot:
        await settle(pilot)
        screen = screen_text(app)
        assert "Terminal too small" in screen
        assert f"need {MIN_WIDTH}x{MIN_HEIGHT}" in screen and "50x15" in screen
        await pilot.press("c")  # would open the create dialog: not played blind
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        await pilot.resize_terminal(*SIZE)
        await settle(pilot)
        screen = screen_text(app)
        assert "Terminal too small" not in screen
        assert "Welcome, ana!" in screen
        await pilot.resize_terminal(MIN_WIDTH - 1, 30)  # one column short is too small too, at the table as well
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert "Terminal too small" in screen_text(app)
        await pilot.resize_terminal(MIN_WIDTH, MIN_HEIGHT)  # the minimum itself is fine
        await settle(pilot)
        assert "Terminal too small" not in screen_text(app)


async def test_the_table_too_gives_way_to_the_notice_and_comes_back() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await scenes.SCENARIOS["standard-vote"](pilot)
        await pilot.resize_terminal(70, MIN_HEIGHT - 1)
        await settle(pilot)
        assert "Terminal too small" in screen_text(app)
        assert "Clue:" not in screen_text(app)
        await pilot.resize_terminal(*SIZE)
        await settle(pilot)
        assert "Terminal too small" not in screen_text(app)
        assert "Clue: “a quiet storm”" in screen_text(app)


async def test_after_a_resize_the_board_still_shows_the_dials_card() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await scenes.SCENARIOS["party-vote"](pilot)
        dial = dial_of(app.screen)
        board = app.screen.query_one(Board)
        for size, slot in (((MIN_WIDTH, MIN_HEIGHT), 7), (SIZE, 7), ((MIN_WIDTH, MIN_HEIGHT), 1), ((70, 22), 6)):
            await pilot.press(str(slot))
            await settle(pilot)
            await pilot.resize_terminal(*size)
            await settle(pilot)
            assert dial.pointer == slot
            assert f"▶ {slot} " in words_in(app, board), (size, screen_text(app))
            assert board.highlighted == slot - 1


async def test_at_the_smallest_size_the_hand_shows_more_than_the_highlighted_card() -> None:
    """At 60x20 the hand's highlighted card (five lines long) filled its four rows alone, its end cut off without a
    mark (seen playing): it takes two rows, cut with "…", and two more cards show, one line each."""
    app = make_app()
    async with app.run_test(size=(MIN_WIDTH, MIN_HEIGHT)) as pilot:
        await scenes.SCENARIOS["standard-submit"](pilot)
        await pilot.press("down", "down")  # the cursor further down: a card above it and below it
        await settle(pilot)
        hand = app.screen.query_one(MainView)
        assert hand.highlighted is not None
        region = hand.content_region
        lines = [line[region.x : region.x + region.width] for line in rows(app)[region.y : region.bottom]]
        numbers = [int(m.group(1)) for line in lines if (m := re.match(r"[▶ ] ?(\d+)  ", line))]
        assert len(numbers) >= 3 and hand.highlighted + 1 in numbers, "\n".join(lines)
        lit = next(y for y, line in enumerate(lines) if line.startswith("▶"))
        assert lines[lit + 1].rstrip().endswith("…"), "\n".join(lines)  # the highlighted card, cut with a mark


async def test_a_hand_dealt_while_hidden_fits_the_size_it_is_drawn_at() -> None:
    """Party: the hand is hidden until the clue, then dealt; with room for every card in full, every card is in full
    (its items arrived while the list had no size of its own, and no resize follows)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        seated = await scenes.sit(pilot, "party")
        await default_move(seated[0])  # ben's blind clue: ana's hand shows
        await settle(pilot)
        _, session = me(pilot)
        view = session.view()
        assert view is not None and view.game is not None
        shown = words_in(app, app.screen.query_one(MainView))
        for number, card in enumerate(view.game.hand, start=1):
            assert f"{number} {card.text}" in shown, (card.text, shown)


def test_every_short_label_belongs_to_a_key_of_the_app() -> None:
    """The key bar's short forms name descriptions that some binding of the app really has (no dead entries)."""
    import importlib
    import pkgutil

    import dixit_tui.tui
    from dixit_tui.tui.widgets.keybar import SHORT

    descriptions: set[str] = set()
    for module in pkgutil.walk_packages(dixit_tui.tui.__path__, "dixit_tui.tui."):
        for item in vars(importlib.import_module(module.name)).values():
            for binding in getattr(item, "BINDINGS", None) or ():
                if isinstance(binding, Binding):
                    descriptions.add(binding.description)
    assert set(SHORT) <= descriptions, set(SHORT) - descriptions


async def test_the_key_bar_keeps_one_row_with_every_key_for_the_host_at_a_blind_clue_and_at_game_over() -> None:
    async def blind_clue(pilot: Pilot[Any]) -> None:
        await scenes.sit(pilot, "party")  # ana, the host, tells first: a blind clue (Enter types it)
        await scenes.steady(pilot)

    for name, scenario in (
        ("party-blind-clue", blind_clue),
        ("standard-over", scenes.SCENARIOS["standard-over"]),
        ("party-over", scenes.SCENARIOS["party-over"]),
    ):
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await scenario(pilot)
            bar = app.screen.query_one(KeyBar)
            assert bar.size.height == 1, (name, bar.keys)
            shown = rows(app)[-1]
            for key in bar.keys:
                assert f" {key.display} " in shown + " ", (name, key, shown)
            assert "l Leave" in shown and "f1 Help" in shown, (name, shown)
            if name == "party-blind-clue":
                assert "⏎ Clue" in shown or "⏎ Type your clue" in shown, shown
            else:
                assert "m Rematch" in shown, (name, shown)
