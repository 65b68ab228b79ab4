"""One owner per table for its clocks: a lease in Redis that expires unless renewed. Every worker computes the
deadlines it shows, but only the owner plays stand-ins and closes idle tables; when it dies another worker takes the
lease within a few seconds, and brings back the built-in bots that ran in the dead worker."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from dixit_tui.coordinator import detached
from dixit_tui.coordinator.errors import TableError
from dixit_tui.coordinator.models import TableStatus
from dixit_tui.log_caps import REPEATS
from dixit_tui.store.redis_store import RedisStore

if TYPE_CHECKING:
    from dixit_tui.coordinator.player_session import SessionTable
    from dixit_tui.coordinator.service import Coordinator

log = logging.getLogger(__name__)
log.addFilter(REPEATS)

Revive = Callable[["Coordinator", str, str], Awaitable[object]]
"""Brings a built-in bot back to its seat (coordinator, the seat's reconnect code, the bot's name)."""


class Leases:
    def __init__(
        self, coordinator: Coordinator, store: RedisStore, worker: str, ttl: float, revive: Revive | None = None
    ) -> None:
        self.coordinator = coordinator
        self.store = store
        self.worker = worker
        self.ttl = ttl
        self.owned: set[str] = set()  # the tables whose lease (clocks, stand-ins) this worker holds
        # brings a built-in bot back to its seat (by the seat's reconnect code and the bot's name) when the worker it
        # ran in died: only the table's owner does (the server passes `bots.player.revive_bot`); None: bots stay away
        self.revive = revive
        self._reviving: set[str] = set()  # seat codes of built-in bots being brought back here

    def owns(self, code: str) -> bool:
        return code in self.owned

    async def queue_take(self, pipe: Any, codes: Sequence[str]) -> None:
        """Queue taking (or renewing) each table's lease: one result per code, who holds it now."""
        for code in codes:
            await self.store.queue_take_lease(pipe, f"table:{code}", self.worker, self.ttl)

    async def queue_release(self, pipe: Any) -> None:
        """Queue giving up every lease this worker holds (it stops)."""
        for code in self.owned:
            await self.store.queue_release_lease(pipe, f"table:{code}", self.worker)

    def held(self, table: SessionTable, holder: str, seated: dict[str, str]) -> None:
        """The tick read that `holder` has the table's lease now (and who is connected to which seat, `seated`):
        a table that became this worker's gets its clocks armed here; its owner brings back its missing bots."""
        code = table.code
        if holder == self.worker and code not in self.owned:
            self.owned.add(code)
            self.coordinator.schedule(table)  # this worker's clocks count now
        elif holder != self.worker:
            self.owned.discard(code)
        if code in self.owned:
            self._revive_bots(table, seated)

    def _revive_bots(self, table: SessionTable, holders: dict[str, str]) -> None:
        """The owner of a running game brings back its built-in bots nobody runs any longer (their worker died)."""
        if self.revive is None or table.status != TableStatus.PLAYING:
            return
        for seat in table.seats:
            if not seat.builtin or seat.removed or seat.session is not None or seat.code in holders:
                continue
            if seat.code in self._reviving:
                continue
            self._reviving.add(seat.code)
            detached.spawn(self._revive_one(seat.code, seat.name))

    async def _revive_one(self, seat_code: str, name: str) -> None:
        assert self.revive is not None
        try:
            await self.revive(self.coordinator, seat_code, name)
            log.info("bot %s is back, run by this worker", name)
        except TableError as err:
            log.info("bot %s could not come back: %s", name, err.message)
        except Exception:
            log.exception("bringing bot %s back failed", name)
        finally:
            self._reviving.discard(seat_code)
