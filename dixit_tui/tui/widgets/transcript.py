"""The game's transcript in a read-only text area: select with the mouse or copy it all with one key."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from dixit_tui.tui.same_size_resize import SameSizeResize
from dixit_tui.tui.widgets.keybar import KeyBar


class TranscriptScreen(SameSizeResize, ModalScreen[None]):
    DEFAULT_CSS = """
    TranscriptScreen { align: center middle; }
    TranscriptScreen > Vertical { width: 96%; height: 92%; border: round $accent; background: $surface; }
    TranscriptScreen TextArea { height: 1fr; }
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
            yield TextArea(self.text, read_only=True, soft_wrap=True, id="transcript")
            yield KeyBar()

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.text)
        self.notify("Transcript copied.", markup=False)

    def action_close(self) -> None:
        self.dismiss(None)
