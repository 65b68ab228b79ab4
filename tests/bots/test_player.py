"""Bots playing through the coordinator like any client: whole games with a human-like session, stop, lobby."""

from __future__ import annotations

import asyncio
import random

import pytest

from dixit_tui.bots.player import BOT_NAMES, BotPlayer, add_bots
from dixit_tui.bots.strategy import (
    RandomStrategy,
    SmartStrategy,
)
from dixit_tui.coordinator import (
    Coordinator,
    TableError,
    TableOptions,
    VoidedUpdate,
)
from tests.bots.humans import Human

pytestmark = pytest.mark.timeout(30)


async def test_a_whole_game_with_one_human_and_three_bots() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    ana = Human("ana")
    session = await ana.connect(coord)
    table = await session.create(TableOptions(mode="standard", target=15, seed=3))
    bots = await add_bots(coord, table.code, 3, rng=random.Random(2), delay=(0.0, 0.0))
    assert [b.name for b in bots] == list(BOT_NAMES[:3])
    assert ana.view is not None and [s.bot for s in ana.view.seats] == [False, True, True, True]
    await session.start()
    player = asyncio.create_task(ana.play())
    await asyncio.wait_for(ana.over.wait(), 20)
    await asyncio.wait_for(asyncio.gather(*(b.finished.wait() for b in bots)), 5)
    player.cancel()
    assert ana.view is not None and ana.view.status == "over"
    assert all(b.actions > 0 and b.session is not None and b.session.closed for b in bots)
    assert ana.moves > 0
    game = ana.view.game
    assert game is not None and max(p.score for p in game.players) >= 15


async def test_bots_play_a_party_game_and_a_team_game_to_the_end() -> None:
    for mode, total in (("party", 7), ("team", 6)):
        coord = Coordinator(rng=random.Random(5), allow_seeded_tables=True)
        ana = Human("ana")
        session = await ana.connect(coord)
        table = await session.create(TableOptions(mode=mode, seed=9))
        bots = await add_bots(coord, table.code, total - 1, rng=random.Random(3), delay=(0.0, 0.0))
        assert len(bots) == total - 1
        await session.start()
        player = asyncio.create_task(ana.play())
        await asyncio.wait_for(ana.over.wait(), 20)
        player.cancel()
        assert ana.view is not None and ana.view.status == "over", mode


async def test_bots_alone_with_random_and_smart_strategies_finish() -> None:
    coord = Coordinator(rng=random.Random(7), allow_seeded_tables=True)
    host = Human("host", plays=False)
    session = await host.connect(coord)
    table = await session.create(TableOptions(mode="standard", profile="odyssey", target=12, seed=4))
    smart = await add_bots(coord, table.code, 4, strategy="smart", rng=random.Random(1), delay=(0.0, 0.0))
    rand = await add_bots(coord, table.code, 3, strategy=RandomStrategy(), rng=random.Random(2), delay=(0.0, 0.0))
    await session.remove(0)  # the host leaves the table before the start: the host role passes to a bot
    assert session.table is None
    bots = smart + rand
    # with no human left in the lobby, the bots leave too (so the table can be forgotten)
    await asyncio.wait_for(asyncio.gather(*(b.finished.wait() for b in bots)), 5)
    assert table.code not in coord.tables


async def test_a_started_game_of_bots_only_waits_and_closes_and_its_bots_stop() -> None:
    coord = Coordinator(rng=random.Random(8), allow_seeded_tables=True, close_idle_after=0.3)
    ana = Human("ana", plays=False)
    session = await ana.connect(coord)
    table = await session.create(TableOptions(mode="standard", target=10, seed=2))
    bots = await add_bots(coord, table.code, 4, rng=random.Random(4), delay=(0.0, 0.001))
    await session.start()
    await session.remove(0)  # the human leaves for good (to the lobby): the bots alone do not play on
    assert session.table is None
    await asyncio.wait_for(asyncio.gather(*(b.finished.wait() for b in bots)), 20)
    assert table.code not in coord.tables  # closed, as a table nobody plays at is
    assert all(b.session is not None and b.session.closed for b in bots)


async def test_stop_closes_the_session_and_keeps_the_seat_in_a_running_game() -> None:
    coord = Coordinator(rng=random.Random(9))
    ana = Human("ana", plays=False)
    session = await ana.connect(coord)
    table = await session.create(TableOptions(mode="standard"))
    bots = await add_bots(coord, table.code, 2, delay=(5.0, 5.0))  # slow thinkers: nothing happens in this test
    await session.start()
    await bots[0].stop()
    assert bots[0].finished.is_set() and bots[0].session is not None and bots[0].session.closed
    assert ana.view is not None and [s.connected for s in ana.view.seats] == [True, False, True]
    await bots[1].stop()
    await bots[1].stop()  # twice is fine


async def test_add_bots_skips_taken_names_and_reports_a_full_table() -> None:
    coord = Coordinator(rng=random.Random(10))
    oneiros = Human(BOT_NAMES[0], plays=False)
    session = await oneiros.connect(coord)
    table = await session.create(TableOptions(mode="standard", seats=3))
    bots = await add_bots(coord, table.code, 5, delay=(0.0, 0.0))
    assert [b.name for b in bots] == [BOT_NAMES[1], BOT_NAMES[2]]  # the table holds three
    with pytest.raises(TableError) as caught:
        await add_bots(coord, table.code, 1)
    assert caught.value.code == "table_full"
    with pytest.raises(TableError):
        await BotPlayer.join(coord, "ZZZZ", "Nyx", SmartStrategy(), random.Random(0))
    assert all(not s.closed for s in [b.session for b in bots] if s is not None)
    for bot in bots:
        await bot.stop()


async def test_a_voided_turn_is_told_again_with_another_card() -> None:
    coord = Coordinator(rng=random.Random(11), allow_seeded_tables=True)
    ana = Human("ana", plays=False)
    session = await ana.connect(coord)
    table = await session.create(TableOptions(mode="standard", first="random", seed=5))
    bots = await add_bots(coord, table.code, 3, rng=random.Random(6), delay=(0.0, 0.0))
    await session.start()
    for _ in range(3):
        await asyncio.sleep(0.01)
        view = ana.view
        assert view is not None and view.game is not None
        if view.game.phase == "clue" and view.game.storyteller == 0:
            await session.clue("a test", view.game.hand[0].card)
        if view.game.phase == "submit":
            break
    view = ana.view
    assert view is not None and view.game is not None and view.game.phase in ("submit", "vote")
    teller = view.game.storyteller
    await session.void()
    assert any(isinstance(u, VoidedUpdate) for u in ana.updates)
    for _ in range(50):
        await asyncio.sleep(0.01)
        game = ana.view.game if ana.view else None
        if game is not None and game.phase != "clue":
            break
    game = ana.view.game if ana.view else None
    assert game is not None and game.phase != "clue" and game.storyteller == teller
    assert sum(b.errors for b in bots) == 0  # the bot storyteller did not offer the voided card again
    for bot in bots:
        await bot.stop()


async def test_a_bot_removed_from_a_running_game_stops() -> None:
    coord = Coordinator(rng=random.Random(12))
    ana = Human("ana", plays=False)
    session = await ana.connect(coord)
    table = await session.create(TableOptions(mode="standard"))
    bots = await add_bots(coord, table.code, 3, delay=(5.0, 5.0))
    await session.start()
    await session.remove(1)
    await asyncio.wait_for(bots[0].finished.wait(), 5)
    assert bots[0].session is not None and bots[0].session.closed
    assert not bots[1].finished.is_set()
    for bot in bots[1:]:
        await bot.stop()
