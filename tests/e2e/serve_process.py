"""A real `dixit-tui serve` in a process of its own, for tests of what its options do (moderation, metrics):

async with serve_process(tmp_path, "--private", ...) as port:
    status, text = await run(port, "ana", "tables", key=key)
"""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import asyncssh

from dixit_tui import ssh_client
from tests.e2e.harness import HOST


@dataclass
class Served:
    port: int  # where it listens for SSH
    said: list[str]  # the lines it printed up to "listening on ..." (the host key, "metrics on ...", ...)


@asynccontextmanager
async def serve_saying(data_dir: Path | None, *options: str) -> AsyncIterator[Served]:
    """`serve --host 127.0.0.1 --port 0 [--data-dir DATA_DIR] OPTIONS`, until it listens; yields where and what it said,
    then stops it with SIGTERM (and checks it stopped cleanly)."""
    folder = ("--data-dir", str(data_dir)) if data_dir is not None else ()
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "dixit_tui", "serve", "--host", HOST, "--port", "0", *folder),
        *options,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        assert process.stdout is not None
        said: list[str] = []
        for _ in range(20):  # (workers start slower: up to a minute a line)
            said.append((await asyncio.wait_for(process.stdout.readline(), 60)).decode().strip())
            assert said[-1], f"serve exited before listening: {said}"
            if said[-1].startswith("listening on"):
                break
        assert said[-1].startswith("listening on"), f"serve did not say where it listens: {said}"
        yield Served(int(said[-1].rsplit(":", 1)[1]), said)
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 20) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


@asynccontextmanager
async def serve_process(data_dir: Path, *options: str) -> AsyncIterator[int]:
    """`serve --host 127.0.0.1 --port 0 --data-dir DATA_DIR OPTIONS`, until it listens; yields its port, then stops it
    with SIGTERM (and checks it stopped cleanly)."""
    async with serve_saying(data_dir, *options) as served:
        yield served.port


async def run(
    port: int, user: str, command: str, *, key: asyncssh.SSHKey | None = None, local_ip: str | None = None
) -> tuple[int, str]:
    """`ssh -p PORT USER@127.0.0.1 COMMAND` (no terminal): (exit status, what it wrote on stdout and stderr)."""
    conn = await ssh_client.connect(
        HOST, port, user, client_key=key, timeout=20, local_addr=(local_ip, 0) if local_ip else None
    )
    try:
        result = await asyncio.wait_for(conn.run(command, check=False), 20)
    finally:
        conn.close()
    return (
        result.exit_status if result.exit_status is not None else -1
    ), f"{result.stdout or ''!s}{result.stderr or ''!s}"
