"""An idle table screen does not wake up every second: its clock ticks only while the view has a clock to count down
(a time limit, or stand-ins promised for missing players). The clock's timer is paused or running, and its ticks
counted, not times."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack

import pytest

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from tests.tui.fixtures import coordinator, options, seat_many, settle


async def ticks_while_idle(monkeypatch: pytest.MonkeyPatch, **table_options: object) -> tuple[int, TableScreen]:
    """The clock's ticks of a player's table screen (a game started) with nothing happening: none if its timer is
    paused, else until the first one (at most 10 s)."""
    ticks = [0]
    tick = TableScreen._tick

    def counted(self: TableScreen) -> None:
        ticks[0] += 1
        tick(self)

    monkeypatch.setattr(TableScreen, "_tick", counted)
    coord = coordinator()
    async with AsyncExitStack() as stack:
        host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
        view = await host.create(options(**table_options))
        await seat_many(coord, ["ben"], view.code)
        app = DixitApp(coord, Identity("cy", "key-cy"), command=f"join {view.code}")
        pilot = await stack.enter_async_context(app.run_test(size=(100, 30)))
        await settle(pilot)
        await host.start()
        await settle(pilot)
        table = app.screen
        assert isinstance(table, TableScreen)
        ticks[0] = 0
        clock = table._clock
        assert clock is not None
        if not clock._active.is_set():  # (Textual's Timer: set while it runs, cleared by pause())
            return 0, table  # paused: it calls nothing until resumed
        for _ in range(500):
            if ticks[0]:
                break
            await asyncio.sleep(0.02)
        return ticks[0], table


async def test_without_a_clock_the_screen_does_not_tick(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks, table = await ticks_while_idle(monkeypatch)
    assert table.view.deadline is None and not table.view.stand_ins
    assert ticks == 0, ticks


async def test_with_a_time_limit_the_countdown_ticks(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks, table = await ticks_while_idle(monkeypatch, turn_seconds=120)
    assert table.view.phase_deadline is not None
    assert ticks >= 1, ticks
