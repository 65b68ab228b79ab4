"""The vote dial: the board's slot numbers along a row with a pointer, turned by keys, wheel or mouse.

A pure widget: it knows slot numbers, which are open to the vote (the player's legal moves, from the view) and
which are forbidden, how many marks a vote may carry and whether a red marker follows; it never talks to a session.
It posts `Dial.Changed` when the pointer moves, `Dial.Cast` when the player confirms a vote and `Dial.Refused` when
a key or click asks for a slot that cannot be chosen. Nothing is shown by colour alone: the pointer has a `▲` under
it (and brackets where there is room), a forbidden slot reads `✗3`, a marked one `✓3`, the red marker `●3`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip

from dixit_tui.tui import dial_picture as drawing
from dixit_tui.tui.dial_picture import DialLook, Stage
from dixit_tui.tui.line_cache import forget_with_shared
from dixit_tui.tui.picture import PictureCache
from dixit_tui.tui.widgets.picture_view import PictureView

PICTURES = forget_with_shared(PictureCache(pictures=512, lines=2048))
"""The dials' pictures, for every session of the process (`tui.dial_picture`)."""

DIGIT_TIMEOUT = 1.0  # seconds within which a second digit makes a two-digit slot number (10, 11, 12)
TYPING_PAUSE = 0.6  # Enter votes only this long after the last letter typed at the dial (words meant for a text box)


class Dial(PictureView, can_focus=True):
    """Choose one (or two) slots of the board, and for the party storyteller a red marker after the green vote.
    A Line-API widget: it shows `dial_picture` of what it shows (`look`), its size and its style."""

    DEFAULT_CSS = """
    Dial {
        height: 5;
        overflow: hidden hidden;
        border: round $primary;
        padding: 0 1;
    }
    Dial:focus {
        border: double $accent;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,up", "turn(-1)", "Turn", show=False),
        Binding("right,down", "turn(1)", "Turn", show=False),
        Binding("home", "jump_end(0)", "First", show=False),
        Binding("end", "jump_end(1)", "Last", show=False),
        Binding("space", "toggle_mark", "Mark/unmark"),
        Binding("enter", "cast", "Vote"),
        Binding("escape", "back", "Back to green"),
    ]

    class Changed(Message):
        """The pointer moved (or the stage changed)."""

        def __init__(self, dial: Dial, pointer: int, stage: Stage) -> None:
            super().__init__()
            self.dial = dial
            self.pointer = pointer
            self.stage = stage

        @property
        def control(self) -> Dial:
            return self.dial

    class Cast(Message):
        """The player confirmed a vote: `slots` (one or two, sorted) and, for the party storyteller, `red`."""

        def __init__(self, dial: Dial, slots: tuple[int, ...], red: int | None) -> None:
            super().__init__()
            self.dial = dial
            self.slots = slots
            self.red = red

        @property
        def control(self) -> Dial:
            return self.dial

    class Refused(Message):
        """A key or click asked for a slot that cannot be chosen; `reason` says why, in plain words."""

        def __init__(self, dial: Dial, slot: int, reason: str) -> None:
            super().__init__()
            self.dial = dial
            self.slot = slot
            self.reason = reason

        @property
        def control(self) -> Dial:
            return self.dial

    def __init__(
        self,
        slots: int = 0,
        *,
        forbidden: Iterable[int] = (),
        open_slots: Iterable[int] | None = None,
        votes_allowed: int = 1,
        places_red: bool = False,
        voted: Iterable[int] = (),
        voted_red: int | None = None,
        board: object = None,
        clock: Callable[[], float] = time.monotonic,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.disabled = disabled
        self._clock = clock
        self._bindings_state: tuple[bool | None, ...] | None = None
        self._digits = ""
        self._digit_time = 0.0
        self._typed_at: float | None = None  # when a letter (not a dial key) last reached the dial
        self._refused: int | None = None  # a slot asked for and refused, until the pointer is moved or a key refused
        self._drawn_at: tuple[object, ...] | None = None  # (look, size, style) the picture was made for
        self.board: object = None
        self.slots = 0
        self.forbidden: frozenset[int] = frozenset()
        self.votes_allowed = 1
        self.places_red = False
        self.voted: tuple[int, ...] = ()
        self.voted_red: int | None = None
        self.pointer = 0
        self.marks: tuple[int, ...] = ()
        self.stage: Stage = "green"
        self.green: int | None = None  # the green vote chosen before the red step
        self.configure(
            slots,
            forbidden=forbidden,
            open_slots=open_slots,
            votes_allowed=votes_allowed,
            places_red=places_red,
            voted=voted,
            voted_red=voted_red,
            board=board,
        )

    # --- configuration -----------------------------------------------------------------------------------------

    def configure(
        self,
        slots: int,
        *,
        forbidden: Iterable[int] = (),
        open_slots: Iterable[int] | None = None,
        votes_allowed: int = 1,
        places_red: bool = False,
        voted: Iterable[int] = (),
        voted_red: int | None = None,
        board: object = None,
    ) -> None:
        """Set up the dial for a board. Keeps the pointer and marks if the board is the same, else starts over.

        `open_slots` are the slots the vote may go to, as the player's view gives them (the engine's legal moves);
        the others are forbidden. Without it, `forbidden` names the slots that may not be chosen.
        `board` identifies the board (the screen passes its card ids): a new board with the same size and the same
        forbidden slots (a voided turn played again) still starts over."""
        if open_slots is not None:
            allowed = frozenset(open_slots)
            forbidden = [s for s in range(1, slots + 1) if s not in allowed]
        forbidden_set = frozenset(s for s in forbidden if 1 <= s <= slots)
        same = (
            board == self.board
            and slots == self.slots
            and forbidden_set == self.forbidden
            and votes_allowed == self.votes_allowed
            and places_red == self.places_red
        )
        self.voted = tuple(voted)
        self.voted_red = voted_red
        if same:
            return  # what the dial shows stands (every view of the vote phase configures it again)
        self.board = board
        self.slots = slots
        self.forbidden = forbidden_set
        self.votes_allowed = max(1, votes_allowed)
        self.places_red = places_red
        self.stage = "green"
        self.green = None
        self.marks = ()
        self._refused = None
        start = self.voted[0] if self.voted and self.allowed(self.voted[0]) else None
        self.pointer = start if start is not None else self._next_allowed(0, 1)
        if self.votes_allowed > 1 and len(self.voted) > 1:
            self.marks = tuple(sorted(s for s in self.voted if self.allowed(s)))
        self._draw()

    # --- queries -----------------------------------------------------------------------------------------------

    def allowed(self, slot: int) -> bool:
        """May the pointer rest on `slot` in the current stage? The red marker may go anywhere."""
        if not 1 <= slot <= self.slots:
            return False
        return self.stage == "red" or slot not in self.forbidden

    @property
    def look(self) -> DialLook:
        """What the dial shows now."""
        return DialLook(
            self.slots,
            self.forbidden,
            self.marks,
            self.pointer,
            self.stage,
            self.green,
            self.votes_allowed,
            self.places_red,
        )

    def pending(self) -> tuple[tuple[int, ...], int | None]:
        """What Enter would send now: (green slots, red) -- in the green step of a red vote, not sent yet."""
        return drawing.pending(self.look)

    def _next_allowed(self, start: int, step: int) -> int:
        """The next allowed slot from `start` in direction `step`, wrapping around; 0 if none is allowed."""
        n = self.slots
        if n <= 0:
            return 0
        slot = start
        for _ in range(n):
            slot = (slot - 1 + step) % n + 1
            if self.allowed(slot):
                return slot
        return 0

    # --- actions -----------------------------------------------------------------------------------------------

    def _moved(self) -> None:
        self._refused = None
        self._draw()
        state = tuple(self.check_action(b.action if isinstance(b, Binding) else b[1], ()) for b in self.BINDINGS)
        if state != self._bindings_state:  # the footer is costly to rebuild: only when a key's state changed
            self._bindings_state = state
            self.refresh_bindings()
        self.post_message(self.Changed(self, self.pointer, self.stage))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show Space only where a vote may carry two marks, Esc only in the red step."""
        if action == "toggle_mark":
            return self.votes_allowed > 1 and self.stage == "green"
        if action == "back":
            return self.stage == "red"
        return True

    def action_turn(self, step: int) -> None:
        self._refused = None  # the player turns the dial: Enter acts on where it stops
        slot = self._next_allowed(self.pointer or (0 if step > 0 else 1), step)
        if slot and slot != self.pointer:
            self.pointer = slot
            self._moved()

    def action_jump_end(self, last: int) -> None:
        self._refused = None
        slot = self._next_allowed(1, -1) if last else self._next_allowed(self.slots, 1)
        if slot and slot != self.pointer:
            self.pointer = slot
            self._moved()

    def select(self, slot: int) -> bool:
        """Point at `slot` (a number key or a click). Refuses a forbidden or unknown slot."""
        if not 1 <= slot <= self.slots:
            self._refuse_pick(slot, f"There is no card {slot}: the board has cards 1 to {self.slots}.")
            return False
        if not self.allowed(slot):
            self._refuse_pick(slot, f"Card {slot} is yours: you cannot vote for it.")
            return False
        self._refused = None
        if slot != self.pointer:
            self.pointer = slot
            self._moved()
        return True

    def _refuse_pick(self, slot: int, reason: str) -> None:
        """A slot that cannot be chosen: the pointer stays, and the next Enter or Space does not act on the slot it
        stays on (the player meant another: "2" refused, then Enter, voted for 1)."""
        self._refused = slot
        self.post_message(self.Refused(self, slot, reason))

    def _after_refusal(self, key: str, does: Callable[[], str]) -> bool:
        """After a refused pick, `key` (Enter or Space) is refused once, saying what pressing it again does."""
        refused = self._refused
        if refused is None:
            return False
        self._refused = None
        self.post_message(
            self.Refused(
                self,
                refused,
                f"{key} did nothing: card {refused} was not chosen. The dial is on {self.pointer}: "
                f"press {key} again to {does()}.",
            )
        )
        return True

    def action_toggle_mark(self) -> None:
        if self.stage != "green" or not self.pointer:
            return
        if self.votes_allowed < 2:
            self.post_message(
                self.Refused(self, self.pointer, "One vote this turn: turn the dial to your card and press Enter.")
            )
            return
        if self._after_refusal("Space", lambda: f"{'unmark' if self.pointer in self.marks else 'mark'} {self.pointer}"):
            return
        if self.pointer in self.marks:
            self.marks = tuple(s for s in self.marks if s != self.pointer)
        elif len(self.marks) >= self.votes_allowed:
            self.post_message(
                self.Refused(self, self.pointer, "Two marks at most: press Space on a marked card to unmark it.")
            )
            return
        else:
            self.marks = tuple(sorted((*self.marks, self.pointer)))
        self._moved()

    def action_cast(self) -> None:
        if not self.pointer:
            return
        if self._typed_at is not None and self._clock() - self._typed_at < TYPING_PAUSE:
            # Enter at the end of words typed here (meant for a text box) is not a vote
            self._typed_at = self._clock()
            self.post_message(self.Refused(self, self.pointer, "You were typing: Enter did not vote. Press it again."))
            return
        if self._after_refusal("Enter", self._what_enter_does):
            return
        if self.places_red and self.stage == "green":
            self.green = self.pointer
            self.stage = "red"
            if self.voted_red is not None and 1 <= self.voted_red <= self.slots:
                self.pointer = self.voted_red
            elif self.slots > 1:  # the next card: Enter twice would put the red on the green vote (0 points for it)
                self.pointer = self.green % self.slots + 1
            self._moved()
            return
        slots, red = self.pending()
        if not slots:
            return
        self.post_message(self.Cast(self, slots, red))
        if self.stage == "red":
            self.stage = "green"
            assert self.green is not None
            self.pointer = self.green
            self.green = None
            self._moved()

    def _what_enter_does(self) -> str:
        if self.stage == "red":
            return f"send green {self.green} and red {self.pointer}"
        if self.places_red:
            return f"choose green {self.pointer}"
        slots, _ = self.pending()
        return "vote for " + " and ".join(map(str, slots))

    def action_back(self) -> None:
        if self.stage == "red" and self.green is not None:
            self.stage = "green"
            self.pointer = self.green
            self.green = None
            self._moved()

    # --- input -------------------------------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        # Enter, Space and the arrows are handled here too, in order with the digits: keys typed ahead in one packet
        # ("1", Enter, "2", Enter; or → and Enter) must act in the order they came, not digits first and bindings
        # later (a binding acts only once its key has bubbled up to the app: → then Enter would vote the old slot).
        action = {"enter": "cast", "space": "toggle_mark"}.get(event.key)
        if action is not None:
            event.stop()
            event.prevent_default()
            if self.check_action(action, ()):
                self.action_cast() if action == "cast" else self.action_toggle_mark()
            return
        if event.key == "escape" and self.check_action("back", ()):
            event.stop()
            event.prevent_default()
            self.action_back()
            return
        step = {"left": -1, "up": -1, "right": 1, "down": 1}.get(event.key)
        end = {"home": 0, "end": 1}.get(event.key)
        if step is not None or end is not None:
            event.stop()
            event.prevent_default()
            if step is not None and self.check_action("turn", (step,)):
                self.action_turn(step)
            elif end is not None and self.check_action("jump_end", (end,)):
                self.action_jump_end(end)
            return
        char = event.character
        if char is None or not char.isdigit() or len(char) != 1:
            if event.is_printable:
                self._typed_at = self._clock()  # a letter: someone typing words, not turning the dial
            return
        event.stop()
        event.prevent_default()
        now = self._clock()
        if self._digits and now - self._digit_time <= DIGIT_TIMEOUT:
            both = int(self._digits + char)
            if 10 <= both <= self.slots:
                self._digits = ""
                self.select(both)
                return
        self._digit_time = now
        number = int(char)
        if number == 0:
            self._digits = ""
            if self.slots >= 10:
                self.select(10)
            else:
                self.select(0)
            return
        # a "1" on a board of 10+ may start 10, 11 or 12: remember it
        self._digits = char if number * 10 <= self.slots else ""
        self.select(number)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y != 0:
            return
        slot = self._slot_at(offset.x)
        if slot:
            event.stop()
            self.focus()
            self.select(slot)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.action_turn(1)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.action_turn(-1)

    # --- drawing -----------------------------------------------------------------------------------------------

    def _cells(self, width: int) -> list[tuple[int, int, str, str]]:
        return drawing.cells(self.look, width)

    def _slot_at(self, x: int) -> int:
        return drawing.slot_at(self.look, self.size.width, x)

    def captions(self) -> list[str]:
        """The dial's own one-line help, longest first: what the keys do and what Enter sends now."""
        return drawing.captions(self.look)

    def caption(self, width: int | None = None) -> str:
        """The longest caption that fits `width` (all of it when no width is given)."""
        return drawing.caption(self.look, width)

    def on_resize(self, event: events.Resize) -> None:
        self._draw()

    def render_lines(self, crop: Region) -> list[Strip]:
        if self._drawn_at != (self.look, tuple(self.size), self.rich_style):
            self.picture = self._picture()  # (drawn now, all of it: a layout or a style change draws it whole)
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        # (the picture's lines carry their whole style: the cells after a text keep only its background, as
        # Textual's text does, so they join the padding's cells)
        picture = self.picture
        return picture[y] if 0 <= y < len(picture) else Strip.blank(self.size.width, self.rich_style)

    def _picture(self) -> tuple[Strip, ...]:
        width, height = self.size
        self._drawn_at = (self.look, (width, height), self.rich_style)
        if width <= 0 or height <= 0:
            return ()
        return drawing.dial_picture(PICTURES, self.look, width, height, self.get_visual_style())

    def _draw(self) -> None:
        if self.size.width > 0:
            self.show_fitted(self._picture())
