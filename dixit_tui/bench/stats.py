"""The benchmark's statistics: the clock every timing is read on, nearest-rank percentiles, and a list of timings
summed up in milliseconds (with the samples that timed out counted in the ranks)."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

CLOCK = time.perf_counter


def percentile(values: Sequence[float], p: float) -> float | None:
    """Nearest-rank percentile (p in 0..100); None without values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100.0 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def summary_ms(values: Sequence[float], points: Sequence[int] = (50, 95, 99), censored: int = 0) -> dict[str, Any]:
    """Percentiles in milliseconds. `censored` samples timed out (longer than any value): they count in the ranks,
    and a percentile that falls on one is null (the report says "> timeout")."""
    everything = [*values, *([math.inf] * censored)]
    out: dict[str, Any] = {"n": len(values)}
    for p in points:
        v = percentile(everything, p)
        out[f"p{p}"] = None if v is None or math.isinf(v) else round(v * 1000.0, 1)
    out["max"] = round(max(values) * 1000.0, 1) if values else None
    out["mean"] = round(sum(values) / len(values) * 1000.0, 1) if values else None
    if censored:
        out["timed_out"] = censored
    return out
