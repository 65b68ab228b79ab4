"""The input guard: a token bucket on input bytes and a cap on bracketed pastes (no network)."""

from __future__ import annotations

from dixit_tui.ssh.guard import PASTE_END, PASTE_START, InputGuard, SessionLimits


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_bucket_allows_the_burst_then_the_rate() -> None:
    clock = Clock()
    guard = InputGuard(SessionLimits(input_rate=100, input_burst=1000), clock)
    assert guard.check(1000, "") is None
    assert guard.check(1, "x") == "input flood"
    clock.now += 1.0
    guard = InputGuard(SessionLimits(input_rate=100, input_burst=1000), clock)
    assert guard.check(900, "") is None
    clock.now += 1.0  # refills 100, capped at the burst
    assert guard.check(200, "") is None
    assert guard.check(1, "") == "input flood"


def test_paste_cap_counts_only_inside_a_paste_even_when_markers_are_split() -> None:
    guard = InputGuard(SessionLimits(max_paste=12, input_burst=10**9))  # 10 pasted + 2 of a split marker
    assert guard.check(0, "x" * 100) is None  # typing is not pasting
    assert guard.check(0, PASTE_START[:3]) is None
    assert guard.check(0, PASTE_START[3:] + "12345") is None
    assert guard.check(0, "67890" + PASTE_END[:2]) is None
    assert guard.check(0, PASTE_END[2:] + "y" * 50) is None  # the paste ended at 10 characters
    assert guard.check(0, PASTE_START + "z" * 13) == "paste too large"


def test_a_paste_growing_over_many_reads_is_stopped() -> None:
    guard = InputGuard(SessionLimits(max_paste=1000, input_burst=10**9))
    assert guard.check(0, PASTE_START) is None
    results = [guard.check(0, "a" * 100) for _ in range(11)]
    assert results[:10] == [None] * 10
    assert results[10] == "paste too large"
