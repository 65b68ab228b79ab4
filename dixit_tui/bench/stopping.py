"""Stopping the operator tools' child processes (the server, redis-server): a signal unless the process has exited
already, and SIGTERM with a grace period."""

from __future__ import annotations

import asyncio
import contextlib
import signal


def send(proc: asyncio.subprocess.Process, sig: int) -> None:
    """`sig` to the process, unless it has exited (and been waited for) already."""
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(sig)


async def terminated(proc: asyncio.subprocess.Process, timeout: float) -> bool:
    """SIGTERM, a clean shutdown, and up to `timeout` seconds for it: False if the process is still running."""
    send(proc, signal.SIGTERM)
    try:
        await asyncio.wait_for(proc.wait(), timeout)
    except TimeoutError:
        return False
    return True
