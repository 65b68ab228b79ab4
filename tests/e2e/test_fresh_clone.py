"""A fresh `git clone` serves with the README's first command, untouched, under the usual umask (022).

The clone's committed keys/ folder is 0755 after the clone; the server must tighten it, create a 0600 key, and
answer the real OpenSSH client. The README runs `./dev serve`, which builds a venv and runs `dixit-tui serve`; here
the current interpreter runs the clone's own code (`python -m dixit_tui serve`, cwd = the clone) with the defaults
for keys and data, on a free loopback port instead of 0.0.0.0:2222 (tests listen on loopback only).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import stat
import sys
from pathlib import Path

import pytest

from dixit_tui import __version__
from dixit_tui.ssh.keys import HOST_KEY_NAME
from tests.e2e.harness import HOST
from tests.e2e.openssh import SSH, run, ssh_options

GIT = shutil.which("git")
REPO = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.timeout(90),
    pytest.mark.same_on_two_workers,
    pytest.mark.skipif(GIT is None or SSH is None, reason="needs git and the OpenSSH client (ssh)"),
    pytest.mark.skipif(not (REPO / ".git").exists(), reason="not run from a git checkout"),
]


def umask_022() -> None:
    os.umask(0o022)


async def test_a_fresh_clone_serves_with_the_readme_command_and_answers_openssh(tmp_path: Path) -> None:
    assert GIT is not None and SSH is not None
    clone = tmp_path / "dixit-tui"
    # The committed HEAD of this repository, as a new user gets it.
    cloning = await asyncio.create_subprocess_exec(
        GIT, "clone", "-q", "--no-hardlinks", str(REPO), str(clone),
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        preexec_fn=umask_022,
    )  # fmt: skip
    _, clone_err = await asyncio.wait_for(cloning.communicate(), 60)
    assert cloning.returncode == 0, clone_err.decode()
    keys = clone / "keys"
    assert (keys / "README.md").exists(), "keys/ is committed, so a clone has it"
    assert stat.S_IMODE(keys.stat().st_mode) == 0o755, "the umask 022 gives a clone's folders 0755"
    assert not (keys / HOST_KEY_NAME).exists()

    env = {**os.environ, "PYTHONPATH": str(clone)}
    env.pop("PYTHONSTARTUP", None)
    # The clone's code runs, not this checkout's.
    _, where, _ = await run_in(clone, env, sys.executable, "-c", "import dixit_tui; print(dixit_tui.__file__)")
    assert Path(where.strip()).is_relative_to(clone), where

    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "dixit_tui", "serve", "--host", HOST, "--port", "0",
        cwd=clone, env=env, preexec_fn=umask_022,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        assert server.stdout is not None and server.stderr is not None
        lines: list[str] = []
        while not (lines and lines[-1].startswith("listening on")):
            line = (await asyncio.wait_for(server.stdout.readline(), 30)).decode()
            if not line:  # the server ended: show why
                error = (await asyncio.wait_for(server.stderr.read(), 10)).decode()
                raise AssertionError(f"the server did not start in a fresh clone: {lines} {error}")
            lines.append(line)
        assert lines[0].startswith("host key fingerprint: SHA256:"), lines
        port = int(lines[-1].rsplit(":", 1)[1])

        code, out, err = await run(
            SSH, *ssh_options(port), "-o", "BatchMode=yes", "-o", "PubkeyAuthentication=no",
            "-T", f"newcomer@{HOST}", "version", timeout=20,
        )  # fmt: skip
        assert (code, out) == (0, f"dixit-tui {__version__} (protocol 1)\n"), err

        assert stat.S_IMODE((keys / HOST_KEY_NAME).stat().st_mode) == 0o600
        assert stat.S_IMODE(keys.stat().st_mode) == 0o700
        assert (clone / "data").is_dir(), "the default data folder, in the clone"
        server.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(server.wait(), 15) == 0
        log = (await server.stderr.read()).decode()
        assert "tightened host key folder keys from mode 0755 to 0700" in log, log
        assert " ERROR " not in log, log
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()


async def run_in(cwd: Path, env: dict[str, str], *args: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        *args, cwd=cwd, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 0, err.decode()
    return process.returncode, out.decode(), err.decode()
