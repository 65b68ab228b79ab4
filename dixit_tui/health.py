"""Is this server well? `ssh HOST health` and `/health` on the metrics port (`serve --metrics-port`), for load
balancers and uptime checks: one line of plain text, and whether all is well (exit status 0, HTTP 200) or not."""

from __future__ import annotations

import asyncio

from dixit_tui.coordinator import Coordinator

STORE_TIMEOUT = 2.0
"""Seconds the shared store (Redis) has to answer a ping."""


async def health(coordinator: Coordinator) -> tuple[bool, str]:
    """(well, one line): "ok: 3 tables, 7 clients in the game", or "unhealthy: ..." when the shared store (Redis)
    does not answer."""
    tables, clients = len(coordinator.tables), len(coordinator.sessions)
    summary = f"{tables} table{'s' * (tables != 1)}, {clients} client{'s' * (clients != 1)} in the game"
    shared = coordinator.shared
    if shared is not None:
        try:
            await asyncio.wait_for(shared.store.client.ping(), STORE_TIMEOUT)
        except Exception as err:
            return False, f"unhealthy: Redis does not answer ({type(err).__name__}); {summary}\n"
    return True, f"ok: {summary}\n"
