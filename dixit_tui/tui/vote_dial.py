"""The vote dial's state and keys: the board's slot numbers with a pointer, turned by keys, wheel or mouse. No
Textual: the board holds one while you vote (`Board`) and draws it (`tui.dial_picture`). Each key, click or wheel
turn gives what came of it, in order: `Moved`, `Cast` (a vote confirmed) or `Refused` (and why).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

Stage = Literal["green", "red"]

DIGIT_TIMEOUT = 1.0  # seconds within which a second digit makes a two-digit slot number (10, 11, 12)
TYPING_PAUSE = 0.6  # Enter votes only this long after the last letter typed at the dial (words meant for a text box)


@dataclass(frozen=True, slots=True)
class DialLook:
    """What the dial shows."""

    slots: int
    forbidden: frozenset[int]
    marks: tuple[int, ...]
    pointer: int
    stage: Stage
    green: int | None  # the green vote chosen before the red step
    votes_allowed: int
    places_red: bool
    voted: tuple[int, ...] = ()  # the vote the table has (sorted), and its red marker
    voted_red: int | None = None


def pending(look: DialLook) -> tuple[tuple[int, ...], int | None]:
    """What Enter would send now: (green slots, red) -- in the green step of a red vote, not sent yet."""
    if look.stage == "red":
        assert look.green is not None
        return (look.green,), look.pointer
    slots = look.marks if look.marks else ((look.pointer,) if look.pointer else ())
    return tuple(sorted(slots)), None


def is_in(look: DialLook) -> bool:
    """Whether the table has the vote the dial shows (cast, and the dial not turned since): Enter would send it
    again, changing nothing."""
    if not look.voted or look.stage != "green":
        return False
    if look.places_red:
        return look.voted == (look.pointer,) and look.voted_red is not None
    return pending(look)[0] == look.voted


@dataclass(frozen=True, slots=True)
class Moved:
    """The pointer moved, or the stage changed."""

    pointer: int
    stage: Stage


@dataclass(frozen=True, slots=True)
class Cast:
    """The player confirmed a vote: `slots` (one or two, sorted) and, for the party storyteller, `red`."""

    slots: tuple[int, ...]
    red: int | None


@dataclass(frozen=True, slots=True)
class Refused:
    """A key or click asked for a slot that cannot be chosen (or did nothing); `reason` says why, in plain words."""

    slot: int
    reason: str


Outcome = Moved | Cast | Refused

TURNS = {"left": -1, "up": -1, "right": 1, "down": 1}
ENDS = {"home": 0, "end": 1}


@dataclass(frozen=True, slots=True)
class Ballot:
    """What a vote is on: `open_slots` as the engine's legal moves give them (else `forbidden` names the others), the
    marks a vote may carry, your vote as the table has it; `board` (its card ids: a voided turn is another board)."""

    slots: int = 0
    forbidden: tuple[int, ...] = ()
    open_slots: tuple[int, ...] | None = None
    votes_allowed: int = 1
    places_red: bool = False
    voted: tuple[int, ...] = ()
    voted_red: int | None = None
    board: object = None


class VoteDial:
    """Choose one (or two) slots of the board, and for the party storyteller a red marker after the green vote."""

    def __init__(self, ballot: Ballot = Ballot(), *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._digits = ""
        self._digit_time = 0.0
        self._typed_at: float | None = None  # when a letter (not a dial key) last reached the dial
        self._refused: int | None = None  # a slot asked for and refused, until the pointer is moved or a key refused
        self._refused_why = ""  # ... and why, said again if Enter or Space comes next: "is yours"
        self._on: tuple[object, ...] | None = None  # what the board is (see `configure`: it sets the ballot's parts)
        self.pointer = 0
        self.marks: tuple[int, ...] = ()
        self.stage: Stage = "green"
        self.green: int | None = None  # the green vote chosen before the red step
        self.configure(ballot)

    def configure(self, ballot: Ballot) -> None:
        """Set up the dial for a ballot: on the same board it keeps its pointer and marks (every view of the vote
        configures it again), on another it starts over, on your vote if you have one."""
        slots, forbidden = ballot.slots, ballot.forbidden
        if ballot.open_slots is not None:
            forbidden = tuple(s for s in range(1, slots + 1) if s not in ballot.open_slots)
        forbidden_set = frozenset(s for s in forbidden if 1 <= s <= slots)
        on = (ballot.board, slots, forbidden_set, ballot.votes_allowed, ballot.places_red)
        self.voted: tuple[int, ...] = ballot.voted
        self.voted_red: int | None = ballot.voted_red
        if on == self._on:
            return  # the same board: what the dial shows stands
        self._on = on
        self.board: object = ballot.board
        self.slots, self.forbidden = slots, forbidden_set
        self.votes_allowed, self.places_red = max(1, ballot.votes_allowed), ballot.places_red
        self.stage, self.green, self.marks, self._refused = "green", None, (), None
        start = self.voted[0] if self.voted and self.allowed(self.voted[0]) else None
        self.pointer = start if start is not None else self._next_allowed(0, 1)
        if self.votes_allowed > 1 and len(self.voted) > 1:
            self.marks = tuple(sorted(s for s in self.voted if self.allowed(s)))

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
            tuple(sorted(self.voted)),
            self.voted_red,
        )

    def pending(self) -> tuple[tuple[int, ...], int | None]:
        """What Enter would send now: (green slots, red) -- in the green step of a red vote, not sent yet."""
        return pending(self.look)

    def offers(self, action: str) -> bool:
        """Whether a key of the dial is offered now: Space only where a vote may carry two marks, Esc only in the red
        step; the others always."""
        if action == "toggle_mark":
            return self.votes_allowed > 1 and self.stage == "green"
        if action == "back":
            return self.stage == "red"
        return True

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

    # --- input -------------------------------------------------------------------------------------------------

    def key(self, key: str, character: str | None, printable: bool) -> list[Outcome] | None:
        """A key at the dial: what came of it, in order, or None if it is not one of the dial's keys (a letter: it
        only notes that someone is typing words, not turning the dial)."""
        if key == "enter":
            return self.cast()
        if key == "space":
            return self.toggle_mark()
        if key == "escape":
            return self.back() if self.offers("back") else None
        if key in TURNS:
            return self.turn(TURNS[key])
        if key in ENDS:
            return self.jump_end(ENDS[key])
        if character is None or not character.isdigit() or len(character) != 1:
            if printable:
                self._typed_at = self._clock()
            return None
        return self._digit(character)

    def _digit(self, char: str) -> list[Outcome]:
        now = self._clock()
        if self._digits and now - self._digit_time <= DIGIT_TIMEOUT:
            both = int(self._digits + char)
            if 10 <= both <= self.slots:
                self._digits = ""
                return self.select(both)
        self._digit_time = now
        number = int(char)
        if number == 0:
            self._digits = ""
            return self.select(10 if self.slots >= 10 else 0)
        # a "1" on a board of 10+ may start 10, 11 or 12: remember it
        self._digits = char if number * 10 <= self.slots else ""
        return self.select(number)

    def turn(self, step: int) -> list[Outcome]:
        """The next allowed slot along (the arrows, the wheel)."""
        self._refused = None  # the player turns the dial: Enter acts on where it stops
        return self._point(self._next_allowed(self.pointer or (0 if step > 0 else 1), step))

    def jump_end(self, last: int) -> list[Outcome]:
        self._refused = None
        return self._point(self._next_allowed(1, -1) if last else self._next_allowed(self.slots, 1))

    def _point(self, slot: int) -> list[Outcome]:
        if slot and slot != self.pointer:
            self.pointer = slot
            return [self._moved()]
        return []

    def _moved(self) -> Moved:
        self._refused = None
        return Moved(self.pointer, self.stage)

    def select(self, slot: int) -> list[Outcome]:
        """Point at `slot` (a number key or a click). Refuses a forbidden or unknown slot."""
        if not 1 <= slot <= self.slots:
            return self._refuse_pick(
                slot, f"There is no card {slot}: the board has cards 1 to {self.slots}.", "is not on the board"
            )
        if not self.allowed(slot):
            return self._refuse_pick(slot, f"Card {slot} is yours: you cannot vote for it.", "is yours")
        self._refused = None
        return self._point(slot)

    def _refuse_pick(self, slot: int, reason: str, why: str) -> list[Outcome]:
        """A slot that cannot be chosen: the pointer stays, and the next Enter or Space does not act on the slot it
        stays on (the player meant another: "2" refused, then Enter, voted for 1)."""
        self._refused, self._refused_why = slot, why
        return [Refused(slot, reason)]

    def _after_refusal(self, key: str, does: Callable[[], str]) -> list[Outcome]:
        """After a refused pick, `key` (Enter or Space) is refused once, saying what pressing it again does."""
        refused = self._refused
        if refused is None:
            return []
        self._refused = None
        reason = (
            f"{key} did nothing: card {refused} {self._refused_why}, so it was not chosen. "
            f"The dial is on {self.pointer}: press {key} again to {does()}."
        )
        return [Refused(refused, reason)]

    def toggle_mark(self) -> list[Outcome]:
        if not self.offers("toggle_mark") or not self.pointer:
            return []  # (one vote this turn, or the red step)
        refused = self._after_refusal(
            "Space", lambda: f"{'unmark' if self.pointer in self.marks else 'mark'} {self.pointer}"
        )
        if refused:
            return refused
        if self.pointer in self.marks:
            self.marks = tuple(s for s in self.marks if s != self.pointer)
        elif len(self.marks) >= self.votes_allowed:
            return [Refused(self.pointer, "Two marks at most: press Space on a marked card to unmark it.")]
        else:
            self.marks = tuple(sorted((*self.marks, self.pointer)))
        return [self._moved()]

    def cast(self) -> list[Outcome]:
        if not self.pointer:
            return []
        if self._typed_at is not None and self._clock() - self._typed_at < TYPING_PAUSE:
            # Enter at the end of words typed here (meant for a text box) is not a vote
            self._typed_at = self._clock()
            return [Refused(self.pointer, "You were typing: Enter did not vote. Press it again.")]
        refused = self._after_refusal("Enter", self._what_enter_does)
        if refused:
            return refused
        if self.places_red and self.stage == "green":
            self.green = self.pointer
            self.stage = "red"
            if self.voted_red is not None and 1 <= self.voted_red <= self.slots:
                self.pointer = self.voted_red
            elif self.slots > 1:  # the next card: Enter twice would put the red on the green vote (0 points for it)
                self.pointer = self.green % self.slots + 1
            return [self._moved()]
        slots, red = self.pending()
        if not slots:
            return []
        done: list[Outcome] = [Cast(slots, red)]
        if self.stage == "red":
            self.stage = "green"
            assert self.green is not None
            self.pointer = self.green
            self.green = None
            done.append(self._moved())
        return done

    def _what_enter_does(self) -> str:
        if self.stage == "red":
            return f"send green {self.green} and red {self.pointer}"
        if self.places_red:
            return f"choose green {self.pointer}"
        slots, _ = self.pending()
        return "vote for " + " and ".join(map(str, slots))

    def back(self) -> list[Outcome]:
        if self.stage == "red" and self.green is not None:
            self.stage = "green"
            self.pointer = self.green
            self.green = None
            return [self._moved()]
        return []
