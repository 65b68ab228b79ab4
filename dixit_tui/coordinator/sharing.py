"""What sharing the tables with other server processes (workers) changes for the coordinator, behind one interface:
the coordinator is handed a `Sharing` and never asks which one it has.

`LocalSharing` is one process alone (the embedded store, or none): it owns every table, nothing is elsewhere, nobody
needs telling, and what is counted is counted in the process. `shared.SharedTables` is the tables shared through
Redis (`serve --redis URL --workers N`): replicas caught up when their lock is taken, presence, leases, live
messages and tries counted across the workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from dixit_tui.coordinator.matchmaker import Matchmaker, QueueSharing
from dixit_tui.coordinator.queue_sharing import LocalQueue
from dixit_tui.coordinator.table import Table
from dixit_tui.store.base import Record, Store

C = TypeVar("C", contravariant=True)  # the coordinator (`service.Coordinator`)


class Sharing(Protocol[C]):
    """What differs when other workers hold the same tables. `table` arguments are the coordinator's own tables."""

    replay_where: str
    """What `dixit-tui replay` needs besides the game's name to find a game this server saved ("" or "--redis URL ")."""

    def attach(self, coordinator: C) -> None:
        """This is `coordinator`'s sharing: called once, by its constructor (the coordinator is whole by then)."""

    def queue(self, matchmaker: Matchmaker) -> QueueSharing:
        """What sharing the queue changes for the coordinator's matchmaker: called once, by its constructor."""

    def adopt(self, table: Table[Any], seq: int | None) -> None:
        """`table` is this process's copy of its code, folded up to record `seq` (None: as the store loaded it)."""

    def owns(self, code: str) -> bool:
        """Whether this process runs table `code`'s clocks (plays its stand-ins, closes it when idle)."""

    def opened_elsewhere(self, code: str) -> bool:
        """Whether a table not open here may be open all the same (opened by another process): worth a look in
        the store."""

    async def saved(self, table: Table[Any], store: Store) -> tuple[Record | None, list[Record]]:
        """What a change that could not be saved goes back to: a snapshot (or None) and the records after it (none:
        the table itself was never saved)."""

    def reset_from(self, table: Table[Any], saved: Table[Any]) -> list[Any]:
        """`table` goes back to `saved` (`Table.reset_from`). Returns the sessions whose seat is gone."""

    async def catch_up(self, table: Table[Any]) -> None:
        """Under the table's lock: fold what other processes changed since (taking the lock does it too)."""

    async def publish_presence(self, table: Table[Any]) -> None:
        """Under the table's lock, after a change: tell the others who sits and watches here now."""

    def publish_live(self, table: Table[Any], message: dict[str, Any]) -> None:
        """Tell the others something about `table` that is never recorded (a team line, a writing mark, a reveal
        seen)."""

    async def count_try(self, keys: Sequence[tuple[str, int]], window: float) -> str | None:
        """Count a try (a create, a reconnect code) against every process's count of each key within `window`
        seconds: its token (to forgive it), or None when a key is at its cap."""

    async def forgive_try(self, keys: Sequence[tuple[str, int]], token: str) -> None:
        """The try counts nowhere (the code was right)."""

    async def unhealthy(self) -> str | None:
        """Why the tables cannot be shared now (the shared store does not answer), or None."""


class LocalSharing:
    """One process alone: it owns every table and tells nobody; what it counts, the coordinator counts itself."""

    replay_where = ""

    def attach(self, coordinator: object) -> None:
        return None

    def queue(self, matchmaker: Matchmaker) -> QueueSharing:
        return LocalQueue(matchmaker)

    def adopt(self, table: Table[Any], seq: int | None) -> None:
        return None

    def owns(self, code: str) -> bool:
        return True

    def opened_elsewhere(self, code: str) -> bool:
        return False

    async def saved(self, table: Table[Any], store: Store) -> tuple[Record | None, list[Record]]:
        """Every record of the table's game, unless the code holds another game now or the table closed."""
        records = await store.history(table.code)
        mine = records and records[0].get("game", table.game_id) == table.game_id
        if not mine or any(r.get("t") == "closed" for r in records):
            return None, []
        return None, records

    def reset_from(self, table: Table[Any], saved: Table[Any]) -> list[Any]:
        return table.reset_from(saved)

    async def catch_up(self, table: Table[Any]) -> None:
        return None

    async def publish_presence(self, table: Table[Any]) -> None:
        return None

    def publish_live(self, table: Table[Any], message: dict[str, Any]) -> None:
        return None

    async def count_try(self, keys: Sequence[tuple[str, int]], window: float) -> str | None:
        return ""  # (counted in the process, by the coordinator's meters)

    async def forgive_try(self, keys: Sequence[tuple[str, int]], token: str) -> None:
        return None

    async def unhealthy(self) -> str | None:
        return None
