"""The crash test's harness: bot games on a real server, driven one action at a time, the server (or one of its
workers) SIGKILLed between two actions, with one in flight, or during the reconnect wave after a restart; after
each restart every client returns to its seat and its view is checked against the one before the kill
(dixit_tui/bench/killtest_checks.py)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import time
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import asyncssh

from dixit_tui.bench.killtest_checks import ViewChecks, either_side, expected
from dixit_tui.bench.killtest_client import Client
from dixit_tui.bench.killtest_config import KillConfig
from dixit_tui.bench.killtest_failure import KillTestFailure
from dixit_tui.bench.killtest_moves import Action, Group, Moves
from dixit_tui.bench.killtest_report import KillReport
from dixit_tui.bench.killtest_server import KillTestServer
from dixit_tui.bench.killtest_store import count_store
from dixit_tui.bench.killtest_views import diff, model_message, project
from dixit_tui.bench.workers import socket_owner, worker_pids
from dixit_tui.engine import Phase

PARALLEL_CONNECTS = 8  # the server admits 10 unauthenticated connections per address


class KillTest:
    """One run: its server, its clients in their groups, the model of every table, and its report."""

    def __init__(self, cfg: KillConfig, workdir: Path) -> None:
        if not cfg.tables or any(not 3 <= n <= 8 for n in cfg.tables):
            raise ValueError("every table needs 3 to 8 players")
        self.cfg = cfg
        self.rng = random.Random(cfg.seed)
        self.workdir = workdir
        self.server = KillTestServer(
            workdir / "keys",
            workdir / "data",
            python=cfg.python,
            cwd=workdir,
            snapshot_every=cfg.snapshot_every,
            env=cfg.env,
            redis=cfg.redis,
            workers=cfg.workers,
        )
        if cfg.kill_workers and not cfg.redis:
            raise ValueError("killing workers needs a server of several workers: --redis")
        self.report = KillReport(seed=cfg.seed, data_dir=str(workdir / "data"))
        self.tick = asyncio.Event()
        self.known_codes: set[str] = set()
        self.trace: deque[str] = deque(maxlen=80)
        self.started_at = 0.0
        self.groups: list[Group] = []
        self.clients: list[Client] = []
        for g, players in enumerate(cfg.tables):
            members = [
                Client(f"k{g}p{i}", i, asyncssh.generate_private_key("ssh-ed25519"), self.tick.set)
                for i in range(players)
            ]
            self.groups.append(Group(g, members))
            self.clients += members
        self.moves = Moves(self.rng, cfg)
        self.checks = ViewChecks(self.report, self.clients, self.known_codes)

    # --- the run ----------------------------------------------------------------------------------------------

    async def run(self) -> KillReport:
        cfg, report = self.cfg, self.report
        self.started_at = time.perf_counter()
        try:
            await self.server.start(cfg.start_timeout)
            await self._connect_all()
            until_kill = self._gap()
            while report.kills < cfg.kills:
                self._check_deadline()
                group = self.rng.choice(self.groups)
                if until_kill > 0:
                    until_kill -= 1
                    await self._perform(self.moves.next_action(group))
                    continue
                until_kill = self._gap()
                if self.rng.random() < cfg.inflight:
                    action = self.moves.next_action(group)
                    delay = cfg.max_inflight_delay * self.rng.random() ** 2  # 0-20 ms, more often short
                    self._send(action)
                    await asyncio.sleep(delay)
                    await self._kill("in-flight", f"{delay * 1000:.1f} ms after sending {action}")
                    await self._recover(action)
                else:
                    await asyncio.sleep(self.rng.uniform(0, 0.005))
                    await self._kill("between", "between two actions")
                    await self._recover(None)
        except Exception as failure:
            what = str(failure) if isinstance(failure, KillTestFailure) else f"harness error: {traceback.format_exc()}"
            steps = "\n    ".join(self.trace)
            report.failures.append(f"{what}\n  (seed {cfg.seed}, kill #{report.kills})\n  last steps:\n    {steps}")
        finally:
            await self.server.kill()
            for client in self.clients:
                await client.drop()
            report.elapsed = time.perf_counter() - self.started_at
            count_store(report, cfg.redis, self.workdir / "data")
            report.server_errors = [
                line for line in self.server.lines if "Traceback" in line or " ERROR " in line or "CRITICAL" in line
            ]
        return report

    def _gap(self) -> int:
        return self.rng.randint(0, self.cfg.max_actions_between_kills)

    def _log(self, line: str) -> None:
        self.trace.append(line)
        if self.cfg.log is not None:
            self.cfg.log(line)

    def _check_deadline(self) -> None:
        limit = self.cfg.max_seconds
        if limit is not None and time.perf_counter() - self.started_at > limit:
            raise KillTestFailure(f"the run took longer than {limit}s ({self.report.kills} kills so far)")

    # --- waiting ----------------------------------------------------------------------------------------------

    async def _until(self, predicate: Callable[[], bool], what: str | Callable[[], str]) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.cfg.timeout
        while True:
            self.tick.clear()
            if predicate():
                return
            self._check_health()
            remaining = deadline - loop.time()
            if remaining <= 0:
                text = what() if callable(what) else what
                raise KillTestFailure(f"timed out after {self.cfg.timeout}s waiting for {text}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.tick.wait(), min(remaining, 0.5))

    def _check_health(self) -> None:
        for client in self.clients:
            if not client.errors:
                continue
            error = client.errors[0]
            if error.get("code") == "no_table" and client.game is not None:
                self.report.losses += 1
                raise KillTestFailure(
                    f"LOSS after kill #{self.report.kills}: the server no longer knows {client.game}, where {client} "
                    f"sat: {error}"
                )
            raise KillTestFailure(f"{client} got an error from the server: {error}")
        if self.server.proc is not None and self.server.proc.returncode is not None:
            raise KillTestFailure(
                f"the server died by itself (status {self.server.proc.returncode}); stderr: "
                f"{self.server.tail(self.server.starts)}"
            )

    # --- connecting -------------------------------------------------------------------------------------------

    async def _connect_all(self) -> None:
        gate = asyncio.Semaphore(PARALLEL_CONNECTS)

        async def connect(client: Client) -> None:
            if client.conn is not None:
                return  # still connected (a worker-kill left it alone): it only rejoins
            async with gate:
                try:
                    await client.connect(self.server.port, self.cfg.timeout)
                except (OSError, asyncssh.Error, TimeoutError) as err:
                    raise KillTestFailure(f"{client} could not connect: {err!r}") from err

        await asyncio.gather(*(connect(c) for c in self.clients))
        await self._until(lambda: all(c.has_lobby() for c in self.clients), "every client's hello and lobby view")

    def _send(self, action: Action) -> None:
        self._log(f"send {action}")
        self.report.actions_sent += 1
        action.actor.send(action.cmd)

    async def _perform(self, action: Action) -> None:
        self._send(action)
        await self._until(
            lambda: self._acked(action), lambda: f"the acknowledgement of {action}: {self._ack_diff(action)}"
        )
        self._commit(action, bind=True)
        self.report.acknowledged += 1
        await self._quiesce()

    def _expected_after(self, action: Action, code: str | None = None) -> dict[str, Any] | None:
        return project(model_message(code or action.game.code, action.after, action.actor.seat))

    def _acked(self, action: Action) -> bool:
        """The actor's latest view reflects the action."""
        view = action.actor.last_state
        if view is None or view.get("table") is None:
            return False
        if action.kind == "create":
            code = view["table"]
            return code not in self.known_codes and project(view) == self._expected_after(action, code)
        return view["table"] == action.game.code and project(view) == self._expected_after(action)

    def _ack_diff(self, action: Action) -> str:
        return diff(project(action.actor.last_state), self._expected_after(action))

    def _commit(self, action: Action, *, bind: bool) -> None:
        """The action happened: fold it into the model (and, if its actor saw it, seat the actor accordingly)."""
        game = action.game
        if action.kind == "create":
            if not bind:  # committed but never seen: a table nobody will sit at again
                return
            assert action.actor.last_state is not None
            game.code = action.actor.last_state["table"]
            self.known_codes.add(game.code)
            self.report.tables_created += 1
        game.model = action.after
        if action.kind == "start":
            self.report.games_started += 1
        if action.after.state is not None and action.after.state.phase is Phase.OVER:
            self.report.games_finished += 1
        if bind and action.kind in ("create", "join"):
            action.actor.game = game
        self._log(f"{'ack' if bind else 'committed'} #{action.number}")

    async def _quiesce(self) -> None:
        def settled() -> bool:
            return all(c.game is None or project(c.last_state) == expected(c) for c in self.clients)

        def lagging() -> str:
            for c in self.clients:
                if c.game is not None and project(c.last_state) != expected(c):
                    return f"{c}'s view to catch up: {diff(project(c.last_state), expected(c))}"
            return "every view to catch up"

        await self._until(settled, lagging)

    # --- killing and recovering -------------------------------------------------------------------------------

    async def _kill(self, kind: str, detail: str) -> None:
        report = self.report
        report.kills += 1
        if kind == "between":
            report.kills_between += 1
        elif kind == "in-flight":
            report.kills_inflight += 1
        else:
            report.kills_recovery += 1
        self._log(f"KILL #{self.report.kills} ({kind}): {detail}")
        if self.cfg.kill_workers:
            await self._kill_worker()
            return
        await self.server.kill()
        for client in self.clients:
            if client.conn is None:
                continue
            await self._dropped(client, "the server was killed")

    async def _kill_worker(self) -> None:
        """SIGKILL one worker of the server at random: its clients' connections drop (and are dropped here); the
        others stay connected to the other workers. The server starts a new worker by itself."""
        pids = worker_pids(self.server.lines)
        if not pids:
            raise KillTestFailure(f"the server named no workers: {self.server.tail(self.server.starts)}")
        owners = {
            c: socket_owner(pids, int(c.conn.get_extra_info("sockname")[1])) for c in self.clients if c.conn is not None
        }
        victim = self.rng.choice(pids)
        os.kill(victim, signal.SIGKILL)
        for client, owner in owners.items():
            if owner != victim:
                continue
            await self._dropped(client, "its worker was killed")

        def replaced() -> bool:
            ready = worker_pids(self.server.lines, ready=True)
            return victim not in ready and len(ready) == len(pids)

        await self._until(replaced, "the server's new worker to listen")

    async def _dropped(self, client: Client, after: str) -> None:
        """Wait for the client's connection to close (after a kill), then drop it."""
        try:
            await asyncio.wait_for(client.closed.wait(), self.cfg.timeout)
        except TimeoutError:
            raise KillTestFailure(f"{client}'s connection stayed open after {after}") from None
        await client.drop()

    async def _recover(self, inflight: Action | None) -> None:
        """Restart, bring every client back to its seat, and compare each view with the one before the kill."""
        pre = {c: c.last_state for c in self.clients}
        acked = inflight is not None and self._acked(inflight)  # its actor saw it before the connection dropped
        seen = self.checks.check_pre(pre, inflight) or acked  # someone saw it: it must survive
        if inflight is not None:
            if seen:
                self._commit(inflight, bind=acked)
            if inflight.kind in ("create", "join") and not acked:
                # Its actor may have left its old table (committed) without its new seat being committed.
                inflight.actor.game = None
        # (a worker-kill leaves the other workers' clients connected: they see the table go on and are not rejoining)
        rejoin = [c for c in self.clients if c.game is not None and c.conn is None]
        possible = {"before", "after"}
        while True:
            began = time.perf_counter()
            if not self.cfg.kill_workers:
                self.report.restart_ms.append(await self.server.start(self.cfg.start_timeout) * 1000)
                self._log(f"restarted on port {self.server.port}")
            else:  # a kill during the reconnect wave may have dropped more of them
                rejoin.extend(c for c in self.clients if c.game is not None and c.conn is None and c not in rejoin)
            dropped = {c for c in rejoin if c.conn is None}  # those connected (again) and back already stay
            await self._connect_all()
            for client in rejoin:
                if client not in dropped:
                    continue
                assert client.game is not None and client.game.code is not None
                client.join_mark = len(client.messages)
                code = (pre[client] or {}).get("reconnect_code")
                if code and self.rng.random() < self.cfg.by_reconnect_code:
                    client.send({"cmd": "reconnect", "code": code})  # the way back without a key
                    self.report.by_code += 1
                else:
                    client.send({"cmd": "join", "table": client.game.code})  # the key finds the seat
            if self.report.kills < self.cfg.kills and self.rng.random() < self.cfg.during_recovery:
                delay = self.cfg.max_inflight_delay * self.rng.random() ** 2
                await asyncio.sleep(delay)
                await self._kill("recovery", f"{delay * 1000:.1f} ms into the reconnect wave")
                # Views that arrived before this kill are evidence too: what they showed must stay.
                possible &= self.checks.check_post(rejoin, pre, inflight, seen, partial=True)
                continue
            await self._until(
                lambda: all(c.rejoined_view() for c in rejoin),
                lambda: (
                    "every client's view after rejoining: still missing "
                    + ", ".join(str(c) for c in rejoin if not c.rejoined_view())
                ),
            )
            possible &= self.checks.check_post(rejoin, pre, inflight, seen, partial=False)
            break
        if inflight is not None and self.cfg.kill_workers and inflight.kind != "create":
            possible &= await self._survivors_allow(inflight, rejoin)
        if inflight is not None:
            self._settle(inflight, acked, seen, possible)
        await self._quiesce()
        self.report.recovery_ms.append((time.perf_counter() - began) * 1000)

    async def _survivors_allow(self, action: Action, rejoin: Sequence[Client]) -> set[str]:
        """With one worker killed, the players at the table who are connected to the other workers stay: once their
        views show the table before or after the in-flight action, they tell whether it was committed (the change
        notice of an append reaches every worker at once, long before the killed worker is replaced). Returns the
        outcomes they allow ("before", "after")."""
        code = action.game.code
        survivors = [
            c for c in self.clients if c.game is action.game and c is not action.actor and c not in rejoin and c.conn
        ]
        outcomes = {c: dict(zip(("before", "after"), either_side(action, c.seat), strict=True)) for c in survivors}

        def shown() -> bool:
            return all(project(c.last_state) in outcomes[c].values() for c in survivors)

        await self._until(shown, f"the views at table {code} to show the table before or after {action}")
        possible = {"before", "after"}
        for client in survivors:
            self.report.views_checked += 1
            possible &= {name for name, view in outcomes[client].items() if project(client.last_state) == view}
        return possible

    def _settle(self, action: Action, acked: bool, seen: bool, possible: set[str]) -> None:
        """Decide whether the in-flight action happened, from every view after the restart(s)."""
        report = self.report
        if action.kind == "create" and not acked:
            possible = {self.checks.create_outcome(action)}
        if seen and "after" not in possible:
            report.losses += 1
            raise KillTestFailure(f"LOSS after kill #{report.kills}: {action} was seen before the kill, not after")
        if not possible:
            report.mismatches += 1
            raise KillTestFailure(
                f"VIEW DIFFERS after kill #{report.kills}: the views (of several clients, or across the restarts of "
                f"one recovery) disagree on whether {action} happened"
            )
        if seen:
            report.inflight_acked += 1
            report.acknowledged += acked
        elif "after" in possible:  # both: nothing tells (the action changed no view, e.g. a repeated join)
            self._commit(action, bind=False)
            report.inflight_committed += 1
        else:
            report.inflight_lost += 1
            self._log(f"lost (allowed, never seen) #{action.number}")
