"""Stopping child processes (the workers of `serve --workers`, and the operator tools' server and redis-server): a
signal unless the process has exited already, SIGTERM with a grace period, then SIGKILL."""

from __future__ import annotations

import asyncio
import contextlib
import signal


def send(proc: asyncio.subprocess.Process, sig: int) -> None:
    """`sig` to the process, unless it has exited (and been waited for) already."""
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(sig)


async def exited(proc: asyncio.subprocess.Process, timeout: float) -> bool:
    """Up to `timeout` seconds for the process to exit: False if it is still running."""
    try:
        await asyncio.wait_for(proc.wait(), timeout)
    except TimeoutError:
        return False
    return True


async def terminated(proc: asyncio.subprocess.Process, timeout: float) -> bool:
    """SIGTERM, a clean shutdown, and up to `timeout` seconds for it: False if the process is still running."""
    send(proc, signal.SIGTERM)
    return await exited(proc, timeout)


async def ended(proc: asyncio.subprocess.Process, timeout: float) -> None:
    """Up to `timeout` seconds for the process to exit (told to already), then SIGKILL; returns once it has exited."""
    if not await exited(proc, timeout):
        send(proc, signal.SIGKILL)
        await proc.wait()
