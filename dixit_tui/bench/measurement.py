"""The measurement of one action: when its bot sent it, the terminals whose screens have yet to change, and how
long each one that changed took."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from dixit_tui.bench.watcher import Watcher


@dataclass(eq=False)
class Measurement:
    kind: str
    t0: float
    remaining: set[Watcher]
    latencies: list[float] = field(default_factory=list)
    refused: bool = False
    done: asyncio.Event = field(default_factory=asyncio.Event)
