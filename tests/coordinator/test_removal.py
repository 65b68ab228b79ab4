"""A removal from four players to three leaves a clear table (issue 22, item 3): the status words ask for one card
each (the rules are set at the start, docs/rules.md), and the removed player is told the host removed them and is
taken to the lobby, from where they may watch; they can no longer chat there, and no reconnect code is left to them
that "matches no seat"."""

from __future__ import annotations

import random

import pytest

from dixit_tui.coordinator import Coordinator, LobbyUpdate, NoticeUpdate, StateUpdate, TableError
from dixit_tui.tui import table_words as words
from tests.coordinator.clients import game_of, table_of


async def test_a_removed_player_is_told_and_taken_to_the_lobby_and_the_rest_give_one_card_each() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    ana, p1, p2, p3 = await table_of(coord, 4, seed=4)
    code = ana.view.code  # type: ignore[union-attr]
    await ana.session.start()
    await ana.session.clue("tide", game_of(ana).hand[0].card)
    before = len(p3.updates)
    await ana.session.remove(3)  # the submit phase: the turn is voided, ana tells again
    told = p3.updates[before:]
    notices = [u.text for u in told if isinstance(u, NoticeUpdate)]
    assert notices == [
        f"The host, ana, removed you from the game at table {code}. You can still watch it: pick it in the lobby "
        "and press w."
    ]
    assert any(isinstance(u, StateUpdate) and u.view is None for u in told)
    assert isinstance(told[-1], LobbyUpdate)
    assert p3.session.table is None and coord.tables[code].seats[3].session is None
    with pytest.raises(TableError, match="not at a table"):
        await p3.session.chat("still here?")
    watching = await p3.session.watch(code)  # and they may watch
    assert watching.you is None and watching.reconnect_code is None
    await ana.session.clue("wave", game_of(ana).hand[0].card)
    view = p1.view
    assert view is not None and view.game is not None and view.game.submit_count == 1
    status = words.status(view, words.Choices()).plain
    assert "two cards" not in status and game_of(p2).submit_count == 1
    ana_view = ana.view
    assert ana_view is not None
    assert words.status(ana_view, words.Choices()).plain == "Your card is in. Waiting for a card each from p1 and p2."


async def test_leaving_for_good_takes_you_to_the_lobby() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    ana, _, _, p3 = await table_of(coord, 4, seed=4)
    code = ana.view.code  # type: ignore[union-attr]
    await ana.session.start()
    await p3.session.remove(3)
    notices = [u.text for u in p3.updates if isinstance(u, NoticeUpdate)]
    assert notices[-1].startswith(f"You left the game at table {code} for good.")
    assert p3.session.table is None and p3.view is None
