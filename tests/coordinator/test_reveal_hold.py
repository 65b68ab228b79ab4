"""The reveal held for the people to read (issue 23, "the reveal is the best moment of Dixit"): after the last vote
the table holds the turn's reveal for `reveal_seconds` (on the coordinator's clock) while a person whose screen shows
it is connected. Bots, stand-ins and the next phase's clock wait; the hold ends when its time is up, or early once
every such person moved on (`reveal_seen`). Clients that show no reveal (agents, these recording sinks) hold nothing."""

from __future__ import annotations

import asyncio
import random

import pytest

from dixit_tui.bots.player import BotPlayer, Hold, add_bots
from dixit_tui.coordinator import Coordinator, Identity, TableError, TableOptions
from dixit_tui.coordinator.timers import random_stand_in
from dixit_tui.engine import GiveClue, Phase, Submit, Vote
from tests.coordinator.clients import Client, connect, game_of, table_of

ROUNDS = 400  # bounded waits for the bots (each a short yield to the event loop)


async def _reader(coord: Coordinator, name: str) -> Client:
    client = Client()
    client.session = await coord.connect(Identity(name, f"SHA256:{name}"), client, shows_reveal=True)
    return client


async def _until(check: object) -> None:
    for _ in range(ROUNDS):
        if check():  # type: ignore[operator]
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the table never got there")


async def _play_my_part(client: Client) -> None:
    """ana plays whatever her seat owes (a random legal move from her view)."""
    game = game_of(client)
    command = random_stand_in(game, random.Random(1))
    assert command is not None
    match command:
        case GiveClue(text=text, card=card):
            await client.session.clue(text, card)
        case Submit(cards=cards):
            await client.session.submit(list(cards))
        case Vote(slots=slots, red=red):
            await client.session.vote(list(slots), red)


async def _bot_table(now: list[float]) -> tuple[Coordinator, Client, list[BotPlayer]]:
    """ana (a screen that shows the reveal) and two quick bots at a timed table, the first turn scored."""
    coord = Coordinator(rng=random.Random(2), allow_seeded_tables=True, clock=lambda: now[0], first_clue_grace=60.0)
    ana = await _reader(coord, "ana")
    view = await ana.session.create(TableOptions(seed=5, turn_seconds=30, reveal_seconds=10))
    bots = await add_bots(coord, view.code, 2, rng=random.Random(3), delay=(0.0, 0.0))
    await ana.session.start()
    await ana.session.clue("tide", game_of(ana).clue_cards[0])  # the bots leave the first clue to her
    await _until(lambda: game_of(ana).turn == 2)
    return coord, ana, bots


async def test_bots_and_clocks_wait_for_the_reveal_until_its_time_is_up() -> None:
    now = [1000.0]
    coord, ana, bots = await _bot_table(now)
    view = ana.view
    assert view is not None and view.game is not None
    table = coord.tables[view.code]
    assert view.reveal_until == 1010.0  # the reveal is held 10 s from the last vote, on the coordinator's clock
    assert view.game.last_reveal is not None and view.game.last_reveal.turn == 1
    assert view.deadline is None  # the next phase's clock has not started
    teller = view.game.storyteller
    assert teller == 1  # a bot tells next
    for _ in range(40):  # the quick bot would have told long ago: it holds for the reveal
        await asyncio.sleep(0.005)
    assert game_of(ana).phase == Phase.CLUE and game_of(ana).clue is None
    assert bots[0].holds.get(Hold.REVEAL, 0) >= 1
    now[0] = 1009.0
    await coord.reveal_over(table)  # early: still held
    assert ana.view is not None and ana.view.reveal_until == 1010.0 and game_of(ana).clue is None
    now[0] = 1010.0
    await coord.reveal_over(table)  # its time is up: the table goes on, the phase's clock starts now
    assert ana.view is not None and ana.view.reveal_until is None
    assert ana.view.deadline == 1040.0
    await _until(lambda: game_of(ana).clue is not None)
    for bot in bots:
        await bot.stop()


async def test_the_hold_ends_once_every_person_moved_on() -> None:
    now = [1000.0]
    _, ana, bots = await _bot_table(now)
    assert ana.view is not None and ana.view.reveal_until == 1010.0
    await ana.session.reveal_seen()  # Enter on the reveal: nobody waits for a player who already looked
    await _until(lambda: ana.view is not None and ana.view.reveal_until is None)
    assert ana.view.deadline == 1030.0  # the clock starts when she moved on (no time passed)
    await _until(lambda: game_of(ana).clue is not None)
    for bot in bots:
        await bot.stop()


async def test_clients_that_show_no_reveal_hold_nothing() -> None:
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, clock=lambda: now[0])
    clients = await table_of(coord, 3, seed=4, turn_seconds=60)
    await clients[0].session.start()
    for _ in range(12):
        if game_of(clients[0]).turn == 2:
            break
        for client in clients:
            if client.view is not None and client.view.you in game_of(client).waiting_for:
                await _play_my_part(client)
    assert game_of(clients[0]).turn == 2
    assert clients[0].view is not None and clients[0].view.reveal_until is None
    assert clients[0].view.deadline == 1060.0


async def test_a_reveal_of_0_seconds_is_not_held_and_bad_values_are_refused() -> None:
    now = [1000.0]
    coord = Coordinator(rng=random.Random(2), allow_seeded_tables=True, clock=lambda: now[0], first_clue_grace=60.0)
    ana = await _reader(coord, "ana")
    view = await ana.session.create(TableOptions(seed=5, reveal_seconds=0))
    bots = await add_bots(coord, view.code, 2, rng=random.Random(3), delay=(0.0, 0.0))
    await ana.session.start()
    await ana.session.clue("tide", game_of(ana).clue_cards[0])
    await _until(lambda: game_of(ana).turn == 2)
    assert ana.view is not None and ana.view.reveal_until is None
    await _until(lambda: game_of(ana).clue is not None)  # the bot tells at once
    for bot in bots:
        await bot.stop()
    other = await connect(coord, "ben")
    for bad in (-1, 61):
        with pytest.raises(TableError) as info:
            await other.session.create(TableOptions(reveal_seconds=bad))
        assert info.value.code == "bad_option"


async def test_a_game_that_ends_during_the_hold_holds_nothing() -> None:
    now = [1000.0]
    _, ana, bots = await _bot_table(now)
    assert ana.view is not None and ana.view.reveal_until == 1010.0
    await ana.session.remove(1)  # two players left: too few, the game is over
    await _until(lambda: ana.view is not None and ana.view.status == "over")
    assert ana.view.reveal_until is None
    for bot in bots:
        await bot.stop()


async def test_the_practice_turns_reveal_is_held_like_any_turns() -> None:
    """The practice turn's reveal is the one a first-timer most needs to read: the table holds it as it holds a
    turn's (its reveal was dropped with the redeal, so nothing held it and the game went on: seen playing)."""
    now = [1000.0]
    coord = Coordinator(rng=random.Random(2), allow_seeded_tables=True, clock=lambda: now[0], first_clue_grace=60.0)
    ana = await _reader(coord, "ana")
    view = await ana.session.create(TableOptions(seed=5, turn_seconds=30, reveal_seconds=10))
    bots = await add_bots(coord, view.code, 2, rng=random.Random(3), delay=(0.0, 0.0))
    await ana.session.practice()
    assert game_of(ana).practice and game_of(ana).turn == 0
    await ana.session.clue("tide", game_of(ana).clue_cards[0])  # the host tells the practice turn
    await _until(lambda: game_of(ana).turn == 1)
    held = ana.view
    assert held is not None and held.game is not None and not held.game.practice
    assert held.game.last_reveal is not None and held.game.last_reveal.turn == 0
    assert held.reveal_until == 1010.0 and held.deadline is None  # held; turn 1's clock waits
    for _ in range(40):  # a quick bot would give turn 1's open first clue: it holds for the reveal
        await asyncio.sleep(0.005)
    assert game_of(ana).clue is None and bots[0].holds.get(Hold.REVEAL, 0) + bots[1].holds.get(Hold.REVEAL, 0) >= 1
    await ana.session.reveal_seen()  # ana moved on: the hold ends, turn 1 goes on
    await _until(lambda: ana.view is not None and ana.view.reveal_until is None)
    assert ana.view is not None and ana.view.deadline == 1030.0  # turn 1's clock starts when she moved on
    for bot in bots:
        await bot.stop()
