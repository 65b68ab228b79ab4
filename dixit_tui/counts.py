"""What the server counts as it runs, for `serve --metrics-port` (`dixit_tui.metrics` reads these when scraped).

Plain numbers in this process, no dependency: counting costs a dictionary increment whether metrics are served or
not, and the metrics library is needed only to serve them."""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass, field

UPDATE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Upper bounds (seconds) of the update-latency histogram's buckets (a last one, +Inf, holds the rest)."""

ACTIONS = {
    "create": "create",
    "seat": "join",
    "unseat": "leave",
    "rename": "rename",
    "chat": "chat",
    "GameStarted": "start",
    "ClueGiven": "clue",
    "CardsSubmitted": "submit",
    "VoteCast": "vote",
    "TurnVoided": "void",
    "PlayerRemoved": "remove",
}
"""A committed record (or the first event of an `events` record) -> the action it counts as."""


@dataclass
class Counts:
    actions: Counter[str] = field(default_factory=Counter)
    """Changes committed to tables, by action (create, join, start, clue, submit, vote, chat, ...)."""
    refusals: Counter[str] = field(default_factory=Counter)
    """Refused commands (by their error code) and refused or dropped connections (by why)."""
    redis_round_trips: int = 0
    """Commands (or pipelines) sent to Redis."""
    update_buckets: list[int] = field(default_factory=lambda: [0] * (len(UPDATE_BUCKETS) + 1))
    update_sum: float = 0.0

    def committed(self, records: list[dict[str, object]]) -> None:
        for record in records:
            kind = record.get("t")
            if kind == "events":
                events = record.get("events")
                first = events[0] if isinstance(events, list) and events else {}
                kind = first.get("type") if isinstance(first, dict) else None
            action = ACTIONS.get(str(kind))
            if action is not None:
                self.actions[action] += 1

    def refused(self, reason: str) -> None:
        self.refusals[reason] += 1

    def update_took(self, seconds: float) -> None:
        """One change at a table made visible (committed, and every view at the table built and handed on)."""
        self.update_buckets[bisect.bisect_left(UPDATE_BUCKETS, seconds)] += 1
        self.update_sum += seconds


COUNTS = Counts()
"""The process's counts (one server per process; tests compare before and after)."""
