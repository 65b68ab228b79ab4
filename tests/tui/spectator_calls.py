"""What one more spectator of the same size costs, counted (never timed): the Python calls of an ordinary move and of
a phase change at an 8-seat table watched by N spectators' apps at 100x30, each update's output made as a real
driver's app makes it (`render_segments`: headless apps skip it), less what the same settling costs with nothing to
do; each N in a fresh process. The difference between two Ns, over their difference, is what each more spectator
costs.

    .venv/bin/python -m tests.tui.spectator_calls [N ...]   (default: 1 6)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
from contextlib import AsyncExitStack
from typing import Any


async def _measure(spectators: int) -> tuple[float, float]:
    from textual._compositor import CompositorUpdate
    from textual.app import App

    import tests.tui.screen_cost as screen_cost
    from dixit_tui.textual_host.patches import install_textual_patches
    from dixit_tui.tui.shared_work import share_per_process_work
    from tests.tui.fixtures import default_move, default_move_pending, settle
    from tests.work_counters import PythonCalls

    display = App._display

    def shown(self: App[Any], screen: Any, renderable: Any) -> None:
        if isinstance(renderable, CompositorUpdate) and not self._batch_count:
            renderable.render_segments(self.console)  # (what a real driver's app writes)
        display(self, screen, renderable)

    App._display = shown  # type: ignore[method-assign]
    screen_cost.WATCHERS = spectators
    install_textual_patches()
    share_per_process_work()
    moves: list[int] = []
    changes: list[int] = []
    async with AsyncExitStack() as stack:
        sessions, _, pilots = await screen_cost.watched_table(stack)
        await settle(*pilots)
        with PythonCalls() as idle:
            await settle(*pilots)
        for _ in range(60):
            movers = [s for s in sessions if default_move_pending(s)]
            if not movers:
                break
            with PythonCalls() as calls:
                await default_move(movers[0])
                await settle(*pilots)
            (changes if len(movers) == 1 else moves).append(calls.calls - idle.calls)
    return sum(moves) / len(moves), sum(changes) / len(changes)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("spectators", nargs="*", type=int, default=[1, 6])
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(asyncio.run(_measure(args.one))))
        return
    found: dict[int, tuple[float, float]] = {}
    for n in args.spectators:
        out = subprocess.run(
            [sys.executable, "-m", "tests.tui.spectator_calls", "--one", str(n)],
            check=True,
            capture_output=True,
            text=True,
        )
        move, change = json.loads(out.stdout.strip().splitlines()[-1])
        found[n] = (move, change)
    for n, (move, change) in found.items():
        print(f"{n:>3} spectators: a move {move:>8.0f} calls, a phase change {change:>8.0f} calls")
    if len(found) > 1:
        (low, (move_low, change_low)), (high, (move_high, change_high)) = min(found.items()), max(found.items())
        print(
            f"one more spectator: a move {(move_high - move_low) / (high - low):.0f} calls, "
            f"a phase change {(change_high - change_low) / (high - low):.0f} calls"
        )


if __name__ == "__main__":
    main()
