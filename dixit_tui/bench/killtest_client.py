"""A crash test player: an SSH key that owns its seat across restarts, and the JSON lines of its connection."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

import asyncssh

from dixit_tui import ssh_client
from dixit_tui.bench.killtest_model import GameRun
from dixit_tui.bench.server import HOST


class Client:
    """One headless player: an SSH key that owns its seat across restarts, and the messages of its connection."""

    def __init__(self, name: str, seat: int, key: asyncssh.SSHKey, tick: Callable[[], None]) -> None:
        self.name = name
        self.seat = seat  # its seat in every game of its group (clients join in seat order)
        self.key = key
        self._tick = tick
        self.conn: asyncssh.SSHClientConnection | None = None
        self.proc: asyncssh.SSHClientProcess[str] | None = None
        self.reader: asyncio.Task[None] | None = None
        self.messages: list[dict[str, Any]] = []  # this connection's messages
        self.last_state: dict[str, Any] | None = None  # kept across a kill: the last view before it
        self.errors: list[dict[str, Any]] = []
        self.closed = asyncio.Event()
        self.game: GameRun | None = None  # the table this client is acknowledged to sit at
        self.join_mark = 0  # index into `messages` where its rejoin was sent

    async def connect(self, port: int, timeout: float) -> None:
        self.messages = []
        self.closed = asyncio.Event()
        # no host key check: a loopback test server only
        self.conn = await ssh_client.connect(
            HOST, port, self.name, client_key=self.key, timeout=timeout, kbdint_auth=False
        )
        proc = await asyncio.wait_for(self.conn.create_process("json", encoding="utf-8"), timeout)
        self.proc = proc
        self.reader = asyncio.create_task(self._read(proc))

    async def _read(self, proc: asyncssh.SSHClientProcess[str]) -> None:
        try:
            while True:
                line = await proc.stdout.readline()
                if not line.endswith("\n"):
                    break  # end of stream; a torn last line was never received whole
                try:
                    msg = json.loads(line)
                except ValueError:
                    self.errors.append({"type": "error", "code": "harness_bad_json", "message": line[:200]})
                    continue
                self.messages.append(msg)
                if msg.get("type") == "state":
                    self.last_state = msg
                elif msg.get("type") == "error":
                    self.errors.append(msg)
                self._tick()
        except (asyncssh.Error, OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self.closed.set()
            self._tick()

    def send(self, cmd: dict[str, Any]) -> None:
        assert self.proc is not None
        self.proc.stdin.write(json.dumps(cmd) + "\n")

    def has_lobby(self) -> bool:
        return any(m.get("type") == "hello" for m in self.messages) and self.lobby_state() is not None

    def lobby_state(self) -> dict[str, Any] | None:
        return next((m for m in self.messages if m.get("type") == "state" and m.get("table") is None), None)

    def rejoined_view(self) -> dict[str, Any] | None:
        """The first view of its table since it asked to rejoin (`join_mark`), if it has come."""
        code = self.game.code if self.game is not None else None
        if code is None:
            return None
        messages = self.messages[self.join_mark :]
        return next((m for m in messages if m.get("type") == "state" and m.get("table") == code), None)

    async def drop(self) -> None:
        conn, self.conn, self.proc = self.conn, None, None
        if conn is not None:
            conn.abort()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.wait_closed(), 2)
        reader, self.reader = self.reader, None
        if reader is not None:
            reader.cancel()
            with contextlib.suppress(BaseException):
                await reader

    def __repr__(self) -> str:
        return f"{self.name}(seat {self.seat})"
