"""The real lobby through the real OpenSSH client in tmux: the welcome line, a resize that changes the layout, a lone
Esc, and `q` with exit status 0. The server is the one `dixit-tui serve` runs, on 127.0.0.1 with a port from the OS.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shlex
import shutil
from pathlib import Path

import pytest

from dixit_tui.ssh.serve import build_app_factory, build_command_handler, build_coordinator
from tests.e2e.harness import HOST, running_server, wait_for

SSH = shutil.which("ssh")
TMUX = shutil.which("tmux")

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.timeout(60),
    pytest.mark.skipif(SSH is None, reason="the OpenSSH client (ssh) is not installed"),
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed"),
]


def ssh_options(port: int) -> list[str]:
    """No user or system config, no agent, no known_hosts: nothing from this machine leaks in."""
    options = {
        "StrictHostKeyChecking": "no",
        "UserKnownHostsFile": "/dev/null",
        "BatchMode": "no",
        "LogLevel": "ERROR",
        "IdentityAgent": "none",
        "IdentitiesOnly": "yes",
        "PubkeyAuthentication": "no",
        "ConnectTimeout": "5",
    }
    return ["-F", "/dev/null", "-p", str(port), *(f"-o{name}={value}" for name, value in options.items())]


async def run(*args: str, timeout: float = 10.0) -> tuple[int, str]:
    """Run a command without blocking the event loop (the server lives in it): (status, stdout)."""
    process = await asyncio.create_subprocess_exec(
        *args, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    try:
        out, _ = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    assert process.returncode is not None
    return process.returncode, out.decode(errors="replace")


class Tmux:
    """One tmux server on its own socket, one session "dixit" running a command."""

    def __init__(self, socket: Path) -> None:
        self.base = [str(TMUX), "-S", str(socket), "-f", "/dev/null"]

    async def __call__(self, *args: str) -> str:
        code, out = await run(*self.base, *args)
        assert code == 0, out
        return out

    async def pane(self) -> list[str]:
        """The visible pane, one string per row (trailing blanks cut by tmux)."""
        return (await self("capture-pane", "-p", "-t", "dixit")).split("\n")

    async def wait(self, check: object, what: str, timeout: float = 15.0) -> list[str]:
        """Until `check(rows)` is true; returns the rows."""
        assert callable(check)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not check(rows := await self.pane()):
            if loop.time() > deadline:
                raise AssertionError(f"{what} not shown in tmux; pane:\n" + "\n".join(rows))
            await asyncio.sleep(0.05)
        return rows


def box_width(rows: list[str]) -> int:
    """The width of the lobby's "Open tables" box, from its top border."""
    top = next(row for row in rows if "╭─ Open tables" in row)
    return len(top.rstrip())


def footer_row(rows: list[str]) -> int:
    return next(i for i, row in enumerate(rows) if "q Quit" in row)


async def test_openssh_in_tmux_real_lobby_resizes_and_quits_with_0(tmp_path: Path) -> None:
    ns = argparse.Namespace(deck=[], allow_seeded_tables=True, disconnect_grace=60.0, host=HOST, port=0)
    coord = build_coordinator(ns)
    factory, handler = build_app_factory(ns, coord), build_command_handler(ns, coord)
    async with running_server(tmp_path, factory, command_handler=handler) as server:
        status = tmp_path / "ssh-status"
        ssh = [str(SSH), "-tt", *ssh_options(server.port), f"carol@{HOST}"]
        shell = f"{shlex.join(ssh)}; echo $? > {shlex.quote(str(status))}"
        tmux = Tmux(tmp_path / "tmux.sock")
        await tmux("new-session", "-d", "-s", "dixit", "-x", "100", "-y", "30", shell)
        try:
            rows = await tmux.wait(lambda r: any("Welcome, carol!" in row for row in r), "the welcome line")
            rows = await tmux.wait(lambda r: any("q Quit" in row for row in r), "the footer")
            assert box_width(rows) == 100
            assert footer_row(rows) == 29
            assert any("No tables yet: press c to create one." in row for row in rows)
            assert any("No SSH key?" in row for row in rows)  # a keyless guest is told about reconnect codes

            await tmux("resize-window", "-t", "dixit", "-x", "120", "-y", "40")
            rows = await tmux.wait(lambda r: any("╭─ Open tables" in row and len(row) == 120 for row in r), "resize")
            await tmux.wait(lambda r: len(r) >= 40 and "q Quit" in r[39], "the footer on row 40")

            # A lone Esc through a real terminal: the create dialog opens and closes again.
            await tmux("send-keys", "-t", "dixit", "c")
            await tmux.wait(lambda r: any("Create a table" in row for row in r), "the create dialog")
            await tmux("send-keys", "-t", "dixit", "Escape")
            await tmux.wait(lambda r: not any("Create a table" in row for row in r), "the dialog to close")

            await tmux("send-keys", "-t", "dixit", "q")
            await wait_for(lambda: status.exists() and status.read_text().strip() != "", timeout=15)
            assert status.read_text().strip() == "0"
            await wait_for(lambda: server.session_count == 0, timeout=10)
        finally:
            with contextlib.suppress(Exception):
                await run(*tmux.base, "kill-server", timeout=5)
