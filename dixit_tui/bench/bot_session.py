"""The benchmark's bots: a `json bot` session (protocol v1) whose table's driver decides when it acts, and the floor
server's bot (`dixit_tui.bench.floor`), which creates or joins a floor table and bumps its counter."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections import Counter
from typing import Any, Protocol

import asyncssh

from dixit_tui.bench.measurement import Measurement
from dixit_tui.bench.stats import CLOCK
from dixit_tui.bots.brain import Brain, Key
from dixit_tui.bots.strategy import Action
from dixit_tui.bots.strategy_names import strategy_named
from dixit_tui.bots.view import BotView
from dixit_tui.engine import Phase
from dixit_tui.protocol.kinds import MessageType


class BotTally(Protocol):
    """The run, as a bot sees it: where it counts its own answers' latencies and the refusals."""

    ack_latencies: list[float]
    refused: Counter[str]


class BotTable(Protocol):
    """What a bot needs of its table (dixit_tui/bench/table_run.py)."""

    reveal_seen: bool

    @property
    def changed(self) -> asyncio.Event: ...

    @property
    def run(self) -> BotTally: ...

    async def connect(
        self, host: str, port: int, username: str, timeout: float, kind: str
    ) -> asyncssh.SSHClientConnection: ...


class Bot(asyncssh.SSHClientSession[str]):
    """A `json bot` session; the table's driver decides when it acts."""

    def __init__(self, name: str, table: BotTable, strategy: str, rng: random.Random) -> None:
        self.name = name
        self.table = table
        self.brain = Brain(strategy_named(strategy), rng)
        self.rng = rng
        self.buffer = ""
        self.view: BotView | None = None
        self.code: str | None = None
        self.phase: str | None = None
        self.over = False
        self.hello = asyncio.Event()
        self.changed = asyncio.Event()
        self.errors: list[dict[str, Any]] = []
        self.sent: dict[str, tuple[Key | None, Action | None, Measurement | None]] = {}
        self.refs = 0
        self.ack_t0: float | None = None
        self.conn: asyncssh.SSHClientConnection | None = None
        self.chan: asyncssh.SSHClientChannel[str] | None = None
        self.closed = False

    # asyncssh callbacks
    def data_received(self, data: str, datatype: asyncssh.DataType) -> None:
        self.buffer += data
        while True:
            line, sep, rest = self.buffer.partition("\n")
            if not sep:
                return
            self.buffer = rest
            if line.strip():
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if isinstance(message, dict):
                    self.receive(message)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.changed.set()
        self.table.changed.set()

    async def open(self, host: str, port: int, timeout: float) -> None:
        self.conn = await self.table.connect(host, port, self.name, timeout, "bot")
        self.chan, _ = await asyncio.wait_for(
            self.conn.create_session(lambda: self, "json bot", encoding="utf-8"), timeout
        )
        await asyncio.wait_for(self.hello.wait(), timeout)

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.conn.wait_closed(), 5.0)

    def send(self, message: dict[str, Any]) -> None:
        if self.chan is not None and not self.closed:
            self.chan.write(json.dumps(message) + "\n")

    def receive(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == MessageType.STATE:
            table = self._state_seen(message)
            self.phase = str(message.get("phase"))
            self.view = BotView.from_protocol(message) if table is not None else None
            if self.phase == Phase.OVER:
                self.over = True
        elif kind == MessageType.OVER:
            self.over = True
        elif kind == MessageType.REVEAL:
            self.table.reveal_seen = True
        elif kind == MessageType.VOIDED:
            turn = message.get("turn")
            self.brain.voided(turn if isinstance(turn, int) else 0)
        elif kind == MessageType.ERROR:
            sent = self._refused(message)
            if sent is not None and sent[0] is not None and sent[1] is not None:
                self.brain.refused(sent[0], sent[1], str(message.get("code")))
        self._received(kind)

    def _state_seen(self, message: dict[str, Any]) -> Any:
        """A `state`: the acting bot's own answer when one was awaited (its latency), and its table's code."""
        if self.ack_t0 is not None:
            self.table.run.ack_latencies.append(CLOCK() - self.ack_t0)
            self.ack_t0 = None
        table = message.get("table")
        self.code = str(table) if table is not None else None
        return table

    def _refused(self, message: dict[str, Any]) -> tuple[Key | None, Action | None, Measurement | None] | None:
        """An `error`: kept, its command's measurement ended as refused and counted; the command as sent, if known."""
        self.errors.append(message)
        sent = self.sent.pop(str(message.get("ref")), None)
        if sent is not None:
            if sent[2] is not None:
                sent[2].refused = True
                sent[2].done.set()
            self.table.run.refused[str(message.get("code"))] += 1
        return sent

    def _received(self, kind: object) -> None:
        if kind == "hello":
            self.hello.set()
        self.changed.set()
        self.table.changed.set()

    def next_ref(self) -> str:
        self.refs += 1
        return f"m{self.refs}"


class FloorBot(Bot):
    """A session of the floor server's tiny protocol (`dixit_tui.bench.floor`): it creates or joins a floor table
    and bumps its counter."""

    def receive(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "state":
            self._state_seen(message)
            self.sent.pop(str(message.get("ref")), None)
        elif kind == "error":
            self._refused(message)
        self._received(kind)
