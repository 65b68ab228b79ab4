"""`CodeBoxes`: the lobby's row of code boxes (join by code, reconnect code) and the lines under it (the shell hint,
a word to keyless players). One widget draws every word of it; its only children are the two text boxes, laid over
its first three rows (their margins leave room for the labels it draws). It took a row container, two labels and two
texts, each a widget composed, styled, laid out and drawn for itself in every session."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Input

LABELS = (("Join by code", 0), ("Reconnect code", 31))
"""Each label and its column (in the padding): the first at the start, the second after the first box (16 wide) and two
blank cells; each box starts a cell after its label (the margins in lobby.tcss)."""

BOX_ROWS = 3  # a text box's height: the labels sit on its middle row


class CodeBox(Input):
    """A code box of the lobby. Its key bar says what Enter does there and that Esc goes back to the list: Textual's
    Input shows no key of its own and hides the lobby's letters, so the bar said only "f1 Help"."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "screen.focus_list", "Back to the list")]


class JoinBox(CodeBox):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "submit", "Join")]


class ReconnectBox(CodeBox):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "submit", "Reconnect")]


class CodeBoxes(Widget):
    COMPONENT_CLASSES: ClassVar[set[str]] = {"code-boxes--note"}

    def __init__(self, note: str | None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hint = Content("")
        self.note = note  # a line under the hint (for a player with no SSH key), or none

    def compose(self) -> ComposeResult:
        yield JoinBox(placeholder="K7QF", max_length=12, id="join-code", classes="code-input")
        yield ReconnectBox(placeholder="ABC-DEF-GHJ-KMN", max_length=24, id="reconnect-code", classes="code-input")

    def show_hint(self, hint: Content) -> None:
        """The lines under the boxes: `hint`, then the note, if any (each wrapped at the width)."""
        self.hint = hint
        self._fit()
        self.refresh()

    def on_resize(self) -> None:
        self._fit()

    def _notes(self) -> list[Content]:
        notes = [self.hint, Content(self.note)] if self.note else [self.hint]
        width = max(1, self.content_size.width or self.app.size.width - 2)
        return [line for note in notes for line in note.wrap(width)]

    def _fit(self) -> None:
        rows = BOX_ROWS + len(self._notes())
        if self.styles.height is None or self.styles.height.value != rows:
            self.styles.height = rows

    def render(self) -> Content:
        labels = Content("")
        for label, x in LABELS:
            labels = Content.assemble(labels, " " * (x - labels.cell_length), label)
        note = self.get_visual_style("code-boxes--note")
        lines = [Content(""), labels, Content(""), *(line.stylize_before(note) for line in self._notes())]
        return Content("\n").join(lines)
