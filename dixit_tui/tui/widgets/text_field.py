"""`TextField`: a box for player text with a limit (a clue, a chat line) that never drops text without a word.

Textual's `Input` with a `max_length` drops keys past it, refuses a whole paste that would pass it and keeps only a
paste's first line. Here the room left shows beside the box ("12 left", "3 too many") and Enter past the limit is
refused, the text kept; the box holds `HOLD` times the limit, so a paste lands whole; line breaks (and Ctrl+J) become
spaces; a box you come back to keeps its text, cursor at the end (Textual selected it all: the next key replaced it).
"""

from __future__ import annotations

import re
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.widgets import Input, Label

HOLD = 4  # the box holds this many times the limit
_BREAKS = re.compile(r"[ \t]*(?:\r\n|\r|\n|\t)[ \t]*")


def one_line(text: str) -> str:
    """A pasted text on one line: each line break (and tab), with the spaces around it, becomes one space."""
    return _BREAKS.sub(" ", text)


def room_words(used: int, limit: int) -> str:
    """What the counter beside the box says: "12 left", "0 left", "3 too many"."""
    if used <= limit:
        return f"{limit - used} left"
    return f"{used - limit} too many"


def too_long(what: str, used: int, limit: int) -> str:
    """The refusal of Enter past the limit."""
    over = used - limit
    return f"{what} is {over} character{'s' if over != 1 else ''} too long ({limit} at most): shorten it, then Enter."


class RoomLeft(Label):
    """The counter beside a `TextField` (shown while the box holds text)."""


class TextField(Input):
    """`limit`: the most a sent text may have; `what`: its name in messages ("Your clue"); `counter`: the id of the
    `RoomLeft` beside it (a sibling)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+j", "line_feed", "Line feed", show=False)]

    def __init__(
        self,
        *,
        limit: int,
        what: str,
        counter: str,
        placeholder: str = "",
        id: str | None = None,
        compact: bool = False,
    ) -> None:
        super().__init__(
            placeholder=placeholder, id=id, compact=compact, max_length=HOLD * limit, select_on_focus=False
        )
        self.limit = limit
        self.hold = HOLD * limit  # (max_length, typed)
        self.what = what
        self._counter_id = counter
        self._told_full = False  # "does not fit" said once until the box has room again

    def on_focus(self, event: events.Focus) -> None:
        """Back in the box: what you type goes on after your text (`select_on_focus=False`: nothing selected)."""
        if not event.from_app_focus:
            self.cursor_position = len(self.value)

    @property
    def over(self) -> int:
        """How many characters the text has past the limit (0 within it)."""
        return max(0, len(self.value.strip()) - self.limit)

    def _on_paste(self, event: events.Paste) -> None:
        event.stop()
        event.prevent_default()  # (Input's own handler, which keeps the first line only, would run next)
        text = one_line(event.text)
        if not text:
            return
        selection = self.selection
        start, end = (self.cursor_position, self.cursor_position) if selection.is_empty else selection
        start, end = sorted((start, end))
        room = self.hold - (len(self.value) - (end - start))
        if len(text) > room:
            self.notify(
                f"That paste has {len(text)} characters; the box has room for {max(0, room)} "
                f"({self.what.lower()} may have {self.limit}). Nothing was added.",
                severity="warning",
                markup=False,
            )
            return
        self.replace(text, start, end)

    def action_line_feed(self) -> None:
        """A raw line feed: a space between the words (one, however many come)."""
        before = self.value[: self.cursor_position]
        if before and not before.endswith(" "):
            self.insert_text_at_cursor(" ")

    def restricted(self) -> None:
        """A key typed with the box full: say so (once until there is room again), never drop it silently."""
        if not self._told_full:
            self._told_full = True
            self.notify(
                f"The box is full ({self.hold} characters); {self.what.lower()} may have {self.limit}: shorten it.",
                severity="warning",
                markup=False,
            )

    async def action_submit(self) -> None:
        over = self.over
        if over:
            self.notify(too_long(self.what, self.limit + over, self.limit), severity="warning", markup=False)
            return
        await super().action_submit()

    def _watch_value(self, value: str) -> None:
        super()._watch_value(value)
        if len(value) < self.hold:
            self._told_full = False
        self._show_room(value)

    def _show_room(self, value: str) -> None:
        parent = self.parent
        if parent is None:
            return
        try:
            counter = parent.query_one(f"#{self._counter_id}", RoomLeft)
        except NoMatches:  # not mounted yet: shown at the next change
            return
        used = len(value.strip())
        counter.display = bool(value)
        counter.set_class(used > self.limit, "-over")
        words = room_words(used, self.limit)
        if str(counter.content) != words:
            counter.update(words, layout=False)  # (a fixed width)
