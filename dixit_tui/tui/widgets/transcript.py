"""The game's transcript in a read-only text area: select with the mouse or copy it all with one key.

Its lines are wrapped here, at the area's width, with a hanging indent (a card's text that wraps lines up under its
text, not at the left edge: `hanging`); Textual's soft wrap starts every wrapped row at the edge. `y` copies the
transcript as it is, unwrapped."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from dixit_tui.tui.hanging import hanging_text
from dixit_tui.tui.same_size_resize import SameSizeResize
from dixit_tui.tui.widgets.keybar import KeyBar


class TranscriptScreen(SameSizeResize, ModalScreen[None]):
    DEFAULT_CSS = """
    TranscriptScreen { align: center middle; }
    TranscriptScreen > Vertical { width: 96%; height: 92%; border: round $accent; background: $surface; }
    TranscriptScreen TextArea { height: 1fr; scrollbar-gutter: stable; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", priority=True),
        Binding("y", "copy", "Copy all"),
    ]

    def __init__(self, code: str, lines: list[str]) -> None:
        super().__init__()
        self.code = code
        self.text = "\n".join([f"dixit-tui table {code}", *lines])

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                "Transcript: y copies it all to your clipboard (your terminal must allow it); Esc closes.", markup=False
            )
            yield TranscriptText(self.text)
            yield KeyBar()

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.text)
        self.notify("Transcript copied.", markup=False)

    def action_close(self) -> None:
        self.dismiss(None)


class TranscriptText(TextArea):
    """The transcript, wrapped with a hanging indent at its width (again when the width changes). Textual's soft wrap
    stays on, for a row the width worked out here would not hold (none should)."""

    def __init__(self, text: str) -> None:
        super().__init__(text, read_only=True, soft_wrap=True, id="transcript")
        self.transcript = text
        self._wrapped_at = -1

    def on_resize(self) -> None:
        width = self.wrap_width
        if width > 0 and width != self._wrapped_at:
            self._wrapped_at = width
            self.load_text(hanging_text(self.transcript, width))
