"""Bots holding back, checked without sleeping: what they could do now is done, and each would still hold later."""

from __future__ import annotations

import asyncio

from dixit_tui.bots.player import BotPlayer


async def still_holding(bots: list[BotPlayer], reason: str, later: float = 60.0) -> None:
    """What the bots could do now is done (the event loop has nothing left to run for them), and each would still
    hold for `reason` `later` seconds on, by its own look at the view: "wait and see that nothing happened", on a
    clock the test sets instead of a sleep."""
    for _ in range(200):
        await asyncio.sleep(0)
    now = asyncio.get_running_loop().time() + later
    for bot in bots:
        view = bot.bot_view()
        assert view is not None
        assert bot.hold(view, now) is not None and bot.hold(view, now)[0] == reason  # type: ignore[index]
