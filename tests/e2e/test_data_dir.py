"""One data folder, one server: `serve --data-dir D` keeps its games and its host key in D, says which config file and
folder it uses, and a second server on the same folder is refused while the first runs (a lock, dropped when the
first stops)."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import pytest

from dixit_tui.ssh.keys import HOST_KEY_NAME
from dixit_tui.store.lock import LOCK_NAME, DataDirLock
from dixit_tui.store.sqlite import FILENAME
from tests.e2e.harness import HOST, PtyClient

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60), pytest.mark.same_on_two_workers]


async def start(cwd: Path, *args: str, env: dict[str, str] | None = None) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "dixit_tui", "serve", "--host", HOST, "--port", "0", *args,
        cwd=cwd, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip


async def listening_port(process: asyncio.subprocess.Process) -> int:
    assert process.stdout is not None
    while True:
        line = (await asyncio.wait_for(process.stdout.readline(), 20)).decode()
        assert line, "the server ended before listening"
        if line.startswith("listening on"):
            return int(line.rsplit(":", 1)[1])


async def stop(process: asyncio.subprocess.Process) -> str:
    assert process.stderr is not None
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(process.wait(), 15) == 0
    return (await process.stderr.read()).decode()


async def test_a_second_server_on_the_same_data_folder_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "state"
    config = tmp_path / "dixit.toml"
    config.write_text('data-dir = "state"\n[limits]\nlogin_timeout = 20\n')
    first = await start(tmp_path, "--config", str(config))
    try:
        port = await listening_port(first)
        client = await PtyClient.connect(port, "dora")
        await client.wait_for_text("Welcome, dora")
        await client.close()
        assert (data / FILENAME).exists() and (data / "keys" / HOST_KEY_NAME).exists(), "games and key in one place"
        assert not (tmp_path / "keys").exists() and not (tmp_path / "data").exists()

        second = await start(tmp_path, "--data-dir", str(data), "--keys-dir", str(tmp_path / "other-keys"))
        out, err = await asyncio.wait_for(second.communicate(), 30)
        assert second.returncode == 1, (out, err)
        assert f"another dixit-tui server (pid {first.pid}) is using the data folder {data}" in err.decode(), err
        assert b"listening on" not in out
        assert not (tmp_path / "other-keys").exists(), "refused before making anything"
        log = await stop(first)
        assert f"config file: {config}; data folder {data}; host key folder {data / 'keys'}" in log, log
    finally:
        if first.returncode is None:
            first.kill()
            await first.wait()
    DataDirLock.hold(data).release()  # the first server's lock went with it
    assert (data / LOCK_NAME).exists()
