"""Every common SSH client gets in: OpenSSH (and which key exchange it gets), Dropbear's dbclient and PuTTY's plink.

dbclient sends a guessed first key-exchange packet (RFC 4253 section 7.1) for its own first algorithm; the server
lists curve25519-sha256 first so that guess is right (a wrong one got it dropped right after key exchange), while
the client's order still decides, so OpenSSH keeps the post-quantum mlkem768x25519-sha256.

PuTTY's plink, run interactively, stops at "Access granted. Press Return to begin session." after every login,
keyless or with a key: its anti-spoofing pause, which the server cannot avoid (`plink -no-antispoof` skips it; the
PuTTY window marks trusted text instead and does not pause). The PTY test presses Return when it is asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import shlex
import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncssh.connection
import pytest

from dixit_tui.ssh.server import FULL, KEX_ALGS, Limits
from tests.e2e.harness import HOST, running_server, wait_for
from tests.e2e.test_openssh_tmux import run, ssh_options

SSH = shutil.which("ssh")
DBCLIENT = shutil.which("dbclient")
PLINK = shutil.which("plink")
TMUX = shutil.which("tmux")

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60)]

needs_dbclient = pytest.mark.skipif(
    DBCLIENT is None, reason="Dropbear's client (dbclient) is not installed: apt-get install dropbear-bin"
)
needs_plink = pytest.mark.skipif(PLINK is None, reason="PuTTY's plink is not installed: apt-get install putty-tools")
needs_tmux = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def dbclient_command(port: int, user: str, *extra: str) -> list[str]:
    assert DBCLIENT is not None
    # -y accepts the host key (added to ~/.ssh/known_hosts of a throwaway HOME, see `client_env`)
    return [DBCLIENT, "-y", "-p", str(port), *extra, f"{user}@{HOST}"]


def plink_command(port: int, fingerprint: str, user: str, *extra: str) -> list[str]:
    assert PLINK is not None
    return [PLINK, "-ssh", "-P", str(port), "-hostkey", fingerprint, "-noagent", *extra, f"{user}@{HOST}"]


async def run_in(home: Path, *args: str) -> tuple[int, str, str]:
    """Run a client with HOME set to a throwaway folder (dbclient writes known_hosts, plink its settings)."""
    command = ["env", f"HOME={home}", *args]
    return await run(*command, timeout=20)


async def pane_session(
    tmp_path: Path, command: list[str]
) -> tuple[Callable[[str], Awaitable[None]], Callable[[str], Awaitable[str]], Callable[[], Awaitable[None]], Path]:
    """A tmux session running `command` in a 100x30 pane; returns (wait_for_pane, send_keys, close, status file)."""
    assert TMUX is not None
    socket = tmp_path / "tmux.sock"
    status = tmp_path / "status"
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    shell = f"HOME={shlex.quote(str(home))} {shlex.join(command)}; echo $? > {shlex.quote(str(status))}; sleep 30"
    tmux = [TMUX, "-S", str(socket), "-f", "/dev/null"]
    code, _, err = await run(*tmux, "new-session", "-d", "-s", "dixit", "-x", "100", "-y", "30", shell)
    assert code == 0, err

    async def pane() -> str:
        _, out, _ = await run(*tmux, "capture-pane", "-p", "-t", "dixit")
        return out

    async def wait_for_pane(text: str) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 15
        while text not in (screen := await pane()):
            if loop.time() > deadline:
                raise AssertionError(f"{text!r} not shown in tmux; pane:\n{screen}")
            await asyncio.sleep(0.05)

    async def send(keys: str) -> str:
        await run(*tmux, "send-keys", "-t", "dixit", keys)
        return await pane()

    async def close() -> None:
        with contextlib.suppress(Exception):
            await run(*tmux, "kill-server", timeout=5)

    return wait_for_pane, send, close, status


# ---- OpenSSH: the post-quantum key exchange is still chosen ------------------------------------------------------


@pytest.mark.skipif(SSH is None, reason="the OpenSSH client (ssh) is not installed")
async def test_openssh_chooses_the_key_exchange_by_its_own_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read on the server: the exchange is the client's first choice the server has (mlkem768x25519 for an OpenSSH
    that has it), although the server lists curve25519 first."""
    assert SSH is not None
    _, config, _ = await run(SSH, "-F", "/dev/null", "-G", HOST)
    client_order = next(line.split()[1] for line in config.splitlines() if line.startswith("kexalgorithms ")).split(",")
    expected = next(alg for alg in client_order if alg in KEX_ALGS)
    if "mlkem768x25519-sha256" in client_order:
        assert expected == "mlkem768x25519-sha256"
    chosen: list[bytes] = []
    real_get_kex = asyncssh.connection.get_kex

    def recording_get_kex(conn: Any, alg: bytes) -> Any:
        if conn.is_server():
            chosen.append(alg)
        return real_get_kex(conn, alg)

    monkeypatch.setattr(asyncssh.connection, "get_kex", recording_get_kex)
    reversed_order = "curve25519-sha256@libssh.org,curve25519-sha256"
    async with running_server(tmp_path) as server:
        for extra in ([], ["-o", f"KexAlgorithms={reversed_order}"]):
            options = [*ssh_options(server.port), "-o", "PubkeyAuthentication=no", *extra]
            code, _, err = await run(SSH, *options, f"kim@{HOST}", "x")
            assert code == 2, err  # the placeholder server's answer to a command: how to connect
    print(f"OpenSSH's default key exchange with this server: {chosen[0].decode()}")
    assert chosen == [expected.encode(), b"curve25519-sha256@libssh.org"]


# ---- Dropbear's dbclient -------------------------------------------------------------------------------------------


@needs_dbclient
async def test_dbclient_runs_a_command(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        code, out, err = await run_in(tmp_path, *dbclient_command(server.port, "dora"), "version")
    assert code == 2 and "needs a terminal" in err, (code, out, err)


@needs_dbclient
@needs_tmux
async def test_dbclient_plays_in_a_terminal(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        wait_for_pane, send, close, status = await pane_session(tmp_path, dbclient_command(server.port, "dora", "-t"))
        try:
            await wait_for_pane("Welcome, dora")
            await wait_for_pane("terminal 100x30")
            await send("Escape")
            await wait_for_pane("Esc pressed 1 times")
            await send("q")
            await wait_for(lambda: status.exists() and status.read_text().strip() != "", timeout=10)
            assert status.read_text().strip() == "0"
        finally:
            await close()


# ---- PuTTY's plink -------------------------------------------------------------------------------------------------


@needs_plink
async def test_plink_runs_a_command(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        command = plink_command(server.port, server.host_key_fingerprint, "pia", "-batch")
        code, out, err = await run_in(tmp_path, *command, "version")
    assert code == 2 and "needs a terminal" in err, (code, out, err)


@needs_plink
@needs_tmux
async def test_plink_plays_in_a_terminal(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        command = plink_command(server.port, server.host_key_fingerprint, "pia", "-t")
        wait_for_pane, send, close, status = await pane_session(tmp_path, command)
        try:
            await wait_for_pane("Press Return to begin session")  # plink's own pause (see the module's docstring)
            await send("Enter")
            await wait_for_pane("Welcome, pia")
            await wait_for_pane("terminal 100x30")
            await send("Escape")
            await wait_for_pane("Esc pressed 1 times")
            await send("q")
            await wait_for(lambda: status.exists() and status.read_text().strip() != "", timeout=10)
            assert status.read_text().strip() == "0"
        finally:
            await close()


@pytest.mark.skipif(SSH is None, reason="the OpenSSH client (ssh) is not installed")
async def test_a_refused_openssh_client_is_told_why(tmp_path: Path) -> None:
    assert SSH is not None
    async with running_server(tmp_path, limits=Limits(max_connections=0)) as server:
        for _ in range(5):  # (closing too soon resets the connection before OpenSSH reads the reason: not always)
            code, _, err = await run(SSH, *ssh_options(server.port), f"kim@{HOST}", "version")
            assert code == 255
            assert FULL in err, err
