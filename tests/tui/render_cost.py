"""Counting what a table screen does per update: headless, deterministic counters (and CPU time, for a person to read).

Used by tests/tui/test_render_cost.py (which asserts on the counters only) and runnable on its own:

    .venv/bin/python -m tests.tui.render_cost [--turns 3] [--apps 4] [--floor] [--detail]

It seats `apps` DixitApp instances (run with `App.run_test`, alternating 100x30 and 80x24; the first half players,
the rest spectators) and bots (recording coordinator sessions) at one 8-seat table sharing one Coordinator, plays
`turns` turns by fixed bot moves, and prints per kind of update, per screen: CPU ms (process time, minus the idle
cost of letting the apps settle), layouts (Screen._refresh_layout), full-screen updates
(Compositor.render_full_update), partial updates, screen lines sent (the rows of the updates' spans), widget lines
rendered (StylesCache.render_line), strips built (Strip.__init__) and the widgets refreshed.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import AsyncExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

from textual._compositor import Compositor, CompositorUpdate
from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult
from textual.content import Content
from textual.pilot import Pilot
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from dixit_tui.coordinator import Coordinator, Identity, PlayerSession
from dixit_tui.textual_host.patches import install_textual_patches
from dixit_tui.textual_host.row_compositor import RowCompositor
from dixit_tui.tui.app import DixitApp
from tests.tui.fixtures import coordinator, default_move, options, seat_many, settle
from tests.work_counters import wrapped_methods


@dataclass
class Counts:
    layouts: int = 0  # Screen._refresh_layout, a full reflow (not a scroll)
    scroll_layouts: int = 0  # Screen._refresh_layout(scroll=True)
    full_updates: int = 0  # the compositor drew the whole screen
    partial_updates: int = 0
    lines_sent: int = 0  # screen lines in the updates (a full update: every line)
    bytes_sent: int = 0  # the terminal output of the updates, as a real driver would write it
    lines_rendered: int = 0  # widget lines rendered (StylesCache.render_line)
    strips: int = 0  # Strip objects built
    composed: int = 0  # widget rows handed to the compositor (Widget.render_lines), sent or not
    restyled: Counter[str] = field(default_factory=Counter)  # widget -> its styles worked out again (App.update_styles)
    refreshed: Counter[str] = field(default_factory=Counter)  # widget -> refresh calls that repaint
    drawn: Counter[str] = field(default_factory=Counter)  # widget -> its rows handed to the compositor

    def __iadd__(self, other: Counts) -> Counts:
        for name in ("layouts", "scroll_layouts", "full_updates", "partial_updates", "lines_sent"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.bytes_sent += other.bytes_sent
        self.lines_rendered += other.lines_rendered
        self.strips += other.strips
        self.composed += other.composed
        self.refreshed.update(other.refreshed)
        self.drawn.update(other.drawn)
        self.restyled.update(other.restyled)
        return self


def _name(widget: Widget) -> str:
    return f"{type(widget).__name__}#{widget.id}" if widget.id else type(widget).__name__


@contextmanager
def counting() -> Iterator[Counts]:
    """Count, while inside, the work of every app in this process (tests run one app to count one screen)."""
    counts = Counts()

    def refresh_layout(original: Any) -> Any:
        def wrapper(self: Screen[Any], size: Any = None, scroll: bool = False) -> None:
            if scroll and not self._layout_widgets:
                counts.scroll_layouts += 1
            else:
                counts.layouts += 1
            original(self, size, scroll)

        return wrapper

    def full(original: Any) -> Any:
        def wrapper(self: Compositor, simplify: bool = False) -> Any:
            counts.full_updates += 1
            counts.lines_sent += self.size.height
            return original(self, simplify)

        return wrapper

    def partial(original: Any, outer: type[Compositor]) -> Any:
        def wrapper(self: Compositor) -> Any:
            update = original(self)
            if type(self) is not outer and isinstance(self, RowCompositor):
                return update  # (RowCompositor's own, which calls this one, counts what it sends)
            if update is not None:  # (the rows of the spans sent: a row drawn the same as the terminal shows is not)
                counts.partial_updates += 1
                counts.lines_sent += len({y for y, _, _ in update.spans})
            return update

        return wrapper

    def render_line(original: Any) -> Any:
        def wrapper(self: StylesCache, *args: Any, **kwargs: Any) -> Any:
            counts.lines_rendered += 1
            return original(self, *args, **kwargs)

        return wrapper

    def strip_init(original: Any) -> Any:
        def wrapper(self: Strip, *args: Any, **kwargs: Any) -> None:
            counts.strips += 1
            original(self, *args, **kwargs)

        return wrapper

    def refresh(original: Any) -> Any:
        def wrapper(self: Widget, *regions: Any, repaint: bool = True, layout: bool = False, **kwargs: Any) -> Any:
            if repaint or layout:
                counts.refreshed[_name(self) + (" (layout)" if layout else "")] += 1
            return original(self, *regions, repaint=repaint, layout=layout, **kwargs)

        return wrapper

    def display(original: Any) -> Any:
        def wrapper(self: App[Any], screen: Screen[Any], renderable: Any) -> None:
            # headless apps skip the terminal output: make it as a driver would (its cost is part of an update)
            if isinstance(renderable, CompositorUpdate) and self.is_headless and not self._batch_count:
                counts.bytes_sent += len(renderable.render_segments(self.console).encode())
            original(self, screen, renderable)

        return wrapper

    def render_lines(original: Any) -> Any:
        def wrapper(self: Widget, crop: Any) -> Any:
            strips = original(self, crop)
            counts.composed += len(strips)
            counts.drawn[_name(self)] += len(strips)
            return strips

        return wrapper

    def update_styles(original: Any) -> Any:
        def wrapper(self: App[Any], node: Any, animate: bool = True) -> None:
            counts.restyled[_name(node)] += 1
            original(self, node, animate)

        return wrapper

    with wrapped_methods() as patch:
        patch(App, "update_styles", update_styles)
        patch(Widget, "render_lines", render_lines)
        patch(App, "_display", display)
        patch(Screen, "_refresh_layout", refresh_layout)
        patch(Compositor, "render_full_update", full)
        patch(Compositor, "render_partial_update", lambda original: partial(original, Compositor))
        patch(RowCompositor, "render_partial_update", lambda original: partial(original, RowCompositor))
        patch(StylesCache, "render_line", render_line)
        patch(Strip, "__init__", strip_init)
        patch(Widget, "refresh", refresh)
        yield counts


def kind_of(session: PlayerSession) -> str:
    view = session.view()
    game = view.game if view is not None else None
    return game.phase if game is not None else "lobby"


@dataclass
class Row:
    n: int = 0
    cpu: float = 0.0
    counts: Counts = field(default_factory=Counts)


async def run(turns: int, n_apps: int, quiet: bool = False, detail: bool = False) -> dict[str, Row]:
    coord: Coordinator = coordinator()
    sizes = [(100, 30), (80, 24)]
    rows: dict[str, Row] = {}
    async with AsyncExitStack() as stack:
        sink_sessions: list[PlayerSession] = []
        first = await coord.connect(Identity("bot0", key="key-bot0"), lambda update: None)
        view = await first.create(options(seats=8))
        code = view.code
        players = n_apps // 2
        apps: list[tuple[DixitApp, Pilot[Any]]] = []
        for i in range(n_apps):
            verb = "join" if i < players else "watch"
            app = DixitApp(coord, Identity(f"term{i}", f"key-term{i}"), command=f"{verb} {code}")
            pilot = await stack.enter_async_context(app.run_test(size=sizes[i % 2]))
            apps.append((app, pilot))
            await settle(pilot)
            if i + 1 == players:  # the rest of the seats: bots, then the spectators join a full table
                sink_sessions = [s for s, _ in await seat_many(coord, [f"bot{k}" for k in range(1, 8 - players)], code)]
        pilots = [p for _, p in apps]
        await settle(*pilots)
        await first.start()
        await settle(*pilots)
        assert all(type(app.screen).__name__ == "TableScreen" for app, _ in apps), [app.screen for app, _ in apps]
        movers: list[PlayerSession] = [first, *sink_sessions]
        movers += [app.session for app, _ in apps[:players] if app.session is not None]

        # the idle cost of settling every app (subtracted from each update's CPU)
        t = time.process_time()
        for _ in range(20):
            await settle(*pilots)
        idle = (time.process_time() - t) / 20

        start_turn = first.view().game.turn  # type: ignore[union-attr]
        for _ in range(2000):
            game = first.view().game  # type: ignore[union-attr]
            if game is None or game.turn - start_turn >= turns or game.phase == "over":
                break
            for session in movers:
                kind = kind_of(session)
                with counting() as counts:
                    t = time.process_time()
                    moved = await default_move(session)
                    if moved:
                        await settle(*pilots)
                    cpu = time.process_time() - t - idle
                if moved:
                    after = kind_of(session)
                    label = kind if after == kind else f"{kind}->{after}"
                    row = rows.setdefault(label, Row())
                    row.n += 1
                    row.cpu += cpu
                    row.counts += counts
                    # the reveal: close each recap as a player would (Enter), counted apart
                    with counting() as counts:
                        t = time.process_time()
                        closed = 0
                        for app, pilot in apps:
                            if type(app.screen).__name__ == "RecapScreen":
                                await pilot.press("enter")
                                closed += 1
                        if closed:
                            await settle(*pilots)
                        cpu = time.process_time() - t - (idle if closed else 0)
                    if closed:
                        row = rows.setdefault("close recap", Row())
                        row.n += 1
                        row.cpu += cpu
                        row.counts += counts
    if not quiet:
        report(rows, n_apps, detail)
    return rows


class FloorApp(App[None]):
    """The floor: a minimal app at 100x30 whose every update changes one line."""

    def compose(self) -> ComposeResult:
        yield Static("Dixit · floor", id="line", markup=False)


async def floor(n_apps: int, updates: int = 60) -> Row:
    """What `n_apps` minimal apps cost per update, each changing one line, counted the same way."""
    async with AsyncExitStack() as stack:
        apps = []
        for _ in range(n_apps):
            app = FloorApp()
            apps.append((app, await stack.enter_async_context(app.run_test(size=(100, 30)))))
        pilots = [p for _, p in apps]
        await settle(*pilots)
        t = time.process_time()
        for _ in range(20):
            await settle(*pilots)
        idle = (time.process_time() - t) / 20
        row = Row()
        for k in range(updates):
            with counting() as counts:
                t = time.process_time()
                for app, _ in apps:
                    app.query_one("#line", Static).update(Content(f"Dixit · floor · update {k}"), layout=False)
                await settle(*pilots)
                row.cpu += time.process_time() - t - idle
            row.n += 1
            row.counts += counts
    return row


def report(rows: dict[str, Row], n_apps: int, detail: bool = False) -> None:
    print(f"per screen ({n_apps} apps, 8 seats, 100x30 and 80x24 alternating; cpu: net process time):")
    head = f"{'update':16s} {'n':>4s} {'cpu ms':>7s} {'layout':>7s} {'scroll':>7s} {'full':>6s} {'partial':>7s}"
    print(head + f" {'sent':>6s} {'bytes':>6s} {'lines':>7s} {'strips':>7s} {'composed':>8s}")
    total = Row()
    for label, row in rows.items():
        k = row.n * n_apps
        c = row.counts
        print(
            f"{label:16s} {row.n:4d} {row.cpu / k * 1000:7.2f} {c.layouts / k:7.2f} {c.scroll_layouts / k:7.2f}"
            f" {c.full_updates / k:6.2f} {c.partial_updates / k:7.2f} {c.lines_sent / k:6.1f} {c.bytes_sent / k:6.0f}"
            f" {c.lines_rendered / k:7.1f} {c.strips / k:7.0f} {c.composed / k:8.0f}"
        )
        total.n += row.n
        total.cpu += row.cpu
        total.counts += row.counts
    k = total.n * n_apps
    c = total.counts
    print(
        f"{'all':16s} {total.n:4d} {total.cpu / k * 1000:7.2f} {c.layouts / k:7.2f} {c.scroll_layouts / k:7.2f}"
        f" {c.full_updates / k:6.2f} {c.partial_updates / k:7.2f} {c.lines_sent / k:6.1f} {c.bytes_sent / k:6.0f}"
        f" {c.lines_rendered / k:7.1f} {c.strips / k:7.0f} {c.composed / k:8.0f}"
    )
    print("widgets refreshed (per screen per update):")
    for name, n in total.counts.refreshed.most_common(14):
        print(f"  {n / k:6.2f}  {name}")
    if detail:
        for label, row in rows.items():
            k = row.n * n_apps
            print(f"{label}: " + ", ".join(f"{name} {n / k:.2f}" for name, n in row.counts.refreshed.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--apps", type=int, default=4)
    parser.add_argument("--detail", action="store_true", help="the widgets refreshed by each kind of update")
    parser.add_argument("--floor", action="store_true", help="also measure a minimal one-line app, and the ratio")
    args = parser.parse_args()
    install_textual_patches()  # as in the server (the colour filter, the style codes sent): what a session costs there
    rows = asyncio.run(run(args.turns, args.apps, detail=args.detail))
    if args.floor:
        base = asyncio.run(floor(args.apps))
        k = base.n * args.apps
        cpu = base.cpu / k * 1000
        print(f"floor (one Static line, same counters): {cpu:.2f} ms cpu, {base.counts.lines_sent / k:.1f} lines sent")
        for label in ("submit", "vote"):
            if label in rows and cpu > 0:
                row = rows[label]
                print(f"  {label}: {row.cpu / (row.n * args.apps) * 1000 / cpu:.1f}x the floor")
        total = Row()
        for row in rows.values():
            total.n += row.n
            total.cpu += row.cpu
        print(f"  every update: {total.cpu / (total.n * args.apps) * 1000 / cpu:.1f}x the floor")


if __name__ == "__main__":
    main()
