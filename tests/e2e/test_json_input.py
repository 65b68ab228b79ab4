"""Floods of input on `json` sessions (issue 24, items 1, 2 and 4): input is metered as a terminal's, what a session
may hold unread is bounded (its receive window stays shut while input waits in its channel), an endless line is
answered once and dropped as it comes, idle sessions end, and sessions without a terminal leave room for terminals."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from dixit_tui.protocol.json_stream import MAX_LINE
from dixit_tui.ssh.server import FULL_HEADLESS, Limits
from dixit_tui.ssh.session_runner import SessionIdentity
from tests.e2e.harness import PtyClient, connect, running_server
from tests.e2e.json_client import JsonClient
from tests.e2e.servers import dixit_server
from tests.e2e.shared_servers import skip_on_two_workers

pytestmark = pytest.mark.e2e

WINDOW = 64 * 1024


async def test_a_flood_of_json_lines_disconnects_the_client(tmp_path: Path) -> None:
    """`yes ... | ssh HOST json`: the session's input is metered like a terminal's; the flood ends the connection
    after about `input_burst` bytes, where before it was read (and answered) for ever."""
    limits = ["input_rate=16384", "input_burst=65536"]
    async with dixit_server(tmp_path, limit=limits) as (server, _):
        client = await JsonClient.open(server.port, "flood")
        line = b"x" * 96 + b"\n"
        sent = 0
        with contextlib.suppress(ConnectionError, asyncssh.Error, TimeoutError):
            for _ in range(400):  # up to 4 MB, 10 KB a write
                client.process.stdin.write(line * 100)
                sent += len(line) * 100
                await asyncio.wait_for(client.process.stdin.drain(), 10)
                if client.conn.is_closed() or not client.alive:
                    break
            await asyncio.wait_for(client.conn.wait_closed(), 10)
        assert client.conn.is_closed(), f"still connected after {sent} bytes of junk lines"
        assert sent < 1_000_000, sent
        print(f"json flood: disconnected after {sent} bytes")


@pytest.mark.same_on_two_workers
async def test_what_a_slow_session_holds_unread_is_bounded(tmp_path: Path) -> None:
    """A session that reads slower than its client writes holds at most its stream's buffer and its channel's queue
    (about two windows, plus a packet): the window is not re-opened while input waits in the channel (before, every
    resume let more in, without bound: 128, 160, 192 ... 352 KiB in 8 rounds)."""
    held: list[int] = []
    rounds = 8

    async def slow_reader(identity: SessionIdentity, command: str | None, reader: Any, writer: Any) -> int:
        stream = reader._session
        channel = reader.channel
        for _ in range(rounds):
            for _ in range(300):  # until the client has used up its window (bounded)
                if channel._recv_window < 4096:
                    break
                await asyncio.sleep(0.01)
            held.append(stream._recv_buf_len + sum(len(data) for data, _ in channel._recv_buf))
            await reader.read(WINDOW // 2)
        writer.write(b"done\n")
        return 0

    limits = Limits(input_rate=1e9, input_burst=1 << 30, input_window=WINDOW)
    async with running_server(tmp_path, command_handler=slow_reader, limits=limits) as server:
        conn = await connect(server.port, "slow")
        try:
            process = await conn.create_process("json", encoding=None)
            for _ in range(rounds * 8):
                process.stdin.write(b"y" * (WINDOW // 2))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(process.stdin.drain(), 0.5)
                if held and len(held) >= rounds:
                    break
            await asyncio.wait_for(process.stdout.readline(), 30)
        finally:
            conn.close()
    assert len(held) == rounds
    assert max(held) <= 3 * WINDOW, f"unread input held by the session, per round: {held}"  # (grew by a half each)


async def test_an_endless_line_in_small_packets_is_answered_once_and_dropped(tmp_path: Path) -> None:
    """An unfinished line sent 30 bytes at a time: the session answers `line_too_long` once, before the line ends
    (it is not kept whole), drops the rest, and reads the next line as usual."""
    async with dixit_server(tmp_path, limit=["input_burst=4000000"]) as (server, _):  # (tiny packets: metered)
        client = await JsonClient.open(server.port, "slowline")
        client.send(b'{"cmd":"chat","text":"')
        chunk = b"x" * 30
        for index in range(4 * MAX_LINE // 30):
            client.process.stdin.write(chunk)
            if index % 64 == 0:
                await client.process.stdin.drain()
        too_long = await client.wait_for("error", code="line_too_long")
        assert too_long["ref"] is None
        for _ in range(100):  # more of the same line: dropped, not answered again
            client.process.stdin.write(chunk * 10)
        client.send(b'"}\n{"cmd":"nonsense","ref":"after"}\n')
        after = await client.wait_for(lambda m: m.get("ref") == "after")
        assert after["code"] == "unknown_command"
        assert len(client.of_type("error")) == 2, client.of_type("error")
        await client.close()


async def test_a_flood_of_tiny_packets_is_cut_as_early_as_one_of_full_ones(tmp_path: Path) -> None:
    """Each packet costs the server about the same, whatever its size: an unfinished line in 30-byte writes is cut
    after about `input_burst / 512` packets (before, after about 1 MB: 33,000 packets, seconds of CPU)."""
    async with dixit_server(tmp_path) as (server, _):
        client = await JsonClient.open(server.port, "tiny")
        client.send(b'{"cmd":"chat","text":"')
        sent = 0
        with contextlib.suppress(ConnectionError, asyncssh.Error, TimeoutError):
            for index in range(2_200_000 // 30):
                if client.conn.is_closed() or not client.alive:
                    break
                client.process.stdin.write(b"x" * 30)
                sent += 30
                if index % 100 == 0:
                    await asyncio.wait_for(client.process.stdin.drain(), 10)
            await asyncio.wait_for(client.conn.wait_closed(), 10)
        assert client.conn.is_closed(), f"still connected after {sent} bytes in 30-byte writes"
        assert sent < 400_000, sent
        print(f"tiny packets: cut after {sent} bytes sent")


async def test_idle_json_sessions_end_but_seated_and_queued_players_stay(tmp_path: Path) -> None:
    # (the server closes the connection of an ended session after `linger_after_session`: short here)
    limit = ["json_idle_timeout=0.5", "linger_after_session=0.1"]
    async with dixit_server(tmp_path, limit=limit) as (server, _):
        seated = await JsonClient.open(server.port, "ana")
        await seated.create(mode="standard")
        queued = await JsonClient.open(server.port, "cy")
        queued.send({"cmd": "queue", "mode": "standard", "profile": "refresh", "players": [6, 8]})
        await queued.wait_for("queue")
        idle = await JsonClient.open(server.port, "ben")
        message = await idle.wait_for("error", code="idle")
        assert "sent nothing" in message["message"]
        await asyncio.wait_for(idle.conn.wait_closed(), 10)
        # one more idle period: another silent session is ended by then, and ana, seated at her table, is still here
        later = await JsonClient.open(server.port, "dan")
        await later.wait_for("error", code="idle")
        await asyncio.wait_for(later.conn.wait_closed(), 10)
        assert seated.alive and not seated.conn.is_closed()
        assert not seated.of_type("error")
        assert queued.alive and not queued.of_type("error")  # waiting in the queue is not idle either
        await seated.close()
        await queued.close()


async def test_sessions_without_a_terminal_leave_room_for_terminal_players(tmp_path: Path) -> None:
    skip_on_two_workers("counts one process's connections (each worker keeps its own share)")
    limits = ["max_connections=5", "terminal_reserve=0.4"]  # 3 sessions without a terminal at most
    async with dixit_server(tmp_path, limit=limits) as (server, _):
        clients = [await JsonClient.open(server.port, f"bot{index}") for index in range(3)]
        conn = await connect(server.port, "late")
        try:
            result = await asyncio.wait_for(conn.run("json"), 10)
        finally:
            conn.close()
        assert result.exit_status == 1 and FULL_HEADLESS.strip() in str(result.stderr)
        async with await PtyClient.connect(server.port, "cy") as person:
            await person.wait_for_text("cy", timeout=20)
        for client in clients:
            await client.close()
