"""`dixit-tui killtest --start-redis`: the crash test on a redis-server it starts and stops itself, so the
benchmark's worker-kill run (docs/operations.md) is one command. A tiny run: two kills of a one-worker server."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.redis_server import needs_redis


@needs_redis
@pytest.mark.e2e
@pytest.mark.timeout(240)
def test_the_killtest_runs_on_a_redis_server_of_its_own_and_stops_it() -> None:
    command = [sys.executable, "-m", "dixit_tui.bench.killtest", "--start-redis", "--workers", "1"]
    done = subprocess.run(
        [*command, "--kills", "2", "--tables", "3", "--seed", "11"], capture_output=True, text=True, timeout=200
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    found = re.search(r"redis-server pid (\d+) at redis://127\.0\.0\.1:\d+/0 \(appendonly yes", done.stdout)
    assert found, done.stdout
    assert re.search(r"^kills\s+2 ", done.stdout, re.M) and re.search(r"^losses\s+0$", done.stdout, re.M)
    assert re.search(r"^store\s+[1-9]\d* records", done.stdout, re.M)  # the tables were kept in that Redis
    with pytest.raises(ProcessLookupError):
        os.kill(int(found.group(1)), 0)  # and it is gone


def test_killing_workers_needs_a_redis() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dixit_tui.bench.killtest", "--kill-workers", "--kills", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "--kill-workers needs --redis URL or --start-redis" in done.stderr
