"""The queue: clients waiting for a kind of table are seated at a new one, started, as soon as enough wait; bots fill
a table for whoever waited `fill_after` seconds (on a clock the test drives); a client that goes leaves the queue."""

from __future__ import annotations

import random

import pytest

from dixit_tui.coordinator import Coordinator, QueueUpdate, TableError
from dixit_tui.coordinator.matchmaker import Ask
from dixit_tui.engine import Mode, Profile
from tests.coordinator.clients import Client, connect
from tests.protocol.clients import quick_bots


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def refresh(low: int, high: int, fill_after: float | None = None) -> Ask:
    return Ask(Mode.STANDARD, Profile.REFRESH, low, high, fill_after)


def queue_updates(client: Client) -> list[QueueUpdate]:
    return [u for u in client.updates if isinstance(u, QueueUpdate)]


async def test_four_who_queue_for_four_to_six_are_seated_at_one_table_and_it_starts() -> None:
    coord = Coordinator(rng=random.Random(1))
    clients = [await connect(coord, name, key=f"SHA256:{name}") for name in ("ana", "ben", "cy", "dan")]
    for client in clients[:3]:
        await coord.matchmaker.queue(client.session, refresh(4, 6))
    assert all(c.session.table is None for c in clients[:3]) and coord.matchmaker.waiting() == 3
    assert queue_updates(clients[0])[-1].waiting == 3 and queue_updates(clients[0])[-1].queued
    await coord.matchmaker.queue(clients[3].session, refresh(4, 6))
    tables = {c.session.table.code for c in clients if c.session.table is not None}
    assert len(tables) == 1 and coord.matchmaker.waiting() == 0
    table = coord.tables[tables.pop()]
    assert [s.name for s in table.seats] == ["ana", "ben", "cy", "dan"] and table.status == "playing"
    assert all(queue_updates(c)[-1].table == table.code for c in clients)


async def test_tables_of_other_kinds_and_sizes_do_not_mix() -> None:
    coord = Coordinator(rng=random.Random(1))
    ana, ben, cy = [await connect(coord, name) for name in ("ana", "ben", "cy")]
    await coord.matchmaker.queue(ana.session, refresh(3, 3))
    await coord.matchmaker.queue(ben.session, Ask(Mode.STANDARD, Profile.ODYSSEY, 3, 3))
    await coord.matchmaker.queue(cy.session, refresh(4, 8))
    assert coord.matchmaker.waiting() == 3 and not coord.tables
    with pytest.raises(TableError) as err:
        await coord.matchmaker.queue(cy.session, refresh(2, 9))
    assert err.value.code == "bad_option"


async def test_bots_fill_the_table_of_one_who_waited_long_enough_on_the_clock() -> None:
    clock = Clock()
    coord = Coordinator(rng=random.Random(1), clock=clock, bots=quick_bots)
    ana, ben = await connect(coord, "ana"), await connect(coord, "ben")
    await coord.matchmaker.queue(ana.session, refresh(4, 6, fill_after=30))
    clock.now += 10
    await coord.matchmaker.queue(ben.session, refresh(4, 5))
    clock.now += 19.5
    await coord.matchmaker.tick()
    assert coord.matchmaker.waiting() == 2 and not coord.tables
    clock.now += 1
    await coord.matchmaker.tick()
    assert coord.matchmaker.waiting() == 0 and ana.session.table is ben.session.table is not None
    table = ana.session.table
    assert table is not None
    assert [(s.name, s.builtin) for s in table.seats][:2] == [("ana", False), ("ben", False)]
    assert len(table.seats) == 4 and all(s.builtin for s in table.seats[2:]) and table.status == "playing"


async def test_a_client_that_goes_while_queued_leaves_the_queue() -> None:
    coord = Coordinator(rng=random.Random(1))
    clients = [await connect(coord, name) for name in ("ana", "ben", "cy", "dan", "eve")]
    for client in clients[:3]:
        await coord.matchmaker.queue(client.session, refresh(4, 4))
    await clients[1].session.close()
    assert coord.matchmaker.waiting() == 2
    await coord.matchmaker.queue(clients[3].session, refresh(4, 4))
    assert not coord.tables  # three live ones wait: ben is not counted
    assert coord.matchmaker.unqueue(clients[2].session) and not coord.matchmaker.unqueue(clients[2].session)
    assert queue_updates(clients[2])[-1] == QueueUpdate(False, 2, "You left the queue.")
    await coord.matchmaker.queue(clients[2].session, refresh(4, 4))
    await coord.matchmaker.queue(clients[4].session, refresh(4, 4))
    (table,) = coord.tables.values()
    assert sorted(s.name for s in table.seats) == ["ana", "cy", "dan", "eve"]
