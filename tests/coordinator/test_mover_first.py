"""A move's fresh views go to the session that made it before the others at its table: that player's app takes its
turn first on the shared loop, so their own move shows on their screen before the other screens are drawn."""

from __future__ import annotations

import random

from dixit_tui.coordinator import Coordinator, StateUpdate, Update
from tests.coordinator.clients import Client, game_of, table_of


async def test_the_mover_gets_the_new_view_first() -> None:
    coord = Coordinator(rng=random.Random(3), allow_seeded_tables=True)
    clients = await table_of(coord, 4, seed=5)
    await clients[0].session.start()
    order: list[int] = []
    for index, client in enumerate(clients):

        def recording(update: Update, index: int = index, client: Client = client) -> None:
            if isinstance(update, StateUpdate):
                order.append(index)
            client(update)

        client.session.sink = recording
    firsts = []
    for _ in range(12):  # the clue, the cards, the votes: every seat moves, the last seats too
        game = game_of(clients[0])
        movers = [i for i, c in enumerate(clients) if c.session.seat in game_of(c).waiting_for]
        mover = movers[-1]
        order.clear()
        await make_move(clients[mover])
        assert sorted(order) == [0, 1, 2, 3], order  # (every seat sees the move)
        firsts.append((mover, order[0]))
        if game.phase == "over":
            break
    assert any(mover != 0 for mover, _ in firsts)
    assert all(mover == first for mover, first in firsts), firsts


async def make_move(client: Client) -> None:
    game = game_of(client)
    if game.phase == "clue":
        await client.session.clue("a quiet storm", game.hand[0].card if game.clue_needs_card else None)
    elif game.phase == "submit":
        await client.session.submit([c.card for c in game.hand[: game.submit_count]])
    else:
        allowed = [s.slot for s in game.board if s.slot not in game.forbidden_slots]
        await client.session.vote(allowed[:1], red=game.board[-1].slot if game.places_red else None)
