"""IPv6 clients are counted by their /64 in every per-address limit; `--host ::` takes IPv4 and IPv6 (issue 24,
item 8)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from dixit_tui.addresses import address_of, network_of, plain_ip
from dixit_tui.coordinator import Coordinator, Identity, TableError, TableOptions
from dixit_tui.coordinator.limits import CreateMeter, ReconnectGuard, TableLimits
from dixit_tui.coordinator.table import Table
from dixit_tui.ssh.server import BUSY_ADDRESS, BUSY_LOGINS, Limits, _ServerState, start_server
from tests.e2e.harness import connect


def test_an_ipv6_address_counts_as_its_64_and_a_mapped_ipv4_as_ipv4() -> None:
    assert address_of("2001:db8:1:2:aaaa::1") == address_of("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert address_of("2001:db8:1:3::1") != address_of("2001:db8:1:2::1")
    assert address_of("10.0.0.1") == "10.0.0.1" and address_of("::ffff:10.0.0.1") == "10.0.0.1"
    assert plain_ip("::ffff:127.0.0.1") == "127.0.0.1" and plain_ip("::1") == "::1"
    assert network_of("10.0.0.77") == "10.0.0.0/24"


class _Client:
    """What the server's bookkeeping reads of a connection."""

    def __init__(self, ip: str) -> None:
        self.peer_ip = ip
        self.address = address_of(ip)
        self.network = network_of(ip)
        self.waiting = False


def _client(ip: str) -> Any:
    return _Client(ip)


def test_connections_and_logins_from_one_64_are_counted_together() -> None:
    limits = Limits(max_connections_per_ip=5, max_unauthenticated_per_ip=3, handshake_wait=0)
    state = _ServerState(limits, "fp")
    clients = [_client(f"2001:db8:0:1::{index + 1:x}") for index in range(4)]
    assert [state.admit(client) for client in clients] == [None, None, None, BUSY_LOGINS]  # 3 logging in: one /64
    assert state.admit(_client("2001:db8:0:2::1")) is None  # another /64: another "address"
    for client in clients[:3]:  # the first three logged in
        state.authenticated(client)
    answers = [state.admit(_client(f"2001:db8:0:1:{index + 1:x}::5")) for index in range(3)]
    assert answers == [None, None, BUSY_ADDRESS]  # 5 connections from the /64 in all


async def test_tables_and_reconnect_tries_are_counted_per_64() -> None:
    coord = Coordinator(rng=random.Random(1), limits=TableLimits(max_tables_per_ip=2, max_tables_per_player=5))
    answers = []
    for index in range(3):
        who = Identity(f"p{index}", f"SHA256:k{index}", f"2001:db8::{index + 1}")
        session = await coord.connect(who, lambda update: None)
        try:
            await session.create(TableOptions())
            answers.append("ok")
        except TableError as err:
            answers.append(err.code)
    assert answers == ["ok", "ok", "too_many_tables"]
    guard = ReconnectGuard(TableLimits())
    assert guard.keys("2001:db8::1") == guard.keys("2001:db8::abcd:1")


async def test_listening_on_the_ipv6_any_address_takes_ipv4_and_ipv6(tmp_path: Path) -> None:
    server = await start_server("::", 0, tmp_path / "keys", lambda identity, terminal: None)  # type: ignore[arg-type,return-value]
    try:
        for host in ("127.0.0.1", "::1"):
            conn = await connect(server.port, "ana", host=host)
            try:
                result = await asyncio.wait_for(conn.run("version"), 10)
            finally:
                conn.close()
            assert result.exit_status == 2  # no command handler: the hint to use a terminal
    finally:
        await server.shutdown()


def test_creates_and_a_hosts_removal_count_an_ipv6_client_by_its_64() -> None:
    meter = CreateMeter(TableLimits(), clock=lambda: 0.0)
    assert meter.keys("key:k", "2001:db8:5::1")[1] == meter.keys("key:k", "2001:db8:5::abcd")[1]
    table: Table[Any] = Table("ABCD", TableOptions(), random.Random(1), lambda names: ())
    table.banned_ips.add("2001:db8:5::1")  # a keyless player the host removed
    assert table.keeps_out(None, "2001:db8:5::99")  # a new address of the same /64: still out
    assert not table.keeps_out(None, "2001:db8:6::1")
