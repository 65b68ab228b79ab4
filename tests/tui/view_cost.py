"""What an update costs a session's app before anything is drawn, counted (never timed): the Python calls made by
`DixitApp.on_coordinator_update` (the table screen putting the new view into its widgets) for the ordinary moves of
an 8-seat table (a chat line, a card given, a vote cast, a seat going offline) and for its phase changes, at a
spectator's app and at a player's app whose player is not acting.

Used by tests/tui/test_view_cost.py and runnable on its own:

    .venv/bin/python -m tests.tui.view_cost [--role ROLE] [--top 25 [--by owner] [--nth 3]] [--cpu N [--posted]]

prints the calls of each update (with --top, the functions called most often in the --nth update of each kind, or
with --by owner the project's functions that made the calls; with --cpu, the process CPU time of handling a card
given and the view before it, in turn, N times, which compares code versions run in turn on one machine: never
asserted).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack, contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from textual.pilot import Pilot

from dixit_tui.coordinator import Identity, PlayerSession, TableView
from dixit_tui.coordinator.models import StateUpdate
from dixit_tui.textual_host.process_caches import forget_shared
from dixit_tui.tui.app import CoordinatorUpdate, DixitApp
from dixit_tui.tui.table_screen import TableScreen
from tests.tui.fixtures import coordinator, default_move, options, phase_of, play_until, seat_many, settle
from tests.work_counters import wrapped_methods


@dataclass
class Handled:
    """The updates an app handled while counting: how many, the Python calls they made, by function (with `where`)."""

    updates: int = 0
    calls: int = 0
    where: Counter[str] = field(default_factory=Counter)


@contextmanager
def counting(apps: list[DixitApp], *, where: Callable[[FrameType], str] | None = None) -> Iterator[list[Handled]]:
    """Count the Python calls each of `apps` makes handling the coordinator's updates, while inside (the handler does
    not wait for anything: nothing of another task runs meanwhile). The counts are listed in the order the apps
    handled their first update (the last one finds done what the apps at a table share)."""
    counts: dict[int, Handled] = {}

    def make(original: Any) -> Any:
        async def wrapper(self: DixitApp, message: CoordinatorUpdate) -> None:
            if self not in apps:
                await original(self, message)
                return
            handled = counts.setdefault(id(self), Handled())
            handled.updates += 1

            def profile(frame: FrameType, event: str, arg: object) -> None:
                if event == "call":
                    handled.calls += 1
                    if where is not None:
                        handled.where[where(frame)] += 1

            coroutine = original(self, message)
            sys.setprofile(profile)
            try:
                coroutine.send(None)  # runs to the end (StopIteration) unless it waits for something
            except StopIteration:
                return
            finally:
                sys.setprofile(None)
            raise AssertionError("the update waited for something: it cannot be counted alone")

        return wrapper

    order: list[Handled] = []
    with wrapped_methods() as wrap:
        wrap(DixitApp, "on_coordinator_update", make)
        yield order
    order.extend(counts.values())


async def table_of_eight(
    stack: AsyncExitStack, role: str
) -> tuple[list[PlayerSession], list[DixitApp], list[Pilot[Any]]]:
    """An 8-seat table, started, shown by two DixitApps at 100x30: two spectators beside 8 recording sessions, or
    the seventh and eighth players. (The second app finds what the sessions at a table share drawn by the first, as
    every app but one does at a real table.)"""
    coord = coordinator()
    host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
    view = await host.create(options(seats=8))
    names = ["ben", "cara", "dan", "eve", "finn", "gus", "hal"]
    if role == "player":
        names = names[:-2]
    others = [s for s, _ in await seat_many(coord, names, view.code)]
    apps: list[DixitApp] = []
    pilots: list[Pilot[Any]] = []
    for who in ("watcher", "viewer") if role == "watcher" else ("gus", "hal"):
        command = f"watch {view.code}" if role == "watcher" else f"join {view.code}"
        app = DixitApp(coord, Identity(who, f"key-{who}"), command=command)
        pilot = await stack.enter_async_context(app.run_test(size=(100, 30)))
        await settle(pilot)
        apps.append(app)
        pilots.append(pilot)
    await host.start()
    await settle(*pilots)
    sessions = [host, *others]
    for app in apps:
        assert isinstance(app.screen, TableScreen)
        if role == "player":
            assert app.session is not None
            sessions.append(app.session)
    return sessions, apps, pilots


def _phase(session: PlayerSession) -> str | None:
    return phase_of(session)[2]


def _pending(session: PlayerSession) -> bool:
    view = session.view()
    return bool(view and view.game and view.you is not None and view.you in view.game.waiting_for)


def function(frame: FrameType) -> str:
    """The function called."""
    code = frame.f_code
    return f"{code.co_filename.rsplit('/', 1)[-1]}:{code.co_qualname}"


def owner(frame: FrameType) -> str:
    """The project's function that made the call (itself, or the nearest caller of Textual or Rich code)."""
    caller: FrameType | None = frame
    while caller is not None and "dixit_tui/" not in caller.f_code.co_filename:
        caller = caller.f_back
    return function(caller) if caller is not None else "(outside)"


async def updates_of_a_turn(role: str, *, where: Callable[[FrameType], str] | None = None) -> list[tuple[str, Handled]]:
    """The updates of the second turn (after the practice turn) as the app handling them last handled them: a chat
    line in the clue phase, the clue (a phase change), each card given but the last, the last (a phase change), each
    vote but the last, the last (the reveal and a phase change), then a seat going offline; (kind, counts) for each
    move."""
    forget_shared()
    seen: list[tuple[str, Handled]] = []
    async with AsyncExitStack() as stack:
        sessions, apps, pilots = await table_of_eight(stack, role)
        mine = [a.session for a in apps if a.session is not None]

        async def counted(kind: str, move: Callable[[], Awaitable[object]]) -> None:
            await settle(*pilots)
            with counting(apps, where=where) as handled:
                await move()
                await settle(*pilots)
            seen.append((kind, handled[-1]))

        await play_until(sessions, lambda: _phase(sessions[0]) == "clue" and phase_of(sessions[0])[1] == 2)
        await settle(*pilots)
        await counted("chat", lambda: sessions[1].chat("hello all"))
        teller = next(s for s in sessions if _pending(s) and s not in mine)
        await counted("clue", lambda: default_move(teller))
        assert _phase(sessions[0]) == "submit"
        for name, phase in (("card", "submit"), ("vote", "vote")):
            for session in mine:  # the players' own moves first: then they watch
                if _pending(session):
                    await default_move(session)
            movers = [s for s in sessions if _pending(s)]
            for session in movers[:-1]:
                await counted(name, lambda s=session: default_move(s))  # type: ignore[misc]
                assert _phase(sessions[0]) == phase
            await counted(f"last {name}", lambda s=movers[-1]: default_move(s))  # type: ignore[misc]
        await counted("offline", lambda: sessions[2].close())
    return seen


ORDINARY = ("chat", "card", "vote", "offline")


async def cpu_of_views(role: str, repeat: int, *, posted: bool = False) -> float:
    """Process CPU seconds to handle `repeat` ordinary updates (a card given, the view before it, in turn), each
    handled alone as the app handles it; with `posted`, each posted to the app's queue and drawn before the next."""
    forget_shared()
    async with AsyncExitStack() as stack:
        sessions, apps, pilots = await table_of_eight(stack, role)
        await play_until(sessions, lambda: _phase(sessions[0]) == "submit" and phase_of(sessions[0])[1] == 2)
        mine = [a.session for a in apps if a.session is not None]
        for session in mine:
            if _pending(session):
                await default_move(session)
        app, pilot = apps[-1], pilots[-1]
        await settle(*pilots)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        before = screen.view
        mover = next(s for s in sessions if _pending(s) and s not in mine)
        await default_move(mover)
        await settle(*pilots)
        after = screen.view
        assert after.version != before.version
        views: tuple[TableView, TableView] = (before, after)
        start = time.process_time()
        for i in range(repeat):
            if posted:  # through the app's queue, each drawn before the next
                app.post_message(CoordinatorUpdate(StateUpdate(views[i % 2])))
                await asyncio.sleep(0.03)  # (the screen draws at its own pace, at most 60 times a second)
                continue
            screen.show_view(views[i % 2])
            if i % 50 == 49:
                await settle(pilot, rounds=1)  # the refreshes asked for are drawn now and then
        spent = time.process_time() - start
        await settle(*pilots)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--role", choices=("watcher", "player"), default=None)
    parser.add_argument("--top", type=int, default=0)
    parser.add_argument("--by", choices=("function", "owner"), default="function")
    parser.add_argument("--nth", type=int, default=3, help="with --top: which update of each kind (1 for the first)")
    parser.add_argument("--cpu", type=int, default=0)
    parser.add_argument("--posted", action="store_true", help="with --cpu: through the app's queue, each drawn")
    args = parser.parse_args()
    for role in (args.role,) if args.role else ("watcher", "player"):
        if args.cpu:
            spent = asyncio.run(cpu_of_views(role, args.cpu, posted=args.posted))
            print(f"{role:7} cpu of {args.cpu} views{' posted' if args.posted else ''}: {spent * 1000:.0f} ms")
            continue
        where = (function if args.by == "function" else owner) if args.top else None
        seen = asyncio.run(updates_of_a_turn(role, where=where))
        for kind, handled in seen:
            print(f"{role:7} {kind:10} updates={handled.updates} calls={handled.calls}")
        if args.top:
            for kind in (*ORDINARY, "clue", "last card", "last vote"):
                of_kind = [handled for k, handled in seen if k == kind]
                chosen = of_kind[min(args.nth, len(of_kind)) - 1]
                print(f"--- {role} {kind}: {chosen.calls} calls")
                for name, n in chosen.where.most_common(args.top):
                    print(f"{n:6} {name}")


if __name__ == "__main__":
    main()
