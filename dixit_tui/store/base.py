"""The store interface the coordinator commits to. Small and async, so the backend can change."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

Record = dict[str, Any]

CODE_REUSE_AFTER = 86400.0
"""Seconds after its table closed that a table code may be given to a new table (its game then moves to its game
id, which stays unique: `dixit-tui replay GAMEID`)."""


def is_create(record: Record) -> bool:
    return record.get("t") == "create"


def same_game(create: Record, game_id: str) -> bool:
    """Whether `create` (a table's first record) began the game with this id."""
    return is_create(create) and create.get("game") == game_id


def archived_key(code: str, create: Record, closed_at: float) -> str:
    """Where a closed game's records go when its code is given to a new table: its game id; a game saved before game
    ids gets one from its code and the second it closed (a 0 in it: never a generated id)."""
    game = create.get("game")
    return str(game) if isinstance(game, str) and game else f"{code}0{int(closed_at)}"


class StoreError(Exception):
    """The data folder cannot be used (foreign or corrupted database, unwritable folder). Message says why."""


class StoreConflict(StoreError):
    """Someone appended to the table first: re-read from `current` and decide again."""

    def __init__(self, code: str, expected: int, current: int) -> None:
        super().__init__(f"table {code} moved on: expected record {expected}, the store has {current}")
        self.code = code
        self.expected = expected
        self.current = current


@dataclass
class StoredTable:
    code: str
    snapshot: Record | None  # the table as of `snapshot_seq`, or None
    records: list[Record] = field(default_factory=list)  # every record after the snapshot, in order
    closed: bool = False


class Store(Protocol):
    async def append(self, code: str, records: Sequence[Record]) -> None:
        """Append and commit; when this returns the records survive a crash."""

    async def snapshot(self, code: str, data: Record) -> None:
        """Remember the whole table as of its last appended record."""

    async def load(self) -> list[StoredTable]:
        """Every open table, for a restart (a closed table's records are not read)."""

    async def history(self, code: str) -> list[Record]:
        """Every record of one game, from its creation: by its table's code, or by its game id."""

    async def prune(
        self, finished_before: float | None, abandoned_before: float | None, *, dry_run: bool = False
    ) -> int:
        """Delete the games closed before the cutoffs: finished ones by the first, the others by the second."""

    async def close(self) -> None: ...


class ModerationStore(Protocol):
    """Where a server keeps its moderation (bans, keys allowed in, the message of the day), shared by every worker on
    the same store: entries (kind, key, value), one per kind and key."""

    async def moderation_entries(self) -> list[tuple[str, str, str]]: ...

    async def moderate(self, kind: str, key: str, value: str | None) -> None:
        """Set (or with None remove) one entry."""


class NullStore:
    """Keeps nothing: for in-memory coordinators (tests, simulations)."""

    async def append(self, code: str, records: Sequence[Record]) -> None:
        return None

    async def snapshot(self, code: str, data: Record) -> None:
        return None

    async def load(self) -> list[StoredTable]:
        return []

    async def history(self, code: str) -> list[Record]:
        return []

    async def prune(
        self, finished_before: float | None, abandoned_before: float | None, *, dry_run: bool = False
    ) -> int:
        return 0

    async def close(self) -> None:
        return None
