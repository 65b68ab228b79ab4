"""Timed tables (issue 22, item 11): the open first clue that times out names its storyteller and says why, and the
others read what happened (not "Your clue is already given" for a clue a stand-in gave); the table's lobby shows its
time limit; and a timed table nobody plays at stops playing itself after two whole turns, as an empty table waits."""

from __future__ import annotations

import random

from dixit_tui.coordinator import Coordinator
from dixit_tui.tui import table_words as words
from tests.coordinator.clients import Client, game_of, table_of


def _view(client: Client):  # type: ignore[no-untyped-def]
    view = client.view
    assert view is not None
    return view


async def test_the_open_first_clue_times_out_and_everyone_reads_what_happened() -> None:
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, clock=lambda: now[0])
    ana, p1, p2 = await table_of(coord, 3, seed=4, turn_seconds=60)
    assert "Time limit: 1 minute for each clue, card and vote" in words.lobby_info(_view(p1)).plain
    table = coord.tables[_view(ana).code]
    await ana.session.start()
    assert game_of(ana).storyteller is None  # the first clue is open to everyone
    now[0] += 60
    await coord.expire(table)
    game = game_of(p1)
    assert game.phase == "submit" and game.storyteller == 0
    clue = game.clue
    assert _view(p1).log[-1] == (
        f"Time's up and nobody gave the first clue, so ana tells (the first in seat order): a stand-in gave the clue "
        f"“{clue}” for them."
    )
    # p1 was still typing a clue: the box keeps the text and says whose clue it is (before: "ana gave the first clue")
    assert words.clue_kept(_view(p1)) == "Time ran out: a stand-in gave the clue for ana; your text is kept, not sent."
    assert words.clue_kept(_view(ana)) == "Time ran out: a stand-in gave your clue; your text is kept, not sent."
    line = words.clue_line(_view(p2))
    assert line is not None and f"“{clue}” — told by ana, given by a stand-in" in line.plain
    # a clue a player gives is theirs again
    await ana.session.void()
    await ana.session.clue("tide", game_of(ana).clue_cards[0])
    assert words.clue_kept(_view(ana)) == "Your clue is already given; your text is kept, not sent."
    assert p2.view is not None


async def test_a_timed_table_nobody_plays_at_waits_after_two_quiet_turns() -> None:
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, clock=lambda: now[0])
    ana, p1, _ = await table_of(coord, 3, seed=4, turn_seconds=10)
    table = coord.tables[_view(ana).code]
    await ana.session.start()
    for _ in range(40):  # everyone is connected, nobody plays: stand-ins play each phase as its time runs out
        if table.deadline is None:
            break
        now[0] = table.deadline
        await coord.expire(table)
    game = game_of(ana)
    assert game.turn == 3 and game.phase == "clue", (game.turn, game.phase)  # two whole turns, then it waits
    assert table.deadline is None and _view(ana).deadline is None
    assert any(line.startswith("Nobody has played for 2 turns, so the table waits") for line in _view(p1).log)
    now[0] += 3600  # an hour: still waiting
    await coord.expire(table)
    assert game_of(ana).turn == 3
    await p1.session.chat("back")  # a person is here again: the clock runs
    assert _view(ana).deadline == now[0] + 10
    assert "Someone is here again: the clock runs again." in _view(ana).log
