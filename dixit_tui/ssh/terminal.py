"""What an SSH client told us about its terminal, and the per-session decisions made from it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from dixit_tui.ssh.term_families import term_family

ColorSystem = Literal["standard", "256", "truecolor"]
Glyphs = Literal["unicode", "console", "ascii"]

DEFAULT_SIZE = (80, 24)

# Terminal types known to understand 24-bit colour although their TERM does not say "direct".
_TRUECOLOR_TERMS = frozenset(
    {"xterm-kitty", "xterm-ghostty", "ghostty", "alacritty", "wezterm", "foot", "foot-extra", "contour"}
)


@dataclass(frozen=True)
class TerminalInfo:
    """The client's terminal as its PTY request asked (size sanitised); `command`: the exec request's command line
    (`ssh -t host join K7QF` -> "join K7QF"), None for a shell; `env`: the variables the client sent."""

    term_type: str
    width: int
    height: int
    color_system: ColorSystem
    no_color: bool
    command: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    utf8: bool = True
    """The client's locale (LC_ALL, else LC_CTYPE, else LANG) declares UTF-8, or it sent none of them."""

    @property
    def glyphs(self) -> Glyphs:
        """The characters this session is drawn with (`SSHDriver.flush`): "ascii" without UTF-8 (`ssh.glyph_forms`),
        "console" for a console's small font (`TERM=linux`, `cons25`, `vt220`...: `ssh.glyph_forms`), else
        "unicode"."""
        return glyph_set(self.term_type, utf8=self.utf8)


def clamp_size(width: int, height: int, max_size: tuple[int, int]) -> tuple[int, int]:
    """A usable size: 0 (unknown, as sent by `ssh -tt` without a tty) -> 80x24, huge -> `max_size`."""
    max_width, max_height = max_size
    width = width if width > 0 else DEFAULT_SIZE[0]
    height = height if height > 0 else DEFAULT_SIZE[1]
    return min(width, max_width), min(height, max_height)


def detect_color_system(term_type: str, env: Mapping[str, str]) -> ColorSystem:
    """The colour system for one session, from its TERM and COLORTERM (never the server's environment); a console
    or a terminal of few colours (`term_families`) is "standard" whatever COLORTERM says."""
    if term_family(term_type) is not None:
        return "standard"
    colorterm = env.get("COLORTERM", "").strip().lower()
    term = term_type.strip().lower()
    if colorterm in ("truecolor", "24bit") or term in _TRUECOLOR_TERMS:
        return "truecolor"
    if term.endswith(("-direct", "-truecolor", "-24bit")):
        return "truecolor"
    if term.endswith(("-256color", "-256colour")):
        return "256"
    return "standard"


def wants_no_color(env: Mapping[str, str]) -> bool:
    """https://no-color.org: a NO_COLOR the client sent that is present and not empty."""
    return bool(env.get("NO_COLOR", ""))


def declares_utf8(env: Mapping[str, str]) -> bool:
    """Whether the client's locale names UTF-8, as a program on its side would read it: the first of LC_ALL, LC_CTYPE
    and LANG that it sent and is not empty decides (`LANG=C` or `LC_ALL=en_US.ISO-8859-1`: no). A client that sent
    none of them (most do not, unless its SendEnv passes them) is taken to speak UTF-8, as modern terminals do."""
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(name, "").strip()
        if value:
            charset = value.partition(".")[2].partition("@")[0].lower().replace("-", "").replace("_", "")
            return charset == "utf8"
    return True


def is_console(term_type: str) -> bool:
    """A terminal whose font holds a few hundred glyphs (CP437's set, Latin-1, the DEC set): the Linux and BSD
    consoles, the VT family, the PC's ANSI consoles (`term_families.TERM_FAMILIES`)."""
    family = term_family(term_type)
    return family is not None and family.kind == "console"


def glyph_set(term_type: str, *, utf8: bool) -> Glyphs:
    """ASCII for a locale that is not UTF-8, the console set for a console (`is_console`), else all of Unicode."""
    if not utf8:
        return "ascii"
    return "console" if is_console(term_type) else "unicode"


def build_terminal_info(
    term_type: str,
    size: tuple[int, int],
    env: Mapping[str, str],
    command: str | None,
    max_size: tuple[int, int],
) -> TerminalInfo:
    width, height = clamp_size(size[0], size[1], max_size)
    return TerminalInfo(
        term_type=term_type,
        width=width,
        height=height,
        color_system=detect_color_system(term_type, env),
        no_color=wants_no_color(env),
        command=command,
        env=dict(env),
        utf8=declares_utf8(env),
    )
