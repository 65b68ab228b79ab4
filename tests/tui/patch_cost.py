"""What each per-process Textual patch of `tui/` saves, counted (never timed, unless asked): the Python calls of a
session joining a table (the second join: what every join costs once the process has seen one), of a session opening
the lobby, and of ordinary moves at an 8-seat table shown by a spectator's app and a player's app (the move, the
coordinator's work, both apps' handling and drawing), with one patch switched off in a fresh process each time.

    .venv/bin/python -m tests.tui.patch_cost [--off NAME ...] [--cpu N]

(NAME: one of SWITCHES, or several joined by "+", switched off together.)

prints a table: for each switch (`none`: every patch on) the calls, and how many more than with every patch on.
--cpu N adds the process CPU time of N joins (the median; noisy on a shared machine, never asserted).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from typing import Any


def _noop(*args: object, **kwargs: object) -> None:
    return None


_RESUME_PARTS = {
    "keep_styles": "_on_screen_resume",
}


def _switch_off(name: str) -> None:
    """Switch one patch off, before `dixit_tui.tui.app` is imported (it imports the installers by name)."""
    import importlib

    def off(module: str, *functions: str) -> None:
        mod = importlib.import_module(f"dixit_tui.textual_host.{module}")
        for function in functions:
            setattr(mod, function, _noop)

    if name == "none":
        return
    if name == "screen_patches":
        from dixit_tui.textual_host import screen_patches
        from dixit_tui.textual_host.styled_lines import share_styled_lines

        screen_patches.install_screen_patches = share_styled_lines  # (styled_lines is not this module's)
        screen_patches.mark_styled_at_mount = _noop
        return
    if name.startswith("screen_patches."):
        from dixit_tui.textual_host import screen_patches

        part = name.split(".", 1)[1]
        if part == "resume":
            screen_patches._keep_styles_on_first_resume = _noop
            screen_patches.mark_styled_at_mount = _noop
        elif part in _RESUME_PARTS:  # one of the patches `_keep_styles_on_first_resume` installs
            from textual.screen import Screen

            original = Screen.__dict__[_RESUME_PARTS[part]]
            screen_patches._keep_styles_on_first_resume()
            setattr(Screen, _RESUME_PARTS[part], original)
        else:
            setattr(screen_patches, part, _noop)
        return
    if _switch_off_issue23(name):
        return
    functions = {
        "shared_styles": ("share_computed_styles",),
        "shared_css": ("share_parsed_css",),
    }[name]
    off(name.split(".")[0], *functions)


_APP_OVERRIDES = {
    "app.get_screen": "_get_screen",
}


def _switch_off_issue23(name: str) -> bool:
    """The parts of the old table screen that issue 23's Line-API screens may no longer need (True: `name` was
    one)."""
    if name == "compositor":  # Textual's own compositor at the table (every row of an update sent)
        from textual._compositor import Compositor

        from dixit_tui.tui import table_screen

        table_screen.RowCompositor = Compositor  # type: ignore[misc,assignment]
    elif name == "compositor.shown_rows":  # every row drawn is sent (none found shown already)
        from textual._compositor import Compositor

        from dixit_tui.textual_host import row_compositor as compositor

        compositor._shown_already = lambda *args: False
        compositor.RowCompositor.render_full_update = Compositor.render_full_update  # type: ignore[method-assign]
    elif name == "kept_lines":  # every widget in an update's rectangle draws all its lines (Textual's way)
        from dixit_tui.tui.widgets.kept_lines import KeptLines

        del KeptLines.render_lines
    elif name == "styled_lines":
        from dixit_tui.textual_host import screen_patches

        screen_patches.share_styled_lines = _noop
    elif name == "focused":
        from textual.screen import Screen

        from dixit_tui.tui.table_screen import TableScreen

        TableScreen.focused = Screen.__dict__["focused"]
    elif name == "laid_out_once":
        from dixit_tui.textual_host.row_compositor import LaidOutOnce

        del LaidOutOnce._size_updated
    elif name in _APP_OVERRIDES:
        from dixit_tui.tui.app import DixitApp

        delattr(DixitApp, _APP_OVERRIDES[name])
    else:
        return False
    return True


async def _measure(cpu: int) -> dict[str, float]:
    from dixit_tui.coordinator import Identity
    from dixit_tui.textual_host.patches import install_textual_patches
    from dixit_tui.textual_host.process_caches import forget_shared
    from dixit_tui.tui.app import DixitApp
    from dixit_tui.tui.shared_work import share_per_process_work
    from tests.tui.fixtures import coordinator, options, settle
    from tests.work_counters import PythonCalls

    install_textual_patches()  # as in the server
    share_per_process_work()
    forget_shared()
    found: dict[str, float] = {}
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options(seats=8))

    async def joined(name: str, command: str | None) -> None:
        app = DixitApp(coord, Identity(name, f"key-{name}"), command=command)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)

    async def counted(what: Callable[[], Any]) -> int:
        with PythonCalls() as calls:
            await what()
        return calls.calls

    await joined("warm", f"watch {view.code}")
    found["join"] = await counted(lambda: joined("ana", f"watch {view.code}"))
    await joined("warm2", None)
    found["lobby"] = await counted(lambda: joined("bea", None))
    if cpu:
        times = []
        for i in range(cpu):
            start = time.process_time()
            await joined(f"cpu{i}", f"watch {view.code}")
            times.append(time.process_time() - start)
        found["join_cpu_ms"] = statistics.median(times) * 1000

    update, phase = await _table(coord, counted)
    found["update"] = statistics.mean(update)
    found["phase"] = statistics.mean(phase)
    if cpu:

        async def timed(what: Callable[[], Any]) -> float:
            start = time.process_time()
            await what()
            return (time.process_time() - start) * 1000

        updates: list[float] = []
        for _ in range(max(1, cpu // 5)):
            update_ms, _ = await _table(coordinator(), timed)
            updates.extend(update_ms)
        found["update_cpu_ms"] = statistics.median(updates)
    return found


async def _table(coord: Any, measure: Callable[[Callable[[], Any]], Any]) -> tuple[list[float], list[float]]:
    """An 8-seat table: 6 recording sessions, a player's app (hal) and a spectator's app: what each ordinary move of
    its first three phases costs (every move but each phase's last), and each phase change, by `measure`, less what
    the same settling of the apps costs with nothing to do."""
    from dixit_tui.coordinator import Identity
    from dixit_tui.tui.app import DixitApp
    from dixit_tui.tui.table_screen import TableScreen
    from tests.tui.fixtures import options, seat_many, settle

    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options(seats=8))
    others = [s for s, _ in await seat_many(coord, ["ben", "cara", "dan", "eve", "finn", "gus"], view.code)]
    async with AsyncExitStack() as stack:
        spectator = DixitApp(coord, Identity("watcher", "key-watcher"), command=f"watch {view.code}")
        player = DixitApp(coord, Identity("hal", "key-hal"), command=f"join {view.code}")
        pilots = [await stack.enter_async_context(app.run_test(size=(100, 30))) for app in (spectator, player)]
        await settle(*pilots)
        await host.start()
        await settle(*pilots)
        assert all(isinstance(app.screen, TableScreen) for app in (spectator, player))
        sessions = [host, *others]
        assert player.session is not None
        sessions.append(player.session)
        idle = await measure(lambda: settle(*pilots))
        moves: list[float] = []
        changes: list[float] = []
        for _ in range(60):
            movers = [s for s in sessions if default_move_pending(s)]
            if not movers or len(changes) >= 3:
                break
            mover = movers[0]
            cost = await measure(lambda: _move_and_settle(mover, pilots)) - idle  # noqa: B023 (awaited at once)
            (changes if len(movers) == 1 else moves).append(cost)
        return moves, changes


def default_move_pending(session: Any) -> bool:
    from tests.tui.fixtures import default_move_pending as pending

    return bool(pending(session))


async def _move_and_settle(session: Any, pilots: list[Any]) -> None:
    from tests.tui.fixtures import default_move, settle

    await default_move(session)
    await settle(*pilots)


SWITCHES = (
    "none",
    "shared_styles",
    "shared_css",
    "screen_patches",
    "screen_patches.resume",
    "screen_patches.keep_styles",
    "compositor",
    "compositor.shown_rows",
    "kept_lines",
    "styled_lines",
    "focused",
    "laid_out_once",
    *_APP_OVERRIDES,
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--off", nargs="*", default=list(SWITCHES))
    parser.add_argument("--cpu", type=int, default=0)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        for name in args.one.split("+"):  # (several parts switched off at once: "a+b")
            _switch_off(name)
        print(json.dumps(asyncio.run(_measure(args.cpu))))
        return
    rows: dict[str, dict[str, float]] = {}
    for name in ["none", *(n for n in args.off if n != "none")]:
        out = subprocess.run(
            [sys.executable, "-m", "tests.tui.patch_cost", "--one", name, "--cpu", str(args.cpu)],
            check=True,
            capture_output=True,
            text=True,
        )
        rows[name] = json.loads(out.stdout.strip().splitlines()[-1])
        base = rows["none"]
        cells = []
        for key, value in rows[name].items():
            if key == "moves":
                continue
            extra = (value - base[key]) / base[key] * 100 if base[key] else 0.0
            cells.append(f"{key} {value:>9.0f} ({extra:+5.1f}%)")
        print(f"{name:<24} " + "  ".join(cells), flush=True)


if __name__ == "__main__":
    main()
