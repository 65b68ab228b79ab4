"""Small modal screens of the table: a yes/no confirmation and a seat picker. Player text only as plain Content."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from dixit_tui.tui.same_size_resize import SameSizeResize
from dixit_tui.tui.widgets.hanging_text import HangingText
from dixit_tui.tui.widgets.keybar import KeyBar

clock: Callable[[], float] = time.monotonic
"""The typing guard's clock (read at each key: tests set their own)."""

MODAL_CSS = """
    {cls} {
        align: center middle;
        background: $background 60%;
    }
    {cls} > Vertical {
        width: 70;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: thick $primary;
        background: $panel;
        padding: 0 1;
    }
    {cls} .modal-title {
        text-style: bold;
        width: 100%;
        content-align: center middle;
        padding-bottom: 1;
    }
    {cls} VerticalScroll {
        height: auto;
        max-height: 14;
    }
    {cls} Horizontal {
        height: auto;
        align: center middle;
        padding-top: 1;
    }
    {cls} Button {
        margin: 0 1;
        min-width: 12;
    }
"""


class ConfirmScreen(SameSizeResize, ModalScreen[bool | None]):
    """Ask before something final, in a way a burst of typing meant for somewhere else cannot answer "yes".

    - It opens on the safe button ("Not yet", "Stay"): Enter there cancels; `n` and Esc cancel at any time.
    - `y` confirms only `GUARD` seconds after it opened and with no typing key in the last `GUARD` seconds. Keys
      typed before it showed never reach it (the app's key order; the first that would have answered is told here:
      `typed_before_shown`), so the guard covers only a link's round trip and a quick reaction (about 0.45 s); longer
      refused a deliberate `b`, then `y`. A `y` too soon is ignored, never silently: the hint says to press it again.
    - It answers once (a second dismiss would close the screen below). `stale` says why the question no longer
      applies (None while it does); `withdraw(reason)` closes it without an answer and tells the player why.
    The guard reads the module's `clock` (tests drive their own).
    """

    GUARD: ClassVar[float] = 0.45  # seconds from the opening (or the last typing key); tests may set it to 0

    DEFAULT_CSS = (
        MODAL_CSS.replace("{cls}", "ConfirmScreen")
        + """
    ConfirmScreen #confirm-hint {
        width: 100%;
        content-align: center middle;
        color: $text-muted;
        padding-top: 1;
    }
    ConfirmScreen #confirm-hint.-again {
        color: $text-warning;
        text-style: bold;
    }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No", priority=True),
        Binding("left", "app.focus_previous", "Previous", show=False),
        Binding("right", "app.focus_next", "Next", show=False),
    ]

    def __init__(
        self,
        title: str,
        body: Content | str,
        *,
        yes: str = "Yes",
        no: str = "Cancel",
        stale: Callable[[], str | None] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.body = body if isinstance(body, Content) else Content(body)
        self.yes_label = yes
        self.no_label = no
        self.stale = stale
        self.answered = False
        self.again = False  # a confirming key came too soon: the hint asks for it again
        self.early: str | None = None  # an answering key typed before the dialog opened, dropped: the hint tells it
        self._quiet_since = clock()  # opened, or the last typing key (the guard counts from there)
        self._shown_ready: bool | None = None  # what the hint shows
        self._guard: Timer | None = None
        self._withdrawn: str | None = None  # withdrawn while another screen was on top: close when back on top

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content(self.title_text), classes="modal-title", markup=False)
            with VerticalScroll():
                yield HangingText(self.body, id="confirm-body")  # (a card's text wraps under its text)
            with Horizontal():
                yield Button(Content(self.yes_label), id="yes", variant="primary")
                yield Button(Content(self.no_label), id="no")
            self._shown_ready = self.ready
            yield Static(self._hint(self._shown_ready), id="confirm-hint", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        # The safe button has the focus. Queried, not assumed: an answer that came before the mount (a key typed
        # at once) has already closed this screen and its buttons are gone.
        for button in self.query("#no").results(Button):
            button.focus()
        self._hold()

    @property
    def ready(self) -> bool:
        """May `y` or the confirm button answer now: `GUARD` seconds since the dialog opened or the last typing key."""
        return self.GUARD <= 0 or clock() - self._quiet_since >= self.GUARD

    def _hint(self, ready: bool) -> Content:
        if self.again:  # (until the answer: the dialog is ready a moment later, the words must still be there)
            return Content(f"Too soon: press y again to {self.yes_label.lower()} · n or Esc: {self.no_label}")
        if self.early is not None:
            name = {"escape": "Esc"}.get(self.early, self.early)
            then = f"press y again to {self.yes_label.lower()}" if name == "y" else f"n or Esc: {self.no_label}"
            return Content(f"{name} came before this showed and did nothing: {then}")
        if ready:
            return Content(f"y: {self.yes_label} · n or Esc: {self.no_label}")
        return Content("Read it first: y works in a moment. · n or Esc: " + self.no_label)

    def _show_hint(self) -> None:
        ready = self.ready
        for hint in self.query("#confirm-hint").results(Static):
            hint.update(self._hint(ready))
            hint.set_class(self.again or self.early is not None, "-again")
        if ready != self._shown_ready:
            self._shown_ready = ready
            self.refresh_bindings()

    def _hold(self) -> None:
        """(Re)start the guard: not ready until GUARD seconds pass without a typing key."""
        if self.answered:
            return
        self._quiet_since = clock()
        self._wait_until_ready()
        if self._shown_ready != self.ready:
            self._show_hint()

    def _wait_until_ready(self) -> None:
        if self._guard is not None:
            self._guard.stop()
            self._guard = None
        left = self.GUARD - (clock() - self._quiet_since)
        if left > 0 and not self.answered:
            self._guard = self.set_timer(left + 0.01, self._arm)

    def _arm(self) -> None:
        self._guard = None
        if self.answered:
            return
        self._show_hint()
        if not self.ready:
            self._wait_until_ready()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "answer" and parameters == (True,) and not self.ready:
            return None  # shown dimmed until ready
        return True

    def on_key(self, event: events.Key) -> None:
        # Runs before the bindings (they are checked when the key has bubbled up to the app).
        if self.answered:
            return
        on_yes = self.focused is not None and self.focused.id == "yes"
        confirming = event.key == "y" or (on_yes and event.key in ("enter", "space"))
        if confirming:
            if not self.ready:
                event.stop()  # a confirming key too soon: ignored (it never reaches the bindings), and said so
                self._refuse()
            return
        # A burst of typing into a dialog left open (the `y` of "ready?") is not an answer: any other typing key
        # puts the guard back on, so `y` counts only after a quiet moment again.
        if event.is_printable or event.key in ("enter", "space", "backspace", "delete"):
            self._hold()

    def typed_before_shown(self, key: str) -> None:
        """`key` was typed at the screen below before this dialog opened (in one burst with the key that opened it),
        and the app dropped it: if it would have answered the question, the hint says so, once (a `y` first)."""
        if self.answered or key not in ("y", "n", "escape") or self.early == "y":
            return
        if self.early is None or key == "y":
            self.early = key
            self._show_hint()

    def _refuse(self) -> None:
        self.again = True
        self.app.bell()
        self._show_hint()

    def on_screen_resume(self) -> None:
        if self._withdrawn is not None:
            self._close(None)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_answer(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        if self.answered:
            return
        if answer and not self.ready:
            self._refuse()
            return
        self._close(answer)

    def withdraw(self, reason: str) -> None:
        """Close without an answer, because the question no longer applies; a notice says why."""
        if self.answered or self._withdrawn is not None:
            return
        self._withdrawn = reason
        self.app.notify(f"“{self.title_text}” was closed: {reason}.", markup=False)
        if self.app.screen is self:
            self._close(None)

    def _close(self, answer: bool | None) -> None:
        if self.answered or self.app.screen is not self:  # never dismiss from below: that would pop another screen
            return
        self.answered = True
        if self._guard is not None:
            self._guard.stop()
        self.dismiss(answer)


class SeatPicker(SameSizeResize, ModalScreen[int | None]):
    """Pick one seat from a list of (seat, label) pairs. Enter picks, Esc cancels."""

    DEFAULT_CSS = (
        MODAL_CSS.replace("{cls}", "SeatPicker")
        + """
    SeatPicker OptionList {
        height: auto;
        max-height: 14;
    }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", priority=True)]

    def __init__(self, title: str, seats: Sequence[tuple[int, Content]]) -> None:
        super().__init__()
        self.title_text = title
        self.seats = tuple(seats)
        self.answered = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content(self.title_text), classes="modal-title", markup=False)
            yield OptionList(*(Option(label, id=f"seat-{seat}") for seat, label in self.seats), markup=False)
            with Horizontal():
                yield Button(Content("Cancel"), id="cancel")
        yield KeyBar()

    def on_mount(self) -> None:
        for options in self.query(OptionList):  # closed already (Esc typed at once): nothing to focus
            options.focus()

    @on(OptionList.OptionSelected)
    def picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._close(self.seats[event.option_index][0])

    @on(Button.Pressed, "#cancel")
    def cancelled(self) -> None:
        self._close(None)

    def action_cancel(self) -> None:
        self._close(None)

    def _close(self, seat: int | None) -> None:
        """Answer once (Enter twice at once must not close the screen below too)."""
        if self.answered or self.app.screen is not self:
            return
        self.answered = True
        self.dismiss(seat)
