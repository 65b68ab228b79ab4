"""What sharing the queue with other server processes (workers) changes for the matchmaker, behind one interface: the
matchmaker is handed a `QueueSharing` and never asks which one it has.

`LocalQueue` is one process alone: its tickets are shared with nobody, and it seats them itself, at once.
`shared.SharedQueue` is the one queue of several workers on Redis (`serve --redis URL --workers N`): the
tickets are written where every worker sees them, and whichever worker holds the matchmaker lease seats them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from dixit_tui.coordinator.matchmaker import Matchmaker, Ticket
    from dixit_tui.coordinator.player_session import SessionTable


class QueueSharing(Protocol):
    """What differs when the clients of other workers queue too."""

    async def put(self, ticket: Ticket) -> None:
        """A ticket of this worker's came: share it, and have a table opened if one can open now. TableError if the
        ticket cannot be shared."""

    def drop(self, ticket: Ticket) -> None:
        """A ticket of this worker's left the queue: it is shared no more."""

    async def round(self) -> None:
        """Open every table that can open now (with several workers, only the one matchmaker of them all does)."""

    async def seated(self, table: SessionTable, seats: list[tuple[Ticket, str]]) -> None:
        """The clients of other workers have seats at `table` (by reconnect code): have them sit down."""

    async def stop(self) -> None:
        """This worker stops sharing the queue."""


class LocalQueue:
    """One process alone: nothing is shared, and the matchmaker seats its tickets here and now."""

    def __init__(self, matchmaker: Matchmaker) -> None:
        self.matchmaker = matchmaker

    async def put(self, ticket: Ticket) -> None:
        await self.round()

    def drop(self, ticket: Ticket) -> None:
        return None

    async def round(self) -> None:
        await self.matchmaker.seat_here()

    async def seated(self, table: SessionTable, seats: list[tuple[Ticket, str]]) -> None:
        return None  # (every ticket is this process's own: none has a seat elsewhere)

    async def stop(self) -> None:
        return None
