"""Crash test: a real `dixit-tui serve` is SIGKILLed at random moments during bot games and restarted on its data
dir; nothing acknowledged may be lost and every player's view must be the one before the kill (the one action in
flight at the kill may or may not have happened). Also: a data dir holding someone else's file is refused.

KILLTEST_SEED=123 pytest tests/e2e/test_kill_restart.py -s   # another seed (the summary line names the seed used)
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from dixit_tui.store.lock import LOCK_NAME
from dixit_tui.store.sqlite import FILENAME
from tests.e2e.killtest import KillConfig, run_killtest, serve_once, write_behind_env

pytestmark = [pytest.mark.e2e, pytest.mark.same_on_two_workers]

SEED = int(os.environ.get("KILLTEST_SEED", "20240611"))


@pytest.mark.timeout(300)
async def test_kills_lose_nothing_acknowledged(tmp_path: Path) -> None:
    """50 SIGKILLs over two tables (3 and 5 players) that play game after game across the kills."""
    cfg = KillConfig(kills=50, tables=(3, 5), seed=SEED, max_seconds=240)
    report = await run_killtest(cfg, tmp_path)
    print("\n" + report.summary())
    assert report.ok, report.figures()
    assert report.kills == 50
    assert report.losses == 0 and report.mismatches == 0
    assert report.kills_inflight > 0 and report.kills_between > 0
    assert report.acknowledged > 50
    assert report.games_finished >= 1  # games ended and new tables were started between kills


@pytest.mark.timeout(120)
async def test_kills_while_snapshots_are_written(tmp_path: Path) -> None:
    """The same with a snapshot every 3 records, so kills land around snapshot writes and restores use them."""
    cfg = KillConfig(kills=12, tables=(4,), seed=SEED + 1, snapshot_every=3, max_seconds=100)
    report = await run_killtest(cfg, tmp_path)
    print("\n" + report.summary())
    assert report.ok, report.figures()
    assert report.snapshots >= 1


@pytest.mark.timeout(120)
async def test_the_harness_reports_a_store_that_acknowledges_before_writing(tmp_path: Path) -> None:
    """Self-check: with a store that writes each change only when the next one comes, the harness finds a loss."""
    env = write_behind_env(tmp_path / "inject")
    cfg = KillConfig(kills=6, tables=(3,), seed=SEED, env=env, max_seconds=100)
    report = await run_killtest(cfg, tmp_path / "run")
    assert not report.ok
    assert report.losses >= 1, report.figures()
    assert "LOSS" in report.failures[0]


def _foreign_sqlite(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    db.execute("INSERT INTO notes (text) VALUES ('my own data')")
    db.commit()
    db.close()


def _other_schema(path: Path) -> None:
    from dixit_tui.store.sqlite import APPLICATION_ID

    db = sqlite3.connect(path)
    db.execute("CREATE TABLE records (code TEXT, seq INTEGER, data TEXT)")
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    db.execute("PRAGMA user_version=99")
    db.commit()
    db.close()


def _garbage(path: Path) -> None:
    path.write_bytes(b"this is not a database\n" * 200)


@pytest.mark.timeout(90)
@pytest.mark.parametrize(
    ("make", "message"),
    [
        (_foreign_sqlite, "is not a dixit-tui database"),
        (_other_schema, "has schema version 99"),
        (_garbage, "damaged or not a database"),
    ],
    ids=["foreign-sqlite", "other-schema-version", "not-a-database"],
)
async def test_serve_refuses_a_data_dir_holding_another_file(
    tmp_path: Path, make: Callable[[Path], None], message: str
) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    path = data / FILENAME
    make(path)
    before = path.read_bytes()

    finished = await serve_once(tmp_path, data)

    assert finished.returncode != 0
    assert "listening on" not in finished.stdout
    assert message in finished.stderr, finished.stderr
    assert str(path) in finished.stderr  # names the file, so the operator knows what to move
    assert path.read_bytes() == before  # untouched
    assert sorted(p.name for p in data.iterdir()) == sorted([FILENAME, LOCK_NAME])  # no -wal/-shm beside it
