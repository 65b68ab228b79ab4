"""The coordinators' clock, driven by an end-to-end test: real time plus what the test adds, so a grace period or a
time limit of a minute passes when the test says, not after a minute of waiting.

    clock = drive_clock(coord)  # every worker's coordinator and its timers read it
    ...
    await run_out(coord, code, clock)  # the table's deadline is reached and its timer goes off now

The table's timer itself is the event loop's (armed for the real delay): `run_out` cancels it and makes it go off, as
the loop would have, once the clock reads its deadline. A timer armed while the clock is ahead goes off at once."""

from __future__ import annotations

import time

from dixit_tui.coordinator import Coordinator
from tests.e2e.harness import TIMEOUT, wait_for


class DrivenClock:
    """Epoch seconds, `ahead` seconds later than the wall clock's."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.time() + self.ahead

    def advance(self, seconds: float) -> None:
        self.ahead += seconds


def workers(coord: Coordinator) -> list[Coordinator]:
    """The coordinator, or each of two workers' (`--two-workers`)."""
    return list(getattr(coord, "workers", [coord]))


def owns(worker: Coordinator, code: str) -> bool:
    """Whether `worker` keeps table `code`'s clocks (one process always does; of two workers, its lease's owner)."""
    return worker.sharing.owns(code)


def drive_clock(coord: Coordinator) -> DrivenClock:
    """Give every worker's coordinator (and its timers) a clock the test moves on."""
    clock = DrivenClock()
    for worker in workers(coord):
        worker.clock = clock
        worker.timers.clock = clock
    return clock


async def run_out(coord: Coordinator, code: str, clock: DrivenClock) -> None:
    """The clock reaches table `code`'s deadline (no later) at the worker that keeps its clocks, and its timer goes
    off now. Waits (bounded) for it to be armed there."""
    armed: list[Coordinator] = []

    def find() -> bool:
        armed[:] = [
            w
            for w in workers(coord)
            if code in w.tables and w.tables[code].timer and w.tables[code].deadline and owns(w, code)
        ]
        return bool(armed)

    await wait_for(find, TIMEOUT, f"table {code}'s timer to be armed")
    for worker in armed:
        table = worker.tables[code]
        assert table.deadline is not None and table.timer is not None
        clock.ahead = max(clock.ahead, table.deadline - time.time())
        table.timer.cancel()
        table.timer = None
        worker.timers.fire(table)


async def idle_out(coord: Coordinator, code: str) -> None:
    """Table `code`'s idle timer (a running game nobody is connected to closes) goes off now, at the worker that
    owns the table. Waits (bounded) for it to be armed there."""
    armed: list[Coordinator] = []

    def find() -> bool:
        armed[:] = [w for w in workers(coord) if code in w.tables and w.tables[code].idle_timer and owns(w, code)]
        return bool(armed)

    await wait_for(find, TIMEOUT, f"table {code}'s idle timer to be armed")
    for worker in armed:
        table = worker.tables[code]
        assert table.idle_timer is not None
        table.idle_timer.cancel()
        worker.timers.on_idle(table)


async def reveal_out(coord: Coordinator, code: str, clock: DrivenClock) -> None:
    """Table `code`'s held reveal (`reveal_seconds`, for its people to read) is over by the clock: its time passed,
    at each worker that holds it, as when its timer goes off. Waits (bounded) for a hold to begin."""
    held: list[Coordinator] = []

    def find() -> bool:
        held[:] = [w for w in workers(coord) if code in w.tables and w.tables[code].reveal_until is not None]
        return bool(held)

    await wait_for(find, TIMEOUT, f"table {code}'s reveal to be held")
    for worker in held:
        table = worker.tables[code]
        until = table.reveal_until
        if until is None:
            continue
        clock.ahead = max(clock.ahead, until - time.time())
        if table.reveal_timer is not None:
            table.reveal_timer.cancel()
            table.reveal_timer = None
        await worker.reveal_over(table)
