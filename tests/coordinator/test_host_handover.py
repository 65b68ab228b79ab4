"""A host who leaves does not keep the host's duties: they pass to a connected person (never a bot) at once when the
host leaves the game for good or the game is over, and after the disconnect grace when the host drops; everyone
reads who the host is now (issue 22, item 2: host tom pressed `l y` mid-game and was still host 33 minutes later;
host hal's window closed, and the end screen said "The host, hal, can start a rematch" to people who could not)."""

from __future__ import annotations

import random

from dixit_tui.coordinator import Coordinator, Identity, NoticeUpdate, TableOptions
from tests.coordinator.clients import Client, connect, table_of


async def _with_bot(coord: Coordinator, code: str) -> Client:
    bot = Client()
    bot.session = await coord.connect(Identity("robo", bot=True), bot)
    await bot.session.join(code)
    return bot


def _notices(client: Client) -> list[str]:
    return [u.text for u in client.updates if isinstance(u, NoticeUpdate)]


async def test_a_host_who_leaves_the_game_for_good_hands_over_at_once_to_a_person_not_the_bot() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    ana = await connect(coord, "ana", key="SHA256:ana")
    code = (await ana.session.create(TableOptions(seed=4))).code
    await _with_bot(coord, code)  # seat 1, right after the host: the engine's pick, and never the new host
    p2 = await connect(coord, "p2", key="SHA256:p2")
    await p2.session.join(code)
    p3 = await connect(coord, "p3", key="SHA256:p3")
    await p3.session.join(code)
    table = coord.tables[code]
    await ana.session.start()
    await ana.session.remove(0)  # ana leaves the game for good
    view = p2.view
    assert view is not None and view.host == 2 and table.host == 2 and not table.seats[2].bot
    assert view.log[-1] == "p2 is the host now."  # (the engine had passed it to the bot, robo)
    assert _notices(p2)[-1] == "You are the host now: you can void a turn or remove a player."
    assert [s.host for s in view.seats] == [False, False, True, False]
    await p2.session.remove(1)  # the new host can use the duties


async def test_a_host_who_leaves_for_good_says_who_the_host_is_when_the_next_seat_is_a_person() -> None:
    """Found playing over SSH: host ana left a team game for good (`x`, herself); the engine gave the duties to ben,
    the next seat, and the log said only "ana has left the game for good.": nobody was told ben was the host."""
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    ana = await connect(coord, "ana", key="SHA256:ana")
    code = (await ana.session.create(TableOptions(seed=4))).code
    ben = await connect(coord, "ben", key="SHA256:ben")
    await ben.session.join(code)
    cy = await connect(coord, "cy", key="SHA256:cy")
    await cy.session.join(code)
    dee = await connect(coord, "dee", key="SHA256:dee")
    await dee.session.join(code)
    eve = await connect(coord, "eve", key="SHA256:eve")
    await eve.session.join(code)
    await ana.session.start()
    await cy.session.remove(2)  # not the host: the log says only that
    view = ben.view
    assert view is not None and view.log[-1] == "cy has left the game for good."
    await ana.session.remove(0)
    view = ben.view
    assert view is not None and view.host == 1 and view.is_host
    assert view.log[-1] == "ana has left the game for good, so ben is the host now."


async def test_a_host_who_drops_hands_over_after_the_grace_and_not_before() -> None:
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, disconnect_grace=60, clock=lambda: now[0])
    ana, p1, p2 = await table_of(coord, 3, seed=4)
    code = ana.view.code  # type: ignore[union-attr]
    table = coord.tables[code]
    await ana.session.start()
    await ana.session.leave()  # steps away: the seat is kept, and the host too for the grace
    assert table.host == 0
    assert table.deadline == 1060  # the host's grace is on the table's clock
    now[0] += 30
    await p1.session.chat("still here")
    await coord.expire(table)  # too early: nothing happens
    assert table.host == 0
    with_host = p1.view
    assert with_host is not None and with_host.host == 0
    now[0] += 30
    await coord.expire(table)
    view = p1.view
    assert view is not None and view.host == 1
    assert "ana is away, so p1 is the host now." in view.log
    assert p2.view is not None and p2.view.host == 1
    back = await connect(coord, "ana", key="SHA256:ana")
    await back.session.join(code)
    assert table.host == 1  # coming back does not take the duties back


async def test_the_end_screen_never_names_a_host_who_is_gone() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, disconnect_grace=3600)
    ana, p1, p2 = await table_of(coord, 3, seed=4)
    code = ana.view.code  # type: ignore[union-attr]
    await ana.session.start()
    await ana.session.close()  # the host's window closed
    await p2.session.remove(2)  # p2 leaves for good; two players left: the game is over
    view = p1.view
    assert view is not None and view.status == "over" and view.host == 1
    assert "ana has left, so p1 is the host now." in view.log
    rematch = await p1.session.rematch()  # and p1 can use it
    assert rematch.is_host and rematch.code != code


async def test_a_lobby_host_who_leaves_hands_over_to_a_person_not_the_bot_beside_them() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    ana = await connect(coord, "ana", key="SHA256:ana")
    code = (await ana.session.create(TableOptions(seed=4))).code
    await _with_bot(coord, code)
    ben = await connect(coord, "ben", key="SHA256:ben")
    await ben.session.join(code)
    await ana.session.leave()  # before the start the seat is freed; seat 0 is now the bot's
    view = ben.view
    assert view is not None and [s.name for s in view.seats] == ["robo", "ben"]
    assert view.host == 1 and view.is_host
    assert [t.host for t in coord.summaries()] == ["ben"]


async def test_the_players_countdown_is_the_phases_not_the_hosts_handover() -> None:
    """Found playing over SSH: with a 1-minute timer, host alice stepped away and carol's header counted down to the
    handover ("⏱ 0:11 left"), then jumped to 0:36 when carol became host: that deadline was nobody's move."""
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, disconnect_grace=20, clock=lambda: now[0])
    ana, p1, _p2 = await table_of(coord, 3, seed=4, turn_seconds=60)
    table = coord.tables[ana.view.code]  # type: ignore[union-attr]
    await ana.session.start()
    await ana.session.leave()  # the host steps away: the handover is due in 20 s, the phase's limit in 60 s
    assert table.deadline == 1020  # the table's timer goes off for the handover
    view = p1.view
    assert view is not None and view.deadline == 1060  # but the players count down to the stand-in
    now[0] += 20
    await coord.expire(table)
    view = p1.view
    assert view is not None and view.host == 1 and view.deadline == 1060
