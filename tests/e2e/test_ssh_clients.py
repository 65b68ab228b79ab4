"""Every common SSH client gets in: OpenSSH (and which key exchange it gets), Dropbear's dbclient and PuTTY's plink.

dbclient sends a guessed first key-exchange packet (RFC 4253 section 7.1) for its own first algorithm; the server
lists curve25519-sha256 first so that guess is right (a wrong one got it dropped right after key exchange), while
the client's order still decides, so OpenSSH keeps the post-quantum mlkem768x25519-sha256.

PuTTY's plink, run interactively, stops at "Access granted. Press Return to begin session." after every login,
keyless or with a key: its anti-spoofing pause, which the server cannot avoid (`plink -no-antispoof` skips it; the
PuTTY window marks trusted text instead and does not pause). The PTY test presses Return when it is asked.
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path
from typing import Any

import asyncssh.connection
import pytest

from dixit_tui.ssh.server import FULL, KEX_ALGS, Limits
from tests.e2e.harness import HOST, running_server, wait_for
from tests.e2e.openssh import SSH, Tmux, needs_ssh, needs_tmux, run, ssh_options

DBCLIENT = shutil.which("dbclient")
PLINK = shutil.which("plink")

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60), pytest.mark.same_on_two_workers]

needs_dbclient = pytest.mark.skipif(
    DBCLIENT is None, reason="Dropbear's client (dbclient) is not installed: apt-get install dropbear-bin"
)
needs_plink = pytest.mark.skipif(PLINK is None, reason="PuTTY's plink is not installed: apt-get install putty-tools")


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


async def plays_in_tmux(tmp_path: Path, command: list[str], name: str, *, begin: str | None = None) -> None:
    """`command` (a client logging in as `name`) in a 100x30 tmux pane, with a throwaway HOME: the placeholder app's
    welcome and size, a lone Esc, and q with exit status 0. `begin`: what the client shows before the session
    begins (Return goes on)."""
    status = tmp_path / "status"
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    shell = f"HOME={shlex.quote(str(home))} {shlex.join(command)}; echo $? > {shlex.quote(str(status))}; sleep 30"
    async with Tmux(tmp_path) as tmux:
        await tmux.start(shell)
        if begin is not None:
            await tmux.wait(begin)
            await tmux.keys("Enter")
        await tmux.wait(f"Welcome, {name}")
        await tmux.wait("terminal 100x30")
        await tmux.keys("Escape")
        await tmux.wait("Esc pressed 1 times")
        await tmux.keys("q")
        await wait_for(lambda: status.exists() and status.read_text().strip() != "", timeout=10)
        assert status.read_text().strip() == "0"


# ---- OpenSSH: the post-quantum key exchange is still chosen ------------------------------------------------------


@needs_ssh
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
        await plays_in_tmux(tmp_path, dbclient_command(server.port, "dora", "-t"), "dora")


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
        # plink's own pause first (see the module's docstring)
        await plays_in_tmux(tmp_path, command, "pia", begin="Press Return to begin session")


@needs_ssh
async def test_a_refused_openssh_client_is_told_why(tmp_path: Path) -> None:
    assert SSH is not None
    async with running_server(tmp_path, limits=Limits(max_connections=0)) as server:
        for _ in range(5):  # (closing too soon resets the connection before OpenSSH reads the reason: not always)
            code, _, err = await run(SSH, *ssh_options(server.port), f"kim@{HOST}", "version")
            assert code == 255
            assert FULL in err, err
