"""Lobby amplification (issue 24, item 6): with 20 sessions in the lobby, one client looping create/leave made every
cycle send every lobby a new listing (two per cycle), and nobody was charged for it. Listings are now gathered per
`lobby_interval` on the coordinator's clock, and the loop is charged to its creator by the create meter."""

from __future__ import annotations

import random

from dixit_tui.coordinator import Coordinator, Identity, LobbyUpdate, TableError, TableOptions
from dixit_tui.coordinator.limits import TableLimits
from tests.coordinator.clients import Client
from tests.work_counters import Calls


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def listings(client: Client) -> int:
    return sum(isinstance(u, LobbyUpdate) for u in client.updates)


async def test_a_create_leave_loop_sends_each_lobby_a_listing_an_interval_not_two_a_cycle() -> None:
    clock = Clock()
    limits = TableLimits(lobby_interval=0.5, creates_per_player=1000, creates_per_ip=1000, creates_per_network=1000)
    coord = Coordinator(rng=random.Random(1), limits=limits, clock=clock)
    changes, sent_listings = Calls(coord, "lobby_changed"), Calls(coord, "flush_lobby")
    lobby = []
    for i in range(20):
        client = Client()
        client.session = await coord.connect(Identity(f"watcher{i}"), client)
        lobby.append(client)
    looper = Client()
    looper.session = await coord.connect(Identity("looper", "SHA256:looper", "10.0.0.1"), looper)
    before = [listings(c) for c in lobby]
    for _ in range(50):  # 50 cycles within one interval
        await looper.session.create(TableOptions())
        await looper.session.leave()
    assert changes.count == 100
    sent = [listings(c) - b for c, b in zip(lobby, before, strict=True)]
    assert sent == [1] * 20  # the first change at once; the rest wait for the interval's end
    coord.flush_lobby()  # the interval's end (its timer, on the loop)
    last = lobby[0].updates[-1]
    assert isinstance(last, LobbyUpdate) and last.tables == ()  # the listing as it is now
    assert sent_listings.count == 2 and [listings(c) - b for c, b in zip(lobby, before, strict=True)] == [2] * 20
    # a quiet interval later, a change is sent at once again
    clock.now += 1
    await looper.session.create(TableOptions())
    assert [listings(c) - b for c, b in zip(lobby, before, strict=True)] == [3] * 20
    assert sent_listings.count == 3


async def test_the_loop_is_charged_to_whoever_loops() -> None:
    coord = Coordinator(rng=random.Random(1), limits=TableLimits(creates_per_player=10), clock=Clock())
    changes = Calls(coord, "lobby_changed")
    watcher = Client()
    watcher.session = await coord.connect(Identity("watcher"), watcher)
    looper = Client()
    looper.session = await coord.connect(Identity("looper", "SHA256:looper", "10.0.0.1"), looper)
    refused = 0
    for _ in range(100):
        try:
            await looper.session.create(TableOptions())
            await looper.session.leave()
        except TableError as err:
            assert err.code == "rate_limited"
            refused += 1
    assert refused == 90 and changes.count == 20
