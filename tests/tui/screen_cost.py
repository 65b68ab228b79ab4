"""What an update costs a table screen, counted: the tables and screens the cost tests share (an 8-seat table of
recording sessions and a DixitApp watching or playing it; the work an update costs a screen, by `render_cost`'s
counters, and the rows it changed; each phase change of a short game as a screen saw it)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any

from textual.pilot import Pilot

from dixit_tui.coordinator import Coordinator, Identity, PlayerSession
from dixit_tui.textual_host.process_caches import forget_shared
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from tests.tui.fixtures import (
    coordinator,
    default_move,
    default_move_pending,
    options,
    phase_of,
    play_until,
    seat_many,
    settle,
)
from tests.tui.render_cost import Counts, counting

WATCHERS = 3  # the spectators of `watched_table`


def rows(app: DixitApp) -> list[tuple[str, tuple[object, ...]]]:
    """Each row of the screen: its text and styles (to tell which rows an update changed)."""
    return [(strip.text, tuple(seg.style for seg in strip)) for strip in app.screen._compositor.render_strips()]


async def count(app: DixitApp, pilot: Pilot[Any], update: Callable[[], Awaitable[object]]) -> tuple[Counts, int]:
    """The work `update` costs the screen of `app`, and how many rows of the screen it changed."""
    await settle(pilot)
    before = rows(app)
    with counting() as counts:
        await update()
        await settle(pilot)
    after = rows(app)
    return counts, sum(a != b for a, b in zip(before, after, strict=True))


async def eight_bots(
    coord: Coordinator, stack: AsyncExitStack, size: tuple[int, int]
) -> tuple[list[PlayerSession], DixitApp, Pilot[Any]]:
    """An 8-seat table of recording sessions, started, and a DixitApp watching it."""
    host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
    view = await host.create(options(seats=8))
    others = [s for s, _ in await seat_many(coord, ["ben", "cara", "dan", "eve", "finn", "gus", "hal"], view.code)]
    app = DixitApp(coord, Identity("watcher", "key-watcher"), command=f"watch {view.code}")
    pilot = await stack.enter_async_context(app.run_test(size=size))
    await settle(pilot)
    await host.start()
    await settle(pilot)
    assert isinstance(app.screen, TableScreen)
    return [host, *others], app, pilot


async def short_game(
    coord: Coordinator, stack: AsyncExitStack, size: tuple[int, int], role: str
) -> tuple[list[PlayerSession], DixitApp, Pilot[Any]]:
    """An 8-seat table playing to 10 points (two turns with seed 5: the practice turn, then one more), started, shown
    by a DixitApp: a spectator beside 8 recording sessions, or the eighth player."""
    host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
    view = await host.create(options(seats=8, target=10))
    names = ["ben", "cara", "dan", "eve", "finn", "gus", "hal"]
    if role == "player":
        names = names[:-1]
    others = [s for s, _ in await seat_many(coord, names, view.code)]
    command = f"watch {view.code}" if role == "watcher" else f"join {view.code}"
    who = "watcher" if role == "watcher" else "hal"
    app = DixitApp(coord, Identity(who, f"key-{who}"), command=command)
    pilot = await stack.enter_async_context(app.run_test(size=size))
    await settle(pilot)
    await host.start()
    await settle(pilot)
    assert isinstance(app.screen, TableScreen)
    sessions = [host, *others]
    if role == "player":
        assert app.session is not None
        sessions.append(app.session)
    return sessions, app, pilot


async def phase_changes(size: tuple[int, int], role: str) -> list[tuple[str, Counts, int]]:
    """Each phase change of the short game as the app's screen saw it: (transition, counts, rows changed). The
    last move of each phase is counted alone (the player's own moves come first: then they watch)."""
    coord = coordinator()
    seen: list[tuple[str, Counts, int]] = []
    async with AsyncExitStack() as stack:
        sessions, app, pilot = await short_game(coord, stack, size, role)
        for _ in range(20):
            _, turn, before = phase_of(sessions[0])
            movers = [s for s in sessions if default_move_pending(s)]
            if not movers:
                break
            movers.sort(key=lambda s: s is not app.session)
            for session in movers[:-1]:
                await default_move(session)
            await settle(pilot)
            counts, changed = await count(app, pilot, lambda m=movers[-1]: default_move(m))  # type: ignore[misc]
            seen.append((f"{turn}:{before}->{phase_of(sessions[0])[2]}", counts, changed))
    return seen


async def watched_table(
    stack: AsyncExitStack,
) -> tuple[list[PlayerSession], list[DixitApp], list[Pilot[Any]]]:
    forget_shared()  # (lines drawn by earlier tests)
    coord = coordinator()
    host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
    view = await host.create(options(seats=8))
    others = [s for s, _ in await seat_many(coord, ["ben", "cara", "dan", "eve", "finn", "gus", "hal"], view.code)]
    apps, pilots = [], []
    for i in range(WATCHERS):
        app = DixitApp(coord, Identity(f"watcher{i}", f"key-watcher{i}"), command=f"watch {view.code}")
        pilots.append(await stack.enter_async_context(app.run_test(size=(100, 30))))
        apps.append(app)
    await settle(*pilots)
    await host.start()
    await settle(*pilots)
    assert all(isinstance(app.screen, TableScreen) for app in apps)
    return [host, *others], apps, pilots


async def watched_in_submit(
    stack: AsyncExitStack,
) -> tuple[list[PlayerSession], list[DixitApp], list[Pilot[Any]], list[PlayerSession]]:
    """`watched_table` played on to its first submit phase, settled: its sessions, apps and pilots, and the sessions
    whose card is awaited."""
    sessions, apps, pilots = await watched_table(stack)
    await play_until(sessions, lambda: phase_of(sessions[0])[2] == "submit")
    await settle(*pilots)
    return sessions, apps, pilots, [s for s in sessions if default_move_pending(s)]
