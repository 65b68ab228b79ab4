"""Memory and CPU from /proc (Linux): of one process (ProcStats), and of the whole machine during play."""

from __future__ import annotations

import contextlib
import os
from typing import Any


class ProcStats:
    """Memory and CPU of one process from /proc (Linux)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.ticks = os.sysconf("SC_CLK_TCK")

    def _status(self, field_name: str) -> int | None:
        try:
            with open(f"/proc/{self.pid}/status") as f:
                for line in f:
                    if line.startswith(field_name + ":"):
                        return int(line.split()[1]) * 1024
        except OSError:
            return None
        return None

    def rss(self) -> int | None:
        return self._status("VmRSS")

    def hwm(self) -> int | None:
        return self._status("VmHWM")

    def schedstat(self) -> tuple[float, float] | None:
        """(seconds on a CPU, seconds runnable but waiting for a CPU) of the main thread (/proc/PID/schedstat)."""
        try:
            with open(f"/proc/{self.pid}/schedstat") as f:
                on_cpu, waiting = f.read().split()[:2]
        except (OSError, ValueError):
            return None
        return int(on_cpu) / 1e9, int(waiting) / 1e9

    def cpu_seconds_precise(self) -> float | None:
        """Seconds on a CPU of all the process's threads, in nanoseconds (/proc/PID/task/*/schedstat), where
        `cpu_seconds` counts clock ticks (10 ms): for short spans such as one join."""
        total = 0
        try:
            for task in os.listdir(f"/proc/{self.pid}/task"):
                with contextlib.suppress(OSError, ValueError), open(f"/proc/{self.pid}/task/{task}/schedstat") as f:
                    total += int(f.read().split()[0])
        except OSError:
            return self.cpu_seconds()
        return total / 1e9

    def cpu_seconds(self) -> float | None:
        try:
            with open(f"/proc/{self.pid}/stat") as f:
                text = f.read()
        except OSError:
            return None
        fields = text[text.rindex(")") + 2 :].split()
        return (int(fields[11]) + int(fields[12])) / self.ticks  # utime, stime (fields 14 and 15 of stat)


def machine_cpu() -> tuple[float, float] | None:
    """(busy, total) jiffies of the whole machine, all cores, from /proc/stat."""
    try:
        with open("/proc/stat") as f:
            values = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    total = sum(values[:8])
    return float(total - idle), float(total)


def machine_share(
    before: tuple[float, float] | None,
    after: tuple[float, float] | None,
    client_s: float,
    server0: float | None,
    server1: float | None,
    wall: float,
) -> dict[str, Any] | None:
    """How busy the whole machine was during play, and how much of it was neither this client nor the server."""
    if before is None or after is None or wall <= 0:
        return None
    cores = os.cpu_count() or 1
    busy = (after[0] - before[0]) / max(1.0, after[1] - before[1]) * cores  # cores busy on average
    server = (server1 - server0) / wall if server0 is not None and server1 is not None else 0.0
    others = max(0.0, busy - server - client_s / wall)
    return {
        "cores": cores,
        "busy_percent_of_one_core": round(busy * 100.0, 1),
        "other_processes_percent_of_one_core": round(others * 100.0, 1) if server0 is not None else None,
    }
