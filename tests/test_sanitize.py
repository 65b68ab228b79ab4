"""The sanitiser: concrete terminal attacks from the design notes, then Hypothesis properties."""

from __future__ import annotations

import unicodedata

import pytest
import wcwidth
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dixit_tui.sanitize import (
    CARD_MAX,
    CHAT_MAX,
    CLUE_MAX,
    NAME_MAX,
    clean_card_text,
    clean_chat,
    clean_name,
    name_key,
    sanitize,
)

FORBIDDEN_CATEGORIES = {"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"}
FILLERS = "\u115f\u1160\u3164\uffa0\u2800"


def assert_clean(out: str) -> None:
    assert "\x1b" not in out
    bad = [(hex(ord(c)), unicodedata.category(c)) for c in out if unicodedata.category(c) in FORBIDDEN_CATEGORIES]
    assert not bad
    assert not any(c in FILLERS for c in out)
    assert out == out.strip()
    assert "  " not in out


# --- concrete attacks ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attack", "expected"),
    [
        pytest.param("\x1b]52;c;cm0gLXJmIH4=\x07hello", "hello", id="osc52-clipboard-bel"),
        pytest.param("\x1b]52;c;cm0gLXJmIH4=\x1b\\hello", "hello", id="osc52-clipboard-st"),
        pytest.param("\x9d52;c;cm0gLXJmIH4=\x9chello", "hello", id="c1-osc52"),
        pytest.param("bob\x1b]0;you have been pwned\x07", "bob", id="osc0-window-title"),
        pytest.param("\x1b]2;title", "", id="osc-unterminated-drops-rest"),
        pytest.param("hi\x1b[2J\x1b[Hthere", "hithere", id="csi-2j-clear-screen"),
        pytest.param("\x1b[1;31mred\x1b[0m", "red", id="csi-sgr"),
        pytest.param("\x1b[?1049h\x1b[?1000hx", "x", id="csi-private-modes"),
        pytest.param("a\x9b2Jb", "ab", id="c1-csi"),
        pytest.param("\x1bPq#0;2;0;0;0#1;2;100;100;0\x1b\\pic", "pic", id="dcs-sixel"),
        pytest.param("\x1b_Gf=100;AAAA\x1b\\img", "img", id="apc-kitty-graphics"),
        pytest.param("\x1b^private\x1b\\ok", "ok", id="pm"),
        pytest.param("\x1bXsos\x1b\\ok", "ok", id="sos"),
        pytest.param("\x1bcreset", "reset", id="esc-c-full-reset"),
        pytest.param("\x1b(0lqqk\x1b(B", "lqqk", id="esc-charset"),
        pytest.param("\x1b#8x", "x", id="esc-hash-8"),
        pytest.param("a\x1b", "a", id="lone-esc"),
        pytest.param("\x1b\x1b[31mx", "x", id="double-esc"),
        pytest.param("\u202eevil\u202c", "evil", id="bidi-override"),
        pytest.param("\u2066a\u2069\u200f\u200e", "a", id="bidi-isolates-marks"),
        pytest.param("a\u200bd\u200cm\u200di\ufeffn\u2060", "admin", id="zero-width"),
        pytest.param("\u3164", "", id="hangul-filler"),
        pytest.param("\u115f\u1160\uffa0\u2800", "", id="all-fillers"),
        pytest.param("x\u3164y", "xy", id="filler-inside"),
        pytest.param("[@click=app.quit]", "[@click=app.quit]", id="markup-kept-literal"),
        pytest.param("[/", "[/", id="unbalanced-markup-literal"),
        pytest.param("a\tb\n\nc\r\nd\u2028e\u2029f", "a b c d e f", id="whitespace"),
        pytest.param("  many    spaces\u3000\u00a0here  ", "many spaces here", id="collapse-spaces"),
        pytest.param("bell\x07back\x08space\x7f", "bellbackspace", id="c0-controls"),
        pytest.param("a\x85b", "a b", id="nel-is-whitespace"),
        pytest.param("\ue000priv\U000f0000", "priv", id="private-use"),
        pytest.param("\ufdd0\uffffok", "ok", id="noncharacters"),
        pytest.param("\ud800x", "x", id="lone-surrogate"),
        pytest.param("\uff21\uff22\uff23", "ABC", id="nfkc-fullwidth"),
        pytest.param("ﬁne", "fine", id="nfkc-ligature"),
        pytest.param("e\u0301", "\u00e9", id="nfc-composes"),
        pytest.param("\u0301\u0301abc", "abc", id="leading-marks-dropped"),
        pytest.param("Tiếng Việt", "Tiếng Việt", id="vietnamese-kept"),
        pytest.param("日本語", "日本語", id="cjk-kept"),
    ],
)
def test_attacks(attack: str, expected: str) -> None:
    out = sanitize(attack, CHAT_MAX)
    assert out == expected
    assert_clean(out)


def test_invalid_utf8_bytes_are_replaced() -> None:
    out = sanitize(b"ab\xff\xfe\xc3cd\x1b]0;t\x07", CHAT_MAX)
    assert out == "ab\ufffd\ufffd\ufffdcd"
    # A raw 8-bit C1 CSI byte is invalid UTF-8, so it becomes U+FFFD, never U+009B.
    assert sanitize(b"a\x9b2Jb", CHAT_MAX) == "a\ufffd2Jb"


def test_combining_flood_is_limited() -> None:
    zalgo = "Z" + "\u0336\u0315\u0358\u0341" * 40 + "a" + "\u0300" * 100
    out = sanitize(zalgo, CHAT_MAX)
    decomposed = unicodedata.normalize("NFD", out)
    assert len(decomposed) == 6
    assert decomposed[0] == "Z"
    assert decomposed[3:] == "a\u0300\u0300"
    assert wcwidth.wcswidth(out) == 2


def test_each_base_keeps_at_most_two_marks() -> None:
    out = sanitize("o" + "\u0308" * 5 + "x" + "\u0323\u0302\u0301", CHAT_MAX)
    decomposed = unicodedata.normalize("NFD", out)
    assert decomposed == "o\u0308\u0308x\u0323\u0302"


def test_length_caps() -> None:
    long = "abcdefghij" * 30
    assert clean_name(long) == long[:NAME_MAX]
    assert sanitize(long, CLUE_MAX) == long[:CLUE_MAX]
    assert clean_chat(long) == long[:CHAT_MAX]
    assert clean_card_text(long) == long[:CARD_MAX]


def test_cap_strips_trailing_space() -> None:
    assert clean_name("a" * 19 + " bcd") == "a" * 19


def test_wide_characters_fit_in_two_cells_each() -> None:
    out = clean_name("宽" * 50)
    assert out == "宽" * NAME_MAX
    assert wcwidth.wcswidth(out) == 2 * NAME_MAX


def test_empty_name_is_empty() -> None:
    assert clean_name("\u3164\u200b \x1b[2J\t") == ""
    assert clean_name("") == ""


def test_ansi_inside_name_is_gone() -> None:
    assert clean_name("\x1b[31mRed\x1b[0mBob") == "RedBob"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("ana", "ANA"),
        ("ana", "Ana"),
        ("ana", "\u0430na"),  # Cyrillic a
        ("ana", "\u0391NA"),  # Greek capital alpha
        ("paypal", "\u0440\u0430ypal"),  # Cyrillic r, a
        ("oscar", "0SCAR"),  # digit zero
        ("ana", "\uff41\uff4e\uff41"),  # fullwidth
        ("ana", " ana\u200b"),  # invisible padding
        ("mary", "rnary"),
        ("straße", "STRASSE"),
    ],
)
def test_name_key_collides(a: str, b: str) -> None:
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize(("a", "b"), [("ana", "anna"), ("bob", "rob"), ("léa", "lea"), ("eve", "ève")])
def test_name_key_distinguishes(a: str, b: str) -> None:
    assert name_key(a) != name_key(b)


# --- properties ------------------------------------------------------------------------------------

# Text biased towards the interesting parts of Unicode: controls, escapes, marks, fillers, wide chars.
NASTY = st.sampled_from(
    list("\x1b\x07\x9b\x9c\x9d\x90\x98\x9e\x9f\\[]]P_^X;0123?m\n\t\r ")
    + list(FILLERS)
    + ["\u0301", "\u0308", "\u0323", "\u20dd", "\u0903", "\u200d", "\u202e", "\u2028", "\ufe0f", "\u00a8"]
    + ["\u3000", "\u00a0", "ﬁ", "㎞", "\u1100", "\u1161", "\u11a8", "가", "宽", "😀", "\ufdfa", "ǅ", "\u0345"]
)
TEXT = st.one_of(st.text(), st.text(NASTY), st.lists(st.one_of(NASTY, st.characters()), max_size=60).map("".join))
MAX_LEN = st.sampled_from([1, 2, 3, NAME_MAX, CLUE_MAX, CHAT_MAX, CARD_MAX])


@settings(max_examples=400)
@given(TEXT, MAX_LEN)
@example("\x1b]0;t\x07" + "a" * 30, NAME_MAX)
@example("a" * 19 + "\u00a8", NAME_MAX)  # NFKC after the cut would add a space and a mark
@example("\u1100" * 3 + "\u1161", 3)
def test_sanitize_properties(text: str, max_len: int) -> None:
    out = sanitize(text, max_len)
    assert sanitize(out, max_len) == out
    assert_clean(out)
    assert len(out) <= max_len
    width = wcwidth.wcswidth(out)
    assert 0 <= width <= 2 * max_len
    assert unicodedata.normalize("NFKC", out) == out


@given(st.binary(max_size=200), MAX_LEN)
def test_sanitize_bytes_properties(data: bytes, max_len: int) -> None:
    out = sanitize(data, max_len)
    assert sanitize(out, max_len) == out
    assert_clean(out)
    assert len(out) <= max_len


HOMOGLYPHS = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "x": "\u0445"}


@given(st.text(alphabet="aeopcxbdn", min_size=1, max_size=NAME_MAX), st.data())
def test_name_key_confusables_and_case(name: str, data: st.DataObject) -> None:
    swapped = "".join(HOMOGLYPHS[c] if c in HOMOGLYPHS and data.draw(st.booleans()) else c for c in name)
    upper = "".join(c.upper() if data.draw(st.booleans()) else c for c in swapped)
    assert name_key(upper) == name_key(name)


@given(TEXT)
def test_name_key_works_on_raw_or_clean_names(text: str) -> None:
    assert name_key(clean_name(text)) == name_key(text)


def test_ssh_user_is_one_rule_for_the_lobby_hint_and_plain_help() -> None:
    from dixit_tui.plain_commands import help_text
    from dixit_tui.sanitize import ssh_user
    from dixit_tui.tui.lobby import shell_hint

    assert ssh_user("ana.b-2") == "ana.b-2"
    for bad in (None, "", "ana b", "an@a", "a" * 33, "ana;rm"):
        assert ssh_user(bad) == "NAME"
    assert "ana@" in shell_hint("ana", "example.org", 2222, "K7QF")
    assert "NAME@" in shell_hint("ana b", "example.org", 2222, "K7QF")
    assert "NAME@" in help_text("ana b", "example.org", 2222) and "ana@" in help_text("ana", "example.org", 2222)
