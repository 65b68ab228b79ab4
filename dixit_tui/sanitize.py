r"""The one sanitiser for every untrusted string: nicknames, clues, chat lines and deck files.

Every player-provided string goes through here once, at the boundary, before it is stored or shown.
The result is plain text: no escape sequences, no control or format characters, no invisible fillers,
NFKC-normalised, whitespace collapsed, at most two combining marks per base character, and capped both
in characters and in terminal cells. It is *not* markup-safe by itself: callers must never interpret
player text as Rich/Textual markup (``[@click=app.quit]`` survives here as literal text).

``sanitize`` is idempotent: ``sanitize(sanitize(x, n), n) == sanitize(x, n)``.

Nickname uniqueness uses :func:`name_key`: NFKC + casefold + a Unicode TR39 confusable skeleton, so that
"ana", "ANA" and "\u0430na" (with a Cyrillic a) are the same name. The confusables data comes from the
``confusable-homoglyphs`` package (a maintained, widely used copy of Unicode's confusables.txt) rather
than a hand-written table; it is loaded lazily on the first call.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from functools import cache

import wcwidth

from dixit_tui.engine.config import CLUE_MAX_LEN

NAME_MAX = 20
CLUE_MAX = CLUE_MAX_LEN  # the rules' limit (engine/config.py): one place for it
CHAT_MAX = 200
CARD_MAX = 140

MAX_MARKS = 2  # combining marks kept after one base character

# Whole escape sequences (ECMA-48), 7-bit and C1 forms. Order matters: CSI before the generic ESC form.
_ESCAPES = re.compile(
    r"""
      (?:\x1b\[|\x9b) [\x30-\x3f]* [\x20-\x2f]* [\x40-\x7e]?          # CSI ... final
    | (?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f]) .*? (?:\x07|\x1b\\|\x9c|\Z)  # OSC/DCS/SOS/PM/APC ... BEL or ST
    | \x1b [\x20-\x2f]* [\x30-\x7e]?                                   # other ESC sequences (ESC c, ESC ( B)
    """,
    re.VERBOSE | re.DOTALL,
)

_DROP_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs"})
_SPACE_CATEGORIES = frozenset({"Zs", "Zl", "Zp"})  # line/paragraph separators become spaces, like newlines
_MARK_CATEGORIES = frozenset({"Mn", "Mc", "Me"})

# Invisible characters that are not in a C* category: Hangul fillers, braille blank, and the other
# default-ignorable code points (combining grapheme joiner, Khmer inherent vowels, Mongolian free
# variation selectors, variation selectors).
_INVISIBLE = frozenset(
    "\u115f\u1160\u3164\uffa0\u2800"
    "\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f"
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))
    + "".join(chr(c) for c in range(0xE0100, 0xE01F0))
)

_MAX_ROUNDS = 16


def _filter(text: str) -> str:
    """Drop non-printable and invisible characters; turn every kind of whitespace into a space."""
    out: list[str] = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch.isspace() or cat in _SPACE_CATEGORIES:
            out.append(" ")
        elif cat in _DROP_CATEGORIES or ch in _INVISIBLE:
            continue
        else:
            out.append(ch)
    return "".join(out)


def _limit_marks(text: str) -> str:
    """Keep at most MAX_MARKS combining marks per base character; drop marks with no base at all."""
    out: list[str] = []
    marks = MAX_MARKS  # at the start there is no base: drop leading marks
    for ch in text:
        if unicodedata.category(ch) in _MARK_CATEGORIES:
            if marks < MAX_MARKS:
                out.append(ch)
                marks += 1
        else:
            out.append(ch)
            marks = 0
    return "".join(out)


def _cap(text: str, max_len: int) -> str:
    """Cut to max_len characters and to at most 2*max_len terminal cells."""
    text = text[:max_len]
    while text and not 0 <= wcwidth.wcswidth(text) <= 2 * max_len:
        text = text[:-1]
    return text


def _once(text: str, max_len: int) -> str:
    text = _ESCAPES.sub("", text)
    text = _filter(text)
    text = unicodedata.normalize("NFKD", text)  # count marks on the decomposed form
    text = _filter(text)  # compatibility decomposition can produce new spaces (U+00A0, U+3000)
    text = re.sub(" +", " ", text).strip()
    text = _limit_marks(text)
    text = unicodedata.normalize("NFKC", text)
    return _cap(text, max_len).strip()


def sanitize(text: str | bytes, max_len: int) -> str:
    """Return ``text`` as safe, plain, single-line text of at most ``max_len`` characters.

    Bytes are decoded as UTF-8 with replacement characters. The result may be empty.
    """
    if max_len < 1:
        return ""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    # Each step can undo another's work at the edges (NFKC after a cut, a dropped character that
    # separated a base from its mark, ...), so repeat until nothing changes: that makes it idempotent.
    for _ in range(_MAX_ROUNDS):
        cleaned = _once(text, max_len)
        if cleaned == text:
            break
        text = cleaned
    return text


def clean_name(s: str | bytes) -> str:
    """A nickname, or "" if nothing printable is left (callers must reject an empty name)."""
    return sanitize(s, NAME_MAX)


def clean_chat(s: str | bytes) -> str:
    return sanitize(s, CHAT_MAX)


def clean_card_text(s: str | bytes) -> str:
    return sanitize(s, CARD_MAX)


@cache
def _prototypes() -> dict[str, str]:
    """Map each confusable character to one representative of its confusable class.

    confusables.txt maps every source character to a prototype, and the package stores those pairs in
    both directions, so each class is a star around its prototype. We map every member to the class's
    multi-character prototype if it has one (e.g. "m" -> "rn"), else to its centre, else (a class of
    two, whose direction is lost) to the smaller code point. Any fixed choice gives the same equalities.
    """
    from confusable_homoglyphs import confusables  # lazy: ~1 MB of JSON

    def plain(s: str) -> str:  # the data wraps right-to-left characters in LRM marks
        return s.replace("\u200e", "").replace("\u200f", "")

    links: defaultdict[str, set[str]] = defaultdict(set)
    for char, glyphs in confusables.confusables_data.items():
        for glyph in glyphs:
            a, b = plain(char), plain(glyph["c"])
            if a and b and a != b:
                links[a].add(b)
                links[b].add(a)

    table: dict[str, str] = {}
    for start in links:
        if start in table:
            continue
        members = {start, *links[start]}
        for member in list(members):
            members |= links[member]
        rep = min(members, key=lambda m: (len(m) == 1, -len(links[m]), m))
        for member in members:
            if len(member) == 1 and member != rep:
                table[member] = rep
    return table


def _skeleton(text: str) -> str:
    table = _prototypes()
    text = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in text))


def name_key(name: str) -> str:
    r"""The key under which two nicknames count as the same: NFKC, casefold and confusable skeleton.

    "Ana", "ANA", fullwidth "\uff41\uff4e\uff41" and "\u0430na" (Cyrillic a) all have the same key.
    """
    key = unicodedata.normalize("NFKC", clean_name(name)).casefold()
    for _ in range(_MAX_ROUNDS):
        folded = _skeleton(key).casefold()  # a prototype can be upper case ("0" -> "O")
        if folded == key:
            break
        key = folded
    return key


# A name that can stand unquoted as the user of an `ssh NAME@host` command line (the hints in the lobby and `help`).
_SSH_USER = re.compile(r"[A-Za-z0-9._-]{1,32}")


def ssh_user(name: str | None) -> str:
    """`name` as the user of a shown `ssh` command when it is safe to paste as it is, else the placeholder NAME."""
    return name if name is not None and _SSH_USER.fullmatch(name) else "NAME"


def log_text(text: str) -> str:
    """Untrusted text (a name) as log lines show it: ASCII as it is, anything else as its escape, so that a name
    with a Cyrillic "a" reads "\\u0430na" in the log, not "ana" (a backslash is doubled: a name cannot pass for an
    escape)."""
    return text.replace("\\", "\\\\").encode("ascii", "backslashreplace").decode("ascii")
