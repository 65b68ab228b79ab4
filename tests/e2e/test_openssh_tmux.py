"""The real OpenSSH client against the server: in tmux (PTY, resize, Esc, q) and without a PTY (identity)."""

from __future__ import annotations

import asyncio
import contextlib
import shlex
import shutil
from pathlib import Path

import asyncssh
import pytest

from dixit_tui.ssh.session import SessionIdentity
from tests.e2e.harness import HOST, running_server, wait_for

SSH = shutil.which("ssh")
TMUX = shutil.which("tmux")

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.timeout(60),
    pytest.mark.skipif(SSH is None, reason="the OpenSSH client (ssh) is not installed"),
]


def ssh_options(port: int) -> list[str]:
    """No user or system config, no agent, no known_hosts: nothing from this machine leaks in."""
    return [
        "-F",
        "/dev/null",
        "-p",
        str(port),
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "BatchMode=no",
        "-o",
        "LogLevel=ERROR",
        "-o",
        "IdentityAgent=none",
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "ConnectTimeout=5",
    ]


async def run(*args: str, timeout: float = 10.0) -> tuple[int, str, str]:
    """Run a command without blocking the event loop (the server lives in it)."""
    process = await asyncio.create_subprocess_exec(
        *args,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    assert process.returncode is not None
    return process.returncode, out.decode(errors="replace"), err.decode(errors="replace")


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
async def test_openssh_in_tmux_shows_resizes_and_quits_with_0(tmp_path: Path) -> None:
    assert SSH is not None and TMUX is not None
    async with running_server(tmp_path) as server:
        socket = tmp_path / "tmux.sock"
        status = tmp_path / "ssh-status"
        ssh = [SSH, "-tt", *ssh_options(server.port), "-o", "PubkeyAuthentication=no", f"carol@{HOST}"]
        shell = f"{shlex.join(ssh)}; echo $? > {shlex.quote(str(status))}"
        tmux = [TMUX, "-S", str(socket), "-f", "/dev/null"]

        async def pane() -> str:
            _, out, _ = await run(*tmux, "capture-pane", "-p", "-t", "dixit")
            return out

        async def wait_for_pane(text: str, timeout: float = 10.0) -> None:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout
            while text not in (screen := await pane()):
                if loop.time() > deadline:
                    raise AssertionError(f"{text!r} not shown in tmux; pane:\n{screen}")
                await asyncio.sleep(0.05)

        code, _, err = await run(*tmux, "new-session", "-d", "-s", "dixit", "-x", "100", "-y", "30", shell)
        assert code == 0, err
        try:
            await wait_for_pane("Welcome, carol")
            await wait_for_pane("terminal 100x30")
            await run(*tmux, "resize-window", "-t", "dixit", "-x", "120", "-y", "40")
            await wait_for_pane("terminal 120x40")
            await run(*tmux, "send-keys", "-t", "dixit", "Escape")
            await wait_for_pane("Esc pressed 1 times")
            await run(*tmux, "send-keys", "-t", "dixit", "q")
            await wait_for(lambda: status.exists() and status.read_text().strip() != "", timeout=10)
            assert status.read_text().strip() == "0"
        finally:
            with contextlib.suppress(Exception):
                await run(*tmux, "kill-server", timeout=5)


async def test_openssh_identity_is_bound_only_to_a_proven_key(tmp_path: Path) -> None:
    """A client holding only someone's .pub can ask "would this key do?" but never becomes its owner."""
    assert SSH is not None

    async def whoami(
        identity: SessionIdentity,
        command: str | None,
        stdin: asyncssh.SSHReader[bytes],
        stdout: asyncssh.SSHWriter[bytes],
    ) -> int:
        stdout.write(f"{identity.username} {identity.key_fingerprint}\n".encode())
        return 0

    key = asyncssh.generate_private_key("ssh-ed25519")
    private = tmp_path / "id_ed25519"
    private.write_bytes(key.export_private_key())
    private.chmod(0o600)
    stolen = tmp_path / "victim.pub"
    stolen.write_bytes(key.export_public_key())

    async with running_server(tmp_path, command_handler=whoami) as server:
        options = ssh_options(server.port)
        code, out, err = await run(SSH, *options, "-i", str(private), "-T", f"erin@{HOST}", "whoami")
        assert (code, out) == (0, f"erin {key.get_fingerprint('sha256')}\n"), err

        code, out, err = await run(SSH, *options, "-v", "-i", str(stolen), "-T", f"mallory@{HOST}", "whoami")
        assert "Server accepts key" in err  # the query reached validate_public_key ...
        assert (code, out) == (0, "mallory None\n")  # ... but the login is keyless
