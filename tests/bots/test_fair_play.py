"""Bots leave room for people: the first clue, a team's card, and nothing at all while nobody is there."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

import pytest

from dixit_tui.bots.player import BotPlayer, add_bots
from dixit_tui.coordinator import Coordinator, TableOptions
from tests.bots.holds import still_holding
from tests.bots.humans import Human

pytestmark = pytest.mark.timeout(30)


async def wait_until(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    async def loop() -> None:
        while not predicate():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(loop(), timeout)


def told(human: Human) -> bool:
    return human.view is not None and human.view.game is not None and human.view.game.storyteller is not None


def held(bots: list[BotPlayer], reason: str) -> bool:
    return all(bot.holds.get(reason, 0) > 0 for bot in bots)


async def seated(coord: Coordinator, bots: int = 3, **options: object) -> tuple[Human, list[BotPlayer], str]:
    ana = Human("ana", plays=False)
    session = await ana.connect(coord)
    table = await session.create(TableOptions(**options))  # type: ignore[arg-type]
    seated = await add_bots(coord, table.code, bots, rng=random.Random(2), delay=(0.0, 0.0))
    return ana, seated, table.code


async def test_bots_leave_the_first_clue_to_a_person_for_the_grace_period() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, first_clue_grace=3600)
    ana, bots, _ = await seated(coord, mode="standard", seed=3)
    assert ana.session is not None
    await ana.session.start()
    await wait_until(lambda: held(bots, "grace"))  # each bot saw the open clue and waits (no think delay at all)
    assert ana.view is not None and ana.view.game is not None
    await ana.session.clue("the long way home", ana.view.game.hand[0].card)  # not refused: nobody took it
    assert ana.view.game is not None and ana.view.game.storyteller == 0
    await wait_until(lambda: ana.view is not None and ana.view.game is not None and ana.view.game.turn == 2)
    for bot in bots:
        await bot.stop()


async def test_bots_never_take_the_first_clue_while_a_person_is_writing_one() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, first_clue_grace=3600, typing_timeout=3600)
    ana, bots, _ = await seated(coord, mode="standard", seed=3)
    assert ana.session is not None
    await ana.session.start()
    await wait_until(lambda: held(bots, "grace"))
    for bot in bots:
        bot.first_clue_grace = 0  # the grace is over; ana is still writing
    await ana.session.typing(True)  # a view change: every bot looks again and holds for her
    await wait_until(lambda: held(bots, "typing"))
    await still_holding(bots, "typing")  # a bot with no think delay would have acted by now, if it would
    game = ana.view.game if ana.view is not None else None
    assert game is not None and game.storyteller is None and game.phase == "clue"
    await ana.session.typing(False)  # she gave up: a bot takes the clue now
    await wait_until(lambda: told(ana))
    assert ana.view is not None and ana.view.game is not None and ana.view.game.storyteller != 0
    for bot in bots:
        await bot.stop()


async def test_a_stuck_writing_mark_cannot_hold_the_bots_forever() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, first_clue_grace=0, typing_timeout=0.3)
    ana, bots, _ = await seated(coord, mode="standard", seed=3)
    assert ana.session is not None
    await ana.session.start()
    await ana.session.typing(True)  # and never again: her connection froze, say
    await wait_until(lambda: told(ana))
    assert ana.view is not None and ana.view.typing == ()
    for bot in bots:
        await bot.stop()


async def test_a_bot_teammate_leaves_the_teams_card_to_its_person() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, first_clue_grace=3600)
    ana, bots, _ = await seated(coord, 5, mode="team", first="random", seed=12)
    assert ana.session is not None
    await ana.session.start()
    view = ana.view
    assert view is not None and view.game is not None
    teller = view.game.storyteller
    # seats 0 and 3 are a team (opposite seats): the game must start with another team telling
    assert teller not in (0, 3), "pick a seed where another team tells first"
    await wait_until(lambda: ana.view is not None and ana.view.game is not None and ana.view.game.phase == "submit")
    mate = next(b for b in bots if b.seat == 3)
    await wait_until(lambda: mate.holds.get("team", 0) > 0)
    await still_holding([mate], "team")
    view = ana.view
    assert view is not None and view.game is not None and 0 in view.game.waiting_for and 3 in view.game.waiting_for
    await ana.session.submit([view.game.hand[0].card])  # hers, not refused: the bot did not give it first
    assert ana.view is not None and "ana gave a card." in ana.view.log
    assert f"{mate.name} gave a card." not in ana.view.log
    for bot in bots:
        await bot.stop()


async def test_bots_hold_while_no_person_is_connected() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, first_clue_grace=0)
    ana, bots, code = await seated(coord, mode="standard", seed=3)
    assert ana.session is not None
    await ana.session.start()
    await ana.session.close()  # everyone human is gone
    await wait_until(lambda: any(bot.holds.get("alone", 0) > 0 for bot in bots))
    before = [bot.actions for bot in bots]
    await still_holding(bots, "alone", later=3600)
    assert [bot.actions for bot in bots] == before
    assert coord.tables[code].deadline is None
    for bot in bots:
        await bot.stop()


async def test_bots_hold_while_only_spectators_remain() -> None:
    """One rule for bots, stand-ins and the idle close: only seated people keep a game going. A spectator alone
    does not make the bots play (before, they played on while the coordinator's timers waited)."""
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, first_clue_grace=0)
    ana, bots, code = await seated(coord, mode="standard", seed=3)
    sam = Human("sam", plays=False)
    await (await sam.connect(coord)).watch(code)
    assert ana.session is not None
    await ana.session.start()
    await ana.session.close()  # the only person seated leaves; sam still watches
    await wait_until(lambda: held(bots, "alone"))
    before = [bot.actions for bot in bots]
    await still_holding(bots, "alone", later=3600)
    assert [bot.actions for bot in bots] == before
    assert sam.view is not None and sam.view.game is not None and sam.view.game.storyteller is None
    assert coord.tables[code].deadline is None and coord.tables[code].idle_timer is not None
    for bot in bots:
        await bot.stop()


async def test_a_bot_over_ssh_never_takes_the_first_clue_while_a_person_writes_one() -> None:
    from dixit_tui.bots.cli import ProtocolBot
    from dixit_tui.bots.strategy import SmartStrategy
    from dixit_tui.protocol.messages import table_state
    from tests.coordinator.clients import table_of

    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    ana, ben, _ = await table_of(coord, 3, seed=4)
    await ana.session.start()
    bot = ProtocolBot("ben", ben.view.code if ben.view else "", SmartStrategy(), random.Random(1), (0.0, 0.0))
    assert ben.view is not None
    bot._state(table_state(ben.view))
    assert bot.view is not None and not bot._held(bot.view)
    await ana.session.typing(True)
    bot._state(table_state(ben.view))
    assert bot.view is not None and bot.view.needed() == "clue" and bot._held(bot.view)
    await ana.session.typing(False)
    bot._state(table_state(ben.view))
    assert not bot._held(bot.view)
