"""Squatting: from many addresses, a new key each time, `create` with bots, `start`, disconnect. The games hold with
nobody at them, and once every table slot is taken nobody else can open a table (issue 24, item 3). A running game
with no person connected gives its slot up to someone who is here, started-then-left games are capped per key,
address and network, and the log says what happened in summaries."""

from __future__ import annotations

import logging
import random

import pytest

from dixit_tui.bots.player import seat_bots
from dixit_tui.coordinator import Coordinator, Identity, TableError, TableOptions
from dixit_tui.coordinator.limits import TableLimits
from tests.coordinator.clients import Client


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def squat(coord: Coordinator, key: str, address: str) -> str:
    """A new key: create a table with bots, start, disconnect. Returns "ok" or the refusal's code."""
    client = Client()
    client.session = await coord.connect(Identity(key, f"SHA256:{key}", address), client)
    try:
        await client.session.create(TableOptions(seats=3))
        await client.session.add_bots(2)
        await client.session.start()
    except TableError as err:
        return err.code
    finally:
        await client.session.close()
    return "ok"


async def test_squatted_games_give_their_slots_to_people_who_are_here(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    limits = TableLimits(max_tables=18, abandoned_per_player=2, abandoned_per_ip=2, abandoned_per_network=6)
    coord = Coordinator(rng=random.Random(3), limits=limits, bots=seat_bots, clock=clock)
    caplog.set_level(logging.WARNING, "dixit_tui.coordinator.tallies")
    # 12 addresses in 3 networks, 3 squats each (a new key every time): the caps per address and network hold
    results = [await squat(coord, f"k{a}-{n}", f"10.{a % 3}.0.{a}") for a in range(12) for n in range(3)]
    assert results.count("ok") == 3 * 6  # 6 a network, 2 of them an address
    assert set(results) == {"ok", "too_many_tables"}
    assert len(coord.tables) == 18  # every slot is taken
    # a person who is here gets a table as soon as a left game has waited `make_room_after`
    clock.now += limits.make_room_after + 1
    ana = Client()
    ana.session = await coord.connect(Identity("ana", None, "192.0.2.7"), ana)
    view = await ana.session.create(TableOptions())
    assert view.code in coord.tables and len(coord.tables) == 18
    # the left games' slots go one by one to whoever is here
    for i in range(5):
        person = Client()
        person.session = await coord.connect(Identity(f"p{i}", None, f"198.51.100.{i}"), person)
        await person.session.create(TableOptions())
    assert len(coord.tables) == 18
    assert await squat(coord, "late", "203.0.113.9") == "ok"
    # the log has summaries, not a line per attempt
    coord.tally.flush()
    lines = [r.getMessage() for r in caplog.records if r.name == "dixit_tui.coordinator.tallies"]
    assert any(line.startswith("running games with nobody at them closed to make room: 7 in ") for line in lines)
    refused = "creates refused: too many running games left with nobody, per network: 9 in "
    assert any(line.startswith(refused) for line in lines)
    assert len(lines) <= 5


async def test_a_game_left_only_briefly_keeps_its_slot_when_the_server_is_full() -> None:
    clock = Clock()
    coord = Coordinator(rng=random.Random(3), limits=TableLimits(max_tables=2), bots=seat_bots, clock=clock)
    assert [await squat(coord, f"k{i}", f"10.0.{i}.1") for i in range(2)] == ["ok", "ok"]
    clock.now += 30  # a dropped connection on its way back
    ana = Client()
    ana.session = await coord.connect(Identity("ana", None, "192.0.2.7"), ana)
    with pytest.raises(TableError) as refused:
        await ana.session.create(TableOptions())
    assert refused.value.code == "too_many_tables" and len(coord.tables) == 2
