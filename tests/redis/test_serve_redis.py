"""`dixit-tui serve --redis URL`: the real server keeps its tables in a real redis-server. SIGKILLs of the server
lose nothing acknowledged (the kill harness, unchanged, against Redis: its server is two workers by default on two
cores), and an unreachable Redis is a clear message. Several servers on one Redis share the tables:
test_workers.py."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from tests.e2e.killtest import KillConfig, run_killtest, serve_argv
from tests.redis_server import RedisServer

pytestmark = [pytest.mark.e2e]

SEED = int(os.environ.get("KILLTEST_SEED", "20240611"))


@pytest.mark.timeout(300)
async def test_server_kills_lose_nothing_with_the_tables_in_redis(redis_server: RedisServer, tmp_path: Path) -> None:
    cfg = KillConfig(kills=20, tables=(3, 4), seed=SEED, max_seconds=240, redis=redis_server.url, snapshot_every=5)
    report = await run_killtest(cfg, tmp_path)
    print("\n" + report.summary())
    assert report.ok, report.figures()
    assert report.kills == 20 and report.losses == 0 and report.mismatches == 0
    assert report.acknowledged > 20 and report.records > 0 and report.snapshots >= 1
    assert not (tmp_path / "data").exists() or not any((tmp_path / "data").iterdir())  # nothing went to SQLite


# 25 worker kills (each a new worker process): with this seed 13 between actions, 9 with an action in flight and 3
# during a reconnect wave; 87 actions acknowledged, 89 views compared, 4 games started (50 kills: twice the time)
WORKER_KILLS = 25


@pytest.mark.timeout(400)
async def test_worker_kills_lose_nothing_and_the_other_workers_players_play_on(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    cfg = KillConfig(
        kills=WORKER_KILLS,
        tables=(3, 4),
        seed=SEED,
        max_seconds=360,
        redis=redis_server.url,
        workers=2,
        kill_workers=True,
    )
    report = await run_killtest(cfg, tmp_path)
    print("\n" + report.summary())
    assert report.ok, report.figures()
    assert report.kills == WORKER_KILLS and report.losses == 0 and report.mismatches == 0
    assert report.kills_between > 0 and report.kills_inflight > 0  # both kinds of moment were hit
    assert report.acknowledged > WORKER_KILLS and report.views_checked > WORKER_KILLS and report.games_started >= 1


@pytest.mark.timeout(120)
async def test_serve_says_so_when_redis_cannot_be_reached(tmp_path: Path) -> None:
    from tests.redis_server import free_port

    url = f"redis://127.0.0.1:{free_port()}/0"
    process = await asyncio.create_subprocess_exec(
        *serve_argv(tmp_path / "keys", tmp_path / "data", redis=url),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 1
    assert f"cannot reach Redis at {url}" in err.decode()
    assert b"listening on" not in out and "Traceback" not in err.decode()


@pytest.mark.timeout(60)
async def test_workers_without_redis_is_a_clear_refusal(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        *serve_argv(tmp_path / "keys", tmp_path / "data"),
        "--workers",
        "2",
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 50)
    assert process.returncode == 2, "a usage error"
    assert "--workers needs --redis" in err.decode() and b"listening on" not in out
