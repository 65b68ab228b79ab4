"""The table's log and chat in one feed, with a chat input. Log lines read `· text`, chat lines `name: text`.

Pure widget: it posts `ChatPanel.Send(text)` when the player presses Enter and never talks to a session. Every
line is player text (names, clues, chat): it is written as rich `Text` built from plain strings, never markup.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Self

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.geometry import Region
from textual.message import Message
from textual.widgets import Input, RichLog

from dixit_tui.coordinator import ChatLine

CHAT_MAX = 200
FEED_MAX = 400


def log_text(line: str) -> Text:
    return Text.assemble(("· ", "dim"), (line, "italic"))


def chat_text(line: ChatLine) -> Text:
    who = line.name if line.seat is not None else f"{line.name} (watching)"
    return Text.assemble((who, "bold"), ": ", line.text)


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
    ChatPanel > Input {
        height: 1;
        border: none;
        padding: 0 1;
    }
    ChatPanel > Input:focus {
        border: none;
        text-style: bold;
    }
    """

    class Send(Message):
        def __init__(self, panel: ChatPanel, text: str) -> None:
            super().__init__()
            self.panel = panel
            self.text = text

        @property
        def control(self) -> ChatPanel:
            return self.panel

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.paused = False
        self.border_title = "Log & chat"

    def compose(self) -> ComposeResult:
        yield FeedLog(id="feed", wrap=True, markup=False, highlight=False, min_width=20, max_lines=FEED_MAX)
        yield Input(placeholder="Chat: press c, type, Enter", id="chat-input", max_length=CHAT_MAX)

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

    def set_paused(self, paused: bool) -> None:
        if paused == self.paused:
            return
        self.paused = paused
        box = self.input
        box.placeholder = "Chat paused until the reveal" if paused else "Chat: press c, type, Enter"
        self.border_title = "Log & chat (chat paused until the reveal)" if paused else "Log & chat"

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "chat-input":
            return
        event.stop()
        text = event.value.strip()
        if not text:
            return
        self.post_message(self.Send(self, text))
