"""`dixit-tui serve` as a real process: startup lines, a session, SIGTERM -> exit 0; a loose folder is tightened,
a loose key file -> exit 1."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import pytest
import textual

from dixit_tui.ssh.keys import HOST_KEY_NAME
from dixit_tui.textual_host.check import installed_internals
from dixit_tui.textual_host.internals import INTERNALS
from tests.e2e.harness import HOST, PtyClient

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60), pytest.mark.same_on_two_workers]


async def start_serve(tmp_path: Path, keys: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "dixit_tui",
        "serve",
        "--host",
        HOST,
        "--port",
        "0",
        "--keys-dir",
        str(keys),
        cwd=tmp_path,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def test_serve_prints_fingerprint_and_port_and_stops_on_sigterm(tmp_path: Path) -> None:
    process = await start_serve(tmp_path, tmp_path / "keys")
    try:
        assert process.stdout is not None
        first = (await asyncio.wait_for(process.stdout.readline(), 20)).decode()
        checked = (await asyncio.wait_for(process.stdout.readline(), 5)).decode()
        second = (await asyncio.wait_for(process.stdout.readline(), 5)).decode()
        assert first.startswith("host key fingerprint: SHA256:"), first
        # the private parts of Textual (and asyncssh, asyncio) the server relies on, checked at start
        assert checked == installed_internals().summary() + "\n", checked
        assert checked.startswith(f"Textual {textual.__version__}: {len(INTERNALS)} internals checked, all match;")
        assert second.startswith(f"listening on {HOST}:"), second
        port = int(second.rsplit(":", 1)[1])

        client = await PtyClient.connect(port, "dora")
        await client.wait_for_text("Welcome, dora")
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 10) == 0
        await client.wait_closed(timeout=5)  # the live session was ended by the shutdown
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_serve_tightens_a_loose_key_folder_and_refuses_a_loose_key_file(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    keys.mkdir()
    keys.chmod(0o755)
    process = await start_serve(tmp_path, keys)
    try:
        assert process.stdout is not None and process.stderr is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 20)).decode()
        assert line.startswith("host key fingerprint: SHA256:"), line
        line = (await asyncio.wait_for(process.stdout.readline(), 5)).decode()
        assert line.startswith("Textual "), line
        line = (await asyncio.wait_for(process.stdout.readline(), 5)).decode()
        assert line.startswith(f"listening on {HOST}:"), line
        assert (keys.stat().st_mode & 0o777, (keys / HOST_KEY_NAME).stat().st_mode & 0o777) == (0o700, 0o600)
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 10) == 0
        assert f"tightened host key folder {keys} from mode 0755 to 0700" in (await process.stderr.read()).decode()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()

    (keys / HOST_KEY_NAME).chmod(0o644)
    process = await start_serve(tmp_path, keys)
    _, err = await asyncio.wait_for(process.communicate(), 20)
    assert process.returncode == 1
    assert f"chmod 600 {keys / HOST_KEY_NAME}" in err.decode()
