"""The real OpenSSH client against the server: in tmux (PTY, resize, Esc, q) and without a PTY (identity)."""

from __future__ import annotations

import shlex
from pathlib import Path

import asyncssh
import pytest

from dixit_tui.ssh.session_runner import SessionIdentity
from tests.e2e.harness import HOST, running_server, wait_for
from tests.e2e.openssh import SSH, Tmux, needs_ssh, needs_tmux, run, ssh_options

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60), needs_ssh, pytest.mark.same_on_two_workers]


@needs_tmux
async def test_openssh_in_tmux_shows_resizes_and_quits_with_0(tmp_path: Path) -> None:
    assert SSH is not None
    async with running_server(tmp_path) as server, Tmux(tmp_path) as tmux:
        status = tmp_path / "ssh-status"
        ssh = [SSH, "-tt", *ssh_options(server.port), "-o", "PubkeyAuthentication=no", f"carol@{HOST}"]
        await tmux.start(f"{shlex.join(ssh)}; echo $? > {shlex.quote(str(status))}")
        await tmux.wait("Welcome, carol")
        await tmux.wait("terminal 100x30")
        await tmux.resize(120, 40)
        await tmux.wait("terminal 120x40")
        await tmux.keys("Escape")
        await tmux.wait("Esc pressed 1 times")
        await tmux.keys("q")
        await wait_for(lambda: status.exists() and status.read_text().strip() != "", timeout=10)
        assert status.read_text().strip() == "0"


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
