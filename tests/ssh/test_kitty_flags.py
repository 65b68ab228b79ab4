"""A session's terminal is asked for the Kitty keyboard protocol flags the installed Textual's parser reads
(textual_host/compat.py): a terminal speaking the protocol (kitty, WezTerm, foot, ghostty) then sends every key in a
form that parser turns into the key typed. Textual before 8.2.7 reads only what flag 1 asks for; asking it for 25,
as 8.2.7 does, would have every letter typed in such a terminal reported in a form it cannot read."""

from __future__ import annotations

from textual import events

from dixit_tui.textual_host.compat import KITTY_KEY_FLAGS
from dixit_tui.textual_host.parser import SessionParser


def keys(sequence: str) -> list[tuple[str, str | None]]:
    parser = SessionParser()
    try:
        return [(event.key, event.character) for event in parser.feed(sequence) if isinstance(event, events.Key)]
    finally:
        parser.close()


def test_every_key_the_terminal_is_asked_to_report_is_read() -> None:
    assert KITTY_KEY_FLAGS is not None and KITTY_KEY_FLAGS & 1  # (the tests' environment does not disable it)
    # flag 1, disambiguate escape codes: Escape and Ctrl+C as escape codes
    assert [key for key, _ in keys("\x1b[27u")] == ["escape"]
    assert [key for key, _ in keys("\x1b[99;5u")] == ["ctrl+c"]
    if KITTY_KEY_FLAGS & 8:  # report every key as an escape code
        assert keys("\x1b[97u") == [("a", "a")]
    if KITTY_KEY_FLAGS & 16:  # with the text it types: shift+a types "A"
        assert keys("\x1b[97;2;65u") == [("A", "A")]
