"""Input limits without a network: the byte bucket, the paste splitter and the event pacer."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dixit_tui.ssh.guard import InputGuard, SessionLimits
from dixit_tui.ssh.input import PASTE_END, PASTE_START, EventPacer, Pasted, PasteSplitter, PasteTooLarge, Typed


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_bucket_allows_the_burst_then_the_rate() -> None:
    clock = Clock()
    guard = InputGuard(SessionLimits(input_rate=100, input_burst=1000), clock)
    assert guard.check(1000) is None
    assert guard.check(1) == "input flood"
    clock.now += 1.0
    guard = InputGuard(SessionLimits(input_rate=100, input_burst=1000), clock)
    assert guard.check(900) is None
    clock.now += 1.0  # refills 100, capped at the burst
    assert guard.check(200) is None
    assert guard.check(1) == "input flood"


def feed_all(splitter: PasteSplitter, *reads: str) -> list[Typed | Pasted]:
    return [piece for text in reads for piece in splitter.feed(text)]


def test_a_paste_is_one_piece_whatever_it_holds() -> None:
    splitter = PasteSplitter(max_paste=100)
    pieces = feed_all(splitter, "ab" + PASTE_START + "x\x1b[2Jc\x1b" + PASTE_END + "q")
    assert pieces == [Typed("ab"), Pasted("x[2Jc"), Typed("q")]  # ESC and other controls removed, nothing typed


def test_markers_split_across_reads_are_found() -> None:
    splitter = PasteSplitter(max_paste=100)
    pieces = feed_all(splitter, "a\x1b", "[20", "0~he", "llo\x1b[20", "1", "~z")
    assert pieces == [Typed("a"), Pasted("hello"), Typed("z")]
    assert not splitter.holding


def test_a_held_escape_is_typed_after_all_when_nothing_follows() -> None:
    splitter = PasteSplitter(max_paste=100)
    assert splitter.feed("x\x1b") == [Typed("x")]
    assert splitter.holding
    assert splitter.flush() == [Typed("\x1b")]
    assert not splitter.holding and splitter.flush() == []
    assert splitter.feed("\x1b[A") == [Typed("\x1b[A")]  # an arrow key is not a marker


def test_newlines_and_tabs_survive_a_paste() -> None:
    splitter = PasteSplitter(max_paste=100)
    assert splitter.feed(PASTE_START + "a\tb\r\nc\x00\x07\x9b" + PASTE_END) == [Pasted("a\tb\r\nc")]


def test_paste_cap_counts_only_inside_a_paste_even_when_markers_are_split() -> None:
    splitter = PasteSplitter(max_paste=10)
    feed_all(splitter, "x" * 100, PASTE_START[:3], PASTE_START[3:] + "12345", "67890" + PASTE_END[:2])
    assert feed_all(splitter, PASTE_END[2:] + "y" * 50)[0] == Pasted("1234567890")
    with pytest.raises(PasteTooLarge):
        splitter.feed(PASTE_START + "z" * 11)


def test_a_paste_growing_over_many_reads_is_stopped() -> None:
    splitter = PasteSplitter(max_paste=1000)
    splitter.feed(PASTE_START)
    for _ in range(10):
        assert splitter.feed("a" * 100) == []
    with pytest.raises(PasteTooLarge):
        splitter.feed("a")


@given(st.lists(st.sampled_from(["a", "\x1b", "[", "2", "0", "1", "~", "\n", PASTE_START, PASTE_END]), max_size=40),
       st.data())  # fmt: skip
def test_splitting_does_not_depend_on_where_reads_break(parts: list[str], data: st.DataObject) -> None:
    text = "".join(parts)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=6)))
    reads = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    whole, split = PasteSplitter(10**6), PasteSplitter(10**6)

    def merged(pieces: list[Typed | Pasted]) -> list[Typed | Pasted]:
        out: list[Typed | Pasted] = []
        for piece in pieces:
            if out and isinstance(piece, Typed) and isinstance(out[-1], Typed):
                out[-1] = Typed(out[-1].text + piece.text)
            elif not (isinstance(piece, Typed) and not piece.text):
                out.append(piece)
        return out

    one = merged([*whole.feed(text), *whole.flush()])
    many = merged([*feed_all(split, *reads), *split.flush()])
    assert one == many


def test_pacer_waits_once_over_the_burst_and_refills_at_the_rate() -> None:
    clock = Clock()
    pacer = EventPacer(rate=100, burst=50, clock=clock)
    assert pacer.take(50) == 0
    assert pacer.take(10) == pytest.approx(0.1)  # 10 events over: a tenth of a second at 100/s
    clock.now += 0.1
    assert pacer.take(0) == 0
    clock.now += 10
    assert pacer.take(50) == 0  # refilled, but never past the burst
    assert pacer.take(1) > 0
