"""A game that ends by a removal before anyone scored names no winners in words (found playing over OpenSSH: at
turn 1 the log said "alice and Morpheus share the win" with every score at 0). The engine's result stays (every
remaining player shares the win, docs/rules.md); only the words change."""

from __future__ import annotations

import random

from dixit_tui.coordinator import Coordinator, OverUpdate
from dixit_tui.tui import table_words as words
from tests.coordinator.clients import game_of, table_of

ENDED = "the game ended before anyone scored"


async def test_a_game_ended_before_anyone_scored_names_no_winners() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    clients = await table_of(coord, 3, seed=3)
    await clients[0].session.start()
    await clients[2].session.remove(2)  # cara leaves for good at turn 1: too few players are left
    view = clients[1].view
    assert view is not None and view.status == "over"
    assert game_of(clients[1]).winners == (0, 1)  # the engine's result, as before
    assert f"Game over: {ENDED}." in view.log
    assert not any("won" in line or "share the win" in line for line in view.log[-2:]), view.log[-2:]
    over = next(u for u in clients[1].updates if isinstance(u, OverUpdate))
    text = words.over_text(view, over).plain
    assert f"Game over: {ENDED}." in text and "share the win" not in text, text
    status = words.status(view, words.Choices(over=over)).plain
    assert status.startswith(f"Game over: {ENDED}."), status
