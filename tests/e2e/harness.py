"""End-to-end helpers: a real dixit-tui SSH server on 127.0.0.1 and scripted SSH terminal clients.

    async with running_server(tmp_path, app_factory) as server:
        client = await PtyClient.connect(server.port, "alice")
        await client.wait_for_text("Welcome, alice")
        client.send("q")
        assert await client.wait_closed() == 0

Every wait is bounded by a timeout; a failed wait raises AssertionError with the client's screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Self

import asyncssh
import pyte

from dixit_tui import ssh_client
from dixit_tui.ssh.server import DEFAULT_LIMITS, DixitAcceptor, Gate, Limits, start_server
from dixit_tui.ssh.session_runner import AppFactory, CommandHandler
from dixit_tui.tui.shared_work import share_per_process_work
from tests.e2e.placeholder_app import placeholder_app_factory

HOST = "127.0.0.1"
TIMEOUT = 20.0
"""Generous: a loaded 2-core machine runs these several times slower than an idle one. Every wait here is bounded by
it unless told otherwise (5 s, the bound before, is within reach of a first paint on such a machine)."""
# Largest pyte screen kept client-side; the server clamps to 300x100 anyway.
_MAX_SCREEN = (400, 150)


@asynccontextmanager
async def running_server(
    tmp_path: Path,
    app_factory: AppFactory = placeholder_app_factory,
    *,
    command_handler: CommandHandler | None = None,
    limits: Limits = DEFAULT_LIMITS,
    gate: Gate | None = None,
    ask_invite: bool = False,
) -> AsyncIterator[DixitAcceptor]:
    """A server on 127.0.0.1, port chosen by the OS (`server.port`), host key in tmp_path/keys."""
    server = await start_server(
        HOST,
        0,
        tmp_path / "keys",
        app_factory,
        command_handler=command_handler,
        limits=limits,
        gate=gate,
        ask_invite=ask_invite,
        app_setup=(share_per_process_work,),  # as `serve`'s: what every app of the process shares
    )
    try:
        yield server
    finally:
        await server.shutdown(timeout=5.0)


async def connect(
    port: int,
    username: str,
    *,
    client_key: asyncssh.SSHKey | None = None,
    timeout: float = 10.0,
    host: str = HOST,
    local_ip: str | None = None,
    **options: Any,
) -> asyncssh.SSHClientConnection:
    """An SSH connection that uses only `client_key` (or no key), no agent, no config, no known_hosts; from the
    loopback source address `local_ip` if given; `options` go to asyncssh (algorithms, forwarding requests...)."""
    return await ssh_client.connect(
        host,
        port,
        username,
        client_key=client_key,
        timeout=timeout,
        local_addr=(local_ip, 0) if local_ip else None,
        **options,
    )


class _Session(asyncssh.SSHClientSession[bytes]):
    def __init__(self, on_data: Callable[[bytes], None], on_closed: Callable[[], None]) -> None:
        self._on_data = on_data
        self._on_closed = on_closed

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self._on_data(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self._on_closed()


class PtyClient:
    """An SSH client with a PTY whose output is fed into a pyte screen (and kept raw in `raw`)."""

    def __init__(self, conn: asyncssh.SSHClientConnection, size: tuple[int, int]) -> None:
        self.conn = conn
        self.raw = bytearray()
        columns, lines = _screen_size(size)
        self.screen = pyte.Screen(columns, lines)
        self._stream = pyte.ByteStream(self.screen)
        self._changed = asyncio.Event()
        self._closed = asyncio.Event()
        self._chan: asyncssh.SSHClientChannel[bytes] | None = None
        self.first_data_at: float | None = None

    @classmethod
    async def connect(
        cls,
        port: int,
        username: str = "alice",
        *,
        client_key: asyncssh.SSHKey | None = None,
        term_type: str = "xterm-256color",
        size: tuple[int, int] = (100, 30),
        command: str | None = None,
        env: Mapping[str, str] | None = None,
        window: int = 2 * 1024 * 1024,
        timeout: float = 10.0,
    ) -> Self:
        conn = await connect(port, username, client_key=client_key, timeout=timeout)
        client = cls(conn, size)
        chan, _ = await asyncio.wait_for(
            conn.create_session(
                lambda: _Session(client._on_data, client._closed.set),
                command,
                term_type=term_type,
                term_size=size,
                env=list((env or {}).items()),
                encoding=None,
                window=window,
            ),
            timeout,
        )
        client._chan = chan
        return client

    async def __aenter__(self) -> PtyClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        """Leave politely if still connected (tests that end a session themselves are unaffected)."""
        with contextlib.suppress(Exception):
            await self.close(timeout=2.0)

    @property
    def channel(self) -> asyncssh.SSHClientChannel[bytes]:
        assert self._chan is not None
        return self._chan

    def _on_data(self, data: bytes) -> None:
        if self.first_data_at is None:
            self.first_data_at = time.perf_counter()
        self.raw += data
        self._stream.feed(data)
        self._changed.set()

    # ---- reading the screen -------------------------------------------------------------------------

    def screen_text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def raw_text(self) -> str:
        """Everything received so far, decoded (escape sequences included): for leak checks."""
        return self.raw.decode("utf-8", "replace")

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = TIMEOUT, what: str = "") -> None:
        """Wait until `predicate()` holds, re-checking whenever output arrives."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0 or self._closed.is_set():
                state = "session closed" if self._closed.is_set() else f"timed out after {timeout}s"
                raise AssertionError(f"{state} waiting for {what or predicate}; screen:\n{self.screen_text()}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.25))

    async def wait_for_text(self, text: str, timeout: float = TIMEOUT) -> None:
        await self.wait_until(lambda: text in self.screen_text(), timeout, repr(text))

    # ---- acting -------------------------------------------------------------------------------------

    def send(self, keys: str | bytes) -> None:
        self.channel.write(keys.encode() if isinstance(keys, str) else keys)

    def resize(self, width: int, height: int) -> None:
        self.channel.change_terminal_size(width, height)
        self.screen.resize(lines=min(max(height, 1), _MAX_SCREEN[1]), columns=min(max(width, 1), _MAX_SCREEN[0]))

    def pause_reading(self) -> None:
        """Stop consuming output (a frozen client): the server's send window runs out."""
        self.channel.pause_reading()

    @property
    def exit_status(self) -> int | None:
        return self.channel.get_exit_status()

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    async def wait_closed(self, timeout: float = TIMEOUT) -> int | None:
        """Wait for the server to close the session; returns its exit status."""
        await asyncio.wait_for(self._closed.wait(), timeout)
        return self.exit_status

    async def close(self, timeout: float = 5.0) -> None:
        """Polite goodbye: SSH disconnect, then wait for the connection to close."""
        self.conn.close()
        await asyncio.wait_for(self.conn.wait_closed(), timeout)

    def drop(self) -> None:
        """Abrupt loss: abort the TCP transport without any SSH goodbye."""
        self.conn.abort()


class RawPty(PtyClient):
    """A PtyClient that keeps the raw bytes and feeds its pyte screen only when the screen is read (pyte is slow)."""

    def __init__(self, conn: asyncssh.SSHClientConnection, size: tuple[int, int]) -> None:
        super().__init__(conn, size)
        self._fed = 0

    def _on_data(self, data: bytes) -> None:
        self.raw += data
        self._changed.set()

    def screen_text(self) -> str:
        if self._fed < len(self.raw):
            self._stream.feed(bytes(self.raw[self._fed :]))
            self._fed = len(self.raw)
        return super().screen_text()


def _screen_size(size: tuple[int, int]) -> tuple[int, int]:
    """The pyte screen for a PTY size: what the server will use (0 -> 80x24), capped to stay cheap."""
    width, height = size
    return (min(width or 80, _MAX_SCREEN[0]), min(height or 24, _MAX_SCREEN[1]))


async def wait_for(predicate: Callable[[], bool], timeout: float = TIMEOUT, what: str = "") -> None:
    """Poll `predicate` (every 10 ms) until true; AssertionError after `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() >= deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        await asyncio.sleep(0.01)


__all__ = ["HOST", "TIMEOUT", "PtyClient", "RawPty", "connect", "running_server", "wait_for"]
