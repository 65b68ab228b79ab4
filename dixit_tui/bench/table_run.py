"""One table of the load: its bots, its watching terminals and its driver, which acts one move at a time and
measures each action on every screen of the table (the floor's table too: its one action is a `bump`)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
from collections import Counter
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

import asyncssh

from dixit_tui.bench.bot_session import Bot, FloorBot
from dixit_tui.bench.measurement import Measurement
from dixit_tui.bench.stats import CLOCK
from dixit_tui.bench.watcher import Watcher
from dixit_tui.bots.brain import Brain, Key
from dixit_tui.bots.cli import command_message
from dixit_tui.bots.strategy import Action
from dixit_tui.bots.strategy_names import strategy_named

RECAP_MARKER = "Close (Enter)"  # the recap modal after each reveal; it covers the table at 100x30


class Run(Protocol):
    """What a table needs of its run (dixit_tui/bench/load_run.py): the options, the connections, the stop, and the
    figures it adds to."""

    args: argparse.Namespace
    rng: random.Random
    host: str
    port: int
    size: tuple[int, int]
    seeded: bool
    stopping: bool
    count_frames: bool
    warnings: list[str]
    failures: list[str]
    connect_times: list[float]
    first_paint: list[float]
    table_paint: list[float]
    latencies: list[float]
    latencies_by_kind: dict[str, list[float]]
    ack_latencies: list[float]
    measured_actions: Counter[str]
    refused: Counter[str]
    missed: int
    missed_by_kind: Counter[str]
    missed_actions: int
    missed_under_recap: int
    settle_timeouts: int
    recap_timeouts: int
    games_finished: int
    updates: int
    action_limit: int | None

    def stop(self) -> None: ...

    async def connect(
        self, host: str, port: int, username: str, timeout: float, seat: tuple[TableRun, str]
    ) -> asyncssh.SSHClientConnection: ...

    async def pause(self, seconds: float) -> None: ...

    async def limited(self, coro: Coroutine[Any, Any, Any]) -> Any: ...


class TableRun:
    bot_class: type[Bot] = Bot

    def __init__(self, run: Run, index: int, bots: int, watchers: int) -> None:
        self.run = run
        # the pauses of --think: their own seeded generator, so the games are the same with and without them
        self.think_rng = random.Random(f"think-{run.args.seed}-{index}")
        self.index = index
        self.n_bots = bots
        self.n_watchers = watchers
        self.code = ""
        self.game = 0
        self.bots: list[Bot] = []
        self.watchers: list[Watcher] = []
        self.pending: Measurement | None = None
        self.changed = asyncio.Event()
        self.reveal_seen = False
        self.last_screen_change = 0.0
        self.games_finished = 0
        self.actions = 0

    # called by every watcher's on_data
    def screen_changed(self, watcher: Watcher, now: float) -> None:
        self.last_screen_change = now
        m = self.pending
        if m is not None and watcher in m.remaining and now >= m.t0:
            self.run.updates += 1
            m.remaining.discard(watcher)
            m.latencies.append(now - m.t0)
            if not m.remaining:
                m.done.set()

    @property
    def host_bot(self) -> Bot:
        return self.bots[0]

    async def connect(
        self, host: str, port: int, username: str, timeout: float, kind: str
    ) -> asyncssh.SSHClientConnection:
        """An SSH connection for one of this table's sessions (`kind`: "terminal" or "bot")."""
        return await self.run.connect(host, port, username, timeout, (self, kind))

    async def open_bots(self) -> None:
        run = self.run
        for k in range(self.n_bots):
            rng = random.Random(run.rng.randrange(2**63))
            self.bots.append(self.bot_class(f"b{self.index}x{k}", self, run.args.strategy, rng))
        await asyncio.gather(*(run.limited(b.open(run.host, run.port, 30.0)) for b in self.bots))

    async def new_table(self) -> None:
        """The host bot creates a seeded table, the other bots join it."""
        run = self.run
        host = self.host_bot
        self.game += 1
        self.reveal_seen = False
        for bot in self.bots:
            bot.over = False
            bot.view = None
            bot.brain = Brain(strategy_named(run.args.strategy), bot.rng)
        create: dict[str, Any] = {"cmd": "create", "mode": "standard", "target": run.args.target, "first": "random"}
        if run.seeded:
            create["seed"] = run.args.seed * 1_000_003 + self.index * 1009 + self.game
        if getattr(run.args, "decks", None):
            create["decks"] = [d.strip() for d in str(run.args.decks).split(",") if d.strip()]
        host.errors.clear()
        error = await self._create(create)
        if error is not None:
            if error.get("code") == "seed_refused" and run.seeded:
                run.seeded = False
                run.warnings.append("the server refused seeded tables (no --allow-seeded-tables): tables are unseeded")
                self.game -= 1
                return await self.new_table()
            raise RuntimeError(f"table {self.index}: create refused: {error}")
        await self._seat_others()

    async def _create(self, create: dict[str, Any]) -> dict[str, Any] | None:
        """The host bot sends `create`: the error it got, or None once it sits at a new table."""
        host = self.host_bot
        old = self.code
        host.send({**create, "ref": "create"})
        await self._until(lambda: host.code not in (None, old) or bool(host.errors), 15.0, "create")
        return host.errors[-1] if host.errors else None

    async def _seat_others(self) -> None:
        """The host bot's new table is this table's; the other bots join it."""
        assert self.host_bot.code is not None
        self.code = self.host_bot.code
        for bot in self.bots[1:]:
            bot.send({"cmd": "join", "table": self.code, "ref": "join"})
        await self._until(lambda: all(b.code == self.code for b in self.bots), 15.0, "join")

    async def _until(self, predicate: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = CLOCK() + timeout
        while not predicate():
            left = deadline - CLOCK()
            if left <= 0:
                raise RuntimeError(f"table {self.index}: timed out waiting for {what}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))

    async def open_watchers(self) -> None:
        run = self.run
        self.watchers = [Watcher(f"w{self.index}x{k}g{self.game}", self, run.size) for k in range(self.n_watchers)]
        results = await asyncio.gather(
            *(run.limited(self._open_watcher(w)) for w in self.watchers), return_exceptions=True
        )
        for w, result in zip(self.watchers, results, strict=True):
            if isinstance(result, BaseException):
                run.failures.append(f"watcher {w.name}: {type(result).__name__}: {result}")
        self.watchers = [w for w in self.watchers if not w.closed and w.t_table is not None]

    async def _open_watcher(self, watcher: Watcher) -> None:
        await watcher.open(self.run.host, self.run.port, 60.0)
        ok = await watcher.wait_table(120.0)
        run = self.run
        if watcher.t_auth is not None:
            run.connect_times.append(watcher.t_auth - watcher.t_start)
        if watcher.t_first_paint is not None:
            run.first_paint.append(watcher.t_first_paint - watcher.t_start)
        if ok and watcher.t_table is not None:
            run.table_paint.append(watcher.t_table - watcher.t_start)
        else:
            raise RuntimeError("the table screen never appeared")

    async def close_watchers(self) -> None:
        await asyncio.gather(*(w.close() for w in self.watchers))
        self.watchers = []

    # --- playing -------------------------------------------------------------------------------------------

    async def measure(
        self, bot: Bot, kind: str, message: dict[str, Any], key: Key | None, action: Action | None
    ) -> None:
        run = self.run
        ref = bot.next_ref()
        live = {w for w in self.watchers if not w.closed}
        t0 = CLOCK()
        m = Measurement(kind, t0, live)
        self.pending = m
        bot.sent[ref] = (key, action, m)
        bot.ack_t0 = t0
        bot.send({**message, "ref": ref})
        self.actions += 1
        if not live:
            m.done.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(m.done.wait(), run.args.action_timeout)
        self.pending = None
        # the acting bot's own answer too: a reveal comes before it, so `reveal_seen` is known by then
        with contextlib.suppress(RuntimeError):
            await self._until(lambda: bot.ack_t0 is None or m.refused, run.args.action_timeout, "ack")
        if m.refused:
            return
        run.measured_actions[kind] += 1
        run.latencies.extend(m.latencies)
        run.latencies_by_kind.setdefault(kind, []).extend(m.latencies)
        run.missed_by_kind[kind] += 0  # every kind measured has an entry
        if m.remaining:
            run.missed += len(m.remaining)
            run.missed_by_kind[kind] += len(m.remaining)
            run.missed_actions += 1
            run.missed_under_recap += sum(1 for w in m.remaining if RECAP_MARKER in w.text())
        await self.settle()
        if self.reveal_seen:
            self.reveal_seen = False
            if not run.count_frames:  # counting terminals keep no screen to look for a recap on
                await self.close_recaps()
        if run.action_limit is not None and sum(run.measured_actions.values()) >= run.action_limit:
            run.stop()

    async def settle(self) -> None:
        """Wait until no screen at this table changed for `--settle` seconds (at most 5 s)."""
        quiet = self.run.args.settle
        deadline = CLOCK() + 5.0
        while True:
            now = CLOCK()
            wait = self.last_screen_change + quiet - now
            if wait <= 0:
                return
            if now >= deadline:
                self.run.settle_timeouts += 1
                return
            await asyncio.sleep(min(wait, deadline - now))

    async def close_recaps(self) -> None:
        """After a reveal: a terminal that shows the recap (a modal over the table; the table screen opens it on `r`,
        older servers after every reveal) gets Enter, as a player would close it before the next move; then wait
        until it is gone."""
        await self.settle()
        todo = {w for w in self.watchers if not w.closed and RECAP_MARKER in w.text()}
        closing: set[Watcher] = set()
        seen: dict[Watcher, int] = {}  # the change count when the screen was last read
        deadline = CLOCK() + max(20.0, self.run.args.action_timeout)
        while todo and CLOCK() < deadline:
            for w in list(todo):
                if seen.get(w) == w.changes and not w.closed:
                    continue  # nothing new on this screen
                seen[w] = w.changes
                shown = RECAP_MARKER in w.text()
                if w.closed or (w in closing and not shown):
                    todo.discard(w)
                elif shown and w not in closing:
                    closing.add(w)
                    w.send(b"\r")
            if todo:
                await asyncio.sleep(0.05)
        if todo:
            self.run.recap_timeouts += len(todo)
        await self.settle()

    def _owed(self) -> bool:
        """Some bot at this table owes a move (without asking its brain, which would decide it)."""
        return any(b.view is not None and b.code == self.code and b.view.needed() is not None for b in self.bots)

    def _next_move(self) -> tuple[Bot, Key, Action] | None:
        for bot in self.bots:
            view = bot.view
            if view is None or bot.code != self.code or view.needed() is None:
                continue
            decided = bot.brain.next_action(view)
            if decided is not None:
                return bot, decided[0], decided[1]
        return None

    async def think(self) -> bool:
        """With --think: a human-like pause before an action (uniform in 0.5x-1.5x the mean). False if the run
        stopped meanwhile."""
        mean = self.run.args.think
        if mean > 0:
            await self.run.pause(mean * self.think_rng.uniform(0.5, 1.5))
        return not self.run.stopping

    async def play(self) -> None:
        """Start the game, then act one move at a time until the run stops; a new table after each game."""
        run = self.run
        if not await self.think():
            return
        await self.measure(self.host_bot, "start", {"cmd": "start"}, None, None)
        idle_since = CLOCK()
        thought = False  # paused since the last action (the pause comes before a bot decides, as a person's)
        while not run.stopping:
            if run.args.think > 0 and not thought and self._owed():
                if not await self.think():
                    return
                thought = True
                idle_since = CLOCK()
                continue
            move = self._next_move()
            if move is not None:
                thought = False
                bot, key, action = move
                await self.measure(bot, action_kind(action), command_message(action), key, action)
                idle_since = CLOCK()
                continue
            if self.host_bot.over and all(b.over for b in self.bots):
                self.games_finished += 1
                run.games_finished += 1
                if run.stopping:
                    return
                await self.close_watchers()
                await self.new_table()
                await self.open_watchers()
                if run.stopping or not await self.think():
                    return
                thought = False
                await self.measure(self.host_bot, "start", {"cmd": "start"}, None, None)
                idle_since = CLOCK()
                continue
            if any(b.closed for b in self.bots):
                run.failures.append(f"table {self.index}: a bot's connection closed")
                return
            if CLOCK() - idle_since > 15.0:
                run.failures.append(f"table {self.index}: no bot had a move for 15 s (phase {self.host_bot.phase})")
                return
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 0.5)

    async def close(self) -> None:
        await self.close_watchers()
        await asyncio.gather(*(b.close() for b in self.bots))


class FloorTableRun(TableRun):
    """A floor table: its bots create or join a floor table; the host bot's `bump` is the action (the one line
    changes on every terminal of the table)."""

    bot_class = FloorBot

    async def new_table(self) -> None:
        self.game += 1
        error = await self._create({"cmd": "create"})
        if error is not None:
            raise RuntimeError(f"floor table {self.index}: create refused: {error}")
        await self._seat_others()

    async def play(self) -> None:
        while not self.run.stopping:
            if not await self.think():
                return
            await self.measure(self.host_bot, "bump", {"cmd": "bump"}, None, None)
            if any(b.closed for b in self.bots):
                self.run.failures.append(f"floor table {self.index}: a bot's connection closed")
                return


def action_kind(action: Action) -> str:
    return type(action).__name__.removesuffix("Action").lower()
