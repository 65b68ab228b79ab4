"""People at the table: who is writing a clue, who is offline and when a stand-in plays, tables everyone left."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

from dixit_tui.coordinator import Coordinator, NoticeUpdate, StateUpdate, TableView
from dixit_tui.protocol.messages import table_state
from dixit_tui.protocol.schema import validate_message
from dixit_tui.store import SqliteStore
from tests.coordinator.clients import Client, connect, game_of, table_of


async def wait_until(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    async def loop() -> None:
        while not predicate():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(loop(), timeout)


def views(client: Client) -> int:
    return sum(isinstance(u, StateUpdate) for u in client.updates)


def view_of(client: Client) -> TableView:
    view = client.view
    assert view is not None
    return view


# --- who is writing a clue -------------------------------------------------------------------------------------


async def test_everyone_sees_who_is_writing_a_clue_and_only_changes_are_sent() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    ana, ben, cy = await table_of(coord, 3, seed=4)
    watcher = await connect(coord, "sam")
    await watcher.session.watch(view_of(ana).code)
    await ana.session.start()
    assert view_of(ben).typing == ()

    before = views(ben)
    await ana.session.typing(True)
    assert view_of(ben).typing == (0,) and view_of(watcher).typing == (0,) and view_of(ana).typing == (0,)
    assert views(ben) == before + 1
    for _ in range(5):  # still typing: renewed quietly, nobody re-renders
        await ana.session.typing(True)
    await cy.session.typing(False)  # never started: nothing to say
    assert views(ben) == before + 1

    await cy.session.typing(True)
    assert view_of(ben).typing == (0, 2)
    await ana.session.typing(False)
    assert view_of(ben).typing == (2,) and views(ben) == before + 3
    validate_message(table_state(view_of(ben)))
    assert table_state(view_of(ben))["typing"] == [2]

    await cy.session.clue("tide", game_of(cy).hand[0].card)  # the clue is given: nobody is writing one
    assert view_of(ben).typing == () and game_of(ben).phase == "submit"
    await ben.session.typing(True)  # not the clue phase: ignored, no view sent
    assert view_of(ana).typing == () and coord.tables[view_of(ana).code].typing == {}


async def test_a_writing_mark_goes_by_itself_and_when_the_writer_leaves() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, typing_timeout=0.2)
    ana, ben, cy = await table_of(coord, 3, seed=4)
    await ana.session.start()
    await ana.session.typing(True)
    assert view_of(ben).typing == (0,)
    await wait_until(lambda: view_of(ben).typing == ())  # no new report within the timeout: gone

    await cy.session.typing(True)
    assert view_of(ben).typing == (2,)
    await cy.session.close()
    assert view_of(ben).typing == ()


async def test_only_someone_who_may_give_the_clue_is_shown_writing_one() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    ana, ben, cy = await table_of(coord, 3, seed=4, first="random")
    await ana.session.typing(True)  # the lobby: nothing to write yet
    assert coord.tables[view_of(ana).code].typing == {}
    await ana.session.start()
    teller = game_of(ana).storyteller
    assert teller is not None
    for client in (ana, ben, cy):
        await client.session.typing(True)
    assert view_of(ana).typing == (teller,)


async def test_a_flood_of_typing_reports_is_cut_short() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    ana, ben, _ = await table_of(coord, 3, seed=4)
    await ana.session.start()
    before = views(ben)
    for _ in range(50):
        await ana.session.typing(True)
        await ana.session.typing(False)
    assert views(ben) - before <= 8  # the limiter's burst, not 100 re-renders


# --- offline players and stand-ins ----------------------------------------------------------------------------


async def test_the_view_says_which_offline_player_a_stand_in_will_play_for_and_when() -> None:
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, disconnect_grace=45, clock=lambda: now[0])
    ana, ben, cy = await table_of(coord, 3, seed=4)
    await ana.session.start()
    await ana.session.clue("tide", game_of(ana).hand[0].card)
    now[0] = 1010.0
    await cy.session.close()
    assert view_of(ben).stand_ins == ((2, 1055.0),)
    assert view_of(ben).deadline == 1055.0
    message = table_state(view_of(ben))
    validate_message(message)
    assert message["stand_ins"] == [{"seat": 2, "at": 1055.0}]
    await ben.session.submit([c.card for c in game_of(ben).hand[:2]])
    assert view_of(ben).stand_ins == ((2, 1055.0),)  # still waited for
    table = coord.tables[view_of(ana).code]
    await ben.session.close()
    await ana.session.close()  # nobody left to play for: the table waits, nothing is promised
    assert table.stand_ins == {} and table.deadline is None and table.view_for(cy.session).stand_ins == ()


async def test_a_stand_in_for_an_away_player_says_so_once_and_no_times_up_without_a_timer() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, disconnect_grace=0.1)
    ana, ben, cy = await table_of(coord, 3, seed=4)
    await ana.session.start()
    await ana.session.clue("tide", game_of(ana).hand[0].card)
    await cy.session.close()
    await ben.session.submit([c.card for c in game_of(ben).hand[:2]])
    await wait_until(lambda: game_of(ben).phase == "vote")
    vote = min(s.slot for s in game_of(ben).board if s.slot not in game_of(ben).forbidden_slots)
    await ben.session.vote([vote])
    await wait_until(lambda: game_of(ben).turn == 2)
    log = view_of(ben).log
    about_cy = [line for line in log if "p2" in line and "stand-in" in line]
    assert about_cy == ["p2 is away: a stand-in gave 2 cards for them.", "p2 is away: a stand-in voted for them."]
    assert not any("Time's up" in line for line in log)
    assert "p2 gave a card." not in log  # the stand-in's move is told once, as what it was


# --- tables everyone has left -----------------------------------------------------------------------------------


async def test_a_running_game_everyone_left_closes_and_stays_replayable(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path)
    try:
        coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, store=store, close_idle_after=0.2)
        ana, ben, cy = await table_of(coord, 3, seed=4)
        code = view_of(ana).code
        watcher = await connect(coord, "sam")
        await watcher.session.watch(code)
        lobby = await connect(coord, "lee")
        await ana.session.start()
        for client in (ana, ben, cy):
            await client.session.close()
        assert code in coord.tables and coord.tables[code].status == "playing"
        await wait_until(lambda: code not in coord.tables)
        assert all(t.code != code for t in coord.summaries())
        coord.flush_lobby()  # (lobby listings are gathered per `lobby_interval`)
        assert lobby.updates and not any(t.code == code for t in lobby.updates[-1].tables)  # type: ignore[union-attr]
        notices = [u for u in watcher.updates if isinstance(u, NoticeUpdate)]
        assert notices and "closed" in notices[-1].text and f"dixit-tui replay {code}" in notices[-1].text
        assert notices[-1].reason == "idle"  # the protocol's notice says why, for a program to read
        assert watcher.view is None and watcher.session.table is None
        assert code not in {t.code for t in await store.load()}  # closed: a restart does not read it
        assert any(r["t"] == "events" for r in await store.history(code))  # the game is kept for replay
    finally:
        await store.close()


async def test_a_player_coming_back_keeps_an_idle_table_open() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, close_idle_after=3600)
    ana, ben, cy = await table_of(coord, 3, seed=4)
    code = view_of(ana).code
    await ana.session.start()
    for client in (ana, ben, cy):
        await client.session.close()
    table = coord.tables[code]
    assert table.idle_timer is not None and table.deadline is None  # closing later; no stand-in meanwhile
    back = await connect(coord, "ana", key="SHA256:ana")
    await back.session.join(code)
    assert table.idle_timer is None and coord.tables[code] is table
