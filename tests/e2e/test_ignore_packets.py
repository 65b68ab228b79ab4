"""The server sends no empty MSG_IGNORE ahead of its data packets (dixit_tui/ssh/ignore_packets.py): a real asyncssh
client over loopback counts the packets it receives, by type, while a session draws its screen."""

from __future__ import annotations

import hashlib
import inspect
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from asyncssh.connection import SSHConnection
from asyncssh.constants import MSG_CHANNEL_DATA, MSG_IGNORE

from tests.e2e.harness import PtyClient, running_server, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.same_on_two_workers]

SEND_PACKET_FINGERPRINT = "fb9da7bec6dd395a"
"""sha256 (first 16 hex digits) of asyncssh's SSHConnection.send_packet, as checked with asyncssh 2.24.1."""


def count_received(*handlers: Any) -> Counter[int]:
    """From now on, the packets the connection receives, counted by type. asyncssh logs each one it reads through its
    handler: the connection for connection-level packets (MSG_IGNORE among them), the channel for a channel's."""
    counts: Counter[int] = Counter()
    for handler in handlers:
        log = handler.log_received_packet

        def counted(pkttype: int, pktid: int | None, packet: Any, note: str = "", log: Any = log) -> None:
            counts[pkttype] += 1
            log(pkttype, pktid, packet, note)

        handler.log_received_packet = counted
    return counts


def more_than(counts: Counter[int], seen: int) -> bool:
    return counts[MSG_CHANNEL_DATA] > seen


async def test_data_packets_come_without_an_empty_ignore_ahead_of_each(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        client = await PtyClient.connect(server.port, "ana")
        counts = count_received(client.conn, client._chan)
        await client.wait_for_text("Welcome, ana")
        for size in ((90, 28), (100, 30), (80, 24)):  # each resize draws the screen again
            seen = counts[MSG_CHANNEL_DATA]
            client.resize(*size)
            await wait_for(partial(more_than, counts, seen), timeout=20.0, what="a frame after a resize")
        assert counts[MSG_CHANNEL_DATA] >= 3
        assert counts[MSG_IGNORE] == 0, counts
        client.send("q")
        await client.wait_closed()


def test_the_asyncssh_method_this_relies_on_is_unchanged() -> None:
    """ignore_packets.install wraps SSHConnection.send_packet and drops the empty MSG_IGNORE it sends to itself: if an
    upgrade changes that method, re-check the wrapper, then update the fingerprint."""
    source = inspect.getsource(SSHConnection.send_packet)
    assert hashlib.sha256(source.encode()).hexdigest()[:16] == SEND_PACKET_FINGERPRINT
