"""A flood of idle sockets from one address must not keep a real player (from another address) out."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest

from tests.e2e.harness import connect, running_server

pytestmark = [pytest.mark.e2e, pytest.mark.same_on_two_workers]
log = logging.getLogger(__name__)

FLOOD = 300
ATTACKER = "127.0.0.1"
PLAYER = "127.0.0.2"  # another loopback address: another "machine" for the server's per-address caps
WAVE = 50
"""Sockets opened at once: within the listening socket's accept queue (100), so each is taken in at once (beyond it,
the kernel takes one in after a SYN-ACK retransmitted a second or more later)."""


async def _open_idle(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
    try:
        return await asyncio.wait_for(asyncio.open_connection(ATTACKER, port), 5)
    except (OSError, TimeoutError):
        return None


async def _answered(socket: tuple[asyncio.StreamReader, asyncio.StreamWriter]) -> None:
    """The server has taken the connection in and decided on it: it sends its SSH version line (and, to one it
    refuses, its disconnect message), or closes it."""
    await asyncio.wait_for(socket[0].read(1), 10)


async def _flood(port: int) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """`FLOOD` idle sockets, opened in waves of `WAVE`, each wave taken in by the server before the next."""
    sockets: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    for _ in range(0, FLOOD, WAVE):
        wave = [s for s in await asyncio.gather(*(_open_idle(port) for _ in range(WAVE))) if s]
        await asyncio.gather(*(_answered(s) for s in wave))
        sockets += wave
    return sockets


async def test_a_flood_of_idle_sockets_does_not_keep_a_real_player_out(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        sockets = await _flood(server.port)
        held = server.connection_count
        # 10 logging in, and 10 more waiting (not read) for a login slot; the others are refused
        assert held <= 20, f"one address holds {held} unauthenticated connections"
        started = time.perf_counter()
        # the server's address is the attacker's; the player comes from another source address
        conn = await connect(server.port, "real", host=ATTACKER, local_ip=PLAYER)
        try:
            result = await asyncio.wait_for(conn.run("version"), 10)
        finally:
            conn.close()
        took = (time.perf_counter() - started) * 1000
        for _, writer in sockets:
            writer.close()
        # the placeholder server has no command handler: it answers with how to connect, and exit status 2
        assert result.exit_status == 2 and "needs a terminal" in str(result.stderr)
        print(
            f"flood: {FLOOD} idle sockets from {ATTACKER}, {held} held by the server; "
            f"a player from {PLAYER} connected and got an answer in {took:.0f} ms"
        )
