"""The SSH layer's test app: greets the player and shows the terminal size (the e2e tests of the SSH layer serve it
instead of the game, so they test the layer alone)."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, Static

from dixit_tui.sanitize import clean_name
from dixit_tui.ssh.session_runner import SessionIdentity
from dixit_tui.ssh.terminal import TerminalInfo


def display_name(raw: str, limit: int = 20) -> str:
    """The project's one sanitiser (no escapes, controls or format characters), capped; "player" if nothing is left."""
    return clean_name(raw)[:limit] or "player"


class PlaceholderApp(App[None]):
    """Welcome, NAME. `q` quits (exit status 0), Esc is counted on screen."""

    CSS = """
    Screen { align: center middle; }
    #card { width: auto; height: auto; border: round $accent; padding: 1 4; }
    #card > Static { width: auto; }
    """
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit"),
        Binding("escape", "escape", "Esc"),
    ]

    def __init__(self, name: str, *, key_fingerprint: str | None = None, command: str | None = None) -> None:
        super().__init__()
        self._player = display_name(name)
        self._key_fingerprint = key_fingerprint
        self._command = display_name(command, 60) if command else None
        self._escapes = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="card"):
            yield Static(Text(f"Welcome, {self._player}"), id="welcome")
            yield Static(Text(f"key: {self._key_fingerprint or 'none (guest)'}"), id="key")
            if self._command:
                yield Static(Text(f"command: {self._command}"), id="command")
            yield Static(Text(self._size_text()), id="size")
            yield Static(Text("Esc pressed 0 times"), id="escape")
        yield Footer()

    def _size_text(self) -> str:
        return f"terminal {self.size.width}x{self.size.height}"

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#size", Static).update(Text(f"terminal {event.size.width}x{event.size.height}"))

    def action_escape(self) -> None:
        self._escapes += 1
        self.query_one("#escape", Static).update(Text(f"Esc pressed {self._escapes} times"))


def placeholder_app_factory(identity: SessionIdentity, terminal: TerminalInfo) -> App[Any]:
    return PlaceholderApp(identity.username, key_fingerprint=identity.key_fingerprint, command=terminal.command)
