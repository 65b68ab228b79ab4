"""A normal install works whole: the sdist a packager gets holds the docs, the licence, the unit file and the whole
test suite; the wheel built from it, installed in a fresh venv with the `bench` and `client` extras (what
`pipx install 'dixit-tui[bench,client]'` does), runs `dixit-tui bench --help`, validates a message against the
schema, and serves with a config file, on SQLite, without the redis package (`serve --redis` then says which
extra it needs).

It downloads the dependencies from the package index (or pip's cache), so it takes a while: about a minute.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from dixit_tui import __version__
from tests.e2e.json_client import run_command

REPO = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.timeout(600),
    # (it starts its own server from the wheel: the second pass of the e2e suite on two workers would only repeat it)
    pytest.mark.same_on_two_workers,
]


def sh(*args: str | Path, cwd: Path | None = None, timeout: float = 400) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DIXIT_TUI_", "PYTHON", "VIRTUAL_ENV"))}
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


async def test_the_sdist_and_a_wheel_installed_in_a_fresh_venv_work_whole(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    built = await asyncio.to_thread(sh, sys.executable, "-m", "build", "--outdir", dist, REPO)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    sdist = next(dist.glob("dixit_tui-*.tar.gz"))
    wheel = next(dist.glob("dixit_tui-*.whl"))
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    for needed in (
        "LICENSE",
        "README.md",
        "docs/operations.md",
        "docs/protocol.md",
        "contrib/systemd/dixit-tui.service",
        "contrib/dixit-tui.toml",
        "tests/conftest.py",
        "tests/e2e/harness.py",
        "tests/redis_server.py",
    ):
        assert needed in names, f"the sdist lacks {needed}"
    assert not any("__pycache__" in name for name in names)

    venv = tmp_path / "venv"
    made = await asyncio.to_thread(sh, sys.executable, "-m", "venv", venv)
    assert made.returncode == 0, made.stderr
    installed = await asyncio.to_thread(sh, venv / "bin" / "pip", "install", "-q", f"{wheel}[bench,client]")
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    dixit = venv / "bin" / "dixit-tui"

    helped = await asyncio.to_thread(sh, dixit, "bench", "--help", cwd=tmp_path)
    assert helped.returncode == 0 and helped.stdout.startswith("usage: dixit-tui bench"), helped
    checked = await asyncio.to_thread(
        sh,
        venv / "bin" / "python",
        "-c",
        "import pyte, dixit_tui, sys\n"
        "from dixit_tui.protocol.schema import validate_message\n"
        "validate_message({'cmd': 'vote', 'slots': [4]})\n"
        "try:\n    import redis\nexcept ImportError:\n    pass\nelse:\n    sys.exit('redis is installed')\n"
        "print(dixit_tui.__file__)",
        cwd=tmp_path,
    )
    assert checked.returncode == 0, checked
    assert checked.stdout.strip().startswith(str(venv)), "the wheel's code runs, not the checkout's"
    refused = await asyncio.to_thread(sh, dixit, "serve", "--redis", "redis://127.0.0.1:1/0", cwd=tmp_path)
    assert refused.returncode == 2 and "pip install 'dixit-tui[redis]'" in refused.stderr, refused

    home = tmp_path / "host"
    home.mkdir()
    (home / "dixit.toml").write_text('host = "127.0.0.1"\nport = 0\ndata-dir = "state"\n[limits]\nmax_tables = 5\n')
    server = await asyncio.create_subprocess_exec(
        dixit, "serve", "--config", "dixit.toml", cwd=home, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        assert server.stdout is not None and server.stderr is not None
        line = ""
        while not line.startswith("listening on"):
            line = (await asyncio.wait_for(server.stdout.readline(), 30)).decode()
            assert line, (await server.stderr.read()).decode()
        port = int(line.rsplit(":", 1)[1])
        assert await run_command(port, "version") == (0, f"dixit-tui {__version__} (protocol 1)\n")
        server.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(server.wait(), 15) == 0
        log = (await server.stderr.read()).decode()
        assert f"config file: {home / 'dixit.toml'}; data folder {home / 'state'}" in log, log
        assert sorted(p.name for p in home.iterdir()) == ["dixit.toml", "state"], "everything in the data folder"
        assert (home / "state" / "keys" / "ssh_host_ed25519_key").exists()
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()
