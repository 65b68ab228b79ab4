"""In-process headless clients for the protocol tests: a coordinator with seeded tables and clients over in-memory
streams, every message checked against the schema."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from jsonschema import ValidationError

from dixit_tui.bots.player import BOT_NAMES, add_bots, seat_bots
from dixit_tui.coordinator import Coordinator, Identity
from dixit_tui.coordinator.limits import TableLimits
from dixit_tui.coordinator.service import BotFactory
from dixit_tui.protocol.json_stream import serve_json
from dixit_tui.protocol.schema import validate_message
from tests.protocol.moves import Message, check_order, next_move


async def quick_bots(
    coordinator: Coordinator, code: str, count: int, *, names: Sequence[str] | None, rng: random.Random
) -> int:
    """A bot factory like the server's (`seat_bots`) whose bots move without a think delay."""
    bots = await add_bots(coordinator, code, count, rng=rng, delay=(0.0, 0.0), names=names or BOT_NAMES)
    return len(bots)


class Client:
    """One headless client over in-memory streams. `lines` keeps the wire lines in order, as the client saw them."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.inbox: asyncio.Queue[bytes] = asyncio.Queue()
        self.received: list[Message] = []
        self.sent: list[Message] = []
        self.lines: list[tuple[str, str]] = []  # ("->" sent or "<-" received, the line)
        self.reading = False
        self.task: asyncio.Task[int] | None = None

    # the session's side: a reader and a writer
    async def readline(self) -> bytes:
        self.reading = True
        try:
            return await self.inbox.get()
        finally:
            self.reading = False

    def write(self, data: bytes) -> None:
        assert data.endswith(b"\n"), data
        for line in data.decode().split("\n")[:-1]:
            self.received.append(json.loads(line))
            self.lines.append(("<-", line))

    async def drain(self) -> None:
        return None

    # the test's side
    def idle(self) -> bool:
        assert self.task is not None
        return self.inbox.empty() and (self.reading or self.task.done())

    @property
    def state(self) -> Message:
        return next(m for m in reversed(self.received) if m["type"] == "state")

    def of_type(self, kind: str) -> list[Message]:
        return [m for m in self.received if m["type"] == kind]


class Game:
    """A coordinator with seeded tables and any number of in-process headless clients."""

    def __init__(self, seed: int = 1, *, allow_seeded_tables: bool = True, bots: BotFactory = seat_bots) -> None:
        # lobby listings at each change (not gathered per interval: tests/coordinator/test_lobby_amplification.py)
        self.coord = Coordinator(
            rng=random.Random(seed),
            allow_seeded_tables=allow_seeded_tables,
            bots=bots,
            limits=TableLimits(lobby_interval=0.0),
        )
        self.rng = random.Random(seed)
        self.clients: list[Client] = []
        self.refs = 0
        self.tick = 0.0  # how long settle's steps wait: a coordinator with a real store needs its thread's turn
        self.errors: list[str] = []

    async def __aenter__(self) -> Game:
        return self

    async def __aexit__(self, *exc: object) -> None:
        for client in self.clients:
            client.inbox.put_nowait(b"")  # end of input: the session ends with status 0
        tasks = [c.task for c in self.clients if c.task is not None]
        done, pending = await asyncio.wait(tasks, timeout=5)
        for task in pending:
            task.cancel()
        if exc[0] is None:
            assert not pending and all(t.result() == 0 for t in done)

    async def connect(self, name: str, key: str | None = None, *, keyless: bool = False, bot: bool = False) -> Client:
        """A headless client; with `bot`, an agent (`ssh NAME@HOST json bot`)."""
        client = Client(name)
        identity = Identity(name, None if keyless else key or f"SHA256:{name}", bot=bot)
        client.task = asyncio.create_task(serve_json(self.coord, identity, client, client))
        self.clients.append(client)
        await self.settle()
        assert client.received[0]["type"] == "hello"
        return client

    async def settle(self) -> None:
        """Run the loop until every session waits for input and nothing more is written."""
        stable, seen = 0, -1
        for _ in range(2_000):
            await asyncio.sleep(self.tick)
            total = sum(len(c.received) for c in self.clients)
            if total == seen and all(c.idle() for c in self.clients):
                stable += 1
                if stable >= 3:
                    return
            else:
                stable, seen = 0, total
        raise AssertionError("the sessions did not settle")

    async def send(self, client: Client, cmd: Message | bytes, *, valid: bool = True) -> list[Message]:
        """Send one command (a dict, checked against the schema first) or a raw line; returns what `client` got."""
        if isinstance(cmd, bytes):
            raw = cmd
        else:
            if valid:
                validate_message(cmd)
            else:
                with pytest.raises(ValidationError):
                    validate_message(cmd)
            raw = (json.dumps(cmd, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
            client.sent.append(cmd)
        client.lines.append(("->", raw.decode("utf-8", "replace").rstrip("\n")))
        mark = len(client.received)
        client.inbox.put_nowait(raw)
        await self.settle()
        return client.received[mark:]

    async def error(self, client: Client, cmd: Message | bytes, code: str, *, valid: bool = True) -> Message:
        """An illegal command: exactly one `error` (with the ref echoed) to the sender, nothing to anyone else."""
        ref: Any = None
        if isinstance(cmd, dict):
            self.refs += 1
            ref = cmd.get("ref", f"r{self.refs}")
            cmd = {**cmd, "ref": ref}
        before = {id(c): len(c.received) for c in self.clients}
        got = await self.send(client, cmd, valid=valid)
        assert len(got) == 1 and got[0]["type"] == "error", got
        assert got[0]["code"] == code, got[0]
        assert got[0]["ref"] == ref
        assert {id(c): len(c.received) for c in self.clients if c is not client} == {
            k: v for k, v in before.items() if k != id(client)
        }, "an illegal command reached another session"
        self.errors.append(code)
        return got[0]

    async def create(self, host: Client, others: list[Client], **options: Any) -> str:
        await self.send(host, {"cmd": "create", **options})
        code: str = host.state["table"]
        for client in others:
            await self.send(client, {"cmd": "join", "table": code})
            assert client.state["table"] == code
        return code

    async def play(
        self, until: Callable[[], bool] | None = None, max_steps: int = 2_000, patience: float = 0.0
    ) -> None:
        """Let every seated client play legal moves until `until()` holds (default: the game is over). When none of
        them can move, wait up to `patience` seconds for others (built-in bots) to play."""
        done = until or (lambda: all(c.state["phase"] == "over" for c in self.seated()))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + patience
        for _ in range(max_steps):
            if done():
                return
            order = self.seated()
            self.rng.shuffle(order)
            for client in order:
                move = next_move(client.state, self.rng)
                if move is not None:
                    got = await self.send(client, move)
                    assert not [m for m in got if m["type"] == "error"], (move, got)
                    break
            else:
                if loop.time() >= deadline:
                    raise AssertionError(f"nobody can move: {self.seated()[0].state}")
                await asyncio.sleep(0.05)
                await self.settle()
        raise AssertionError("the game did not end")

    def seated(self) -> list[Client]:
        return [c for c in self.clients if c.received and c.state["table"] is not None and c.state["you"] is not None]

    def check(self) -> None:
        """Every line received validates (commands were checked as they were sent); the order rules hold."""
        for client in self.clients:
            for message in client.received:
                validate_message(message)
            check_order(client.received)
