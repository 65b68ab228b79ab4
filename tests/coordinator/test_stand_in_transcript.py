"""A game's transcript marks the moves stand-ins made (issue 22, item 13: they read as the player's own).

A timed table with its records in a real SQLite store: ana gives the clue herself; time runs out for the others'
cards and votes, so stand-ins play them. The transcript the table shows (and `replay` prints) says so, from the
table's records.
"""

from __future__ import annotations

import random
from pathlib import Path

from dixit_tui.coordinator import Coordinator
from dixit_tui.engine import view_for
from dixit_tui.store import SqliteStore
from dixit_tui.transcript import STAND_IN_NOTE, stand_in_moves, transcript_of
from tests.coordinator.clients import game_of, table_of


async def test_the_transcript_marks_a_stand_ins_cards_and_votes(tmp_path: Path) -> None:
    now = [1000.0]
    store = await SqliteStore.open(tmp_path)
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, clock=lambda: now[0], store=store)
    try:
        ana, _p1, _p2 = await table_of(coord, 3, seed=4, turn_seconds=60)
        assert ana.view is not None
        code = ana.view.code
        table = coord.tables[code]
        await ana.session.start()
        await ana.session.clue("tide", game_of(ana).hand[0].card)  # her own clue
        for _ in range(4):  # the cards, then the votes: time runs out, stand-ins play them
            if game_of(ana).turn != 1:
                break
            assert table.deadline is not None
            now[0] = table.deadline
            await coord.expire(table)
        game = game_of(ana)
        assert game.turn == 2 and len(game.history) == 1, (game.turn, game.phase)
        moves = await ana.session.stand_in_moves()
        assert moves == {(1, 1, "card"), (1, 2, "card"), (1, 1, "vote"), (1, 2, "vote")}, moves
        assert stand_in_moves(await store.history(code)) == moves
        text = "\n".join(transcript_of(game, moves))
        assert "Turn 1: ana told: tide" in text  # her own clue: unmarked
        assert "given by p1 (stand-in)" in text and "given by p2 (stand-in)" in text, text
        assert "p1 (stand-in)" in text.split("votes: ", 1)[1], text
        assert text.endswith(STAND_IN_NOTE)
        # without the records the transcript reads as if the players had played those moves themselves
        assert table.game is not None
        assert "(stand-in)" not in "\n".join(transcript_of(view_for(table.game.state, None)))
    finally:
        await store.close()
