"""How much of the shared event loop's time each session's app takes, and its work put back while over its share.

Touches: asyncio's `Handle._run` (CPython's, private), replaced; reads `Handle._context`, `_loop`, `_cancelled` and
the loop's `_ready` queue (listed in `runtime_internals.py`); and `textual._context.active_app` (a private module):
the app a callback's context belongs to. Why: every session's app runs in the server's one event loop; without
knowing whose work a step is, one session flooding its app (keys, resizes) would slow every other session.
`check_work_measured` says at the server's start (a WARNING) when the measurement cannot work on the running loop.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
import weakref
from collections import deque
from collections.abc import Callable

from dixit_tui.textual_host.hosted import HostedDriver

logger = logging.getLogger(__name__)

MAX_DEFERRALS = 20
"""How many times one step of an over-budget session's work may be put behind other work."""
SCAN_LIMIT = 32
"""How many of the next callbacks in the ready queue a held session's step looks at for other work waiting."""

_measuring = False
"""Whether `Handle._run` is patched (see `measure_session_work`)."""
_unmeasured_run: Callable[[asyncio.Handle], None] | None = None
"""asyncio's own `Handle._run`, once patched."""
_measured_runs = 0
"""Callbacks and task steps that went through the patched `Handle._run` (how `check_work_measured` sees it works)."""


def measure_session_work() -> None:
    """Count the event loop's CPU time in each hosted app (its thread's: on a loaded machine, the time a step waited
    for a core is nobody's work, so a person typing is not held back for the machine's load): every callback and
    task step runs in a context, and Textual's tasks carry their app in it (`active_app`). The time goes to that
    app's HostedDriver (`work`; for a step begun within half a second of its input or of a window resize also
    `input_work`, which makes the session's input wait when it is more than `cpu_share`). While a session is over
    its share, a step of its app's work that finds other work waiting to run goes to the end of the loop's ready
    queue (up to `MAX_DEFERRALS` times), so a flooding session's frames do not delay everyone. A session's steps
    still run in the order they were scheduled: once one is put back, its later ones are put back behind it.
    The table's own work (timers, bots) runs in a fresh context and is nobody's.

    Only for asyncio's own event loop (its `Handle` and `_ready` queue); elsewhere nothing is patched or measured and
    `check_work_measured` says so in the log. Idempotent."""
    global _measuring, _unmeasured_run
    from textual._context import active_app

    if _measuring:
        return
    handle_class = asyncio.events.Handle
    run = getattr(handle_class, "_run", None)
    if run is None or not callable(run):  # (`check_work_measured` says so at the server's start)
        return
    clock = time.thread_time  # CPU time: a loaded machine's waits for a core are not the session's work
    wall = time.perf_counter  # (the driver's `input_until` is on this clock)
    deferrals: weakref.WeakKeyDictionary[asyncio.Handle, int] = weakref.WeakKeyDictionary()
    tickets: weakref.WeakKeyDictionary[asyncio.Handle, int] = weakref.WeakKeyDictionary()
    next_ticket = itertools.count()

    def driver_of(handle: asyncio.Handle) -> HostedDriver | None:
        context = getattr(handle, "_context", None)
        app = context.get(active_app) if context is not None else None
        driver = getattr(app, "_driver", None) if app is not None else None
        return driver if isinstance(driver, HostedDriver) else None

    def others_ready(ready: deque[asyncio.Handle], now: float) -> bool:
        """Work of the server or of a session within its share is waiting to run (among the next few in the queue;
        cancelled callbacks are not work)."""
        for other in itertools.islice(ready, SCAN_LIMIT):
            if other._cancelled:
                continue
            driver = driver_of(other)
            if driver is None or driver.held_until <= now:
                return True
        return False

    def defer(
        driver: HostedDriver, handle: asyncio.Handle, ticket: int, ready: deque[asyncio.Handle], *, push: bool
    ) -> None:
        if push:  # (a step put back and not yet run again is in `_deferred_steps` once)
            heapq.heappush(driver._deferred_steps, (ticket, handle))
        deferrals[handle] = deferrals.get(handle, 0) + 1
        driver.work_deferred += 1
        ready.append(handle)

    def charge(driver: HostedDriver, started: float, ended: float, began: float) -> None:
        driver.work += ended - started
        if began < driver.input_until:  # (a step that began within the input's window: on the wall clock)
            driver.input_work += ended - started

    def measured_run(handle: asyncio.Handle) -> None:
        global _measured_runs
        _measured_runs += 1
        driver = driver_of(handle)
        if driver is None:
            run(handle)
            return
        started, began = clock(), wall()
        waiting = driver._deferred_steps
        if waiting or driver.held_until > time.monotonic():
            ready: deque[asyncio.Handle] | None = getattr(handle._loop, "_ready", None)  # type: ignore[attr-defined]
            if ready is not None and isinstance(ready, deque):
                while waiting and waiting[0][1]._cancelled:
                    heapq.heappop(waiting)  # a step put back, then cancelled: asyncio drops it, so must we
                ticket = tickets.get(handle)
                if ticket is None:
                    ticket = tickets[handle] = next(next_ticket)
                if waiting and waiting[0][0] < ticket:
                    # An earlier step of this session was put back: this one runs after it.
                    defer(driver, handle, ticket, ready, push=handle not in deferrals)
                    charge(driver, started, clock(), began)
                    return
                if waiting and waiting[0][0] == ticket:
                    heapq.heappop(waiting)
                # Over its share: this step runs after the work waiting now (a few times at most), so the other
                # sessions' small steps (a login, a key) do not queue behind the flooding session's frames.
                if (
                    driver.held_until > time.monotonic()
                    and deferrals.get(handle, 0) < MAX_DEFERRALS
                    and others_ready(ready, time.monotonic())
                ):
                    defer(driver, handle, ticket, ready, push=True)
                    charge(driver, started, clock(), began)
                    return
            else:
                waiting.clear()
        try:
            run(handle)
        finally:
            charge(driver, started, clock(), began)

    asyncio.events.Handle._run = measured_run  # type: ignore[method-assign, assignment]
    _unmeasured_run = run
    _measuring = True


async def check_work_measured() -> bool:
    """At server start: measure the loop's work per session (`measure_session_work`), and whether it is measured
    (asyncio's own loop, with its ready queue, running the patched `Handle._run`). If not, one WARNING says
    `cpu_share` is inactive. Never raises."""
    try:
        measure_session_work()
        loop = asyncio.get_running_loop()
        reason = None
        if not _measuring:
            reason = "asyncio.Handle could not be patched"
        elif not isinstance(loop, asyncio.BaseEventLoop) or not isinstance(getattr(loop, "_ready", None), deque):
            reason = f"the event loop ({type(loop).__module__}.{type(loop).__name__}) is not asyncio's own"
        else:
            before = _measured_runs
            await asyncio.sleep(0)  # one task step through the loop's ready queue
            if _measured_runs == before:
                reason = "the event loop does not run callbacks through asyncio.Handle._run"
    except Exception as error:  # a check must never stop the server
        reason = f"checking failed ({error!r})"
    if reason is None:
        return True
    logger.warning("cpu_share is inactive: %s; sessions' work is not measured nor put back", reason)
    return False
