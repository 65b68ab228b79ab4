"""Which TERM names are consoles (a font of a few hundred glyphs: sent in `ssh.glyph_forms`; at most 16 colours)
and which draw all of Unicode in 8 or 16 colours whatever COLORTERM says; each entry's reason from its terminfo entry
(ncurses' misc/terminfo.src). Any other TERM: colours from its name and COLORTERM, all of Unicode."""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Literal

TermKind = Literal["console", "few colours"]


@dataclass(frozen=True)
class TermFamily:
    patterns: tuple[str, ...]
    """TERM names (`fnmatch` patterns, lower case) of this family."""
    kind: TermKind
    reason: str
    """Why, from the terminfo entries (a line of the table)."""


TERM_FAMILIES: tuple[TermFamily, ...] = (
    TermFamily(("linux", "linux-*"), "console", "Linux virtual console: colors#8 (or #16), a 512-glyph font (CP437)"),
    TermFamily(
        ("cons25*", "cons30*", "cons43*", "cons50*", "cons60*", "ansis*", "ansiw", "ansi80x25*"),
        "console",
        "FreeBSD syscons: colors#8, acsc in CP437 bytes (\\304 \\263): its font is CP437's",
    ),
    TermFamily(("wsvt25*", "netbsd6"), "console", "NetBSD wscons: colors#8, lines by the DEC set (enacs), no Unicode"),
    TermFamily(("pccon*",), "console", "OpenBSD PC console (wscons): colors#8, lines by the DEC set or ASCII"),
    TermFamily(("pcvt*",), "console", "pcvt (386BSD, old FreeBSD/NetBSD): a VT220 emulation on the PC's CP437 font"),
    TermFamily(("bsdos-pc*",), "console", "BSD/OS PC console: colors#8, acsc in CP437 bytes"),
    TermFamily(
        ("rcons*", "sun", "sun-*", "sun1", "sun2"),  # (not sun-256color, sun-direct: illumos's, see `term_family`)
        "console",
        "BSD rasterconsole and the Sun console: colors#8 at most, no acsc, a Latin-1 font",
    ),
    TermFamily(
        ("vt52*", "vt1[0-9][0-9]*", "vt2[0-9][0-9]*", "vt3[0-9][0-9]*", "vt4[0-9][0-9]*", "vt5[0-9][0-9]*"),
        "console",
        "DEC VT family: lines by the DEC set, no colors (a VT ignores colour codes; the BSD consoles that say vt100 or"
        " vt220, NetBSD's and OpenBSD's, draw 8)",
    ),
    TermFamily(
        ("ansi", "ansi.sys*", "ansi-*", "pcansi*", "scoansi*"),
        "console",
        "ANSI.SYS and PC ANSI consoles (SCO too): colors#8, acsc in CP437 bytes",
    ),
    TermFamily(
        ("teken*",), "few colours", "FreeBSD vt(4) (teken): colors#8 (or #16), its font draws Unicode's lines (tack)"
    ),
    TermFamily(("xterm-color", "*-16color"), "few colours", "colors#8 or colors#16, no 256; a terminal of Unicode"),
)
"""First match wins (`linux-16color` is a console before it is a 16-colour terminal)."""

_MORE_COLOURS = ("-256color", "-256colour", "-direct", "-truecolor", "-24bit")
"""A TERM that names more colours is no family's (`terminal.detect_color_system` reads its colours)."""


def term_family(term_type: str) -> TermFamily | None:
    """The family of this TERM (case and spaces aside), or None for a terminal the table does not name."""
    term = term_type.strip().lower()
    if term.endswith(_MORE_COLOURS):
        return None  # (illumos's console: sun-256color, sun-direct)
    for family in TERM_FAMILIES:
        if any(fnmatchcase(term, pattern) for pattern in family.patterns):
            return family
    return None
