"""What one player's terminal can show, as the app is told it (from the SSH session's PTY and environment requests).

The app picks its colours from it; the SSH driver sends ASCII or console forms of lines and marks, and no colour to
a terminal that asks for none (https://no-color.org)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Colors = Literal["none", "16", "256", "truecolor"]


@dataclass(frozen=True)
class Capabilities:
    colors: Colors = "256"
    """"none": NO_COLOR (emphasis by bold, reverse and underline only); "16": TERM=linux, vt100, xterm..."""
    utf8: bool = True
    """False: the client's LC_ALL / LC_CTYPE / LANG named another character set (`LANG=C`): ASCII only."""
    console: bool = False
    """A console's small font (`TERM=linux`, `cons25`, `vt220`...): the SSH driver sends what it lacks in console
    forms (`ssh.glyph_forms`), and a key drawn as a mark it lacks reads as a word (⏎: Enter)."""

    @property
    def few_colors(self) -> bool:
        """8 or 16 colours: dark greys all become black, on a black background."""
        return self.colors == "16"


FULL = Capabilities()
"""A modern terminal: 256 colours or more, UTF-8 (what an app is given when nothing else is known)."""


_COLORS: dict[str, Colors] = {"standard": "16", "256": "256", "truecolor": "truecolor"}


def capabilities_for(color_system: str, *, no_color: bool, utf8: bool, console: bool = False) -> Capabilities:
    """What the app is told about a terminal of this colour system (the SSH layer's "standard", "256" or
    "truecolor"), NO_COLOR, locale and font (`console`: the SSH layer's "console" glyphs)."""
    return Capabilities(colors="none" if no_color else _COLORS[color_system], utf8=utf8, console=console)
