"""A probe, not a test: silent `json` sessions from 20 loopback addresses try to take every connection slot (issue
24, item 4); prints how many got a session, how many were refused, whether a terminal player still gets in, and how
many silent sessions are left after the idle time (docs/operations.md).

    python -m tests.e2e.idle_probe PORT PER_ADDRESS WAIT_SECONDS
"""

from __future__ import annotations

import asyncio
import contextlib
import sys

import asyncssh

from tests.e2e.harness import PtyClient, connect


async def silent(port: int, address: str, name: str, logins: asyncio.Semaphore) -> asyncssh.SSHClientConnection | str:
    try:
        async with logins:  # (a few logins at a time per address, under the server's per-address login cap)
            conn = await connect(port, name, local_ip=address)
        process = await conn.create_process("json", encoding=None)
        first = await asyncio.wait_for(process.stdout.readline(), 10)
        if not first:
            error = await process.stderr.read()
            conn.close()
            return error.decode(errors="replace").strip() or "closed"
        return conn
    except (OSError, asyncssh.Error, TimeoutError) as err:
        return f"{type(err).__name__}: {err}"


async def main(port: int, per_address: int, wait: float) -> None:
    logins = [asyncio.Semaphore(8) for _ in range(20)]
    tries = [silent(port, f"127.0.{1 + a}.2", f"s{a}x{i}", logins[a]) for a in range(20) for i in range(per_address)]
    results = await asyncio.gather(*tries)
    held = [r for r in results if isinstance(r, asyncssh.SSHClientConnection)]
    refused: dict[str, int] = {}
    for r in results:
        if isinstance(r, str):
            refused[r[:90]] = refused.get(r[:90], 0) + 1
    print(f"{len(tries)} silent json sessions from 20 addresses: {len(held)} held, refused: {refused}")
    person = await PtyClient.connect(port, "person")
    try:
        await person.wait_for_text("person", timeout=20)
        print("a terminal player got the lobby")
    finally:
        await person.close()
    await asyncio.sleep(wait)
    left = sum(not conn.is_closed() for conn in held)
    print(f"after {wait:g} s of silence: {left} of {len(held)} still connected")
    for conn in held:
        with contextlib.suppress(Exception):
            conn.close()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])))
