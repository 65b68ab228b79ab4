"""The coordinator through its session interface, with recording sinks instead of apps."""

from __future__ import annotations

import random

import pytest

from dixit_tui.bots.player import seat_bots
from dixit_tui.coordinator import (
    ChatUpdate,
    Coordinator,
    RevealUpdate,
    StateUpdate,
    TableError,
    TableOptions,
    Update,
)
from dixit_tui.engine import RuleError
from tests.coordinator.clients import connect, game_of, table_of


@pytest.fixture
def coord() -> Coordinator:
    return Coordinator(rng=random.Random(1), allow_seeded_tables=True)


async def test_table_codes_are_easy_to_read_aloud(coord: Coordinator) -> None:
    clients = await table_of(coord, 1)
    code = clients[0].view.code  # type: ignore[union-attr]
    assert len(code) == 4 and not set(code) & set("0O1IL")


async def test_a_full_game_through_sessions(coord: Coordinator) -> None:
    clients = await table_of(coord, 3, seed=3, target=10)
    await clients[0].session.start()
    rng = random.Random(0)
    for _ in range(500):
        view = clients[0].view
        assert view is not None and view.game is not None
        if view.status == "over":
            break
        for c in clients:
            g = game_of(c)
            if g.can_clue:
                await c.session.clue("a quiet storm", g.hand[0].card if g.clue_needs_card else None)
                break
            if g.submit_count:
                await c.session.submit([h.card for h in g.hand[: g.submit_count]])
                break
            if g.can_vote and not g.your_votes:
                allowed = [s.slot for s in g.board if s.slot not in g.forbidden_slots]
                await c.session.vote([rng.choice(allowed)])
                break
    assert clients[0].view.status == "over"  # type: ignore[union-attr]
    assert any(isinstance(u, RevealUpdate) for u in clients[1].updates)


async def test_updates_reach_only_the_sessions_at_that_table(coord: Coordinator) -> None:
    a = await table_of(coord, 3)
    other = await connect(coord, "zed")
    await other.session.create(TableOptions())
    before = len(other.updates)
    await a[0].session.start()
    assert other.updates[before:] == []  # not re-rendered: it cannot see that table
    assert isinstance(a[1].updates[-1], StateUpdate)


async def test_hidden_information_never_reaches_other_sessions(coord: Coordinator) -> None:
    clients = await table_of(coord, 4, seed=9)
    watcher = await connect(coord, "eve")
    await clients[0].session.start()
    await watcher.session.watch(clients[0].view.code)  # type: ignore[union-attr]
    game = coord.tables[clients[0].view.code].game  # type: ignore[union-attr]
    assert game is not None
    hands = [set(h) for h in game.state.hands]
    g = game_of(clients[1])
    await clients[1].session.clue("x", g.hand[0].card)
    for i, c in enumerate(clients):
        text = c.seen()
        for j, hand in enumerate(hands):
            if j != i:
                assert not any(card in text for card in hand), (i, j)
    assert not any(card in watcher.seen() for hand in hands for card in hand)


async def test_reconnect_with_the_same_key_returns_to_the_seat(coord: Coordinator) -> None:
    clients = await table_of(coord, 3, seed=1)
    await clients[0].session.start()
    code = clients[0].view.code  # type: ignore[union-attr]
    hand = clients[2].view.game.hand  # type: ignore[union-attr]
    await clients[2].session.close()
    assert not clients[0].view.seats[2].connected  # type: ignore[union-attr]
    back = await connect(coord, "someone-else", key="SHA256:p2")
    view = await back.session.join(code)
    assert view.you == 2 and view.game is not None and view.game.hand == hand
    assert clients[0].view.seats[2].connected  # type: ignore[union-attr]


async def test_a_keyless_player_reclaims_their_seat_with_the_code(coord: Coordinator) -> None:
    host = await connect(coord, "ana")
    view = await host.session.create(TableOptions())
    guest = await connect(coord, "ben")
    seated = await guest.session.join(view.code)
    code = seated.reconnect_code
    assert code is not None
    await guest.session.close()
    # in the lobby a seat left behind is freed; during a game it is kept
    third = await connect(coord, "cy")
    await third.session.join(view.code)
    back = await connect(coord, "ben")
    await back.session.join(view.code)
    await host.session.start()
    code = back.view.reconnect_code  # type: ignore[union-attr]
    await back.session.close()
    again = await connect(coord, "whoever")
    assert (await again.session.reclaim(code.lower())).you == 2  # type: ignore[union-attr]
    with pytest.raises(TableError, match="matches no seat"):
        await again.session.reclaim("AAA-AAA")


async def test_name_clash_is_refused_with_a_clear_message(coord: Coordinator) -> None:
    host = await connect(coord, "Ana")
    view = await host.session.create(TableOptions())
    twin = await connect(coord, "\u0430na")  # Cyrillic a
    with pytest.raises(TableError, match="already called") as info:
        await twin.session.join(view.code)
    assert info.value.code == "name_taken"
    assert (await twin.session.join(view.code, name="anna")).you == 1


async def test_joining_a_started_game_is_refused_but_watching_works(coord: Coordinator) -> None:
    clients = await table_of(coord, 3)
    await clients[0].session.start()
    late = await connect(coord, "late")
    with pytest.raises(TableError, match="watch"):
        await late.session.join(clients[0].view.code)  # type: ignore[union-attr]
    view = await late.session.watch(clients[0].view.code)  # type: ignore[union-attr]
    assert view.you is None and view.game is not None and view.game.hand == ()


async def test_only_the_host_starts_and_only_with_enough_players(coord: Coordinator) -> None:
    clients = await table_of(coord, 2)
    with pytest.raises(TableError, match="3 to 8 players"):
        await clients[0].session.start()
    with pytest.raises(TableError, match="host"):
        await clients[1].session.start()


async def test_chat_pauses_from_clue_to_reveal(coord: Coordinator) -> None:
    clients = await table_of(coord, 3, seed=2)
    await clients[0].session.chat("hello [b]all[/")
    assert any(isinstance(u, ChatUpdate) and u.line.text == "hello [b]all[/" for u in clients[1].updates)
    await clients[0].session.start()
    g = game_of(clients[0])
    await clients[0].session.clue("x", g.hand[0].card)
    with pytest.raises(TableError, match="paused"):
        await clients[1].session.chat("it's the red one")
    assert clients[1].view.chat_paused  # type: ignore[union-attr]


async def test_chat_is_sanitised_and_rate_limited(coord: Coordinator) -> None:
    clients = await table_of(coord, 2)
    await clients[0].session.chat("\x1b]52;c;ZXZpbA==\x07hi\x1b[2J")
    line = [u for u in clients[1].updates if isinstance(u, ChatUpdate)][-1].line
    assert line.text == "hi"
    for _ in range(4):
        await clients[0].session.chat("spam")
    with pytest.raises(TableError, match="Slow down"):
        await clients[0].session.chat("spam")


async def test_illegal_moves_get_errors_and_change_nothing(coord: Coordinator) -> None:
    clients = await table_of(coord, 3, seed=4)
    await clients[0].session.start()
    before = clients[0].view
    with pytest.raises(RuleError):
        await clients[1].session.vote([1])
    with pytest.raises(RuleError):
        await clients[1].session.clue("", clients[1].view.game.hand[0].card)  # type: ignore[union-attr]
    assert clients[0].view == before


async def test_seeded_tables_need_the_server_flag() -> None:
    coord = Coordinator()
    c = await connect(coord, "ana")
    with pytest.raises(TableError, match="seed") as info:
        await c.session.create(TableOptions(seed=1))
    assert info.value.code == "seed_refused"


async def test_host_can_void_and_remove(coord: Coordinator) -> None:
    clients = await table_of(coord, 4, seed=6)
    await clients[0].session.start()
    g = game_of(clients[2])
    await clients[2].session.clue("x", g.hand[0].card)
    await clients[0].session.void()
    assert clients[3].view.game.phase == "clue"  # type: ignore[union-attr]
    assert "voided" in clients[3].view.log[-2]  # type: ignore[union-attr]
    await clients[0].session.remove(3)
    assert clients[1].view.seats[3].removed  # type: ignore[union-attr]


async def test_the_practice_turn_is_played_at_the_table_and_counts_for_nothing(coord: Coordinator) -> None:
    clients = await table_of(coord, 3, seed=3)
    with pytest.raises(TableError, match="host"):
        await clients[1].session.practice()
    await clients[0].session.practice()
    g = game_of(clients[2])
    assert g.practice and g.turn == 0 and g.storyteller == 0 and clients[2].view.status == "playing"  # type: ignore[union-attr]
    assert "practice turn has started" in clients[1].view.log[-1]  # type: ignore[union-attr]
    await clients[0].session.clue("a quiet storm", game_of(clients[0]).hand[0].card)
    for c in clients[1:]:
        await c.session.submit([h.card for h in game_of(c).hand[: game_of(c).submit_count]])
    for c in clients[1:]:
        g = game_of(c)
        await c.session.vote([next(s.slot for s in g.board if s.slot not in g.forbidden_slots)])
    reveal = next(u for u in clients[1].updates if isinstance(u, RevealUpdate))
    assert reveal.reveal.turn == 0 and all(p.score == 0 for p in reveal.reveal.points)
    g = game_of(clients[1])
    assert not g.practice and g.turn == 1 and g.storyteller is None and g.phase == "clue"
    assert [p.score for p in g.players] == [0, 0, 0] and g.history == () and len(g.hand) == 7
    log = clients[1].view.log  # type: ignore[union-attr]
    assert any("Practice turn revealed (not counted)" in line for line in log)
    assert log[-1] == "Anyone may give the first clue."


async def test_voiding_or_ending_the_practice_turn_says_so(coord: Coordinator) -> None:
    clients = await table_of(coord, 3, seed=3)
    await clients[0].session.practice()
    await clients[0].session.clue("a quiet storm", game_of(clients[0]).hand[0].card)
    await clients[0].session.void()
    log = clients[1].view.log  # type: ignore[union-attr]
    assert any(line.startswith("The practice turn was voided") for line in log)
    assert not any("Turn 0" in line for line in log)
    await clients[2].session.remove(2)
    assert clients[1].view.status == "over" and game_of(clients[1]).winners == ()  # type: ignore[union-attr]
    log = clients[1].view.log  # type: ignore[union-attr]
    assert "The practice ended: too few players are left to play, so nobody won." in log
    assert not any("won." in line and "nobody" not in line for line in log)


async def test_a_broken_sink_does_not_break_the_others(coord: Coordinator) -> None:
    clients = await table_of(coord, 3)

    def broken(update: Update) -> None:
        raise RuntimeError("boom")

    clients[1].session.sink = broken
    await clients[0].session.chat("still fine")
    assert any(isinstance(u, ChatUpdate) for u in clients[2].updates)


async def test_name_changes_are_rate_limited(coord: Coordinator) -> None:
    clients = await table_of(coord, 2)
    for name in ("a1", "a2", "a3"):
        await clients[1].session.rename(name)
    with pytest.raises(TableError, match="new names") as info:
        await clients[1].session.rename("a4")
    assert info.value.code == "rate_limited"
    assert clients[0].view.seats[1].name == "a3"  # type: ignore[union-attr]


async def test_only_the_host_adds_bots_and_they_sit_as_bots() -> None:
    coord = Coordinator(rng=random.Random(3), allow_seeded_tables=True, bots=seat_bots)
    host = await connect(coord, "ana")
    view = await host.session.create(TableOptions(seed=8, target=10))
    guest = await connect(coord, "ben")
    await guest.session.join(view.code)
    with pytest.raises(TableError, match="host"):
        await guest.session.add_bots(1)
    assert await host.session.add_bots(2) == 2
    assert [s.bot for s in host.view.seats] == [False, False, True, True]  # type: ignore[union-attr]
    await host.session.start()
    with pytest.raises(TableError, match="before the game"):
        await host.session.add_bots(1)


async def test_a_coordinator_without_a_bot_factory_refuses_bots_and_changes_nothing() -> None:
    coord = Coordinator(rng=random.Random(3))
    host = await connect(coord, "ana")
    view = await host.session.create(TableOptions())
    table = coord.tables[view.code]
    version, seen = table.version, len(host.updates)
    with pytest.raises(TableError) as info:
        await host.session.add_bots(1)
    assert info.value.code == "no_bots"
    assert info.value.message == "This server has no built-in bots: invite people to play instead."
    assert len(table.seats) == 1 and table.version == version and len(host.updates) == seen


async def test_leaving_a_game_by_choice_is_not_announced_as_a_lost_connection(coord: Coordinator) -> None:
    clients = await table_of(coord, 4)
    await clients[0].session.start()
    await clients[1].session.leave()  # `l` at the table: back to the lobby, the seat kept
    log = clients[0].view.log  # type: ignore[union-attr]
    assert log[-1] == "p1 left the table; their seat is kept."
    await clients[2].session.close()  # the connection ended
    log = clients[0].view.log  # type: ignore[union-attr]
    assert log[-1] == "p2 is disconnected; their seat is kept."
    other = await clients[3].session.create(TableOptions())  # off to another table: a choice too
    assert other.code != clients[0].view.code  # type: ignore[union-attr]
    assert clients[0].view.log[-1] == "p3 left the table; their seat is kept."  # type: ignore[union-attr]


async def test_the_log_says_how_many_cards_a_player_gave() -> None:
    """Found playing over SSH: at 3 players everyone gives two cards, and the log said "pat gave a card." (a
    stand-in's move already said "gave 2 cards")."""
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    ana, p1, _ = await table_of(coord, 3, seed=4)
    await ana.session.start()
    await ana.session.clue("tide", game_of(ana).hand[0].card)  # the open first clue: ana tells
    await p1.session.submit([c.card for c in game_of(p1).hand[:2]])
    assert p1.view is not None and p1.view.log[-1] == "p1 gave 2 cards."
