"""How the event loop's time is shared between SSH sessions: whose work a step is, the order of a held session's
steps, and what happens on a loop where the measurement cannot work."""

from __future__ import annotations

import asyncio
import contextvars
import logging
import random
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual import events
from textual._context import active_app
from textual.app import App, ComposeResult
from textual.widgets import Static

from dixit_tui.bots.player import BotPlayer, seat_bots
from dixit_tui.coordinator import Coordinator, TableOptions, detached
from dixit_tui.ssh import driver as driver_module
from dixit_tui.ssh.driver import SSHDriver
from dixit_tui.ssh.server import DEFAULT_LIMITS
from dixit_tui.ssh.session_runner import SessionIdentity
from dixit_tui.ssh.terminal import TerminalInfo
from dixit_tui.textual_host import work_share
from dixit_tui.textual_host.patches import install_textual_patches
from dixit_tui.textual_host.work_share import check_work_measured
from tests.bots.humans import Human
from tests.e2e.harness import PtyClient, running_server, wait_for

pytestmark = pytest.mark.timeout(60)


class FakeLoop:
    """Just what asyncio.Handle needs of a loop, with (or without) the ready queue the measurement uses."""

    def __init__(self, *, ready: bool = True) -> None:
        if ready:
            self._ready: deque[asyncio.Handle] = deque()

    def get_debug(self) -> bool:
        return False

    def call_exception_handler(self, context: dict[str, Any]) -> None:
        raise AssertionError(context)


class FakeApp:
    def __init__(self, driver: SSHDriver) -> None:
        self._driver = driver


def session_driver(*, held: bool) -> SSHDriver:
    """An SSHDriver with only its loop-time counters (what `Handle._run` looks at)."""
    driver = SSHDriver.__new__(SSHDriver)
    driver.work = driver.input_work = driver.input_until = 0.0
    driver.held_until = time.monotonic() + 3600 if held else 0.0
    driver.work_deferred = 0
    driver._deferred_steps = []
    return driver


def step(loop: FakeLoop, log: list[str], name: str, driver: SSHDriver | None = None) -> asyncio.Handle:
    context = contextvars.Context()
    if driver is not None:
        context.run(active_app.set, FakeApp(driver))  # type: ignore[arg-type]
    return asyncio.Handle(log.append, (name,), loop, context)  # type: ignore[arg-type]


def run_ready(loop: FakeLoop, passes: int = 100) -> None:
    """What asyncio's `_run_once` does with the ready queue, pass after pass."""
    for _ in range(passes):
        if not loop._ready:
            return
        for _ in range(len(loop._ready)):
            handle = loop._ready.popleft()
            if not handle._cancelled:
                handle._run()


@pytest.fixture(autouse=True)
def measured() -> None:
    install_textual_patches()


def test_a_held_sessions_steps_run_in_the_order_they_were_scheduled() -> None:
    loop = FakeLoop()
    log: list[str] = []
    held = session_driver(held=True)
    loop._ready.extend([step(loop, log, "X", held), step(loop, log, "O"), step(loop, log, "Y", held)])
    run_ready(loop)
    assert log == ["O", "X", "Y"]  # the others' work first, then the held session's, in its own order
    assert held._deferred_steps == []


def test_a_held_sessions_later_steps_wait_behind_its_earlier_ones_while_other_work_keeps_coming() -> None:
    loop = FakeLoop()
    log: list[str] = []
    held = session_driver(held=True)

    def other(n: int) -> None:
        log.append(f"O{n}")
        if n < 40:
            loop._ready.append(asyncio.Handle(other, (n + 1,), loop, contextvars.Context()))  # type: ignore[arg-type]

    loop._ready.extend(
        [
            step(loop, log, "X", held),
            asyncio.Handle(other, (0,), loop, contextvars.Context()),  # type: ignore[arg-type]
            step(loop, log, "Y", held),
            step(loop, log, "Z", held),
        ]
    )
    run_ready(loop)
    mine = [name for name in log if not name.startswith("O")]
    assert mine == ["X", "Y", "Z"]
    # each step is put back at most _MAX_DEFERRALS times, then runs even though other work is waiting
    assert log.index("X") < log.index("O25")
    assert held.work_deferred <= 3 * work_share.MAX_DEFERRALS
    assert held.work_deferred >= work_share.MAX_DEFERRALS


def test_a_step_is_put_back_at_most_max_deferrals_times() -> None:
    loop = FakeLoop()
    log: list[str] = []
    held = session_driver(held=True)

    def other(n: int) -> None:
        log.append(f"O{n}")
        if n < 100:
            loop._ready.append(asyncio.Handle(other, (n + 1,), loop, contextvars.Context()))  # type: ignore[arg-type]

    loop._ready.extend(
        [step(loop, log, "X", held), asyncio.Handle(other, (0,), loop, contextvars.Context())]  # type: ignore[arg-type]
    )
    run_ready(loop, passes=200)
    assert held.work_deferred == work_share.MAX_DEFERRALS
    assert log.index("X") == work_share.MAX_DEFERRALS  # after O0..O19


def test_without_a_ready_queue_a_held_sessions_steps_just_run() -> None:
    loop = FakeLoop(ready=False)
    log: list[str] = []
    held = session_driver(held=True)
    step(loop, log, "X", held)._run()
    step(loop, log, "Y", held)._run()
    assert log == ["X", "Y"] and held.work_deferred == 0 and held.work > 0


def test_cancelled_callbacks_are_not_other_work_and_a_cancelled_step_put_back_blocks_nothing() -> None:
    loop = FakeLoop()
    log: list[str] = []
    held = session_driver(held=True)
    gone = step(loop, log, "O")
    gone.cancel()
    loop._ready.extend([step(loop, log, "X", held), gone])
    run_ready(loop)
    assert log == ["X"] and held.work_deferred == 0  # nothing else was really waiting

    first = step(loop, log, "A", held)
    loop._ready.extend([first, step(loop, log, "O")])
    loop._ready.popleft()._run()  # A is put back behind O ...
    assert held.work_deferred == 1 and list(loop._ready)[-1] is first
    first.cancel()  # ... and cancelled there (asyncio will drop it)
    held.held_until = 0.0
    loop._ready.append(step(loop, log, "B", held))
    run_ready(loop)
    assert log == ["X", "O", "B"] and held._deferred_steps == []


def test_looking_for_other_work_is_bounded_and_charged_to_the_held_session() -> None:
    loop = FakeLoop()
    log: list[str] = []
    held = session_driver(held=True)
    flooding = session_driver(held=True)
    loop._ready.extend(step(loop, log, "F", flooding) for _ in range(2 * work_share.SCAN_LIMIT))
    loop._ready.append(step(loop, log, "O"))  # the only other work, past what is looked at
    step(loop, log, "X", held)._run()
    assert log == ["X"] and held.work_deferred == 0

    loop._ready.clear()
    loop._ready.append(step(loop, log, "O"))
    step(loop, log, "Y", held)._run()
    assert held.work_deferred == 1 and log == ["X"]
    before = held.work
    loop._ready.clear()
    loop._ready.append(step(loop, log, "O"))
    step(loop, log, "Z", held)._run()  # put back: the time spent deciding is this session's
    assert held.work > before


async def test_bots_and_table_timers_started_from_a_session_are_not_that_sessions_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    acted_as: list[object] = []
    act = BotPlayer._act

    async def probing_act(self: BotPlayer) -> None:
        acted_as.append(active_app.get(None))
        await act(self)

    monkeypatch.setattr(BotPlayer, "_act", probing_act)
    coord = Coordinator(rng=random.Random(8), allow_seeded_tables=True, bots=seat_bots)
    host_app = object()  # the host's DixitApp, as Textual's tasks carry it
    ana = Human("ana")
    plays: list[asyncio.Task[None]] = []

    async def as_the_host() -> str:
        active_app.set(host_app)  # type: ignore[arg-type]
        session = await ana.connect(coord)
        table = await session.create(TableOptions(mode="standard", target=10, seed=2, turn_seconds=60))
        await session.add_bots(3)
        await session.start()
        await session.typing(True)
        plays.append(asyncio.create_task(ana.play()))  # the host plays in the host's context
        return table.code

    code = await asyncio.create_task(as_the_host())
    table = coord.tables[code]
    for timer in (table.timer, table.typing_timer):  # the phase's time limit, a typing mark's end
        assert timer is not None and timer._context.get(active_app, None) is None  # type: ignore[attr-defined]
    for _ in range(400):
        if len(acted_as) >= 3:
            break
        await asyncio.sleep(0.05)
    plays[0].cancel()
    assert len(acted_as) >= 3
    assert all(app is None for app in acted_as)

    spawned: list[object] = []

    async def table_work() -> None:
        spawned.append(active_app.get(None))

    def in_the_host_context() -> None:
        detached.spawn(table_work())
        detached.call_later(0, lambda: spawned.append(active_app.get(None)))

    context = contextvars.Context()
    context.run(active_app.set, host_app)  # type: ignore[arg-type]
    context.run(in_the_host_context)
    for _ in range(100):
        if len(spawned) == 2:
            break
        await asyncio.sleep(0.01)
    assert spawned == [None, None]


async def test_the_server_start_says_once_when_cpu_share_cannot_work(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.WARNING, logger="dixit_tui.textual_host.work_share")
    assert await check_work_measured()
    assert not [r for r in caplog.records if "cpu_share" in r.getMessage()]

    monkeypatch.setattr(work_share, "_measured_runs", 0)
    measured_run = asyncio.events.Handle._run
    monkeypatch.setattr(
        asyncio.events.Handle, "_run", work_share._unmeasured_run
    )  # e.g. a loop that does not call Handle._run
    assert not await check_work_measured()
    monkeypatch.setattr(asyncio.events.Handle, "_run", measured_run)
    warnings = [r for r in caplog.records if "cpu_share is inactive" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING

    class NotAsyncio:
        pass

    monkeypatch.setattr(asyncio, "get_running_loop", NotAsyncio)
    assert not await check_work_measured()  # never raises
    assert "not asyncio's own" in caplog.records[-1].getMessage()


class HeavyLayout(App[None]):
    """Each new window size costs 20 ms of the event loop (a heavy relayout); the sizes handled are kept."""

    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[tuple[int, int]] = []

    def compose(self) -> ComposeResult:
        yield Static(Text("ready"))

    def on_resize(self, event: events.Resize) -> None:
        self.sizes.append((event.size.width, event.size.height))
        until = time.thread_time() + 0.02  # (CPU time: what the server counts)
        while time.thread_time() < until:
            pass


@asynccontextmanager
async def heavy_session(tmp_path: Path) -> AsyncIterator[tuple[HeavyLayout, PtyClient, SSHDriver]]:
    """One session of an app whose every relayout costs 20 ms, on a server whose budget is 0.05 s at once
    (`cpu_share` 0.05, `cpu_burst` 0.05), once it has drawn its first size."""
    apps: list[HeavyLayout] = []

    def factory(identity: SessionIdentity, terminal: TerminalInfo) -> App[Any]:
        apps.append(HeavyLayout())
        return apps[-1]

    limits = replace(DEFAULT_LIMITS, cpu_share=0.05, cpu_burst=0.05, resize_interval=0.01)
    async with running_server(tmp_path, factory, limits=limits) as server:
        client = await PtyClient.connect(server.port, "ana")
        await client.wait_for_text("ready")
        await wait_for(lambda: len(apps[0].sizes) >= 1, timeout=30, what="the first size")
        driver = apps[0]._driver
        assert isinstance(driver, SSHDriver)
        yield apps[0], client, driver


@pytest.mark.e2e
async def test_window_changes_count_as_the_sessions_input_and_wait_when_it_is_over_its_share(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The pace counted as a person's is lowered to 5 events a second: on a loaded machine 40 relayouts of 20 ms may
    # arrive slower than 30 a second, and the test is of the share, not of the pace (see test_a_person_s_pace_...).
    monkeypatch.setattr(driver_module, "_HUMAN_EVENTS", 5)
    async with heavy_session(tmp_path) as (app, client, driver):
        # no key at all: only window changes, faster than a person resizes (a person's few never wait: see
        # test_a_person_s_pace_never_waits), each a 20 ms relayout
        for n in range(40):
            client.resize(70 + n, 24)
            await wait_for(partial(asked, driver, n + 1), timeout=30, what=f"resize {n + 1} asked")
            await asyncio.sleep(0.005)
        await wait_for(lambda: app.sizes[-1] == (109, 24), timeout=30, what="the last size")
        await client.close()
    print(f"\n{len(app.sizes)} relayouts, {driver.input_work:.2f} s counted as input, waited {driver.input_waited}")
    assert driver.input_work >= 0.02 * 2  # the relayouts the client asked for count for its share ...
    assert driver.input_waited > 0  # ... and once over it (0.05 s at once), its window changes wait


def asked(driver: SSHDriver, n: int) -> bool:
    return driver.resizes_asked >= n + 1  # (+ the first size, at the start)


def test_a_handle_without_run_leaves_the_loop_unmeasured_and_does_not_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(work_share, "_measuring", False)
    monkeypatch.delattr(asyncio.events.Handle, "_run")  # e.g. a Python whose asyncio renamed it
    work_share.measure_session_work()
    assert not work_share._measuring and not hasattr(asyncio.events.Handle, "_run")


async def test_a_person_s_pace_never_waits(tmp_path: Path) -> None:
    """Window changes (or keys) at a person's pace never wait for `cpu_share`, however much the app redraws: a fast
    typist at a table that moves under them is not slowed. The same budget as above, which a storm exceeds."""
    async with heavy_session(tmp_path) as (app, client, driver):
        for n in range(12):  # a dozen, about ten a second: far over the 0.05 s budget in work
            client.resize(70 + n, 24)
            await wait_for(partial(asked, driver, n + 1), timeout=30, what=f"resize {n + 1} asked")
            await asyncio.sleep(0.1)  # (a person's pace in real time: what is tested is that it never waits)
        await wait_for(lambda: app.sizes[-1] == (81, 24), timeout=30, what="the last size")
        await client.close()
    assert driver.input_work >= 0.02 * 2  # it did cost more than its share ...
    assert driver.input_waited == 0  # ... and still nothing waited
