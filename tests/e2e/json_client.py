"""Headless players over real SSH: `ssh NAME@127.0.0.1 json` without a PTY (docs/protocol.md), and the game-playing
helpers built on them.

    client = await JsonClient.open(port, "ana")
    code = await client.create(mode="standard")
    await client.wait_for("state", table=code)              # a message of a type, with these fields
    await client.wait_for(lambda m: m.get("ref") == "x")    # or any predicate

Every wait is bounded; a failed one raises AssertionError with the last messages.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import asyncssh

from dixit_tui.coordinator.table import Table
from tests.e2e.harness import TIMEOUT, connect
from tests.protocol.moves import next_move

Message = dict[str, Any]


def strict_json(line: bytes) -> Message:
    """Parse one line as the protocol promises: UTF-8 JSON (no NaN or Infinity), one object."""

    def refuse(constant: str) -> Any:
        raise ValueError(f"{constant} is not JSON")

    message = json.loads(line.decode("utf-8"), parse_constant=refuse)
    assert isinstance(message, dict), line
    return message


class JsonClient:
    """One `json` session without a PTY: `raw` is every byte received, `lines` the lines, `messages` the same lines
    parsed (strictly: a line that is not one JSON object ends the reader, and the next wait reports why)."""

    def __init__(self, name: str, conn: asyncssh.SSHClientConnection, process: asyncssh.SSHClientProcess[bytes]):
        self.name = name
        self.conn = conn
        self.process = process
        self.raw = bytearray()
        self.lines: list[bytes] = []
        self.messages: list[Message] = []
        self._partial = b""
        self.failure: Exception | None = None
        self._new = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(
        cls,
        port: int,
        name: str,
        command: str = "json",
        *,
        client_key: asyncssh.SSHKey | None = None,
        local_ip: str | None = None,
    ) -> JsonClient:
        """Connect as `name` (with `client_key`, or keyless; from the loopback address `local_ip` if given), run
        `command` and wait for its hello."""
        conn = await connect(port, name, client_key=client_key, local_ip=local_ip)
        process = await asyncio.wait_for(conn.create_process(command, encoding=None), TIMEOUT)
        client = cls(name, conn, process)
        hello = await client.wait_for(lambda m: True)
        assert hello["type"] == "hello" and hello["protocol"] == 1, hello
        return client

    async def _read(self) -> None:
        try:
            while chunk := await self.process.stdout.read(1 << 16):
                self.raw += chunk
                *lines, self._partial = (self._partial + chunk).split(b"\n")
                for line in lines:
                    self.lines.append(line)
                    self.messages.append(strict_json(line))
                self._new.set()
        except Exception as error:  # kept for wait_for's report (never left unretrieved in a task)
            self.failure = error
        finally:
            self._new.set()

    @property
    def alive(self) -> bool:
        return not self._reader.done()

    def send(self, message: Message | bytes) -> None:
        data = message if isinstance(message, bytes) else (json.dumps(message) + "\n").encode()
        self.process.stdin.write(data)

    async def wait_for(
        self, want: Callable[[Message], bool] | str, timeout: float = TIMEOUT, start: int = 0, **fields: Any
    ) -> Message:
        """The first message from index `start` on that `want` accepts; `want` may also be a message type, which
        then must have the `fields` given (`wait_for("state", table=code)`)."""
        accept: Callable[[Message], bool]
        if isinstance(want, str):
            kind = want
            accept = lambda m: m.get("type") == kind and all(m.get(k) == v for k, v in fields.items())  # noqa: E731
        else:
            accept = want
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        seen = start
        while True:
            for message in self.messages[seen:]:
                if accept(message):
                    return message
            seen = max(seen, len(self.messages))
            remaining = deadline - loop.time()
            if remaining <= 0 or self._reader.done():
                why = f"session closed ({self.failure!r})" if self._reader.done() else f"timed out after {timeout}s"
                raise AssertionError(f"{self.name}: {why}; last messages: {self.messages[-3:]}")
            self._new.clear()
            with suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), remaining)

    async def settle(self, timeout: float = TIMEOUT) -> None:
        """Everything this session was sent before now has arrived: a `leaderboard` is asked for (it changes
        nothing) and its answer, which the server writes after all it queued before, is awaited, then dropped from
        `messages`. (Instead of "sleep a moment, then see that nothing more came": within one server, whatever
        the lines sent so far caused is queued before it.)"""
        start = len(self.messages)
        self.send({"cmd": "leaderboard", "limit": 1})
        answer = await self.wait_for("leaderboard", timeout, start)
        self.messages.remove(answer)

    @property
    def state(self) -> Message:
        return next(m for m in reversed(self.messages) if m.get("type") == "state")

    def of_type(self, kind: str) -> list[Message]:
        return [m for m in self.messages if m.get("type") == kind]

    async def create(self, **options: Any) -> str:
        """Create a table with `options` (the `create` command's fields); its code, once the state says so."""
        start = len(self.messages)
        self.send({"cmd": "create", **options})
        state = await self.wait_for(lambda m: m.get("type") == "state" and m["table"] is not None, start=start)
        return str(state["table"])

    async def close(self) -> int | None:
        """End of input: the session ends by itself; returns its exit status (None if it did not end)."""
        with suppress(Exception):
            self.process.stdin.write_eof()
        with suppress(Exception):
            await asyncio.wait_for(self.process.wait_closed(), TIMEOUT)
        with suppress(Exception):
            await asyncio.wait_for(self._reader, TIMEOUT)
        self.conn.close()
        with suppress(Exception):
            await asyncio.wait_for(self.conn.wait_closed(), TIMEOUT)
        return self.process.exit_status


async def run_command(port: int, command: str | None) -> tuple[int | None, str]:
    """One SSH connection running `command` (None: ask for a shell) without a PTY: (exit status, output)."""
    conn = await connect(port, "ana")
    try:
        result = await asyncio.wait_for(conn.run(command, check=False), TIMEOUT)
        return result.exit_status, str(result.stdout)
    finally:
        conn.close()
        await asyncio.wait_for(conn.wait_closed(), TIMEOUT)


# --- tables and whole games ----------------------------------------------------------------------------------------


async def table_of(port: int, names: list[str], create: Message) -> tuple[list[JsonClient], str]:
    """The first of `names` creates a table (`create`: the command's fields), the others join it in order; returns
    the players (player i in seat i) and the code once the host sees everyone seated. Not started."""
    players = [await JsonClient.open(port, name) for name in names]
    code = await players[0].create(**create)
    for player in players[1:]:
        player.send({"cmd": "join", "table": code})
        await player.wait_for("state", table=code)
    await players[0].wait_for(lambda m: m["type"] == "state" and len(m["players"]) == len(names))
    return players, code


async def table_of_three(port: int, *, seed: int = 7) -> tuple[list[JsonClient], str]:
    """ana, ben and cy at a seeded standard table (refresh rules, to 10 points)."""
    create = {"mode": "standard", "profile": "refresh", "target": 10, "seed": seed}
    return await table_of(port, ["ana", "ben", "cy"], create)


async def play(
    players: list[JsonClient], until: Callable[[], bool], rng: random.Random, max_moves: int = 1_000
) -> None:
    """Each player answers its latest state with a legal move, once per (turn, phase, voids); in turn 1 the host
    gives the clue. Bounded by moves, not by time: more than `max_moves` moves, or nothing received by anyone for
    TIMEOUT seconds, is a failure (however slow the machine)."""
    loop = asyncio.get_running_loop()
    answered: dict[str, tuple[int, str, int]] = {}
    moves = received = 0
    quiet_since = loop.time()
    while not until():
        if (now := sum(len(p.messages) for p in players)) != received:
            received, quiet_since = now, loop.time()
        assert loop.time() - quiet_since < TIMEOUT, f"nothing new for {TIMEOUT}s: {players[0].state}"
        for player in players:
            state = player.state
            key = (state["turn"], state["phase"], len(player.of_type("voided")))
            if answered.get(player.name) == key:
                continue
            if state["phase"] == "clue" and state["storyteller"] is None and state["you"] != state["host"]:
                continue
            move = next_move(state, rng)
            if move is not None:
                answered[player.name] = key
                moves += 1
                assert moves <= max_moves, f"no end after {max_moves} moves: {players[0].state}"
                player.send(move)
        await asyncio.sleep(0.01)


def everyone_over(players: list[JsonClient]) -> Callable[[], bool]:
    return lambda: all(p.of_type("over") and p.state["phase"] == "over" for p in players)


def move_done(table: Table, version: int, player: JsonClient, start: int, ref: str) -> Callable[[], bool]:
    """True once the game moved past `version` and the player was sent its new view (so the server has saved and
    shown the move: the table's state changes before the save), or the move with `ref` was answered (an error)."""

    def done() -> bool:
        game = table.game
        moved = game is not None and game.state.version != version
        news = player.messages[start:]
        return (moved and any(m.get("type") == "state" for m in news)) or any(m.get("ref") == ref for m in news)

    return done
