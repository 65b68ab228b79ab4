"""One server per data folder: `serve` holds an exclusive lock (flock) on DATA_DIR/dixit-tui.lock while it runs.

Two servers on one SQLite folder would each keep their own tables in memory, and a table made on one would be
invisible to the other (e.g. a systemd unit and a `serve` started by hand during maintenance). The second is
refused with a message naming the first's process id. The kernel drops the lock when its process ends, however it
ends (kill -9 included), so a crash never leaves a stale lock; the file itself stays, harmlessly.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import IO

from dixit_tui.store.base import StoreError

LOCK_NAME = "dixit-tui.lock"


class DataDirBusy(StoreError):
    """Another process holds the data folder's lock."""


class DataDirLock:
    def __init__(self, path: Path, file: IO[str]) -> None:
        self.path = path
        self._file: IO[str] | None = file

    @classmethod
    def hold(cls, data_dir: Path) -> DataDirLock:
        """Create `data_dir` (0700) if needed and lock it; DataDirBusy if another process holds it, StoreError if
        the folder or its lock file cannot be made."""
        path = Path(data_dir) / LOCK_NAME
        try:
            Path(data_dir).mkdir(parents=True, exist_ok=True, mode=0o700)
            file = open(path, "a+", encoding="utf-8")  # noqa: SIM115 (held open while the server runs)
        except OSError as err:
            raise StoreError(f"cannot create the data folder's lock file {path}: {err.strerror}") from err
        try:
            fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            file.seek(0)
            holder = file.read().strip()
            file.close()
            who = f" (pid {holder})" if holder.isdigit() else ""
            raise DataDirBusy(
                f"another dixit-tui server{who} is using the data folder {Path(data_dir).resolve()}; stop it "
                "first, or give this one its own --data-dir (two servers on one folder would not see each other's "
                "tables)"
            ) from None
        file.seek(0)
        file.truncate()
        file.write(f"{os.getpid()}\n")
        file.flush()
        return cls(path, file)

    def release(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()  # closing the file drops the lock
            self._file = None
