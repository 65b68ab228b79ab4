"""Which worker process of `serve --workers N` serves a connection, for the crash test's worker-kill mode and the
tests: the workers' pids from the server's `worker N pid P` lines, and the owner of a socket from /proc (Linux)."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable, Sequence

_WORKER_LINE = re.compile(r"worker (\d+) pid (\d+)$")
_READY_LINE = re.compile(r"worker (\d+) ready$")


def worker_pids(lines: Iterable[str], *, ready: bool = False) -> list[int]:
    """The pid of each worker now (the last `worker N pid P` line for each N), in worker order. With `ready`, only
    the workers that said they listen (`worker N ready`) since they started."""
    latest: dict[int, int] = {}
    listening: set[int] = set()
    for line in lines:
        if found := _WORKER_LINE.search(line):
            latest[int(found.group(1))] = int(found.group(2))
            listening.discard(int(found.group(1)))
        elif found := _READY_LINE.search(line):
            listening.add(int(found.group(1)))
    return [latest[n] for n in sorted(latest) if not ready or n in listening]


def socket_owner(pids: Sequence[int], client_port: int) -> int | None:
    """The process among `pids` holding the server end of the loopback connection from local port `client_port`."""
    inodes: dict[str, int] = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    link = os.readlink(f"/proc/{pid}/fd/{fd}")
                    if link.startswith("socket:["):
                        inodes[link[8:-1]] = pid
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as f:
            for line in f.readlines()[1:]:
                parts = line.split()
                if int(parts[2].rsplit(":", 1)[1], 16) == client_port and parts[9] in inodes:
                    return inodes[parts[9]]
    return None
