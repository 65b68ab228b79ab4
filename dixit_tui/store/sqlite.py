"""The embedded SQLite store: WAL, synchronous=FULL, one connection on one worker thread (never the event loop)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from dixit_tui.store.base import (
    CODE_REUSE_AFTER,
    Record,
    StoreConflict,
    StoredTable,
    StoreError,
    archived_key,
    is_create,
    same_game,
)

APPLICATION_ID = 0x44495854  # "DIXT"
SCHEMA_VERSION = 2  # 2: the `tables` index (open or closed, when, finished or not); version 1 files are upgraded
FILENAME = "dixit.sqlite3"

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    code TEXT NOT NULL,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (code, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (
    code TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL
);
"""

# One row per stored game, under the same key as its records: the table's code, or its game id once the code was
# given to a new table. `closed_at` (epoch seconds) is NULL while the table is open; `over`: its game finished.
_TABLES = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    closed_at REAL,
    over INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tables_closed_at ON tables (closed_at);
CREATE TABLE IF NOT EXISTS results (
    code TEXT NOT NULL,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (code, seq)
);
"""


_MODERATION = """
CREATE TABLE IF NOT EXISTS moderation (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (kind, key)
)
"""


class SqliteStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dixit-store")
        self._db: sqlite3.Connection | None = None
        self._seq: dict[str, int] = {}  # the last record of each table this process wrote or read
        self.reuse_after = CODE_REUSE_AFTER  # seconds after its table closed that a code may be given out again
        self.clock: Callable[[], float] = time.time  # the coordinator's (the time a "closed" record carries)

    @classmethod
    async def open(cls, data_dir: Path) -> SqliteStore:
        """Open (or create) the store in `data_dir`; a foreign or damaged file raises StoreError, changing nothing."""
        store = cls(data_dir / FILENAME)
        try:
            await store._run(store._open)
        except BaseException:
            await store.close()
            raise
        return store

    def _open(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as err:
            raise StoreError(f"cannot create the data folder {self.path.parent}: {err.strerror}") from err
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as err:
            raise StoreError(f"cannot open {self.path}: {err}") from err
        try:
            if not fresh:
                self._check(db)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            if fresh:
                db.executescript(_SCHEMA + _TABLES)
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            else:
                self._upgrade(db)
            db.execute(_MODERATION)  # (added after schema version 1 was out: made in older files as well)
        except sqlite3.DatabaseError as err:
            db.close()
            raise StoreError(
                f"{self.path} is damaged or not a database ({err}). Move it aside to start afresh."
            ) from err
        except BaseException:
            db.close()
            raise
        self._db = db

    def _check(self, db: sqlite3.Connection) -> None:
        (app,) = db.execute("PRAGMA application_id").fetchone()
        if app != APPLICATION_ID:
            raise StoreError(f"{self.path} is not a dixit-tui database. Point --data-dir at another folder.")
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version not in (1, SCHEMA_VERSION):
            raise StoreError(f"{self.path} has schema version {version}; this server reads version {SCHEMA_VERSION}.")
        (status,) = db.execute("PRAGMA quick_check").fetchone()
        if status != "ok":
            raise StoreError(f"{self.path} is damaged ({status}). Restore a backup or move it aside.")

    def _upgrade(self, db: sqlite3.Connection) -> None:
        """A version 1 file gets the `tables` index, built from its records once (tables closed before count as
        closed now: their codes are given out again `reuse_after` seconds from now)."""
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version == SCHEMA_VERSION:
            return
        now = time.time()
        with db:
            db.execute("BEGIN IMMEDIATE")
            for statement in _TABLES.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(
                "INSERT OR IGNORE INTO results (code, seq, data) "
                "SELECT code, seq, data FROM records WHERE json_extract(data, '$.t') = 'result'"
            )
            db.execute(
                "INSERT OR IGNORE INTO tables (code, closed_at, over) "
                "SELECT code, CASE WHEN SUM(json_extract(data, '$.t') = 'closed') > 0 THEN ? END, "
                "SUM(data LIKE '%GameEnded%') > 0 FROM records GROUP BY code",
                (now,),
            )
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    async def _run(self, fn: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn)

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError("the store is closed")
        return self._db

    # --- the Store interface ---------------------------------------------------------------------------------

    async def append(self, code: str, records: Sequence[Record]) -> None:
        """Append and commit. A table's first record ("create") starts a new table under `code`: if a closed table
        still has that code, its game moves to its game id when it closed `reuse_after` seconds ago or more, and
        otherwise the code is taken (StoreConflict, nothing written)."""
        if not records:
            return
        texts = [json.dumps(r, separators=(",", ":")) for r in records]

        def write() -> None:
            db = self._conn()
            with db:
                db.execute("BEGIN IMMEDIATE")
                if is_create(records[0]):
                    self._claim(db, code)
                    start = 0
                else:
                    start = self._last(db, code)
                rows = [(code, start + i + 1, text) for i, text in enumerate(texts)]
                db.executemany("INSERT INTO records (code, seq, data) VALUES (?, ?, ?)", rows)
                kept = [row for row, record in zip(rows, records, strict=True) if record.get("t") == "result"]
                if kept:  # games' results outlive their games (the ratings are folded from them)
                    db.executemany("INSERT OR REPLACE INTO results (code, seq, data) VALUES (?, ?, ?)", kept)
                for record in records:
                    if is_create(record):
                        db.execute("INSERT OR REPLACE INTO tables (code, closed_at, over) VALUES (?, NULL, 0)", (code,))
                    elif record.get("t") == "closed":
                        db.execute(
                            "UPDATE tables SET closed_at = ?, over = ? WHERE code = ?",
                            (record.get("at", self.clock()), int(bool(record.get("over"))), code),
                        )
            self._seq[code] = start + len(records)

        await self._run(write)

    def _last(self, db: sqlite3.Connection, code: str) -> int:
        if code not in self._seq:
            (seq,) = db.execute("SELECT MAX(seq) FROM records WHERE code = ?", (code,)).fetchone()
            self._seq[code] = seq or 0
        return self._seq[code]

    def _claim(self, db: sqlite3.Connection, code: str) -> None:
        """`code` for a new table (in the write's transaction): free, or its closed game moves to its game id."""
        row = db.execute("SELECT closed_at FROM tables WHERE code = ?", (code,)).fetchone()
        if row is None and db.execute("SELECT 1 FROM records WHERE code = ? LIMIT 1", (code,)).fetchone() is None:
            return
        last = self._last(db, code)
        closed_at = row[0] if row is not None else None
        if closed_at is None or closed_at > self.clock() - self.reuse_after:
            raise StoreConflict(code, 0, last)
        first = db.execute("SELECT data FROM records WHERE code = ? ORDER BY seq LIMIT 1", (code,)).fetchone()
        key = archived_key(code, json.loads(first[0]) if first else {}, closed_at)
        for name in ("records", "snapshots", "tables", "results"):
            db.execute(f"UPDATE {name} SET code = ? WHERE code = ?", (key, code))  # (fixed names)
        self._seq.pop(code, None)

    async def snapshot(self, code: str, data: Record) -> None:
        seq = self._seq.get(code, 0)
        text = json.dumps(data, separators=(",", ":"))

        def write() -> None:
            db = self._conn()
            with db:
                db.execute("BEGIN IMMEDIATE")
                db.execute(
                    "INSERT INTO snapshots (code, seq, data) VALUES (?, ?, ?) "
                    "ON CONFLICT(code) DO UPDATE SET seq = excluded.seq, data = excluded.data",
                    (code, seq, text),
                )

        await self._run(write)

    async def load(self) -> list[StoredTable]:
        """The open tables (a closed table's records are not read)."""

        def read() -> list[StoredTable]:
            db = self._conn()
            tables = []
            for (code,) in db.execute("SELECT code FROM tables WHERE closed_at IS NULL ORDER BY code").fetchall():
                snap = db.execute("SELECT seq, data FROM snapshots WHERE code = ?", (code,)).fetchone()
                after = snap[0] if snap else 0
                table = StoredTable(code, json.loads(snap[1]) if snap else None)
                last = after
                for seq, data in db.execute(
                    "SELECT seq, data FROM records WHERE code = ? AND seq > ? ORDER BY seq", (code, after)
                ):
                    table.records.append(json.loads(data))
                    last = seq
                self._seq[code] = last
                tables.append(table)
            return tables

        return await self._run(read)

    async def results(self) -> list[Record]:
        """Every game result ever saved ("result" records), pruned games' too: the ratings are folded from them."""

        def read() -> list[Record]:
            return [json.loads(data) for (data,) in self._conn().execute("SELECT data FROM results ORDER BY rowid")]

        return await self._run(read)

    async def history(self, code: str) -> list[Record]:
        """Every record of a game: by its table's code (the latest game under that code), or by its game id."""

        def read() -> list[Record]:
            db = self._conn()
            rows = db.execute("SELECT data FROM records WHERE code = ? ORDER BY seq", (code,)).fetchall()
            if not rows and len(code) > 4:  # a game id whose game still sits under its table's code
                rows = db.execute("SELECT data FROM records WHERE code = ? ORDER BY seq", (code[:4],)).fetchall()
                records = [json.loads(data) for (data,) in rows]
                return records if records and same_game(records[0], code) else []
            return [json.loads(data) for (data,) in rows]

        return await self._run(read)

    async def prune(
        self, finished_before: float | None, abandoned_before: float | None, *, dry_run: bool = False
    ) -> int:
        """Delete the games closed before the cutoffs (epoch seconds; None keeps them): finished games by the first,
        the others (abandoned, never started) by the second. Returns how many games were (or would be) deleted."""

        def prune() -> int:
            db = self._conn()
            with db:
                db.execute("BEGIN IMMEDIATE")
                keys = [
                    key
                    for (key,) in db.execute(
                        "SELECT code FROM tables WHERE closed_at IS NOT NULL AND "
                        "((over = 1 AND closed_at < ?) OR (over = 0 AND closed_at < ?))",
                        (
                            finished_before if finished_before is not None else float("-inf"),
                            abandoned_before if abandoned_before is not None else float("-inf"),
                        ),
                    ).fetchall()
                ]
                if not dry_run:
                    for name in ("records", "snapshots", "tables"):
                        db.executemany(f"DELETE FROM {name} WHERE code = ?", [(k,) for k in keys])
            for key in keys:
                self._seq.pop(key, None)
            return len(keys)

        return await self._run(prune)

    async def moderation_entries(self) -> list[tuple[str, str, str]]:
        def read() -> list[tuple[str, str, str]]:
            return list(self._conn().execute("SELECT kind, key, value FROM moderation ORDER BY kind, key"))

        return await self._run(read)

    async def moderate(self, kind: str, key: str, value: str | None) -> None:
        def write() -> None:
            if value is None:
                self._conn().execute("DELETE FROM moderation WHERE kind = ? AND key = ?", (kind, key))
            else:
                self._conn().execute("INSERT OR REPLACE INTO moderation VALUES (?, ?, ?)", (kind, key, value))

        await self._run(write)

    async def close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            await self._run(db.close)
        self._pool.shutdown(wait=True)
