"""Shared pytest setup: make the repository root importable, so tests can `import tests.e2e.harness`."""

from __future__ import annotations

import asyncio
import faulthandler
import gc
import os
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--two-workers",
        action="store_true",
        help="run the end-to-end tests against two workers sharing one redis-server (tests/e2e/shared_servers.py) "
        "instead of the embedded server; the same as DIXIT_TEST_TWO_WORKERS=1",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("two_workers"):
        os.environ["DIXIT_TEST_TWO_WORKERS"] = "1"  # (read by tests/e2e/servers.py; xdist workers inherit it)
    _STDERR.append(os.dup(2))


def pytest_report_header(config: pytest.Config) -> str | None:
    if os.environ.get("DIXIT_TEST_TWO_WORKERS", "") not in ("", "0"):
        return "end-to-end servers: two workers sharing one redis-server (--two-workers)"
    return None


@pytest.fixture(autouse=True)
def _confirm_without_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    """Confirmations answer at once in tests, as if read first (the typing-burst guard of ConfirmScreen would make
    every `y` pressed right after a dialog opens wait). The tests of the guard itself set ConfirmScreen.GUARD."""
    from dixit_tui.tui.widgets.confirm import ConfirmScreen

    if not _SHIPPED_GUARD:
        _SHIPPED_GUARD.append(getattr(ConfirmScreen, "GUARD", 0.0))
    monkeypatch.setattr(ConfirmScreen, "GUARD", 0.0, raising=False)  # (absent before the guard)


_SHIPPED_GUARD: list[float] = []  # ConfirmScreen.GUARD as the code has it (read before the first test sets it to 0)


@pytest.fixture
def shipped_guard(_confirm_without_guard: None) -> float:
    """ConfirmScreen.GUARD as shipped, for the tests of the guard itself (every other test runs without it)."""
    return _SHIPPED_GUARD[0]


@pytest.fixture(autouse=True)
def _keys_without_reaction_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """An Enter or Space that comes in right after the table moved on acts in the new phase in tests, as if the
    player had seen it (a test presses Enter as soon as the dial shows). The tests of that guard set REACTION."""
    from dixit_tui.tui import table_screen

    monkeypatch.setattr(table_screen, "REACTION", 0.0, raising=False)


@pytest.fixture(autouse=True)
def _log_caps_per_test() -> None:
    """The cap on repeated log lines is one per process: each test starts with it empty (a line one test logged must
    not be left out of the next test's log)."""
    from dixit_tui.log_caps import REPEATS

    REPEATS._last.clear()
    REPEATS._dropped.clear()


ONE_WORKER = {
    # one `dixit-tui bench` run, shared by both modules (tests/bench/conftest.py)
    "tests/bench/test_load_smoke.py": "bench_run",
    "tests/bench/test_floor_and_think.py": "bench_run",
    # one `bench --compare-workers` run for the module
    "tests/bench/test_compare_workers.py": "compare_workers",
    # the crash tests: each kills and restarts servers for a minute or more against a deadline; two at once on two
    # cores would each take twice as long
    "tests/e2e/test_kill_restart.py": "kills",
    "tests/redis/test_serve_redis.py": "kills",
}
"""With `-n 2 --dist loadgroup` (.ci/run), the tests of each group here run on one xdist worker, one after another:
those that share one expensive set-up (run once, not once per worker), and those that must not run at once."""


@pytest.hookimpl(tryfirst=True)  # (before xdist's own hook reads the groups)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        group = ONE_WORKER.get(item.nodeid.split("::")[0])
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


_STDERR: list[int] = []
"""A copy of the process's stderr taken at start: what a test about to time out is reported on (below)."""
_HANG_TIMERS: list[threading.Timer] = []


@pytest.hookimpl(optionalhook=True)
def pytest_timeout_set_timer(item: pytest.Item, settings: Any) -> None:
    """A second before a test's timeout ends it, its threads' stacks and its event loop's tasks' are written to stderr.
    pytest-timeout reports the threads itself, but from an xdist worker that report is lost with the worker it ends;
    and a hang in asyncio shows in its tasks, not its threads. (pytest-timeout's own timer is set after this one.)"""
    if settings.timeout and settings.timeout > 2 and _STDERR:
        timer = threading.Timer(settings.timeout - 1, _report_hang, (item.nodeid,))
        timer.daemon = True
        timer.start()
        _HANG_TIMERS.append(timer)


@pytest.hookimpl(optionalhook=True)
def pytest_timeout_cancel_timer(item: pytest.Item) -> None:
    while _HANG_TIMERS:
        _HANG_TIMERS.pop().cancel()


def _report_hang(nodeid: str) -> None:
    with os.fdopen(os.dup(_STDERR[0]), "w") as out:
        out.write(f"\n+++ {nodeid} is about to time out: its threads, then its event loop's tasks +++\n")
        out.flush()
        faulthandler.dump_traceback(file=out, all_threads=True)
        loops = [o for o in gc.get_objects() if isinstance(o, asyncio.AbstractEventLoop) and o.is_running()]
        for loop in loops:
            try:
                for task in list(asyncio.all_tasks(loop)):
                    out.write(f"\n{task!r}, awaiting:\n" + "".join(_awaited(task.get_coro())))
            except Exception as error:  # (read from another thread while the loop runs: best effort)
                out.write(f"(the tasks could not be read: {error!r})\n")


def _awaited(coro: Any) -> list[str]:
    """Where a coroutine waits: its frame, the frame of the coroutine it awaits, and so on down."""
    lines: list[str] = []
    while coro is not None and len(lines) < 40:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is not None:
            lines.append(f"  {frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}\n")
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return lines
