"""The table's log and chat in one feed, with a chat input. Log lines read `· text`, chat lines `name: text`, team
lines (team mode: only your teammate sees them) `name (team): text`.

Pure widget: it posts `ChatPanel.Send(text, team)` when the player presses Enter and never talks to a session. In
team mode the box sends to the team or the table (`to_team`, shown before the box; ctrl+t switches). Every
line is player text (names, clues, chat): it is written as rich `Text` built from plain strings, never markup.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Self

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.geometry import Region
from textual.message import Message
from textual.widgets import Input, Label, RichLog

from dixit_tui.coordinator import ChatLine

CHAT_MAX = 200
FEED_MAX = 400


def log_text(line: str) -> Text:
    return Text.assemble(("· ", "dim"), (line, "italic"))


def chat_text(line: ChatLine) -> Text:
    if line.team is not None:
        return Text.assemble((line.name, "bold"), (" (team)", "bold green"), ": ", (line.text, "green"))
    who = line.name if line.seat is not None else f"{line.name} (watching)"
    return Text.assemble((who, "bold"), ": ", line.text)


TABLE_HINT = "Chat: press c, type, Enter"
PAUSED_HINT = "Chat paused until the reveal"


class FeedLog(RichLog):
    """A RichLog that draws a new line with as little work as it can: it scrolls to the line in the same frame (RichLog
    scrolls a frame later, so every line cost two repaints of the whole log), and once its scrollbar is showing a new
    line lays out nothing but the log (RichLog's growing size asks for a layout of the whole screen)."""

    _quiet_layout = False

    def write_line(self, text: Text) -> None:
        if not self._size_known:  # kept until the log has a size, then written and scrolled as RichLog does
            self.write(text)
            return
        at_end = self.is_vertical_scroll_end or self.max_scroll_y == 0
        self._quiet_layout = self.show_vertical_scrollbar  # showing it already, and it stays: no layout to do
        try:
            self.write(text, scroll_end=False)
        finally:
            self._quiet_layout = False
        if at_end:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        if layout and self._quiet_layout:
            self._scroll_update(self.virtual_size)  # the scrollbar's thumb, as a layout would set it
            layout = False
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


class ChatPanel(Vertical):
    DEFAULT_CSS = """
    ChatPanel {
        height: 6;
        border-top: round $border-blurred;
        border-title-align: left;
    }
    ChatPanel > RichLog {
        height: 1fr;
        background: $surface;
        scrollbar-size-vertical: 1;
        padding: 0 1;
    }
    ChatPanel > #chat-line {
        height: 1;
    }
    ChatPanel #chat-to {
        display: none;
        width: auto;
        padding: 0 0 0 1;
        text-style: bold;
    }
    ChatPanel.-team-chat #chat-to {
        display: block;
    }
    ChatPanel.-to-team #chat-to {
        background: $success;
        color: $background;
        padding: 0 1;
    }
    ChatPanel Input {
        width: 1fr;
        height: 1;
        border: none;
        padding: 0 1;
    }
    ChatPanel Input:focus {
        border: none;
        text-style: bold;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+t", "switch_to", "Team/Table", show=False),
    ]

    class Send(Message):
        def __init__(self, panel: ChatPanel, text: str, team: bool = False) -> None:
            super().__init__()
            self.panel = panel
            self.text = text
            self.team = team  # to your teammate only (team mode)

        @property
        def control(self) -> ChatPanel:
            return self.panel

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.paused = False
        self.mate: str | None = None  # team mode, once the game runs: your teammate's name (team chat is open)
        self.to_team = False  # the box sends to your teammate only
        self.border_title = "Log & chat"

    def compose(self) -> ComposeResult:
        yield FeedLog(id="feed", wrap=True, markup=False, highlight=False, min_width=20, max_lines=FEED_MAX)
        with Horizontal(id="chat-line"):
            yield Label("Table:", id="chat-to", markup=False)
            yield Input(placeholder=TABLE_HINT, id="chat-input", max_length=CHAT_MAX)

    @property
    def feed(self) -> FeedLog:
        return self.query_one("#feed", FeedLog)

    @property
    def input(self) -> Input:
        return self.query_one("#chat-input", Input)

    def add_log(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.feed.write_line(log_text(line))

    def add_chat(self, line: ChatLine) -> None:
        self.feed.write_line(chat_text(line))

    def set_paused(self, paused: bool, mate: str | None = None) -> None:
        """The table's chat is paused (from the clue until the reveal); `mate`: team chat is open with that teammate.
        A pause turns the box to the team. Its end turns it back to the table only while the box is empty and
        unfocused: a team line being typed at the reveal must never go to the whole table (`c` aims it at the
        table again, ctrl+t switches)."""
        if paused == self.paused and mate == self.mate:
            return
        if paused and not self.paused:
            self.to_team = mate is not None
        elif self.paused and not paused and self.to_team:
            box = self.input
            self.to_team = bool(box.value) or box.has_focus
        self.paused, self.mate = paused, mate
        if mate is None:
            self.to_team = False
        self._show_target()

    def set_to_team(self, team: bool) -> None:
        """Send to the team (when team chat is open) or to the table."""
        self.to_team = team and self.mate is not None
        self._show_target()

    def action_switch_to(self) -> None:
        self.set_to_team(not self.to_team)

    def _show_target(self) -> None:
        team_chat = self.mate is not None
        self.set_class(team_chat, "-team-chat")
        self.set_class(self.to_team, "-to-team")
        self.query_one("#chat-to", Label).update("Team:" if self.to_team else "Table:")
        box = self.input
        if self.to_team:
            box.placeholder = f"only {self.mate} sees this · ctrl+t: table"
        elif self.paused:
            box.placeholder = PAUSED_HINT + (" · ctrl+t: team" if team_chat else "")
        else:
            box.placeholder = TABLE_HINT + (" · T: team" if team_chat else "")
        if self.paused:
            title = "Log & chat (table chat paused; team chat open)" if team_chat else ""
            self.border_title = title or "Log & chat (chat paused until the reveal)"
        elif self.to_team:
            self.border_title = "Log & chat (table chat open again; your box still sends to the team)"
        else:
            self.border_title = "Log & chat"

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "chat-input":
            return
        event.stop()
        text = event.value.strip()
        if not text:
            return
        self.post_message(self.Send(self, text, self.to_team))
