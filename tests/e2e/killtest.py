"""Crash-test helpers for the e2e tests: the kill/restart harness (it lives in `dixit_tui.bench.killtest*`, so the
benchmark `python -m dixit_tui.bench.killtest` runs the very same code) plus what only tests need: the server
started once and read to the end, and a fault injected into the server to prove the harness notices losses.

    report = await run_killtest(KillConfig(kills=50, seed=7), tmp_path)
    assert report.ok, report.figures()
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from pathlib import Path

from dixit_tui.bench.killtest import run_killtest
from dixit_tui.bench.killtest_client import Client
from dixit_tui.bench.killtest_config import KillConfig
from dixit_tui.bench.killtest_failure import KillTestFailure
from dixit_tui.bench.killtest_harness import KillTest
from dixit_tui.bench.killtest_report import KillReport
from dixit_tui.bench.killtest_server import KillTestServer
from dixit_tui.bench.killtest_views import model_message, project
from dixit_tui.bench.server import HOST, serve_argv


@dataclass
class Finished:
    returncode: int
    stdout: str
    stderr: str


async def serve_once(workdir: Path, data_dir: Path, *, timeout: float = 30.0) -> Finished:
    """Run `dixit-tui serve` on `data_dir` and expect it to exit by itself (it refused to start); kill it otherwise."""
    keys = workdir / "keys"
    process = await asyncio.create_subprocess_exec(
        *serve_argv(keys, data_dir),
        cwd=workdir,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode is not None
    return Finished(process.returncode, out.decode(errors="replace"), err.decode(errors="replace"))


# A store that acknowledges before it writes: each append is held back until the next one, so whatever was
# committed last before a kill is gone. Only for proving that the harness reports such a loss.
_WRITE_BEHIND = """\
import os
if os.environ.get("DIXIT_KILLTEST_FAULT") == "write-behind":
    from dixit_tui.store import sqlite as _sqlite

    _append, _held = _sqlite.SqliteStore.append, []

    async def append(self, code, records):
        held, _held[:] = list(_held), [(code, list(records))]
        for c, r in held:
            await _append(self, c, r)

    _sqlite.SqliteStore.append = append
"""


def write_behind_env(folder: Path) -> dict[str, str]:
    """An environment in which the server's store writes each change only when the next one comes."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sitecustomize.py").write_text(_WRITE_BEHIND)
    path = os.pathsep.join(p for p in (str(folder), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, "DIXIT_KILLTEST_FAULT": "write-behind"}


__all__ = [
    "HOST",
    "Client",
    "Finished",
    "KillConfig",
    "KillReport",
    "KillTest",
    "KillTestFailure",
    "KillTestServer",
    "model_message",
    "project",
    "run_killtest",
    "serve_argv",
    "serve_once",
    "write_behind_env",
]
