"""The bot strategies by name, for the command lines, the league and the benchmarks: "random", "smart" or "shrewd".

Its own module because it names every strategy: shrewd (bots/shrewd.py) is built on smart's helpers in strategy.py,
so strategy.py cannot name it without importing back.
"""

from __future__ import annotations

from dixit_tui.bots.shrewd import ShrewdStrategy
from dixit_tui.bots.strategy import RandomStrategy, SmartStrategy, Strategy

STRATEGIES: dict[str, type[Strategy]] = {"random": RandomStrategy, "smart": SmartStrategy, "shrewd": ShrewdStrategy}
STRATEGY_NAMES = tuple(STRATEGIES)


def strategy_named(name: str) -> Strategy:
    """A fresh strategy by name. ValueError for anything else."""
    try:
        return STRATEGIES[name]()
    except KeyError:
        raise ValueError(f"unknown strategy {name!r}; choose from {', '.join(STRATEGY_NAMES)}") from None
