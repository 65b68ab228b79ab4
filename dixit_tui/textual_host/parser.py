"""Textual's terminal parser for one session among many: `SessionParser`.

Touches: `textual._xterm_parser.XTermParser` (a private module): subclassed; its `_parse_extended_key` overridden and
its `__wrapped__` called; `_awaiting`, `last_x`, `last_y`, `mouse_pixels`, `terminal_size`, `terminal_pixel_size`
read. Why: Textual caches `_parse_extended_key` with an lru_cache on the method, so the cache keys pin every parser
(and its app) that ever typed a key, and the cached Key events pin their sender app: with an app per SSH session,
every session that ever typed would stay in memory. Here the cache is keyed on the sequence only and holds plain
tuples. Reading `_awaiting` tells whether the parser is inside an escape sequence (the next keys would go into it).
"""

from __future__ import annotations

import contextlib
from functools import lru_cache

from textual import events
from textual._xterm_parser import XTermParser

_KeyTuple = tuple[str, str | None]


@lru_cache(maxsize=1024)
def _parse_extended_key(sequence: str) -> tuple[_KeyTuple, ...] | None:
    """Textual's Kitty-key parsing, cached on the sequence only and holding plain tuples."""
    parse = XTermParser._parse_extended_key.__wrapped__
    keys: list[events.Key] | None = parse(XTermParser, sequence)
    if keys is None:
        return None
    return tuple((key.key, key.character) for key in keys)


class SessionParser(XTermParser):
    """XTermParser without the per-instance lru_cache (see `_parse_extended_key`)."""

    def _parse_extended_key(self, sequence: str) -> list[events.Key] | None:  # type: ignore[override]
        parsed = _parse_extended_key(sequence)
        if parsed is None:
            return None
        return [events.Key(key, character) for key, character in parsed]

    @property
    def waiting(self) -> bool:
        """The parser is inside an escape sequence it has not matched yet (it would take the next keys into it)."""
        return self._awaiting.timeout is not None

    def carry_over(self, old: XTermParser) -> None:
        """Take over what an earlier parser of the same session knew about the terminal (mouse and size)."""
        self.last_x, self.last_y = old.last_x, old.last_y
        self.mouse_pixels = old.mouse_pixels
        self.terminal_size, self.terminal_pixel_size = old.terminal_size, old.terminal_pixel_size

    def close(self) -> None:
        """End the parser's generator so it releases everything it holds."""
        with contextlib.suppress(Exception):
            for _ in self.feed(""):
                pass
