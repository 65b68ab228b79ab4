"""Counting the messages each session's app handles per update: headless, deterministic counters.

Used by tests/tui/test_message_counts.py and runnable on its own:

    .venv/bin/python -m tests.tui.message_cost [--turns 2] [--detail]

An 8-seat table of bots and recording sessions (one of them the host), watched by one spectator app and played by one
seated app (a player who is not acting on the moves counted). Each bot move is counted per watcher app: the messages
its nodes dispatched, by message type and receiver (the app, a screen, a widget), the Idle events run (one each time a
node's queue empties), the callbacks run after a message (`call_next`/`call_later`) and the timer ticks.

The message counts of a phase change depend a little on timing (a frame paced for later, a timer tick): the tests
assert on what must never happen (a message to a node with nothing to do, a second arrangement per layout), not on
totals. Timer ticks and callbacks are printed for a person to read.

Settling never posts to the apps (Textual's Pilot.pause posts a callback to every widget of the screen, each then
runs an Idle: it would be counted): it waits for every node's queue to be empty, polling.
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
from collections.abc import Iterator
from contextlib import AsyncExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

from textual import events
from textual._compositor import Compositor
from textual.app import App
from textual.message import Message
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input

from dixit_tui.coordinator import Coordinator, Identity, PlayerSession
from dixit_tui.tui.app import DixitApp
from tests.tui.fixtures import coordinator, default_move, options, seat_many
from tests.work_counters import wrapped_methods


@dataclass
class Messages:
    by_type: Counter[str] = field(default_factory=Counter)  # message type -> dispatched
    by_receiver: Counter[str] = field(default_factory=Counter)  # "Type -> receiver class" -> dispatched
    idle: int = 0  # Idle events run (a node's queue emptied)
    callbacks: int = 0  # callbacks run after a message (call_next, call_later's are Callback messages)
    timers: int = 0  # timer ticks
    receivers: Counter[tuple[type, type]] = field(default_factory=Counter)  # (message class, receiver class)
    paths: dict[int, tuple[type[Message], list[type]]] = field(default_factory=dict)  # a bubbling message: receivers
    layouts: int = 0  # layouts of a screen (Screen._refresh_layout)
    arrangements: int = 0  # whole screens arranged (Compositor._arrange_root): a layout's, and any other

    @property
    def dispatched(self) -> int:
        return sum(self.by_type.values())

    def __iadd__(self, other: Messages) -> Messages:
        self.by_type.update(other.by_type)
        self.by_receiver.update(other.by_receiver)
        self.receivers.update(other.receivers)
        self.paths.update(other.paths)
        self.idle += other.idle
        self.callbacks += other.callbacks
        self.timers += other.timers
        self.arrangements += other.arrangements
        self.layouts += other.layouts
        return self


def _app_of(pump: MessagePump) -> App[Any] | None:
    node: Any = pump
    while node is not None and not isinstance(node, App):
        node = node._parent
    return node


def _kind(pump: MessagePump) -> str:
    if isinstance(pump, App):
        return "App"
    if isinstance(pump, Screen):
        return type(pump).__name__
    return type(pump).__name__ if isinstance(pump, Widget) else "other"


@contextmanager
def counting(apps: list[App[Any]]) -> Iterator[list[Messages]]:
    """Count, while inside, what the nodes of each of `apps` dispatch (one Messages per app, in order)."""
    counts = [Messages() for _ in apps]
    index = {id(app): i for i, app in enumerate(apps)}
    bubbling: dict[int, Message] = {}  # the bubbling messages seen, alive until the count ends (their ids unique)

    def of(pump: Any) -> Messages | None:
        app = _app_of(pump)
        i = index.get(id(app)) if app is not None else None
        return counts[i] if i is not None else None

    def dispatch(original: Any) -> Any:
        async def wrapper(self: MessagePump, message: Message) -> None:
            c = of(self)
            if c is not None:  # (a Prompt is not dispatched: it wakes the node, which then runs an Idle)
                name = type(message).__name__
                if isinstance(message, events.Callback):
                    name = f"Callback({getattr(message.callback, '__qualname__', type(message.callback).__name__)})"
                c.by_type[name] += 1
                c.by_receiver[f"{name} -> {_kind(self)}"] += 1
                c.receivers[type(message), type(self)] += 1
                if message.bubble:  # (keyed by id while counting: the message is kept alive in `bubbling`)
                    bubbling.setdefault(id(message), message)
                    c.paths.setdefault(id(message), (type(message), []))[1].append(type(self))
            await original(self, message)

        return wrapper

    def dispatch_methods(original: Any) -> Any:
        def wrapper(self: MessagePump, method_name: str, message: Message) -> Any:
            if isinstance(message, events.Idle):
                c = of(self)
                if c is not None:
                    c.idle += 1
            return original(self, method_name, message)

        return wrapper

    def flush(original: Any) -> Any:
        async def wrapper(self: MessagePump) -> None:
            c = of(self)
            if c is not None:
                c.callbacks += len(self._next_callbacks)
            await original(self)

        return wrapper

    def tick(original: Any) -> Any:
        async def wrapper(self: Timer, *, next_timer: float, count: int) -> None:
            c = of(self.target) if isinstance(self.target, MessagePump) else None
            if c is not None:
                c.timers += 1
            await original(self, next_timer=next_timer, count=count)

        return wrapper

    def arrange(original: Any) -> Any:
        def wrapper(self: Compositor, root: Widget, *args: Any, **kwargs: Any) -> Any:
            c = of(root)
            if c is not None:
                c.arrangements += 1
            return original(self, root, *args, **kwargs)

        return wrapper

    def refresh_layout(original: Any) -> Any:
        def wrapper(self: Screen[Any], *args: Any, **kwargs: Any) -> Any:
            c = of(self)
            if c is not None:
                c.layouts += 1
            return original(self, *args, **kwargs)

        return wrapper

    with wrapped_methods() as patch:
        patch(Screen, "_refresh_layout", refresh_layout)
        patch(Compositor, "_arrange_root", arrange)
        patch(MessagePump, "_dispatch_message", dispatch)
        patch(MessagePump, "_get_dispatch_methods", dispatch_methods)
        patch(MessagePump, "_flush_next_callbacks", flush)
        patch(Timer, "_tick", tick)
        try:
            yield counts
        finally:
            bubbling.clear()  # (counts kept after the block hold no message, so no app either)


def _busy(app: App[Any]) -> bool:
    nodes: list[MessagePump] = [app]
    for screen in app._screen_stack:
        nodes.extend(screen.walk_children(with_self=True))
    if any(not node._message_queue.empty() or node._next_callbacks for node in nodes):
        return True
    # a layout or a repaint asked for and not done yet: the screen's update timer does it a moment later (on a busy
    # machine, after several empty polls: the counts then missed the layout)
    screen = app.screen
    return bool(screen._layout_required or screen._repaint_required or screen._dirty_widgets)


async def quiet(apps: list[App[Any]], rounds: int = 200) -> None:
    """Wait until no node of `apps` has a message waiting, several polls in a row (posting nothing to them)."""
    calm = 0
    for _ in range(rounds):
        await asyncio.sleep(0.005)
        if any(_busy(app) for app in apps):
            calm = 0
        else:
            calm += 1
            if calm >= 6:
                return


async def still(apps: list[App[Any]]) -> None:
    """Stop input cursors from blinking (a timer every half second) so that counts never depend on time."""
    for app in apps:
        for box in app.screen.query(Input):
            box.cursor_blink = False
    await quiet(apps)


def kind_of(session: PlayerSession) -> str:
    view = session.view()
    game = view.game if view is not None else None
    return game.phase if game is not None else "lobby"


@dataclass
class Table:
    coord: Coordinator
    movers: list[PlayerSession]  # the bots and the host, in seat order
    spectator: DixitApp
    player: DixitApp  # seated, moved by hand (its session) only when the counts allow


async def table(stack: AsyncExitStack, size: tuple[int, int] = (100, 30)) -> Table:
    coord: Coordinator = coordinator()
    host = await coord.connect(Identity("bot0", key="key-bot0"), lambda update: None)
    view = await host.create(options(seats=8))
    player = DixitApp(coord, Identity("term0", "key-term0"), command=f"join {view.code}")
    await stack.enter_async_context(player.run_test(size=size))
    others = [s for s, _ in await seat_many(coord, [f"bot{k}" for k in range(1, 7)], view.code)]
    spectator = DixitApp(coord, Identity("term1", "key-term1"), command=f"watch {view.code}")
    await stack.enter_async_context(spectator.run_test(size=size))
    await quiet([player, spectator])
    await host.start()
    await still([player, spectator])
    return Table(coord, [host, *others], spectator, player)


@dataclass
class Row:
    n: int = 0
    counts: list[Messages] = field(default_factory=lambda: [Messages(), Messages()])


async def run(turns: int) -> dict[str, Row]:
    rows: dict[str, Row] = {}
    async with AsyncExitStack() as stack:
        t = await table(stack)
        apps: list[App[Any]] = [t.spectator, t.player]
        assert t.player.session is not None
        movers = [*t.movers, t.player.session]
        first = t.movers[0]
        start_turn = first.view().game.turn  # type: ignore[union-attr]
        for _ in range(2000):
            game = first.view().game  # type: ignore[union-attr]
            if game is None or game.turn - start_turn >= turns or game.phase == "over":
                break
            for session in movers:
                kind = kind_of(session)
                if session is t.player.session:
                    moved = await default_move(session)
                    await still(apps)
                    continue
                with counting(apps) as counts:
                    moved = await default_move(session)
                    if moved:
                        await quiet(apps)
                if moved:
                    after = kind_of(session)
                    row = rows.setdefault(kind if after == kind else f"{kind}->{after}", Row())
                    row.n += 1
                    for mine, theirs in zip(row.counts, counts, strict=True):
                        mine += theirs
                await still(apps)
                for app in apps:  # the reveal: the recap closed (not counted)
                    if type(app.screen).__name__ == "RecapScreen":
                        app.screen.dismiss()
                await still(apps)
    return rows


def report(rows: dict[str, Row], detail: bool) -> None:
    for label, row in rows.items():
        for who, c in zip(("spectator", "player"), row.counts, strict=True):
            n = row.n
            print(
                f"{label:16s} {who:9s} n={n:3d} dispatched {c.dispatched / n:6.1f} idle {c.idle / n:6.1f}"
                f" callbacks {c.callbacks / n:5.1f} timers {c.timers / n:5.1f} arranged {c.arrangements / n:4.1f}"
                f" layouts {c.layouts / n:4.1f}"
            )
            if detail:
                for name, k in c.by_receiver.most_common():
                    print(f"    {k / n:6.2f}  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=2)
    parser.add_argument("--detail", action="store_true")
    args = parser.parse_args()
    from dixit_tui.textual_host.patches import install_textual_patches

    install_textual_patches()
    report(asyncio.run(run(args.turns)), args.detail)


if __name__ == "__main__":
    main()
