"""A stand-in's clue comes from the card it plays (issue 22, item 4: after a removal voided the turn and the
storyteller left, "a stand-in gave the clue “pyjamas”" from the voided card, "A bear in pyjamas...", while the card
played was another)."""

from __future__ import annotations

import random

import pytest

from dixit_tui.bots.similarity import content_stems, stem
from dixit_tui.bots.strategy import candidate_words
from dixit_tui.coordinator import Coordinator
from dixit_tui.serve import smart_stand_in
from tests.coordinator.clients import game_of, table_of


@pytest.mark.parametrize("seed", range(6))
async def test_after_a_void_the_stand_ins_clue_comes_from_the_card_it_plays(seed: int) -> None:
    now = [1000.0]
    coord = Coordinator(
        rng=random.Random(seed),
        allow_seeded_tables=True,
        disconnect_grace=60,
        clock=lambda: now[0],
        stand_in=smart_stand_in,
    )
    ana, _, _, _ = await table_of(coord, 4, seed=seed)
    code = ana.view.code  # type: ignore[union-attr]
    table = coord.tables[code]
    await ana.session.start()
    voided = game_of(ana).hand[0]
    await ana.session.clue("tide", voided.card)
    await ana.session.remove(3)  # the turn is voided: ana tells again, with another card
    assert game_of(ana).voided_card == voided.card
    await ana.session.leave()  # and steps away
    now[0] += 61
    await coord.expire(table)
    game = table.game
    assert game is not None and game.state.turn.clue is not None
    played = game.state.turn.clue_card
    assert played is not None and played != voided.card
    cards = {c.id: c.text for c in coord.resolve_cards(table.options.decks)}
    clue = game.state.turn.clue
    related = {stem(w) for w in candidate_words(cards[played])}
    assert all(stem(w) in related for w in clue.split()), (clue, cards[played])
    # and it tells nothing of the voided card: none of its words (before: "delicate" for a house of cards, with
    # "An elephant sits delicately..." voided; "fox" for a wolf, with "A fox in a waistcoat..." voided)
    assert not {stem(w) for w in clue.split()} & set(content_stems(voided.text)), (clue, voided.text)
