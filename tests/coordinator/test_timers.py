"""Tables never stall: phase time limits and disconnected players are covered by a stand-in."""

from __future__ import annotations

import asyncio
import random

import pytest

from dixit_tui.coordinator import Coordinator, TableError, TableOptions
from tests.coordinator.test_coordinator import Client, connect, game_of, table_of


async def wait_until(predicate, timeout: float = 5.0) -> None:  # type: ignore[no-untyped-def]
    async def loop() -> None:
        while not predicate():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(loop(), timeout)


async def test_phase_time_limit_plays_for_everyone_missing() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    clients = await table_of(coord, 3, seed=2, turn_seconds=1)
    await clients[0].session.start()
    view = clients[1].view
    assert view is not None and view.deadline is not None
    await wait_until(lambda: clients[1].view.game.phase == "submit")  # type: ignore[union-attr]
    assert "Time's up: a stand-in gave the clue" in clients[1].view.log[-1]  # type: ignore[union-attr]
    await wait_until(lambda: clients[1].view.game.turn == 2, timeout=8)  # type: ignore[union-attr]


async def test_a_disconnected_player_is_covered_after_the_grace_period() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, disconnect_grace=0.3)
    clients = await table_of(coord, 3, seed=4)
    await clients[0].session.start()
    g = game_of(clients[0])
    await clients[0].session.clue("tide", g.hand[0].card)
    await clients[2].session.close()
    g1 = game_of(clients[1])
    await clients[1].session.submit([c.card for c in g1.hand[:2]])
    await wait_until(lambda: clients[1].view.game.phase == "vote")  # type: ignore[union-attr]
    assert any(line == "p2 is away: a stand-in gave 2 cards for them." for line in clients[1].view.log)  # type: ignore[union-attr]


async def test_nobody_is_covered_while_someone_else_can_act() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, disconnect_grace=0.1)
    clients = await table_of(coord, 3, seed=4)
    await clients[0].session.start()
    await clients[2].session.close()  # the first clue is open to everyone: p2's absence blocks nothing
    await asyncio.sleep(0.4)
    assert clients[0].view.game.phase == "clue"  # type: ignore[union-attr]
    assert clients[0].view.deadline is None  # type: ignore[union-attr]


async def test_an_abandoned_table_waits_for_its_players() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, disconnect_grace=0.1)
    clients = await table_of(coord, 3, seed=4, turn_seconds=1)
    await clients[0].session.start()
    code = clients[0].view.code  # type: ignore[union-attr]
    for c in clients:
        await c.session.close()
    await asyncio.sleep(1.3)
    game = coord.tables[code].game
    assert game is not None and game.state.turn.number == 1 and game.state.phase.value == "clue"


async def test_timer_bounds_are_checked() -> None:
    coord = Coordinator()
    c = await connect(coord, "ana")
    with pytest.raises(TableError, match="timer"):
        await c.session.create(TableOptions(turn_seconds=0))
    assert isinstance(c, Client)
