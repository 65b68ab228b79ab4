"""One process alone sharing its queue with nobody: `LocalQueue`, the matchmaker's `QueueSharing` then.

(`shared.SharedQueue` is the one queue of several workers on Redis, `serve --redis URL --workers N`: the tickets are
written where every worker sees them, and whichever worker holds the matchmaker lease seats them.)
"""

from __future__ import annotations

from typing import Any

from dixit_tui.coordinator.matchmaker import Matchmaker, Ticket
from dixit_tui.coordinator.table import Table


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

    async def seated(self, table: Table[Any], seats: list[tuple[Ticket, str]]) -> None:
        return None  # (every ticket is this process's own: none has a seat elsewhere)

    async def stop(self) -> None:
        return None
