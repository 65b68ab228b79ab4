"""What the crash test's server stored by the end of a run: its records and snapshots, counted in Redis or in the
SQLite file (read-only), into the run's report."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from dixit_tui.bench.killtest_report import KillReport
from dixit_tui.store.sqlite import FILENAME as DB_FILENAME


def count_store(report: KillReport, redis_url: str | None, data_dir: Path) -> None:
    """The records and snapshots in Redis at `redis_url`, or else in the SQLite file in `data_dir` (if any)."""
    if redis_url:
        import redis

        from dixit_tui.store.redis_store import DEFAULT_PREFIX

        with contextlib.suppress(redis.RedisError), redis.Redis.from_url(redis_url) as client:
            report.records = sum(int(n) for n in client.hvals(f"{DEFAULT_PREFIX}seq"))
            report.snapshots = sum(1 for _ in client.scan_iter(f"{DEFAULT_PREFIX}snap:*"))
        return
    path = data_dir / DB_FILENAME
    if not path.exists():
        return
    with contextlib.suppress(sqlite3.Error):
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            (report.records,) = db.execute("SELECT COUNT(*) FROM records").fetchone()
            (report.snapshots,) = db.execute("SELECT COUNT(*) FROM snapshots").fetchone()
        finally:
            db.close()
