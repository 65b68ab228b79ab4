"""`dixit-tui serve` checks the private parts of Textual it relies on when it starts, and says plainly what differs:
a real server process, run with a modified copy of Textual ahead of the installed one."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sys
from pathlib import Path

import pytest
import textual

from dixit_tui.textual_host import internals
from dixit_tui.textual_host.check import LIBRARIES, package_root
from tests.e2e.harness import HOST

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60), pytest.mark.same_on_two_workers]


def modified_textual(tmp_path: Path, module: str, old: str, new: str) -> Path:
    """A whole copy of the installed Textual with one edit, in a folder to put ahead of it on PYTHONPATH."""
    site = tmp_path / "site"
    shutil.copytree(package_root("textual") / "textual", site / "textual", ignore=shutil.ignore_patterns("__pycache__"))
    path = site / module
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return site


async def serve(tmp_path: Path, site: Path) -> asyncio.subprocess.Process:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))}
    return await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "dixit_tui", "serve", "--host", HOST, "--port", "0", "--data-dir", str(tmp_path)),
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def test_serve_warns_of_a_changed_part_and_serves(tmp_path: Path) -> None:
    parse = "    def _parse_extended_key(self, sequence: str) -> list[events.Key] | None:\n"
    site = modified_textual(tmp_path, "textual/_xterm_parser.py", parse, parse + "        # a change\n")
    process = await serve(tmp_path, site)
    try:
        assert process.stdout is not None and process.stderr is not None
        lines: list[str] = []
        while not (lines and lines[-1].startswith("listening on")):
            line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
            assert line, f"serve ended: {lines} {(await process.stderr.read()).decode()}"
            lines.append(line)
        version, count, checked = textual.__version__, len(internals.INTERNALS), LIBRARIES[0].checked()
        assert lines[1].startswith(f"Textual {version}: {count} internals checked, 1 differ from {checked}"), lines
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 15) == 0
        log = (await process.stderr.read()).decode()
        [warning] = [line for line in log.splitlines() if " WARNING " in line]
        assert "Textual internal XTermParser._parse_extended_key (textual/_xterm_parser.py) changed" in warning, log
        assert f"checked with Textual {checked} (its source: not there in" in warning  # (as before 8.2.7)
        assert f", installed {version};" in warning
        assert "dixit_tui/textual_host/parser.py relies on it" in warning
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_serve_does_not_start_when_a_part_is_gone(tmp_path: Path) -> None:
    site = modified_textual(
        tmp_path, "textual/_xterm_parser.py", "    def __init__(self, debug", "    def __init_gone__(self, debug"
    )
    process = await serve(tmp_path, site)
    try:
        assert await asyncio.wait_for(process.wait(), 30) == 1
        assert process.stdout is not None and process.stderr is not None
        assert not (await process.stdout.read()).decode()
        log = (await process.stderr.read()).decode()
        assert "Textual internal XTermParser.__init__ (textual/_xterm_parser.py) is gone" in log, log
        assert "not starting" in log and "--allow-textual-mismatch" in log
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
