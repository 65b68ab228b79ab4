"""The table's log and chat in one feed, with a chat input. Log lines read `· text`, chat lines `name: text`, team
lines (team mode: only your teammate sees them) `name (team): text`.

It posts `ChatPanel.Send(text, team)` on Enter and never talks to a session; in team mode the box sends to the team
or the table (`to_team`; ctrl+t switches). Every line is rich `Text` built from plain strings, never markup.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip
from textual.widgets import Input, Label

from dixit_tui.coordinator import ChatLine
from dixit_tui.sanitize import CHAT_MAX
from dixit_tui.textual_host.process_caches import shared_cache
from dixit_tui.tui.widgets.kept_lines import KeptLines, RowsMadeOf
from dixit_tui.tui.widgets.picture_view import blank
from dixit_tui.tui.widgets.text_field import RoomLeft, TextField

FEED_MAX = 400


def log_text(line: str) -> Text:
    return Text.assemble(("· ", "dim"), (line, "italic"))


def chat_text(line: ChatLine) -> Text:
    if line.team is not None:
        return Text.assemble((line.name, "bold"), (" (team)", "bold green"), ": ", (line.text, "green"))
    who = line.name if line.seat is not None else f"{line.name} (watching)"
    return Text.assemble((who, "bold"), ": ", line.text)


def feed_order(log: Sequence[str], log_total: int, chat: Sequence[ChatLine]) -> list[tuple[str, ...] | ChatLine]:
    """The table's last log and chat lines in the order they came, for a screen that opens on the table (a player
    back after a drop read a line said in the lobby under "ben is back"): each chat line after the log lines noted
    before it (`after`; None: right after the line before it). `log` holds the last of `log_total` lines noted."""
    first = log_total - len(log)  # the number of the oldest log line kept
    parts: list[tuple[str, ...] | ChatLine] = []
    at = 0  # log lines placed so far
    for line in chat:
        upto = at if line.after is None else max(at, min(len(log), line.after - first))
        if upto > at:
            parts.append(tuple(log[at:upto]))
            at = upto
        parts.append(line)
    if at < len(log):
        parts.append(tuple(log[at:]))
    return parts


shared_rows = shared_cache(2048)
"""A feed line's rows (its text and styles, width and style), for every session showing it."""

TABLE_HINT = "Chat: press c, type, Enter"
PAUSED_HINT = "Chat paused until the reveal"
# In team mode the box's target ("Table:" or "Team:") shows before it: the hint does not say "Chat" again.
TEAM_TABLE_HINT = "press c, type, Enter · T: your team"
TEAM_PAUSED_HINT = "paused until the reveal · ctrl+t: your team"


class _Entry:
    """One line of the feed, with its rows as last drawn (kept while the width and style stay the same)."""

    __slots__ = ("key", "rows", "text")

    def __init__(self, text: Text) -> None:
        self.text = text
        self.key: tuple[int, Style] | None = None
        self.rows: list[Strip] = []


class Feed(KeptLines, can_focus=False):
    """The log and chat lines, newest at the bottom, drawn with as little work as it can.

    Each line is wrapped once (its rows are kept until the width changes), so a new line builds the strips of that
    line only; the feed never asks for a layout (it fills the room it is given) and has no scrollbar to redraw. The
    mouse wheel (and PgUp/PgDn in the chat box) scrolls back; while scrolled back, new lines leave the rows in
    place and the last row says how many newer rows there are (scrolling down to the end shows them)."""

    DEFAULT_CSS = """
    Feed {
        height: 1fr;
        background: $surface;
        padding: 0 1;
    }
    Feed > .feed--more {
        text-style: bold reverse;
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"feed--more"}
    ALLOW_SELECT = False

    def __init__(self, *, max_lines: int = FEED_MAX, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._entries: deque[_Entry] = deque(maxlen=max_lines)
        self.back = 0  # rows scrolled back from the newest (0: the newest row is the last row shown)
        self._shown: list[Strip] | None = None  # the rows on screen, top to bottom (None: to be worked out)
        self._shown_at = Size(0, 0)  # the content size they were worked out for
        self._style_kept: tuple[tuple[int, ...], Style] | None = None

    def _text_style(self) -> Style:
        """`rich_style` (worked out from every ancestor's styles at each call), kept until one of those changes."""
        key = tuple(node.styles._cache_key for node in self.ancestors_with_self)
        kept = self._style_kept
        if kept is None or kept[0] != key:
            kept = self._style_kept = (key, self.rich_style)
        return kept[1]

    @property
    def lines(self) -> list[Text]:
        """Every line kept, oldest first."""
        return [entry.text for entry in self._entries]

    def _rows_of(self, entry: _Entry, width: int, style: Style) -> list[Strip]:
        key = (width, style)
        if entry.key != key:
            text = entry.text
            shared_key = (text.plain, tuple(text.spans), text.style, text.justify, text.overflow, width, style)
            rows = shared_rows.get(shared_key)  # the same line at every screen of the table: wrapped once
            if rows is None:
                console = self.app.console
                options = console.options.update(width=width, height=None, no_wrap=False, overflow="fold")
                lines = console.render_lines(text, options, style=style, pad=False, new_lines=False)
                rows = [Strip(line).crop_extend(0, width, style) for line in lines] or [Strip.blank(width, style)]
                shared_rows.set(shared_key, rows)
            entry.rows = rows
            entry.key = key
        return entry.rows

    def _all_rows(self, want: int, width: int | None = None) -> list[Strip]:
        """The newest `want` rows (or all there are), oldest first (`width`: the content's, when known)."""
        width, style = self.content_size.width if width is None else width, self._text_style()
        rows: list[Strip] = []
        for entry in reversed(self._entries):
            rows[:0] = self._rows_of(entry, width, style)
            if len(rows) >= want:
                break
        return rows[-want:] if want else []

    def shown_rows(self, size: Size | None = None) -> list[Strip]:
        """The rows shown now, top to bottom (`size`: the content's, when known). At the end (not scrolled back) the
        top row starts a line: a line that does not fit whole above is left out (the top row showed the end of one
        alone, "clue."), unless the newest line alone is taller than the feed."""
        if self._shown is None:
            size = self.content_size if size is None else size  # (looked up once: each lookup asks the compositor)
            height, width = size.height, size.width
            if self.back:
                rows = self._all_rows(height + self.back, width)
                self.back = max(0, min(self.back, len(rows) - height))
                self._shown = rows[max(0, len(rows) - height - self.back) : len(rows) - self.back]
            else:
                self._shown = self._end_rows(height, width)
            self._shown_at = size
        return self._shown

    def _end_rows(self, height: int, width: int) -> list[Strip]:
        """The rows shown at the end of the feed: the newest lines that fit whole, under blank rows where the next
        older line does not fit whole; all of them while the feed is short; the newest line's last rows when it
        alone is taller than the feed."""
        if height <= 0:
            return []
        style = self._text_style()
        rows: list[Strip] = []
        for entry in reversed(self._entries):
            line = self._rows_of(entry, width, style)
            if len(rows) + len(line) > height:
                if not rows:
                    return line[-height:]
                return [blank(width, style)] * (height - len(rows)) + rows  # (the same strips at every screen)
            rows[:0] = line
        return rows

    def write_line(self, text: Text) -> None:
        self.write_lines((text,))

    def write_lines(self, texts: Iterable[Text]) -> None:
        """Add lines at the bottom, and draw the rows they moved or added once for all of them (the reveal's lines
        come together)."""
        entries = [_Entry(text) for text in texts]
        if not entries:
            return
        self._entries.extend(entries)
        size = self.content_size
        width, height = size
        if width <= 0 or height <= 0:
            self._shown = None
            return
        if self.back:  # scrolled back: the rows stay where the reader is; only the last row's count changes
            style = self._text_style()
            self.back += sum(len(self._rows_of(entry, width, style)) for entry in entries)
            self._shown = None
            self.refresh(Region(0, height - 1, width, 1))
            return
        shown = self._shown
        self._shown = None
        if shown is None:
            self.refresh()
            return
        new = self.shown_rows(size)
        changed = [
            y for y in range(max(len(shown), len(new))) if y >= len(shown) or y >= len(new) or shown[y] is not new[y]
        ]
        if changed:  # the rows that moved or are new (all of them once the feed is full: it scrolls)
            self.refresh(Region(0, changed[0], width, changed[-1] - changed[0] + 1))

    def scroll_rows(self, rows: int) -> None:
        """Scroll back by `rows` (forward when negative); a scroll past either end stops there."""
        height = self.content_size.height
        total = len(self._all_rows(height + self.back + max(rows, 0)))
        back = max(0, min(self.back + rows, total - height))
        if back != self.back:
            self.back = back
            self._shown = None
            self.refresh()

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.scroll_rows(3)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.scroll_rows(-3)

    def on_resize(self) -> None:
        if self._shown is not None and self._shown_at == self.content_size:
            return  # drawn at this size already (a new screen's first drawing, before its widgets' first Resize)
        self._shown = None
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._shown = None

    def rows_made_of(self, y: int, height: int) -> RowsMadeOf | None:
        """The rows shown there, and the text style of the blank rows below them (what `render_line` reads; None
        while scrolled back: the last row counts the newer rows)."""
        if self.back:
            return None
        rows = self.shown_rows()
        count = len(rows)
        read = (self._text_style(),) if y + height > count else ()  # (the blank rows below the feed's are in it)
        return read, [rows[i] if 0 <= i < count else None for i in range(y, y + height)]

    def render_line(self, y: int) -> Strip:
        width = self.content_size.width
        rows = self.shown_rows()
        if self.back and y == self.content_size.height - 1 and width > 0:
            more = f" ↓ {self.back} newer row{'s' if self.back != 1 else ''}: scroll down "
            strip = Strip([Segment(more, self.get_component_rich_style("feed--more"))])
            return strip.crop_extend(0, width, self._text_style())
        if y < len(rows):
            return rows[y]
        return blank(width, self._text_style())


class ChatBoxRow(Horizontal, KeptLines):
    """The chat box's row: the box, whom it sends to, the room left."""


class ChatPanel(Vertical, KeptLines):
    DEFAULT_CSS = """
    ChatPanel {
        height: 6;
        border-top: round $border-blurred;
        border-title-align: left;
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
        Binding("pageup", "scroll_feed(-1)", "Older", show=False),
        Binding("pagedown", "scroll_feed(1)", "Newer", show=False),
    ]

    class Send(Message):
        def __init__(self, panel: ChatPanel, text: str, team: bool = False, typed: str | None = None) -> None:
            super().__init__()
            self.panel = panel
            self.text = text
            self.team = team  # to your teammate only (team mode)
            self.typed = text if typed is None else typed  # the box's text as Enter sent it (see `sent`)

        def sent(self) -> None:
            """The line went: it leaves the box; what you typed behind its Enter meanwhile stays (it was emptied
            whole: "ok" typed on right behind the Enter was lost)."""
            box = self.panel.input
            value = box.value
            if value.startswith(self.typed):
                box.value = value[len(self.typed) :]
                box.cursor_position = len(box.value)

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
        yield Feed(id="feed")
        with ChatBoxRow(id="chat-line"):
            yield Label("Table:", id="chat-to", markup=False)
            yield TextField(
                placeholder=TABLE_HINT, id="chat-input", limit=CHAT_MAX, what="Your message", counter="chat-left"
            )
            yield RoomLeft(id="chat-left", markup=False)

    @property
    def feed(self) -> Feed:
        return self.query_one("#feed", Feed)

    @property
    def input(self) -> Input:
        return self.query_one("#chat-input", Input)

    def add_log(self, lines: Iterable[str]) -> None:
        self.feed.write_lines([log_text(line) for line in lines])

    def add_chat(self, line: ChatLine) -> None:
        self.feed.write_line(chat_text(line))

    def set_paused(self, paused: bool, mate: str | None = None) -> None:
        """The table's chat is paused (from the clue until the reveal); `mate`: team chat is open with that teammate.
        A pause turns the box to the team; its end turns it back only while the box is empty and unfocused (a team
        line typed at the reveal must never go to the whole table)."""
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

    def action_scroll_feed(self, pages: int) -> None:
        """PgUp/PgDn in the chat box: the log a page back or on (a page: its height less one row, for context)."""
        feed = self.feed
        feed.scroll_rows(-pages * max(1, feed.content_size.height - 1))

    def action_switch_to(self) -> None:
        self.set_to_team(not self.to_team)

    def _show_target(self) -> None:
        team_chat = self.mate is not None
        self.set_class(team_chat, "-team-chat")
        self.set_class(self.to_team, "-to-team")
        target = "Team:" if self.to_team else "Table:"
        label = self.query_one("#chat-to", Label)
        if str(label.content) != target:  # (an update lays the screen out)
            label.update(target)
        box = self.input
        if self.to_team:
            box.placeholder = f"only {self.mate} sees this · ctrl+t: table"
        elif self.paused:
            box.placeholder = TEAM_PAUSED_HINT if team_chat else PAUSED_HINT
        else:
            box.placeholder = TEAM_TABLE_HINT if team_chat else TABLE_HINT
        if self.paused:
            title = "Log & chat (table chat paused; team chat open)" if team_chat else ""
            self.border_title = title or "Log & chat (chat paused until the reveal)"
        elif self.to_team:  # (it said "table chat open again", before any pause too, cut at 80 columns: seen playing)
            self.border_title = "Log & chat (your box sends to the team)"
        else:
            self.border_title = "Log & chat"

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "chat-input":
            return
        event.stop()
        text = event.value.strip()
        if not text:
            return
        self.post_message(self.Send(self, text, self.to_team, event.value))
