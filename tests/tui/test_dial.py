"""The vote dial alone (a board voting, without cards), in a tiny host app: keys, wheel, clicks, forbidden slots, two
votes, the party red step."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import App, ComposeResult

from dixit_tui.tui import dial_picture
from dixit_tui.tui.vote_dial import Ballot, Cast, Moved, VoteDial
from dixit_tui.tui.widgets.cards import Board
from tests.tui.pictures import picture_text


class DialApp(App[None]):
    def __init__(self, dial: VoteDial) -> None:
        super().__init__()
        self.dial = dial
        self.board = Board(dial=dial)
        self.seen: list[tuple[Any, ...]] = []

    def compose(self) -> ComposeResult:
        yield self.board

    def on_mount(self) -> None:
        self.board.focus()

    def on_board_dialled(self, event: Board.Dialled) -> None:
        done = event.outcome
        if isinstance(done, Moved):
            self.seen.append(("changed", done.pointer, done.stage))
        elif isinstance(done, Cast):
            self.seen.append(("cast", done.slots, done.red))
        else:
            self.seen.append(("refused", done.slot))

    def of(self, kind: str) -> list[tuple[Any, ...]]:
        return [e for e in self.seen if e[0] == kind]


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def wheel(dial: Board, down: bool) -> None:
    cls = events.MouseScrollDown if down else events.MouseScrollUp
    dial.post_message(cls(dial, 1, 1, 0, 1 if down else -1, 0, False, False, False))


async def test_arrows_turn_and_wrap_around() -> None:
    app = DialApp(VoteDial(Ballot(5)))
    async with app.run_test(size=(60, 8)) as pilot:
        dial = app.dial
        assert dial.pointer == 1
        await pilot.press("right", "right")
        assert dial.pointer == 3
        await pilot.press("down")
        assert dial.pointer == 4
        await pilot.press("left", "up")
        assert dial.pointer == 2
        await pilot.press("up", "up")  # 2 -> 1 -> wraps to 5
        assert dial.pointer == 5
        await pilot.press("right")  # 5 wraps to 1
        assert dial.pointer == 1
        await pilot.press("end")
        assert dial.pointer == 5
        await pilot.press("home")
        assert dial.pointer == 1
        await pilot.pause()
        assert [e[1] for e in app.of("changed")] == [2, 3, 4, 3, 2, 1, 5, 1, 5, 1]


async def test_forbidden_slots_are_skipped_and_shown() -> None:
    app = DialApp(VoteDial(Ballot(6, forbidden=(1, 3, 4))))
    async with app.run_test(size=(60, 8)) as pilot:
        dial = app.dial
        assert dial.pointer == 2  # the first allowed slot
        await pilot.press("right")
        assert dial.pointer == 5
        await pilot.press("right", "right")  # 6, then wraps past 1 to 2
        assert dial.pointer == 2
        await pilot.press("left")
        assert dial.pointer == 6
        text = picture_text(app.board.picture)
        assert "✗1" in text and "✗3" in text and "✗4" in text
        assert "✗2" not in text


async def test_number_keys_jump_and_refuse_forbidden() -> None:
    app = DialApp(VoteDial(Ballot(8, forbidden=(3,))))
    async with app.run_test(size=(60, 8)) as pilot:
        dial = app.dial
        await pilot.press("6")
        assert dial.pointer == 6
        await pilot.press("3")
        assert dial.pointer == 6
        await pilot.press("9")
        assert dial.pointer == 6
        await pilot.press("0")
        assert dial.pointer == 6
        await pilot.pause()
        assert app.of("refused") == [("refused", 3), ("refused", 9), ("refused", 0)]
        # the Enter right after a refused number does not vote for the card the dial stayed on: it says so
        await pilot.press("enter")
        await pilot.pause()
        assert app.of("cast") == [] and app.of("refused")[-1] == ("refused", 0)
        await pilot.press("enter")  # pressed again: the vote goes to the card the dial shows
        await pilot.pause()
        assert app.of("cast") == [("cast", (6,), None)]


async def test_two_digit_slots_on_a_twelve_card_board() -> None:
    clock = FakeClock()
    app = DialApp(VoteDial(Ballot(12), clock=clock))
    async with app.run_test(size=(80, 8)) as pilot:
        dial = app.dial
        await pilot.press("1", "2")
        assert dial.pointer == 12
        await pilot.press("1", "0")
        assert dial.pointer == 10
        await pilot.press("1")
        assert dial.pointer == 1
        clock.now += 5  # too slow: a new number
        await pilot.press("1")
        assert dial.pointer == 1
        await pilot.press("1")  # 11 within the timeout
        assert dial.pointer == 11
        await pilot.press("7")
        assert dial.pointer == 7


async def test_mouse_wheel_turns_and_click_selects() -> None:
    app = DialApp(VoteDial(Ballot(6, forbidden=(2,))))
    async with app.run_test(size=(60, 8)) as pilot:
        dial = app.dial
        wheel(app.board, down=True)
        await pilot.pause()
        assert dial.pointer == 3  # 2 is skipped
        wheel(app.board, down=False)
        await pilot.pause()
        assert dial.pointer == 1
        row, width = app.board._dial_row(), app.board.content_size.width - 2 * dial_picture.PAD
        cells = dial_picture.cells(dial.look, width)  # (x, width, text, style) of each number, on the dial's number row
        gutter = app.board.gutter.left + dial_picture.PAD
        # click on number 5 (the number row of the content: the border is one row)
        await pilot.click(Board, offset=(gutter + cells[4][0] + cells[4][1] // 2, app.board.gutter.top + row))
        assert dial.pointer == 5
        # a click on the forbidden 2 is refused
        cells = dial_picture.cells(dial.look, width)
        await pilot.click(Board, offset=(gutter + cells[1][0] + cells[1][1] // 2, app.board.gutter.top + row))
        await pilot.pause()
        assert dial.pointer == 5
        assert ("refused", 2) in app.seen


async def test_enter_casts_the_pointer() -> None:
    app = DialApp(VoteDial(Ballot(4, forbidden=(1,))))
    async with app.run_test(size=(60, 8)) as pilot:
        await pilot.press("right", "enter")
        await pilot.pause()
        assert app.of("cast") == [("cast", (3,), None)]
        await pilot.press("4", "enter")  # change of mind: cast again
        await pilot.pause()
        assert app.of("cast")[-1] == ("cast", (4,), None)


async def test_two_votes_mark_one_or_two_slots() -> None:
    app = DialApp(VoteDial(Ballot(10, forbidden=(2,), votes_allowed=2)))
    async with app.run_test(size=(80, 8)) as pilot:
        dial = app.dial
        await pilot.press("3", "space", "7", "space")
        assert dial.marks == (3, 7)
        assert "Marked: 3, 7" in picture_text(app.board.picture)
        await pilot.press("9", "space")  # a third mark is refused
        await pilot.pause()
        assert dial.marks == (3, 7)
        assert ("refused", 9) in app.seen
        await pilot.press("enter")
        await pilot.pause()
        assert app.of("cast")[-1] == ("cast", (3, 7), None)
        await pilot.press("3", "space")  # unmark 3: one mark left
        assert dial.marks == (7,)
        await pilot.press("enter")
        await pilot.pause()
        assert app.of("cast")[-1] == ("cast", (7,), None)
        await pilot.press("7", "space", "5", "enter")  # no marks: the pointer is the vote
        await pilot.pause()
        assert dial.marks == ()
        assert app.of("cast")[-1] == ("cast", (5,), None)


async def test_space_does_not_mark_with_one_vote() -> None:
    app = DialApp(VoteDial(Ballot(5)))
    async with app.run_test(size=(60, 8)) as pilot:
        assert app.board.check_action("toggle_mark", ()) is False  # not offered in the footer
        await pilot.press("space")
        await pilot.pause()
        assert app.dial.marks == ()
        assert app.of("cast") == []


async def test_party_storyteller_places_the_red_marker_second() -> None:
    app = DialApp(VoteDial(Ballot(7, places_red=True)))
    async with app.run_test(size=(60, 8)) as pilot:
        dial = app.dial
        await pilot.press("3", "enter")
        await pilot.pause()
        assert dial.stage == "red" and dial.green == 3
        assert app.of("cast") == []
        assert ("changed", 4, "red") in app.seen  # the red starts on the next card, not on the green vote
        assert "Green 3 · red 4" in picture_text(app.board.picture)
        await pilot.press("escape")  # back to the green step
        assert dial.stage == "green" and dial.pointer == 3
        await pilot.press("4", "enter", "left", "left", "left")
        assert dial.stage == "red" and dial.pointer == 2
        await pilot.press("enter")
        await pilot.pause()
        assert app.of("cast") == [("cast", (4,), 2)]
        await pilot.press("7", "enter", "enter")  # from the last card, the red starts on the first
        await pilot.pause()
        assert app.of("cast")[-1] == ("cast", (7,), 1)
        assert dial.stage == "green"


async def test_red_marker_may_go_on_any_slot() -> None:
    """The red step ignores the green step's forbidden slots (own card allowed)."""
    app = DialApp(VoteDial(Ballot(5, forbidden=(2,), places_red=True)))
    async with app.run_test(size=(60, 8)) as pilot:
        await pilot.press("1", "enter", "enter")  # the red starts on 2, the card green could not take
        await pilot.pause()
        assert app.of("cast") == [("cast", (1,), 2)]


async def test_same_board_keeps_pointer_new_board_resets() -> None:
    app = DialApp(VoteDial(Ballot(6)))
    async with app.run_test(size=(60, 8)) as pilot:
        dial = app.dial
        await pilot.press("4")
        dial.configure(Ballot(6, voted=(4,)))
        assert dial.pointer == 4
        dial.configure(Ballot(8, forbidden=(1,), voted=()))
        assert dial.pointer == 2
        dial.configure(Ballot(8, forbidden=(1,), voted=(6,)))  # same board: the pointer stays where the player left it
        assert dial.pointer == 2
        dial.configure(Ballot(5, voted=(5,)))  # a new board starts on your existing vote
        assert dial.pointer == 5


async def test_pointer_is_visible_without_colour() -> None:
    app = DialApp(VoteDial(Ballot(5, forbidden=(1,))))
    async with app.run_test(size=(60, 8)) as pilot:
        await pilot.press("3")
        lines = picture_text(app.board.picture).splitlines()
        number_row, arrow_row = lines[1], lines[2]  # (under the dial's rule)
        assert "[3]" in number_row
        assert number_row.index("3") == arrow_row.index("▲")


async def test_a_new_board_of_the_same_shape_starts_over() -> None:
    app = DialApp(VoteDial(Ballot(6, votes_allowed=2, board="turn-1")))
    async with app.run_test(size=(60, 8)) as pilot:
        dial = app.dial
        await pilot.press("4", "space")
        assert dial.marks == (4,)
        dial.configure(Ballot(6, votes_allowed=2, board="turn-1"))
        assert dial.marks == (4,) and dial.pointer == 4
        dial.configure(Ballot(6, votes_allowed=2, board="turn-1-again"))  # voided and played again
        assert dial.marks == () and dial.pointer == 1


async def test_enter_right_after_typed_letters_does_not_vote() -> None:
    """Words typed at the dial (meant for a text box) end with Enter: that Enter is not a vote; a later one is."""
    clock = FakeClock()
    app = DialApp(VoteDial(Ballot(4), clock=clock))
    async with app.run_test(size=(60, 8)) as pilot:
        await pilot.pause()
        assert app.focused is app.board
        await pilot.press(*"so long", "enter")
        await pilot.pause()
        assert app.of("cast") == [] and app.of("refused")
        await pilot.press("enter")  # still no pause since the refused Enter
        await pilot.pause()
        assert app.of("cast") == []
        clock.now += 1.0  # the typing stopped
        await pilot.press("enter")
        await pilot.pause()
        assert app.of("cast") == [("cast", (1,), None)]
