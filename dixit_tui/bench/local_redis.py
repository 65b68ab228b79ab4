"""A `redis-server` of the operator tools' own (the load benchmark's `--compare-workers`, the crash test's
`--start-redis`): on a free loopback port, in a folder of its own, with the settings docs/operations.md asks for
(append-only file, fsync on every write), and its counters read with INFO."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import socket
import time
from pathlib import Path
from typing import Any

from dixit_tui.bench.stopping import send, terminated


class RedisStartError(RuntimeError):
    """redis-server is missing, exited, or did not answer in time. The message says which."""


def redis_server_path() -> str | None:
    return shutil.which("redis-server") or shutil.which("valkey-server")


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def redis_argv(exe: str, host: str, port: int, folder: Path) -> list[str]:
    """The command line of a redis-server with the settings docs/operations.md asks for: the append-only file,
    fsync on every write, no snapshots, in the foreground, its data and log in `folder`."""
    return [
        exe,
        "--bind", host,
        "--port", str(port),
        "--dir", str(folder),
        "--appendonly", "yes",
        "--appendfsync", "always",
        "--save", "",
        "--daemonize", "no",
        "--logfile", str(folder / "redis.log"),
    ]  # fmt: skip


class LocalRedis:
    """`await start()`, then `url`, `pid`, `info(section)`; `await stop()` (SIGTERM, then SIGKILL)."""

    def __init__(self, folder: Path, port: int | None = None, host: str = "127.0.0.1") -> None:
        self.folder = folder
        self.host = host
        self.port = port or free_port(host)
        self.proc: asyncio.subprocess.Process | None = None
        self._client: Any = None  # redis.Redis, for `info`

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}/0"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def argv(self, exe: str) -> list[str]:
        return redis_argv(exe, self.host, self.port, self.folder)

    async def start(self, timeout: float = 10.0) -> None:
        exe = redis_server_path()
        if exe is None:
            raise RedisStartError("redis-server is not installed (Debian: apt-get install redis-server)")
        self.folder.mkdir(parents=True, exist_ok=True)
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv(exe),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
            start_new_session=True,  # a ^C at the terminal reaches the tool, which stops it
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.returncode is not None:
                raise RedisStartError(
                    f"redis-server exited with status {self.proc.returncode}: see {self.folder / 'redis.log'}"
                )
            with contextlib.suppress(OSError):
                reader, writer = await asyncio.open_connection(self.host, self.port)
                try:
                    writer.write(b"PING\r\n")
                    await writer.drain()
                    if (await asyncio.wait_for(reader.readline(), 1.0)).startswith(b"+PONG"):
                        return
                finally:
                    writer.close()
            await asyncio.sleep(0.05)
        await self.stop()
        raise RedisStartError(f"redis-server did not answer on {self.host}:{self.port} within {timeout} s")

    def info(self, section: str = "everything") -> dict[str, Any]:
        """`INFO section` as a dict: a blocking loopback call of a millisecond, for between measurements. One
        connection, kept: each call is then exactly one command and one read at the server."""
        import redis

        if self._client is None:
            self._client = redis.Redis(host=self.host, port=self.port, socket_timeout=5.0)
        found: dict[str, Any] = self._client.info(section)
        return found

    async def stop(self) -> None:
        if self._client is not None:
            with contextlib.suppress(Exception):
                self._client.close()
            self._client = None
        proc = self.proc
        if proc is None:
            return
        if not await terminated(proc, 10.0):
            send(proc, signal.SIGKILL)
            await proc.wait()
        self.proc = None
