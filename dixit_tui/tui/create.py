"""The "create a table" dialog: a ModalScreen that returns TableOptions, or None when cancelled.

Every choice is checked here with a plain message next to the form, so the coordinator rarely has to refuse.
Enter creates the table from any field, as in a form (F2 too), except where it finishes a choice: a mode or rules
option under the cursor that is not chosen yet is chosen first. The label of the row with the focus is highlighted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, RadioButton, RadioSet, Static

from dixit_tui.coordinator import TableOptions
from dixit_tui.decks import builtin_deck_names, load_builtin
from dixit_tui.engine import Mode, Profile, player_range, profile_for
from dixit_tui.engine.config import STORYTELLS_RANGE, TARGET_RANGE
from dixit_tui.tui.same_size_resize import SameSizeResize
from dixit_tui.tui.widgets.keybar import KeyBar

MODES = ("standard", "party", "team")
PROFILES = ("refresh", "odyssey")
FIRSTS = (("first_clue", "first to give a clue"), ("random", "random"))
# a time limit per phase; when it passes a stand-in plays for whoever is missing
TIMERS = (("off", "off"), ("60", "1 min"), ("120", "2 min"), ("300", "5 min"))
REVEALS = ((0, "off"), (5, "5 s"), (8, "8 s"), (15, "15 s"), (30, "30 s"))  # how long the table holds each reveal

PLAYER_HINTS = {
    "refresh": "Refresh rules: 3 to 8 players (at 3, everyone gives two cards).",
    "odyssey": "Odyssey rules: 3 to 12 players; from 7 players on, up to two votes each.",
    "party": "Party: 6 to 12 players, everyone gives a card and votes.",
    "team": "Team: 6, 8, 10 or 12 players, in pairs.",
}


class Choice(RadioButton):
    """A radio button that shows its state with a sign, "(•)" or "( )", not with colour alone."""

    @property
    def _button(self) -> Content:
        return Content.assemble(("(•)", "bold") if self.value else "( )")


class Choices(RadioSet):
    """A radio set whose highlight starts on its chosen option when it gets the focus (Textual's starts on the first:
    Left from "8 s" picked "30 s") and stops at either end of the row (Textual's wraps round: Right, Right on a
    2-choice row was back where it started). Found by playtests."""

    def on_focus(self) -> None:
        pressed = self.pressed_button
        if pressed is None:
            return
        for _ in self.query(RadioButton):  # at most once round the set
            if pressed.has_class("-selected"):
                return
            super().action_next_button()

    def _at_end(self, step: int) -> bool:
        """The keyboard highlight is on the last (step 1) or first (step -1) option that can be chosen."""
        buttons = [b for b in self.query(RadioButton) if not b.disabled]
        return bool(buttons) and buttons[-1 if step > 0 else 0].has_class("-selected")

    def action_next_button(self) -> None:
        if not self._at_end(1):
            super().action_next_button()

    def action_previous_button(self) -> None:
        if not self._at_end(-1):
            super().action_previous_button()


class Ticks(Horizontal):
    """A row of tick boxes (the decks) the arrows move along, as along a row of choices (Tab and Shift+Tab too);
    Space ticks the box with the focus. It stops at either end, as the rows of choices do."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,down", "step(1)", "Next box", show=False),
        Binding("left,up", "step(-1)", "Previous box", show=False),
    ]

    def action_step(self, step: int) -> None:
        boxes = [b for b in self.query(Checkbox) if b.focusable]
        focused = self.screen.focused
        if focused not in boxes:
            return
        index = boxes.index(focused) + step
        if 0 <= index < len(boxes):
            boxes[index].focus()


class Tick(Checkbox):
    """A checkbox that shows its state with a sign, "[X]" or "[ ]", not with colour alone."""

    @property
    def _button(self) -> Content:
        return Content.assemble(("[X]", "bold") if self.value else "[ ]")


@dataclass(frozen=True, slots=True)
class SeatRange:
    low: int
    high: int
    pairs: bool  # team mode: an even number only

    def problem(self, seats: int) -> str | None:
        if not self.low <= seats <= self.high:
            return f"Seats: a number from {self.low} to {self.high}."
        if self.pairs and seats % 2:
            return "Seats: team games need an even number (6, 8, 10 or 12)."
        return None


def seat_range(mode: str, profile: str) -> SeatRange:
    low, high = player_range(Mode(mode), profile_for(Mode(mode), Profile(profile)))
    return SeatRange(low, high, mode == Mode.TEAM)


def parse_int(text: str) -> int | None:
    text = text.strip()
    if not text or not text.lstrip("-").isdigit():
        return None
    return int(text)


class CreateScreen(SameSizeResize, ModalScreen[TableOptions | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", priority=True),
        Binding("f2", "create", "Create", key_display="⏎/F2"),
    ]

    def __init__(
        self,
        initial: TableOptions | None = None,
        deck_sizes: Mapping[str, int] | None = None,
        *,
        title: str = "Create a table",
        ok: str = "Create",
    ) -> None:
        """`deck_sizes`: the decks on offer and their card counts (None: the built-in decks). `title` and `ok`: the
        dialog's title and its button (a host changing a table's options before the start reads "Change")."""
        super().__init__(classes="dialog-screen")  # no id: one closing and its successor may overlap
        self.title_text, self.ok_label = title, ok
        self._dismissed = False
        self.initial = initial or TableOptions()
        self._offered = deck_sizes
        self.deck_sizes: dict[str, int] = {}  # the decks on offer and their card counts, read when composed
        self._seats_touched = initial is not None and initial.seats is not None
        self._profile = self.initial.profile  # remembered while party/team force odyssey

    # --- layout ----------------------------------------------------------------------------------------------

    @property
    def decks(self) -> list[str]:
        return list(self.deck_sizes)

    def _read_decks(self) -> dict[str, int]:
        """The decks on offer (the server's, as given; else the built-in ones), each with its number of cards."""
        if self._offered is not None:
            return dict(self._offered)
        return {name: deck_size(name) for name in builtin_deck_names()}

    def compose(self) -> ComposeResult:
        o = self.initial
        self.deck_sizes = self._read_decks()
        with Vertical(classes="dialog", id="create-dialog") as box:
            box.border_title = self.title_text
            with VerticalScroll(id="create-form"):
                yield from _choices_row("Mode", "mode", [(mode, mode) for mode in MODES], o.mode)
                yield from _choices_row("Rules", "profile", [(p, p) for p in PROFILES], o.profile)
                yield Static(Content(""), id="profile-note", classes="note indented")
                with Horizontal(classes="row"):
                    yield Label("Decks", classes="field-label")
                    with Ticks(id="decks", classes="choices"):
                        for name in self.decks:
                            yield Tick(name, name in o.decks, id=f"deck-{name}", compact=True)
                    yield Static(Content(""), id="decks-hint", classes="note field-hint")
                with Horizontal(classes="row"):
                    yield Label("Seats", classes="field-label")
                    seats = o.seats if o.seats is not None else o.max_seats()
                    yield Input(str(seats), type="integer", max_length=3, id="seats", compact=True)
                    yield Static(Content(""), id="seats-hint", classes="note field-hint")
                with Horizontal(classes="row", id="target-row"):
                    yield Label("Target score", classes="field-label")
                    yield Input(str(o.target), type="integer", max_length=3, id="target", compact=True)
                    yield Static(
                        Content(f"{TARGET_RANGE[0]} to {TARGET_RANGE[1]} points"),
                        classes="note field-hint",
                    )
                with Horizontal(classes="row", id="storytells-row"):
                    yield Label("Storytells", classes="field-label")
                    yield Input(str(o.storytells), type="integer", max_length=1, id="storytells", compact=True)
                    yield Static(
                        Content(f"{STORYTELLS_RANGE[0]} to {STORYTELLS_RANGE[1]}: how many times each player tells"),
                        classes="note field-hint",
                    )
                yield from _choices_row("First teller", "first", FIRSTS, o.first)
                yield from _choices_row("Turn timer", "timer", TIMERS, str(o.turn_seconds) if o.turn_seconds else "off")
                held = [] if o.reveal_seconds in dict(REVEALS) else [(o.reveal_seconds, f"{o.reveal_seconds} s")]
                yield from _choices_row("Reveal", "reveal", (*REVEALS, *held), o.reveal_seconds)
                with Horizontal(classes="row"):
                    yield Label("Chat", classes="field-label")
                    yield Tick("pause chat from the clue until the reveal", o.chat_pause, id="chat-pause", compact=True)
                yield Static(Content(""), id="players-hint", classes="note")
                yield Static(Content(""), id="errors", classes="error")
            with Horizontal(classes="buttons"):
                yield Button(self.ok_label, variant="primary", id="create-ok", compact=True)
                yield Button("Cancel", id="create-cancel", compact=True)
        yield KeyBar()

    def dismiss(self, result: TableOptions | None = None) -> AwaitComplete:
        self._dismissed = True
        return super().dismiss(result)

    def _gone(self) -> bool:
        """Closed already (Esc typed with the key that opened it) or taken down with the app: events still queued
        for it find nothing to do."""
        return self._dismissed or not self.query("#deck-base")

    def on_mount(self) -> None:
        if self._gone():
            return
        self._decks_changed()
        self._mode_changed()
        self.query_one("#mode", RadioSet).focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The row with the focus shows it on its label (Textual's :focus-within restyles only the focused widget's
        ancestors: the label of the row left stayed highlighted)."""
        row = next((n for n in event.widget.ancestors_with_self if n.has_class("row")), None)
        for other in self.query(".row.-current"):
            if other is not row:
                other.remove_class("-current")
        if row is not None:
            row.add_class("-current")

    def on_key(self, event: events.Key) -> None:
        """Enter creates from any field (a text box's Enter does, through Input.Submitted; a button's presses it);
        on a mode or rules option under the cursor but not chosen yet, it chooses it (the set's own Enter)."""
        if event.key != "enter" or self._gone():
            return
        focused = self.focused
        if focused is None or isinstance(focused, Input | Button):
            return
        if isinstance(focused, RadioSet):
            cursor = next((b for b in focused.query(RadioButton) if b.has_class("-selected")), None)
            if cursor is not None and not cursor.value:
                return
        event.stop()
        event.prevent_default()
        self.action_create()

    # --- reading the form ------------------------------------------------------------------------------------

    def _pressed(self, set_id: str, prefix: str) -> str | None:
        for button in self.query_one(f"#{set_id}", RadioSet).query(Choice):
            if button.value and button.id is not None:
                return button.id.removeprefix(prefix)
        return None

    def _press(self, set_id: str, value: str) -> None:
        for button in self.query_one(f"#{set_id}", RadioSet).query(Choice):
            button.value = button.id == f"{set_id}-{value}"

    @property
    def mode(self) -> str:
        return self._pressed("mode", "mode-") or "standard"

    @property
    def profile(self) -> str:
        return profile_for(Mode(self.mode), Profile(self._pressed("profile", "profile-") or "refresh")).value

    def problems(self) -> list[str]:
        """Everything wrong with the form, each as one short sentence; empty when it can be created."""
        out: list[str] = []
        if not self._chosen_decks():
            out.append("Decks: pick at least one deck.")
        seats = parse_int(self.query_one("#seats", Input).value)
        limits = seat_range(self.mode, self.profile)
        if seats is None:
            out.append(f"Seats: type a number from {limits.low} to {limits.high}.")
        elif (problem := limits.problem(seats)) is not None:
            out.append(problem)
        if self.mode == Mode.STANDARD:
            target = parse_int(self.query_one("#target", Input).value)
            if target is None or not TARGET_RANGE[0] <= target <= TARGET_RANGE[1]:
                out.append(f"Target score: a number from {TARGET_RANGE[0]} to {TARGET_RANGE[1]}.")
        else:
            storytells = parse_int(self.query_one("#storytells", Input).value)
            if storytells is None or not STORYTELLS_RANGE[0] <= storytells <= STORYTELLS_RANGE[1]:
                out.append(f"Storytells: a number from {STORYTELLS_RANGE[0]} to {STORYTELLS_RANGE[1]}.")
        return out

    def _chosen_decks(self) -> tuple[str, ...]:
        return tuple(name for name in self.decks if self.query_one(f"#deck-{name}", Tick).value)

    def options(self) -> TableOptions:
        """The form as TableOptions; only meaningful when `problems()` is empty."""
        standard = self.mode == Mode.STANDARD
        return TableOptions(
            mode=self.mode,
            profile=self.profile,
            decks=self._chosen_decks(),
            seats=parse_int(self.query_one("#seats", Input).value),
            target=(parse_int(self.query_one("#target", Input).value) or 30) if standard else self.initial.target,
            storytells=self.initial.storytells
            if standard
            else (parse_int(self.query_one("#storytells", Input).value) or 1),
            first=self._pressed("first", "first-") or "first_clue",
            chat_pause=self.query_one("#chat-pause", Tick).value,
            turn_seconds=_seconds(self._pressed("timer", "timer-")),
            reveal_seconds=_seconds(self._pressed("reveal", "reveal-")) or 0,
        )

    # --- reacting --------------------------------------------------------------------------------------------

    def _show_problems(self) -> list[str]:
        problems = self.problems()
        errors = self.query_one("#errors", Static)
        errors.update(Content("\n".join(f"✗ {p}" for p in problems)))
        errors.display = bool(problems)
        for field in ("seats", "target", "storytells"):
            label = {"seats": "Seats", "target": "Target score", "storytells": "Storytells"}[field]
            bad = any(p.startswith(label) for p in problems)
            self.query_one(f"#{field}", Input).set_class(bad, "-invalid")
        return problems

    def _mode_changed(self) -> None:
        mode = self.mode
        profile_set = self.query_one("#profile", RadioSet)
        if mode == Mode.STANDARD:
            profile_set.disabled = False
            self._press("profile", self._profile)
            note = "Refresh: the 2021 rules. Odyssey: up to 12 players."
        else:
            self._press("profile", "odyssey")
            profile_set.disabled = True
            note = f"{mode.capitalize()} games always use the Odyssey rules."
        self.query_one("#profile-note", Static).update(Content(note))
        self.query_one("#target-row").display = mode == Mode.STANDARD
        self.query_one("#storytells-row").display = mode != Mode.STANDARD
        self._rules_changed()

    def _rules_changed(self) -> None:
        limits = seat_range(self.mode, self.profile)
        seats = self.query_one("#seats", Input)
        if not self._seats_touched:
            with seats.prevent(Input.Changed):
                seats.value = str(limits.high)
        pairs = " (even)" if limits.pairs else ""
        self.query_one("#seats-hint", Static).update(Content(f"{limits.low} to {limits.high}{pairs}: the most players"))
        key = self.profile if self.mode == Mode.STANDARD else self.mode
        self.query_one("#players-hint", Static).update(Content(PLAYER_HINTS[key]))
        self._show_problems()

    @on(RadioSet.Changed, "#mode")
    def _on_mode(self) -> None:
        if self._gone():
            return
        self._mode_changed()

    @on(RadioSet.Changed, "#profile")
    def _on_profile(self) -> None:
        if self._gone():
            return
        if self.mode == Mode.STANDARD:
            self._profile = self.profile
        self._rules_changed()

    def _decks_changed(self) -> None:
        chosen = self._chosen_decks()
        cards = sum(self.deck_sizes[name] for name in chosen)
        hint = f"{cards} cards, mixed" if len(chosen) > 1 else f"{cards} cards" if chosen else ""
        self.query_one("#decks-hint", Static).update(Content(hint))

    @on(Checkbox.Changed)
    def _on_tick(self, event: Checkbox.Changed) -> None:
        if self._gone():
            return
        if event.checkbox.id is not None and event.checkbox.id.startswith("deck-"):
            self._decks_changed()
        self._show_problems()

    @on(Input.Changed)
    def _on_input(self, event: Input.Changed) -> None:
        if self._gone():
            return
        if event.input.id == "seats" and event.input.has_focus:
            self._seats_touched = True
        self._show_problems()

    # --- closing ---------------------------------------------------------------------------------------------

    @on(Input.Submitted)
    @on(Button.Pressed, "#create-ok")
    def action_create(self) -> None:
        if self._gone():
            return
        if self._show_problems():
            self.app.bell()
            return
        self.dismiss(self.options())

    @on(Button.Pressed, "#create-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


def _choices_row(label: str, set_id: str, options: Sequence[tuple[object, str]], chosen: object) -> ComposeResult:
    """A row of the form: its label, and a `Choices` of (value, label) options, `chosen` pressed."""
    with Horizontal(classes="row"):
        yield Label(label, classes="field-label")
        with Choices(id=set_id, compact=True, classes="choices"):
            for value, text in options:
                yield Choice(text, value == chosen, id=f"{set_id}-{value}", compact=True)


@lru_cache(maxsize=16)
def deck_size(name: str) -> int:
    """How many cards a built-in deck has (read once per process)."""
    return len(load_builtin(name).cards)


def _seconds(choice: str | None) -> int | None:
    """The timer choice as seconds per phase; None when off."""
    return int(choice) if choice is not None and choice.isdigit() else None


class OptionsScreen(CreateScreen):
    """The create dialog filled in with a table's options, for its host to change before the start: its key bar
    says Change, as its button does."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("f2", "create", "Change", key_display="⏎/F2")]

    def __init__(self, initial: TableOptions, deck_sizes: Mapping[str, int] | None = None) -> None:
        super().__init__(initial, deck_sizes, title="Change the options", ok="Change")
