"""The embedded SQLite store: WAL, synchronous=FULL, one connection on one worker thread (never the event loop)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from dixit_tui.store.base import Record, StoredTable, StoreError

APPLICATION_ID = 0x44495854  # "DIXT"
SCHEMA_VERSION = 1
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
        self._seq: dict[str, int] = {}

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
                db.executescript(_SCHEMA)
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute(_MODERATION)  # (added after schema version 1 was out: made in older files as well)
            for code, seq in db.execute("SELECT code, MAX(seq) FROM records GROUP BY code"):
                self._seq[code] = seq
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
        if version != SCHEMA_VERSION:
            raise StoreError(f"{self.path} has schema version {version}; this server reads version {SCHEMA_VERSION}.")
        (status,) = db.execute("PRAGMA quick_check").fetchone()
        if status != "ok":
            raise StoreError(f"{self.path} is damaged ({status}). Restore a backup or move it aside.")

    async def _run(self, fn: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn)

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError("the store is closed")
        return self._db

    # --- the Store interface ---------------------------------------------------------------------------------

    async def append(self, code: str, records: Sequence[Record]) -> None:
        if not records:
            return
        start = self._seq.get(code, 0)
        rows = [(code, start + i + 1, json.dumps(r, separators=(",", ":"))) for i, r in enumerate(records)]

        def write() -> None:
            db = self._conn()
            with db:
                db.execute("BEGIN IMMEDIATE")
                db.executemany("INSERT INTO records (code, seq, data) VALUES (?, ?, ?)", rows)

        await self._run(write)
        self._seq[code] = start + len(records)

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
        def read() -> list[StoredTable]:
            db = self._conn()
            snaps = {code: (seq, json.loads(data)) for code, seq, data in db.execute("SELECT * FROM snapshots")}
            tables: dict[str, StoredTable] = {}
            for code, seq, data in db.execute("SELECT code, seq, data FROM records ORDER BY code, seq"):
                table = tables.get(code)
                if table is None:
                    snap = snaps.get(code)
                    table = tables[code] = StoredTable(code, snap[1] if snap else None)
                record = json.loads(data)
                if record.get("t") == "closed":
                    table.closed = True
                snap_seq = snaps[code][0] if code in snaps else 0
                if seq > snap_seq:
                    table.records.append(record)
            return list(tables.values())

        return await self._run(read)

    async def history(self, code: str) -> list[Record]:
        def read() -> list[Record]:
            rows = self._conn().execute("SELECT data FROM records WHERE code = ? ORDER BY seq", (code,))
            return [json.loads(data) for (data,) in rows]

        return await self._run(read)

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
