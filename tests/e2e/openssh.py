"""Real clients from this machine: the OpenSSH client with nothing of the machine's configuration, commands run
without blocking the event loop the server lives in, and tmux as the terminal.

    async with Tmux(tmp_path) as tmux:
        await tmux.start(shlex.join([SSH, "-tt", *ssh_options(port), "-o", "PubkeyAuthentication=no", f"ana@{HOST}"]))
        await tmux.wait("Welcome, ana")
        await tmux.keys("q")
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.harness import TIMEOUT

SSH = shutil.which("ssh")
TMUX = shutil.which("tmux")

needs_ssh = pytest.mark.skipif(SSH is None, reason="the OpenSSH client (ssh) is not installed")
needs_tmux = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def ssh_options(port: int) -> list[str]:
    """No user or system config, no agent, no known_hosts: nothing from this machine leaks in."""
    options = {
        "StrictHostKeyChecking": "no",
        "UserKnownHostsFile": "/dev/null",
        "BatchMode": "no",
        "LogLevel": "ERROR",
        "IdentityAgent": "none",
        "IdentitiesOnly": "yes",
        "ConnectTimeout": "5",
    }
    return ["-F", "/dev/null", "-p", str(port), *(f"-o{name}={value}" for name, value in options.items())]


async def run(*args: str, timeout: float = 10.0) -> tuple[int, str, str]:
    """Run a command without blocking the event loop (the server lives in it): (status, stdout, stderr)."""
    process = await asyncio.create_subprocess_exec(
        *args, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    assert process.returncode is not None
    return process.returncode, out.decode(errors="replace"), err.decode(errors="replace")


class Tmux:
    """A tmux server of its own (socket in `folder`, no configuration) with one session, `name`; its server is
    killed when the `async with` block ends."""

    def __init__(self, folder: Path, name: str = "dixit") -> None:
        assert TMUX is not None
        self.base = [TMUX, "-S", str(folder / "tmux.sock"), "-f", "/dev/null"]
        self.name = name

    async def __aenter__(self) -> Tmux:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        with contextlib.suppress(Exception):
            await run(*self.base, "kill-server", timeout=5)

    async def __call__(self, *args: str) -> str:
        code, out, err = await run(*self.base, *args)
        assert code == 0, (args, err)
        return out

    async def start(self, shell: str, size: tuple[int, int] = (100, 30)) -> None:
        """The session, running the shell command `shell` in a pane of `size` (columns, rows)."""
        await self("new-session", "-d", "-s", self.name, "-x", str(size[0]), "-y", str(size[1]), shell)

    async def keys(self, *keys: str) -> None:
        await self("send-keys", "-t", self.name, *keys)

    async def resize(self, columns: int, rows: int) -> None:
        await self("resize-window", "-t", self.name, "-x", str(columns), "-y", str(rows))

    async def pane(self) -> str:
        """The visible pane, one line per row (trailing blanks cut by tmux)."""
        return await self("capture-pane", "-p", "-t", self.name)

    async def wait(
        self, want: str | Callable[[list[str]], bool], what: str = "", timeout: float = TIMEOUT
    ) -> list[str]:
        """Until the pane shows the text `want` (or `want(rows)` is true); returns its rows."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            pane = await self.pane()
            rows = pane.split("\n")
            if want in pane if isinstance(want, str) else want(rows):
                return rows
            if loop.time() > deadline:
                raise AssertionError(f"{what or repr(want)} not shown in tmux; pane:\n{pane}")
            await asyncio.sleep(0.05)
