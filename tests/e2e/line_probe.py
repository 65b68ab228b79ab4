"""A probe, not a test: an unfinished `json` line sent in 30-byte writes (issue 24, item 2) while another client
measures how long the server takes to answer it; prints the server's CPU seconds, the probe's slowest answer and
whether the sender was cut off (docs/operations.md).

    python -m tests.e2e.line_probe PORT SERVER_PID [MEGABYTES]
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from functools import partial
from typing import Any

import asyncssh

from tests.e2e.json_client import JsonClient


def _has_ref(message: dict[str, Any], ref: str) -> bool:
    return message.get("ref") == ref


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime + stime, in clock ticks of 1/100 s


async def main(port: int, pid: int, megabytes: float) -> None:
    probe = await JsonClient.open(port, "probe")
    sender = await JsonClient.open(port, "sender")
    slowest = 0.0
    stop = asyncio.Event()

    async def measure() -> None:
        nonlocal slowest
        for index in range(10_000):
            if stop.is_set():
                return
            start = time.perf_counter()
            mark = len(probe.messages)
            ref = f"p{index}"
            probe.send({"cmd": "nonsense", "ref": ref})
            await probe.wait_for(partial(_has_ref, ref=ref), start=mark)
            slowest = max(slowest, time.perf_counter() - start)
            await asyncio.sleep(0.05)

    before = cpu_seconds(pid)
    measuring = asyncio.create_task(measure())
    sent = 0
    total = int(megabytes * 1_000_000)
    sender.send(b'{"cmd":"chat","text":"')
    with contextlib.suppress(ConnectionError, asyncssh.Error, BrokenPipeError):
        while sent < total and not sender.conn.is_closed():
            sender.process.stdin.write(b"x" * 30)
            sent += 30
            if sent % 3000 == 0:
                await sender.process.stdin.drain()
    await asyncio.sleep(1)  # (a probe, not a test: the answers measured for a second after the line, in real time)
    stop.set()
    await measuring
    cut = sender.conn.is_closed() or not sender.alive
    answers = [m.get("code") for m in sender.messages if m.get("type") == "error"]
    print(
        f"sent {sent} bytes in 30-byte writes; cut off: {cut}; answers: {answers}; "
        f"server CPU {cpu_seconds(pid) - before:.2f} s; probe's slowest answer {slowest * 1000:.0f} ms"
    )


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]) if len(sys.argv) > 3 else 2.2))
