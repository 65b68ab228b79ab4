"""Pure helpers of the SSH layer: sizes, colours, hints, the serve command line, the placeholder's name."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from rich.cells import cell_len

from dixit_tui.serve import add_arguments, data_folders
from dixit_tui.ssh.glyph_forms import CONSOLE_SET, in_glyphs
from dixit_tui.ssh.session_runner import connect_hint
from dixit_tui.ssh.terminal import (
    build_terminal_info,
    clamp_size,
    declares_utf8,
    detect_color_system,
    glyph_set,
    wants_no_color,
)
from dixit_tui.tui.capabilities import Capabilities, capabilities_for
from tests.e2e.placeholder_app import display_name


@pytest.mark.parametrize(
    ("size", "expected"),
    [((0, 0), (80, 24)), ((100, 30), (100, 30)), ((2000, 1000), (300, 100)), ((0, 50), (80, 50))],
)
def test_clamp_size(size: tuple[int, int], expected: tuple[int, int]) -> None:
    assert clamp_size(*size, max_size=(300, 100)) == expected


@pytest.mark.parametrize(
    ("term", "env", "expected"),
    [
        ("xterm-256color", {}, "256"),
        ("tmux-256color", {}, "256"),
        ("xterm", {}, "standard"),
        ("vt100", {}, "standard"),
        ("", {}, "standard"),
        ("xterm-direct", {}, "truecolor"),
        ("xterm-kitty", {}, "truecolor"),
        ("xterm-256color", {"COLORTERM": "truecolor"}, "truecolor"),
        ("xterm", {"COLORTERM": "24bit"}, "truecolor"),
        ("linux", {"COLORTERM": "truecolor"}, "standard"),  # a console: 8 colours, whatever COLORTERM says
        ("cons25", {"COLORTERM": "truecolor"}, "standard"),
        ("teken", {"COLORTERM": "truecolor"}, "standard"),
        ("xterm-16color", {"COLORTERM": "truecolor"}, "standard"),
        ("sun-256color", {}, "256"),  # (illumos's console: more colours than the Sun console's family)
    ],
)
def test_colour_system_from_the_client_terminal(term: str, env: dict[str, str], expected: str) -> None:
    assert detect_color_system(term, env) == expected


def test_no_color_must_be_present_and_not_empty() -> None:
    assert wants_no_color({"NO_COLOR": "1"})
    assert not wants_no_color({"NO_COLOR": ""})
    assert not wants_no_color({})


def test_terminal_info_carries_the_command() -> None:
    info = build_terminal_info("xterm-256color", (0, 0), {"NO_COLOR": "x"}, "join K7QF", (300, 100))
    assert (info.width, info.height, info.color_system, info.no_color) == (80, 24, "256", True)
    assert info.command == "join K7QF"


def test_connect_hint() -> None:
    assert connect_hint("alice", "example.org", 2222) == "ssh -t -p 2222 alice@example.org"
    assert connect_hint("bob", "example.org", 22) == "ssh -t bob@example.org"
    assert connect_hint("\x1b[31mevil name", "h", 22) == "ssh -t [31mevilname@h"


def test_display_name_drops_escapes_and_controls() -> None:
    assert display_name("Zoë") == "Zoë"
    assert "\x1b" not in display_name("\x1b]0;pwned\x07mallory")
    assert display_name("\u202eevil\u200b") == "evil"
    assert display_name("x" * 50) == "x" * 20
    assert display_name("\x00\x01") == "player"


def test_serve_arguments() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args([])
    assert (args.host, args.port, data_folders(args), args.deck) == ("0.0.0.0", 2222, (Path("data"), Path("keys")), [])
    args = parser.parse_args(["--port", "0", "--deck", "a.toml", "--deck", "b.toml"])
    assert (args.port, args.deck) == (0, [Path("a.toml"), Path("b.toml")])


def test_limits_are_configurable_from_the_command_line() -> None:
    import pytest

    from dixit_tui.serve import parse_limits

    limits = parse_limits(["login_timeout=12.5", "max-unauthenticated-per-ip=3", "max_size=200x60"])
    assert (limits.login_timeout, limits.max_unauthenticated_per_ip, limits.max_size) == (12.5, 3, (200, 60))
    for bad in ("nope=1", "login_timeout=soon", "max_connections=0", "login_timeout"):
        with pytest.raises(ValueError):
            parse_limits([bad])


def test_the_locale_the_client_sent_decides_utf8() -> None:
    assert declares_utf8({})  # nothing sent: UTF-8, as modern terminals speak
    assert declares_utf8({"LANG": "en_US.UTF-8"})
    assert declares_utf8({"LANG": "C.utf8"})
    assert not declares_utf8({"LANG": "C"})
    assert not declares_utf8({"LANG": "en_US.UTF-8", "LC_ALL": "C"})  # LC_ALL first, then LC_CTYPE, then LANG
    assert declares_utf8({"LANG": "C", "LC_CTYPE": "de_DE.UTF-8@euro"})
    assert not declares_utf8({"LC_CTYPE": "en_US.ISO-8859-1"})

    def capabilities(term: str, env: dict[str, str]) -> Capabilities:  # what serve's app factory tells the app
        info = build_terminal_info(term, (80, 24), env, None, (300, 100))
        return capabilities_for(info.color_system, no_color=info.no_color, utf8=info.utf8)

    assert capabilities("linux", {"LANG": "POSIX"}) == Capabilities(colors="16", utf8=False)
    assert capabilities("xterm", {"NO_COLOR": "1"}).colors == "none"
    for term in ("linux", "vt100", "xterm"):  # 8 or 16 colours: the panels' borders in a grey they can draw
        assert capabilities(term, {}).few_colors
    assert not capabilities("xterm-256color", {}).few_colors


def test_ascii_forms_keep_every_cell() -> None:
    drawn = "╭─ Seats ─╮ │1 ✎◷♛⚙ ana│ ╰───╯ ▶ 3 “fox” … ★ ✓ ● ▲ ⏎ · ▊▔▁▎"
    ascii_text = in_glyphs(drawn, "ascii")
    assert ascii_text == '+- Seats -+ |1 SwHB ana| +---+ > 3 "fox" ~ * v o ^ < - |--|'
    assert cell_len(ascii_text) == cell_len(drawn)


def test_glyph_set_by_terminal_and_locale() -> None:
    assert glyph_set("xterm-256color", utf8=True) == "unicode"
    for term in ("linux", "LINUX", "linux-16color", "vt100", "vt220", "vt52", "cons25", "cons25-debian", "cons50l1"):
        assert glyph_set(term, utf8=True) == "console"
    for term in ("wsvt25", "wsvt25m", "netbsd6", "pccon", "pccon0", "pcvt25", "bsdos-pc", "rcons", "sun", "sun-color"):
        assert glyph_set(term, utf8=True) == "console"  # the BSDs' consoles (and Sun's)
    for term in ("ansi", "ansi.sys", "pcansi", "scoansi"):
        assert glyph_set(term, utf8=True) == "console"  # the PC's ANSI consoles: CP437
    for term in ("xterm", "teken", "xterm-16color", "screen", "vt-utf8", "sun-256color", "putty", ""):
        assert glyph_set(term, utf8=True) == "unicode"
    for term in ("linux", "xterm-256color", "vt100"):
        assert glyph_set(term, utf8=False) == "ascii"
    info = build_terminal_info("linux", (80, 24), {"LANG": "en_US.UTF-8"}, None, (300, 100))
    assert info.glyphs == "console"


def test_console_forms_keep_every_cell_in_the_console_set() -> None:
    """`TERM=linux`: what its font has stays (light and double lines, half blocks, arrows, Latin-1 letters); rounded
    corners, eighth blocks and marks such as ⏱✎♛ get console-safe forms as wide (a playtest: blanks and diamonds)."""
    drawn = "╭─ Seats ─╮ │1 ✎◷♛⚙ ana│ ╰───╯ ═║╔╗ ▶ 3 “fox” … ★ ✓ ● ▲ ← ⏎ ⏱ · ▊▔▁▎ █▀▄▌▐░ ━┃┏┛ zoé 猫 🎉"
    console_text = in_glyphs(drawn, "console")
    assert console_text == '┌─ Seats ─┐ │1 SwHB ana│ └───┘ ═║╔╗ ► 3 "fox" ~ * √ • ▲ ← < @ · ▌──▌ █▀▄▌▐░ ═║╔╝ zoé ?? ??'
    assert cell_len(console_text) == cell_len(drawn)
    assert in_glyphs("\x1b[1mzoé\x1b[0m", "console") == "\x1b[1mzoé\x1b[0m"
    codes = (code for code in range(0x20, 0x30000) if not (0x7F <= code < 0xA0 or 0xD800 <= code < 0xE000))
    everything = "".join(map(chr, codes))
    forms = in_glyphs(everything, "console")
    assert set(forms) <= CONSOLE_SET, sorted(set(forms) - CONSOLE_SET)[:20]
    for char in everything[::7]:  # (a sample: each char's form as wide as the char)
        assert cell_len(in_glyphs(char, "console")) == cell_len(char), char


def test_what_players_typed_becomes_ascii_as_wide() -> None:
    # Letters without their accents, a ? for each cell of any other character, nothing for a mark of no width.
    typed = "déjà vu · café ✓ naïve Zoë ß 名前 🎉 e\u0301 \uff21"
    ascii_text = in_glyphs(typed, "ascii")
    assert ascii_text == "deja vu - cafe v naive Zoe ? ???? ?? e ??"
    assert ascii_text.isascii() and cell_len(ascii_text) == cell_len(typed)
    assert in_glyphs("\x1b[1mzoé\x1b[0m", "ascii") == "\x1b[1mzoe\x1b[0m"  # escape sequences as they are
