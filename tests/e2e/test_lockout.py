"""Idle sockets from many addresses must not lock new players out; a burst from one address waits for a slot.

Loopback: every 127.x.y.z is this machine, so each test "machine" is a source address; 127.N.0.1 for different N
are in different /24 networks (counted apart), 127.N.0.M for the same N in the same one.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from dixit_tui.ssh.server import BUSY_NETWORK, Limits, network_of
from tests.e2e.harness import HOST, connect, running_server, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90), pytest.mark.same_on_two_workers]

Socket = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def _open(port: int, source_ip: str) -> Socket | None:
    try:
        return await asyncio.wait_for(asyncio.open_connection(HOST, port, local_addr=(source_ip, 0)), 5)
    except (OSError, TimeoutError):
        return None


def _close(sockets: list[Socket]) -> None:
    for _, writer in sockets:
        writer.close()


async def _version(port: int, source_ip: str) -> float:
    """Log in from `source_ip` and run `version`; returns the seconds it took."""
    started = time.perf_counter()
    conn = await connect(port, "newcomer", local_ip=source_ip, timeout=20)
    try:
        result = await asyncio.wait_for(conn.run("version"), 20)
    finally:
        conn.close()
    assert result.exit_status == 2 and "needs a terminal" in str(result.stderr)  # the placeholder's answer
    return time.perf_counter() - started


def test_addresses_are_counted_per_network() -> None:
    assert network_of("203.0.113.7") == network_of("203.0.113.200") == "203.0.113.0/24"
    assert network_of("203.0.114.7") != network_of("203.0.113.7")
    assert network_of("::ffff:203.0.113.9") == "203.0.113.0/24"
    assert network_of("2001:db8:1:2:aaaa::1") == network_of("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert network_of("not an address") == "not an address"


async def test_idle_sockets_from_20_addresses_do_not_lock_out_a_new_player(tmp_path: Path) -> None:
    """20 addresses x 10 idle sockets (no SSH version line) fill the 200 login slots; a player from a fresh address
    still gets in: the oldest connection without a version line is dropped to make room."""
    async with running_server(tmp_path) as server:
        attackers = [f"127.{10 + n}.0.1" for n in range(20)]
        opened = await asyncio.gather(*(_open(server.port, ip) for ip in attackers for _ in range(10)))
        sockets = [s for s in opened if s is not None]
        try:
            await wait_for(lambda: server.connection_count >= 200, timeout=10, what="the 200 idle sockets admitted")
            took = await _version(server.port, "127.200.0.1")
            # and again while the attacker reopens what was dropped
            reopened = [s for s in await asyncio.gather(*(_open(server.port, ip) for ip in attackers[:5])) if s]
            sockets += reopened
            again = await _version(server.port, "127.201.0.1")
        finally:
            _close(sockets)
        print(
            f"\nlockout: 200 idle sockets from 20 addresses; a new player got in in {took * 1000:.0f} ms, "
            f"then in {again * 1000:.0f} ms while the attacker reopened sockets"
        )


def versions_read(server: Any, count: int) -> Callable[[], bool]:
    """Whether the server has read the SSH version line of `count` connections still logging in."""
    return lambda: sum(c.sent_version() for c in server._state.logging_in) >= count


async def test_idle_logins_that_sent_their_version_line_do_not_lock_out_a_new_player(tmp_path: Path) -> None:
    """The same with sockets that send an SSH version line and then nothing: the address holding the most login
    slots gives one up for the newcomer."""
    async with running_server(tmp_path) as server:
        attackers = [f"127.{10 + n}.0.1" for n in range(20)]
        opened = await asyncio.gather(*(_open(server.port, ip) for ip in attackers for _ in range(10)))
        sockets = [s for s in opened if s is not None]
        for _, writer in sockets:
            writer.write(b"SSH-2.0-idle\r\n")
        try:
            await wait_for(lambda: server.connection_count >= 200, timeout=10, what="the 200 idle logins admitted")
            await wait_for(versions_read(server, 200), timeout=10, what="the version lines to be read")
            took = await _version(server.port, "127.200.0.1")
        finally:
            _close(sockets)
        print(
            f"\nlockout: 200 idle logins (version line sent) from 20 addresses; a new player got in "
            f"in {took * 1000:.0f} ms"
        )


async def test_a_socket_that_sends_no_version_line_is_dropped_soon(tmp_path: Path) -> None:
    limits = Limits(banner_timeout=0.5, login_timeout=30)
    async with running_server(tmp_path, limits=limits) as server:
        silent = await _open(server.port, "127.30.0.1")
        talking = await _open(server.port, "127.31.0.1")
        assert silent is not None and talking is not None
        talking[1].write(b"SSH-2.0-slowpoke\r\n")  # ... and then nothing: the login timeout is its limit
        try:
            data = await asyncio.wait_for(silent[0].read(), 10)  # EOF: the server closed it
            assert data.startswith(b"SSH-2.0-dixit-tui")
            (talker,) = server._state.logging_in
            # its banner timeout passed too (its check is done): the one that sent its version line is still there
            await wait_for(lambda: talker._timer is None, timeout=10, what="the other's banner timeout")
            assert server.connection_count == 1 and talker.sent_version()
        finally:
            _close([silent, talking])


async def test_a_burst_of_12_logins_from_one_address_all_get_in(tmp_path: Path) -> None:
    """A bot farm behind one address opening 12 sessions at once (the per-address login cap is 10): the last
    two wait for a slot instead of being cut off."""
    async with running_server(tmp_path) as server:
        times = await asyncio.gather(*(_version(server.port, "127.40.0.1") for _ in range(12)))
    print(f"\nburst: 12 logins at once from one address, slowest {max(times) * 1000:.0f} ms")
    assert len(times) == 12


async def test_a_network_over_its_cap_is_refused_with_a_reason(tmp_path: Path) -> None:
    limits = Limits(max_unauthenticated_per_prefix=4, banner_timeout=30)
    async with running_server(tmp_path, limits=limits) as server:
        sockets = [s for s in [await _open(server.port, f"127.50.0.{n}") for n in range(1, 5)] if s]
        for _, writer in sockets:
            writer.write(b"SSH-2.0-idle\r\n")
        try:
            await wait_for(lambda: server.connection_count == 4, what="4 logins from one network")
            with pytest.raises(asyncssh.DisconnectError) as refused:
                await connect(server.port, "neighbour", local_ip="127.50.0.9")
            assert refused.value.reason.startswith(BUSY_NETWORK)  # what the client shows
            assert await _version(server.port, "127.51.0.1") > 0  # another network gets in
        finally:
            _close(sockets)


async def test_refusals_whose_connections_are_gone_do_not_use_up_the_lingering_cap(tmp_path: Path) -> None:
    """A refused connection lingers a moment so its client can read why. One whose loop ended first (a server
    stopped, a test over) must not count for ever: with the cap filled by closed ones, a refusal still says why."""
    from dixit_tui.ssh import server as server_module

    ended = asyncio.new_event_loop()
    ended.close()  # a test's loop, say, closed before its refusals' own close came
    stale = {asyncio.Transport(): ended for _ in range(server_module.MAX_LINGERING)}
    server_module._lingering.update(stale)
    try:
        await test_a_network_over_its_cap_is_refused_with_a_reason(tmp_path)
    finally:
        for transport in stale:
            server_module._lingering.pop(transport, None)
