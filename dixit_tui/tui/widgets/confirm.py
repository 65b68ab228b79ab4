"""Small modal screens of the table: a yes/no confirmation and a seat picker. Player text only as plain Content."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from dixit_tui.tui.widgets.keybar import KeyBar

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


class ConfirmScreen(ModalScreen[bool]):
    """Ask before something final. `y`/Enter on the confirm button confirms, `n`/Esc cancels."""

    DEFAULT_CSS = MODAL_CSS.replace("{cls}", "ConfirmScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
        Binding("left", "app.focus_previous", "Previous", show=False),
        Binding("right", "app.focus_next", "Next", show=False),
    ]

    def __init__(
        self, title: str, body: Content | str, *, yes: str = "Yes", no: str = "Cancel", focus_yes: bool = True
    ) -> None:
        super().__init__()
        self.title_text = title
        self.body = body if isinstance(body, Content) else Content(body)
        self.yes_label = yes
        self.no_label = no
        self.focus_yes = focus_yes

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content(self.title_text), classes="modal-title", markup=False)
            with VerticalScroll():
                yield Static(self.body, id="confirm-body", markup=False)
            with Horizontal():
                yield Button(Content(self.yes_label), id="yes", variant="primary")
                yield Button(Content(self.no_label), id="no")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#yes" if self.focus_yes else "#no", Button).focus()

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class SeatPicker(ModalScreen[int | None]):
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
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, seats: Sequence[tuple[int, Content]]) -> None:
        super().__init__()
        self.title_text = title
        self.seats = tuple(seats)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content(self.title_text), classes="modal-title", markup=False)
            yield OptionList(*(Option(label, id=f"seat-{seat}") for seat, label in self.seats), markup=False)
            with Horizontal():
                yield Button(Content("Cancel"), id="cancel")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.seats[event.option_index][0])

    @on(Button.Pressed, "#cancel")
    def cancelled(self) -> None:
        self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)
