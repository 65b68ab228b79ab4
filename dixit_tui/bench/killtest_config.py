"""The crash test's settings: how many kills of which kinds, the tables, the seed, the server it runs."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class KillConfig:
    kills: int = 50
    tables: tuple[int, ...] = (3, 5)  # players at each table (3 to 8); each group plays game after game
    seed: int = 1
    targets: tuple[int, int] = (10, 14)  # each game's target score is drawn from this range
    max_actions_between_kills: int = 6
    inflight: float = 0.5  # share of kills that come 0-`max_inflight_delay` s after an action was sent
    during_recovery: float = 0.1  # chance that a restart is itself killed in the middle of the reconnect wave
    max_inflight_delay: float = 0.020
    by_reconnect_code: float = 0.25  # chance a client returns with `reconnect` and its code rather than its key
    revote: float = 0.15  # chance a vote step is a voter changing their vote
    void: float = 0.03  # chance a submit or vote step is the host voiding the turn
    timeout: float = 15.0  # every single wait
    start_timeout: float = 30.0  # the server printing `listening on`
    max_seconds: float | None = None  # fail if the whole run takes longer
    snapshot_every: int | None = None  # None: the server's default (100 records)
    redis: str | None = None  # keep the tables in this Redis (`serve --redis URL`) instead of SQLite
    workers: int | None = None  # with `redis`: `serve --workers N` (None: the server's default)
    kill_workers: bool = False  # kill one worker of the server at a time (the server stays up), not the server
    python: str = sys.executable
    env: Mapping[str, str] | None = None  # the server's environment (None: inherited)
    log: Callable[[str], None] | None = None  # progress lines (e.g. print)
