"""The input path of an SSH session without SSH: paste splitter, sequence filter and Textual's parser, as the driver
runs them (`TerminalInput`). Known keys stay keys, Esc is never merged with the next key, and no byte sequence,
however odd, raises or leaves the parser waiting: a plain key typed next always arrives."""

from __future__ import annotations

import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual import events
from textual._ansi_sequences import ANSI_SEQUENCES_KEYS
from textual._xterm_parser import XTermParser
from textual.message import Message

from dixit_tui.ssh.input import PASTE_START, Pasted, PasteSplitter, Typed
from dixit_tui.ssh.terminal_input import TerminalInput
from dixit_tui.textual_host.input_filter import SequenceFilter

ESC = "\x1b"


def type_reads(terminal_input: TerminalInput, splitter: PasteSplitter, *reads: str) -> list[Message]:
    """Each read as the driver hands it on, then the escape delay passing with nothing more (`_tick`)."""
    messages: list[Message] = []
    for read in reads:
        for piece in terminal_input.split(splitter.feed(read)):
            messages += [events.Paste(piece.text)] if isinstance(piece, Pasted) else terminal_input.parse(piece.text)
    for piece in [*terminal_input.split(splitter.flush()), *terminal_input.settle()]:
        assert isinstance(piece, Typed)
        messages += terminal_input.parse(piece.text)
    return messages


def keys_of(*reads: str) -> list[str]:
    messages = type_reads(TerminalInput(), PasteSplitter(10_000), *reads)
    return [m.key for m in messages if isinstance(m, events.Key)]


@pytest.mark.parametrize(
    ("reads", "pieces"),
    [
        (["\x1bc"], ["\x1b", "c"]),
        (["\x1b", "c"], ["\x1b", "c"]),
        (["\x1b\x1b"], ["\x1b", "\x1b"]),
        (["\x1b", "\x1b"], ["\x1b", "\x1b"]),
        (["\x1b[A"], ["\x1b[A"]),
        (["\x1b[", "A"], ["\x1b[A"]),  # an arrow key split across reads
        (["\x1b[1114112u", "q"], ["q"]),
        (["\x1b[27;5;1114112~q"], ["q"]),
        (["\x1b[999999999999999999999Aq"], ["q"]),
        (["\x1b]0;title\x07q"], ["q"]),
        (["\x1b]0;title\x1b\\q"], ["q"]),
        (["\x1bP+q\x1b\\x"], ["x"]),
        (["\x1b]0;t\x1b[Aq"], ["\x1b[A", "q"]),  # ESC ends an unterminated string and starts a sequence
        (["\x1b[<0;10;20Mq"], ["\x1b[<0;10;20M", "q"]),
        (["\x1b[?2026;2$y"], ["\x1b[?2026;2$y"]),
        (["\x1b[23$q"], ["\x1b[23$", "q"]),
        (["\x1b[[Aq"], ["\x1b[[A", "q"]),
        (["\x1b[Mabcq"], ["\x1b[Mabc", "q"]),
        (["\x1b[1;\x03"], ["\x03"]),  # Ctrl-C inside a broken sequence is still Ctrl-C
        (["\x1b["], ["\x1b", "["]),  # Esc then [, and nothing more
        (["\x1bO"], ["\x1b", "O"]),
        (["\x1bOA"], ["\x1bOA"]),
        (["\x1b[" + "1;" * 40 + "Aq"], ["q"]),  # overlong
        (["\x1b\x7f"], ["\x1b\x7f"]),  # Alt+Backspace in one piece
        (["\x1b", "\x7f"], ["\x1b", "\x7f"]),  # Esc, then Backspace
        (["\x1b1"], ["\x1b", "1"]),  # Esc then 1, not macOS's Option+1
        (["\x1b", "]x"], ["\x1b", "]x"]),  # Esc, then ] typed: not a string
    ],
)
def test_the_filter_cuts_input_into_keys_and_whole_sequences(reads: list[str], pieces: list[str]) -> None:
    sequence_filter = SequenceFilter()
    out: list[str] = []
    for read in reads:
        out += sequence_filter.feed(read)
    out += sequence_filter.flush()
    assert out == pieces
    assert not sequence_filter.holding


@pytest.mark.parametrize(
    "sequence", sorted(k for k in ANSI_SEQUENCES_KEYS if k.startswith((ESC + "[", ESC + "O")) and len(k) > 2)
)
def test_every_sequence_textual_knows_gives_the_keys_textual_gives(sequence: str) -> None:
    parser = XTermParser()
    expected = [m.key for m in parser.feed(sequence) if isinstance(m, events.Key)]
    assert parser._awaiting.timeout is None, "Textual reads it whole"
    assert keys_of(sequence, "q") == [*expected, "q"]


@pytest.mark.parametrize(
    ("reads", "keys"),
    [
        (["\x1b", "c"], ["escape", "c"]),
        (["\x1bc"], ["escape", "c"]),
        # The paste splitter holds a lone ESC (it may start a paste marker); where the read ended still counts:
        (["\x1b", "\x7f"], ["escape", "backspace"]),
        (["\x1b", "b"], ["escape", "b"]),
        (["\x1b", "]ab"], ["escape", "right_square_bracket", "a", "b"]),
        (["\x1b\x7f"], ["ctrl+w"]),  # Alt+Backspace, sent in one piece
        (["\x1b", "\x1b", "q"], ["escape", "escape", "q"]),
    ],
)
def test_esc_then_a_key_is_esc_and_that_key(reads: list[str], keys: list[str]) -> None:
    assert keys_of(*reads) == keys


def test_kitty_keys_mouse_and_focus_still_arrive() -> None:
    messages = type_reads(
        TerminalInput(), PasteSplitter(100), "\x1b[99;5u", "\x1b[27u", "\x1b[<0;10;5M", "\x1b[I", "\x1b[1;5A"
    )
    kinds = [m.key if isinstance(m, events.Key) else type(m).__name__ for m in messages]
    assert kinds == ["ctrl+c", "escape", "MouseDown", "AppFocus", "ctrl+up"]


# ---- fuzz: CSI / SS3 / OSC / DCS shapes with huge and odd parameters --------------------------------------------

numbers = st.one_of(
    st.integers(0, 300),
    st.integers(0x10FFF0, 0x110010),
    st.integers(0, 10**30),
    st.sampled_from([0xD800, 0xDFFF, 0xFFFF, 27, 57399, 2**63, 2**64]),
).map(str)
params = st.lists(st.tuples(st.one_of(numbers, st.just("")), st.sampled_from(";:")), max_size=6).map(
    lambda parts: "".join(number + sep for number, sep in parts)[:-1]
)
odd = st.characters(codec="utf-8", exclude_characters="\x1b")
# Mostly the finals Textual reads numbers for (Kitty keys, mouse, resize, cursor reports), then anything.
finals = st.one_of(st.sampled_from("u~ABCDEFHPQRSMmtyZ"), st.characters(min_codepoint=0x20, max_codepoint=0x7F), odd)
csi = st.builds(
    lambda private, p, inter, final: f"{ESC}[{private}{p}{inter}{final}",
    st.sampled_from(["", "", "", "", "<", "?", ">", "=", "[", "M"]),
    params,
    st.sampled_from(["", "", "", "", "$", " ", "!"]),
    st.one_of(finals, finals, st.just("")),
)
ss3 = st.builds(lambda digits, final: f"{ESC}O{digits}{final}", st.sampled_from(["", "2", "5", "99999999"]), finals)
terminators = st.sampled_from(["\x07", ESC + "\\", "", ESC, ESC + "x"])
osc = st.builds(lambda n, body, end: f"{ESC}]{n};{body}{end}", numbers, st.text(odd, max_size=40), terminators)
dcs = st.builds(
    lambda kind, body, end: f"{ESC}{kind}{body}{end}", st.sampled_from("P_^X"), st.text(odd, max_size=40), terminators
)
anything = st.one_of(
    csi, csi, csi, ss3, osc, dcs, st.text(max_size=12), st.just(ESC), st.sampled_from(["\x03", "\r", "\x7f"])
)


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(pieces=st.lists(anything, min_size=1, max_size=8), cuts=st.lists(st.integers(0, 400), max_size=4))
def test_fuzz_no_sequence_raises_or_deafens_and_the_next_key_arrives(pieces: list[str], cuts: list[int]) -> None:
    text = "".join(pieces).replace(PASTE_START, "")  # an open paste would rightly take the next key as text
    reads = [text[a:b] for a, b in zip([0, *sorted(cuts)], [*sorted(cuts), len(text)], strict=True)]
    terminal_input = TerminalInput()
    splitter = PasteSplitter(10_000)
    logger = logging.getLogger("dixit_tui.ssh.terminal_input")
    records = Records()
    logger.addHandler(records)
    try:
        type_reads(terminal_input, splitter, *[r for r in reads if r])
        after = type_reads(terminal_input, splitter, "q")
    finally:
        logger.removeHandler(records)
    assert [(type(m).__name__, getattr(m, "key", None)) for m in after] == [("Key", "q")]
    # Nothing reached the parser that it could not read: the filter dropped it first.
    assert [r.getMessage() for r in records.records if r.levelno >= logging.WARNING] == []


class Records(logging.Handler):
    """Keeps the records it gets (caplog cannot be used inside a Hypothesis test)."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
