"""Where `dixit-tui bot` keeps its seats' reconnect codes, so the same command run again takes its seats back.

Each bot connects without an SSH key, so during a game its seat goes back only with its reconnect code (the server
sends it in every `state`). The codes are kept in a small JSON file, by server host, table and bot name: by default
$XDG_STATE_HOME/dixit-tui/bot-seats.json (~/.local/state/dixit-tui/bot-seats.json), or --seats-file FILE.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)


def default_path() -> Path:
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "dixit-tui" / "bot-seats.json"


class SeatCodes:
    """The reconnect codes of a bot command's seats, read from and written to one file (None: kept nowhere)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    @staticmethod
    def _key(host: str, table: str, name: str) -> str:
        return f"{host} {table.upper()} {name}"

    def _read(self) -> dict[str, str]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as err:
            log.warning("cannot read the bot seats file %s: %s", self.path, err)
            return {}
        return {k: v for k, v in data.items() if isinstance(v, str)} if isinstance(data, dict) else {}

    def get(self, host: str, table: str, name: str) -> str | None:
        return self._read().get(self._key(host, table, name))

    def put(self, host: str, table: str, name: str, code: str) -> None:
        """Keep `code` for this seat (written at once, readable only by its owner). Several bot commands may share
        the file (a league starts many): each change is read, made and written under a lock of the file, into a
        temporary file of its own that replaces it, so no command's entry is lost to another's write."""
        if self.path is None:
            return
        key = self._key(host, table, name)
        if self.get(host, table, name) == code:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path.with_name(self.path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
            with os.fdopen(fd, "r+") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                codes = self._read()
                codes[key] = code
                part, temp = tempfile.mkstemp(dir=self.path.parent, prefix=self.path.name + ".", suffix=".part")
                try:
                    with os.fdopen(part, "w", encoding="utf-8") as out:  # (mkstemp: readable by its owner only)
                        json.dump(codes, out, indent=1, sort_keys=True)
                    os.replace(temp, self.path)
                except BaseException:
                    with contextlib.suppress(OSError):
                        os.unlink(temp)
                    raise
        except OSError as err:
            log.warning("cannot write the bot seats file %s: %s", self.path, err)
