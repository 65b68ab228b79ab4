"""Issue 24, items 3, 5 and 6, over real SSH from loopback, with the figures of docs/operations.md (printed with -s):
squatters from 20 addresses in 4 networks (create with bots, start, leave) cannot lock people out; a create/leave
loop on one connection is metered; and such a loop does not make every lobby redraw twice a cycle.

    ./dev test tests/e2e/test_squat_churn_lobby.py -s
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.json_client import JsonClient
from tests.e2e.servers import dixit_server
from tests.e2e.shared_servers import skip_on_two_workers
from tests.work_counters import Calls

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]


async def create_leave(client: JsonClient, ref: str, **options: object) -> str:
    """One create (then leave when it worked): "ok", or the error's code."""
    start = len(client.messages)
    client.send({"cmd": "create", "mode": "standard", "ref": ref, **options})
    answer = await client.wait_for(
        lambda m: (m["type"] == "error" and m.get("ref") == ref) or (m["type"] == "state" and m["table"]), start=start
    )
    if answer["type"] == "error":
        return str(answer["code"])
    client.send({"cmd": "leave"})
    await client.wait_for(lambda m: m["type"] == "state" and m["table"] is None, start=start)
    return "ok"


def answered(ref: str) -> Callable[[dict[str, Any]], bool]:
    """The error `ref` caused, or the state of a table with its three seats taken (the creator and 2 bots)."""

    def match(m: dict[str, Any]) -> bool:
        return (m["type"] == "error" and m.get("ref") == ref) or (m["type"] == "state" and len(m["players"]) == 3)

    return match


async def test_squatters_from_20_addresses_leave_room_for_a_person(tmp_path: Path) -> None:
    skip_on_two_workers("counts one process's open tables the moment each squatter leaves")
    async with dixit_server(tmp_path, store=True, limit=["max_tables=20"]) as (server, coord):
        results: list[str] = []
        began = time.perf_counter()
        for n in range(3):
            for a in range(20):
                squat = await JsonClient.open(server.port, f"sq{a}x{n}", local_ip=f"127.0.{a % 4}.{10 + a}")
                ref = f"{a}-{n}"
                squat.send({"cmd": "create", "mode": "standard", "seats": 3, "bots": 2, "ref": ref})
                got = await squat.wait_for(answered(ref))
                if got["type"] == "error":
                    results.append(str(got["code"]))
                else:
                    squat.send({"cmd": "start", "ref": "go"})
                    await squat.wait_for(lambda m: m["type"] == "state" and m["phase"] == "clue")
                    results.append("ok")
                await squat.close()
        elapsed = time.perf_counter() - began
        left = coord.unattended()
        # each address may leave 3 games running, each network 10; the server's 20 slots are all taken
        assert results.count("ok") == len(left) == len(coord.tables) == 20
        for table in left:
            assert table.idle_since is not None
            table.idle_since -= coord.limits.make_room_after  # the test drives the clock: a minute has passed
        person = await JsonClient.open(server.port, "ana", local_ip="127.0.1.200")  # another network
        person.send({"cmd": "create", "mode": "standard", "ref": "mine"})
        await person.wait_for(lambda m: m["type"] == "state" and m["table"])
        assert len(coord.tables) == 20 and len(coord.unattended()) == 19  # one left game gave its slot
        print(
            f"\nsquat: 60 create+bots+start+leave from 20 addresses in {elapsed:.1f} s: {results.count('ok')} games "
            f"left running, {len(results) - results.count('ok')} creates refused ({sorted(set(results) - {'ok'})}); "
            f"open tables {len(coord.tables)} of {coord.limits.max_tables}; a person's create: ok (a game left "
            f"{coord.limits.make_room_after:.0f} s closed to make room)"
        )
        await person.close()


async def test_a_create_leave_loop_on_one_connection_is_metered(tmp_path: Path) -> None:
    async with dixit_server(tmp_path, store=True) as (server, coord):
        loop = await JsonClient.open(server.port, "loop")
        began = time.perf_counter()
        results = [await create_leave(loop, f"c{i}") for i in range(200)]
        elapsed = time.perf_counter() - began
        made = results.count("ok")
        assert made == coord.limits.creates_per_player and set(results[made:]) == {"rate_limited"}
        assert len(coord.used_codes) <= made and not coord.tables  # (on two workers, one worker's codes)
        print(
            f"\ncode churn: 200 create/leave cycles on one connection in {elapsed:.2f} s: {made} tables made "
            f"(codes held: {len(coord.used_codes)}, reusable {coord.limits.code_reuse_after / 3600:.0f} h after their "
            f"table closed), {results.count('rate_limited')} refused (rate_limited)"
        )
        await loop.close()


async def test_a_create_leave_loop_costs_each_lobby_a_listing_an_interval(tmp_path: Path) -> None:
    skip_on_two_workers("counts one process's lobby listings")
    limits = ["creates_per_player=1000", "creates_per_ip=1000", "creates_per_network=1000"]
    async with dixit_server(tmp_path, limit=limits) as (server, coord):
        lobby = [await JsonClient.open(server.port, f"w{i}", local_ip=f"127.0.0.{50 + i}") for i in range(20)]
        loop = await JsonClient.open(server.port, "loop")
        before = [len(c.messages) for c in lobby]
        changes, listings = Calls(coord, "lobby_changed"), Calls(coord, "flush_lobby")
        began = time.perf_counter()
        results = [await create_leave(loop, f"c{i}") for i in range(100)]
        elapsed = time.perf_counter() - began
        assert results == ["ok"] * 100 and changes.count >= 200
        coord.flush_lobby()
        sent = listings.count
        received = [len(c.messages) - b for c, b in zip(lobby, before, strict=True)]
        assert sent < 200 and max(received) <= sent
        print(
            f"\nlobby: 100 create/leave cycles in {elapsed:.2f} s with 20 sessions in the lobby: "
            f"{changes.count} changes, {sent} listings sent (each lobby session got {min(received)}-"
            f"{max(received)} messages; without coalescing, 200 each)"
        )
        for client in [*lobby, loop]:
            await client.close()
