"""Is this server well? `ssh HOST health` and `/health` on the metrics port (`serve --metrics-port`), for load
balancers and uptime checks: one line of plain text, and whether all is well (exit status 0, HTTP 200) or not."""

from __future__ import annotations

from dixit_tui.coordinator import Coordinator


async def health(coordinator: Coordinator) -> tuple[bool, str]:
    """(well, one line): "ok: 3 tables, 7 clients in the game", or "unhealthy: ..." when the shared store (Redis)
    does not answer."""
    tables, clients = len(coordinator.tables), len(coordinator.sessions)
    summary = f"{tables} table{'s' * (tables != 1)}, {clients} client{'s' * (clients != 1)} in the game"
    problem = await coordinator.sharing.unhealthy()
    if problem is not None:
        return False, f"unhealthy: {problem}; {summary}\n"
    return True, f"ok: {summary}\n"
