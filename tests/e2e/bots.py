"""The built-in bots at a table of an end-to-end test's server: found, and made quick where their pace is not what
the test is about."""

from __future__ import annotations

from dixit_tui.bots.player import BotPlayer
from dixit_tui.coordinator import Coordinator
from dixit_tui.coordinator.table import Table

QUICK = (0.0, 0.02)
"""Seconds a quick bot thinks before each move (a built-in bot takes 0.2 to 1 s, like a person glancing)."""


def bots_at(table: Table) -> list[BotPlayer]:
    """The built-in bots seated at `table` (each session's sink is its bot's)."""
    sinks = [seat.session.sink for seat in table.seats if seat.bot and seat.session is not None]
    return [getattr(sink, "__self__") for sink in sinks]  # noqa: B009


def quick(coord: Coordinator, code: str) -> list[BotPlayer]:
    """The built-in bots at table `code` (at each worker that runs some) think `QUICK` instead of up to a second
    before each move (from their next one on): a whole game with them takes a few seconds, not a minute."""
    found: list[BotPlayer] = []
    for worker in getattr(coord, "workers", [coord]):
        table = worker.tables.get(code)
        if table is None:
            continue
        for seat in table.seats:
            bot = getattr(getattr(seat.session, "sink", None), "__self__", None) if seat.bot else None
            if isinstance(bot, BotPlayer) and bot not in found:
                bot.delay = QUICK
                found.append(bot)
    return found
