"""Tables survive a restart exactly: the store replays every committed change (snapshots only make it faster)."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import pytest

from dixit_tui.bots.player import revive_bots, seat_bots
from dixit_tui.coordinator import (
    Coordinator,
    Identity,
    TableOptions,
)
from dixit_tui.engine import Phase
from dixit_tui.store import SqliteStore, StoreError
from tests.store.tables import Client, comparable, game_of, last_view, play_some, views_after_restart
from tests.tui.fixtures import default_move

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

T = TypeVar("T")


@pytest.mark.parametrize(("moves", "snapshot_every"), [(7, 1000), (25, 1000), (25, 4), (200, 7)])
async def test_restart_restores_every_table_exactly(tmp_path: Path, moves: int, snapshot_every: int) -> None:
    store = await SqliteStore.open(tmp_path)
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, store=store, snapshot_every=snapshot_every)
    code, clients = await play_some(coord, moves, seed=moves)
    before = [comparable(last_view(c)) for c, _ in clients]
    await store.close()  # the process dies: nothing of `coord` is used again

    store = await SqliteStore.open(tmp_path)
    again = Coordinator(rng=random.Random(2), store=store)
    assert await again.restore() == 1
    assert await views_after_restart(again, code) == before
    await store.close()


async def test_an_emptied_lobby_table_is_not_restored_but_stays_in_history(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path)
    coord = Coordinator(store=store)
    c = Client()
    session = await coord.connect(Identity("ana"), c)
    view = await session.create(TableOptions())
    await session.close()
    await store.close()
    store = await SqliteStore.open(tmp_path)
    assert await Coordinator(store=store).restore() == 0
    kinds = [r["t"] for r in await store.history(view.code)]
    assert kinds == ["create", "seat", "unseat", "closed"]
    await store.close()


async def test_a_foreign_database_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "dixit.sqlite3")
    db.execute("CREATE TABLE invoices (id INTEGER)")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="not a dixit-tui database"):
        await SqliteStore.open(tmp_path)


async def test_a_damaged_database_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    (tmp_path / "dixit.sqlite3").write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 40)
    with pytest.raises(StoreError, match=r"damaged|not a database|not a dixit-tui"):
        await SqliteStore.open(tmp_path)


async def test_the_store_is_written_with_wal_and_full_sync(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path)
    await store.append("ABCD", [{"t": "note", "text": "x"}])
    await store.close()
    db = sqlite3.connect(tmp_path / "dixit.sqlite3")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("SELECT COUNT(*) FROM records").fetchone()[0] == 1
    db.close()


async def test_replay_prints_the_transcript_of_a_saved_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from dixit_tui.cli import main

    store = await SqliteStore.open(tmp_path)
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, store=store)
    code, clients = await play_some(coord, 200, seed=5)
    assert last_view(clients[0][0]).status == "over"
    await store.close()
    assert await asyncio.to_thread(main, ["replay", code.lower(), "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Table {code}") and "Turn 1: " in out and "given by" in out and "Winner" in out
    # the transcript never shows a hand: only cards that were on a board
    assert "points: ana +" in out
    assert await asyncio.to_thread(main, ["replay", "ZZZZ", "--data-dir", str(tmp_path)]) == 1


async def test_replay_json_gives_the_same_game_as_reveal_messages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dixit_tui.cli import main
    from dixit_tui.protocol.schema import validate_message

    store = await SqliteStore.open(tmp_path)
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, store=store)
    code, clients = await play_some(coord, 200, seed=5)
    final = last_view(clients[0][0]).game
    assert final is not None
    await store.close()
    assert await asyncio.to_thread(main, ["replay", code, "--data-dir", str(tmp_path), "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1, "one JSON object on one line"
    game = json.loads(out)
    assert (game["table"], game["phase"]) == (code, "over")
    assert [p["name"] for p in game["players"]] == [p.name for p in final.players]
    assert [p["score"] for p in game["players"]] == [p.score for p in final.players]
    assert game["winners"] == list(final.winners) and game["turns"]
    for turn in game["turns"]:
        validate_message(turn)  # each scored turn is the protocol's reveal message
        assert turn["type"] == "reveal"
    assert [t["turn"] for t in game["turns"]] == sorted({t["turn"] for t in game["turns"]})


class FirstChoice(random.Random):
    """An rng that offers the same code twice, then the next: AAAA, AAAA, BBBB, CCCC, ..."""

    calls = 0

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        self.calls += 1
        return seq[max(0, self.calls - 1 - 4) // 4]


async def test_a_code_is_never_given_out_twice_even_after_its_table_closed(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path)
    coord = Coordinator(rng=FirstChoice(1), store=store)
    ana = await coord.connect(Identity("ana"), Client())
    first = await ana.create(TableOptions())
    await ana.leave()  # the table closes
    second = await ana.create(TableOptions())
    assert second.code != first.code
    await store.close()
    store = await SqliteStore.open(tmp_path)
    again = Coordinator(rng=FirstChoice(2), store=store)
    assert await again.restore() == 1 and second.code in again.tables
    cy = await again.connect(Identity("cy"), Client())
    third = await cy.create(TableOptions())
    assert third.code not in (first.code, second.code)
    await store.close()


class FlakyStore(SqliteStore):
    fail_next = False

    async def append(self, code, records):  # type: ignore[no-untyped-def]
        if self.fail_next:
            self.fail_next = False
            raise OSError("disk full")
        await super().append(code, records)


async def test_a_failed_save_rolls_the_table_back_and_refuses_the_change(tmp_path: Path) -> None:
    from dixit_tui.coordinator import TableError

    store = FlakyStore(tmp_path / "dixit.sqlite3")
    await store._run(store._open)
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, store=store)
    clients = []
    for name in ("ana", "ben", "cy"):
        c = Client()
        clients.append((c, await coord.connect(Identity(name, f"SHA256:{name}"), c)))
    view = await clients[0][1].create(TableOptions(seed=3))
    for _, s in clients[1:]:
        await s.join(view.code)
    await clients[0][1].start()
    g = game_of(clients[0][0])
    await clients[0][1].clue("tide", g.hand[0].card)
    seen_before = len(clients[2][0].views)
    store.fail_next = True
    ben = game_of(clients[1][0])
    with pytest.raises(TableError, match="could not save") as info:
        await clients[1][1].submit([c.card for c in ben.hand[:2]])
    assert info.value.code == "storage"
    game = coord.tables[view.code].game
    assert game is not None and 1 not in game.state.turn.submissions  # rolled back in memory
    assert all(v.game.your_cards == () for v in clients[1][0].views[seen_before:] if v and v.game)
    await clients[1][1].submit([c.card for c in ben.hand[:2]])  # and it works once the disk does
    assert 1 in coord.tables[view.code].game.state.turn.submissions  # type: ignore[union-attr]
    await store.close()


async def test_built_in_bots_of_a_running_game_take_their_seats_back_after_a_restart(tmp_path: Path) -> None:
    """(They stayed away, and a stand-in played each of their turns after the turn's wait.)"""
    store = await SqliteStore.open(tmp_path)
    coord = Coordinator(store=store, bots=seat_bots)
    ana = await coord.connect(Identity("ana"), Client())
    view = await ana.create(TableOptions())
    assert await ana.add_bots(2) == 2
    await ana.start()
    await store.close()  # the process dies with its bots

    store = await SqliteStore.open(tmp_path)
    again = Coordinator(store=store, bots=seat_bots)
    assert await again.restore() == 1
    table = again.tables[view.code]
    assert [s.session is None for s in table.seats] == [True, True, True]
    bots = await revive_bots(again, rng=random.Random(3))
    assert sorted(b.name for b in bots) == sorted(s.name for s in table.seats if s.bot)
    assert [s.session is not None for s in table.seats] == [False, True, True]
    ana_again = await again.connect(Identity("ana"), Client())
    await ana_again.reclaim(table.seats[0].code)
    assert await default_move(ana_again)  # ana gives the first clue: the bots give their cards
    for _ in range(2000):  # (the bots' moves: polled)
        if table.game is not None and table.game.state.phase == Phase.VOTE:
            break
        await asyncio.sleep(0.01)
    assert table.game is not None and table.game.state.phase == Phase.VOTE
    for bot in bots:
        await bot.stop()
    await ana_again.close()
    await store.close()


async def test_a_change_of_options_that_cannot_be_saved_changes_nothing_and_a_restart_keeps_a_saved_one(
    tmp_path: Path,
) -> None:
    """Issue 22 item 5: the host's new options go through the store like any change (refused and rolled back when
    the disk fails; kept across a restart when saved)."""
    from dixit_tui.coordinator import TableError

    store = FlakyStore(tmp_path / "dixit.sqlite3")
    await store._run(store._open)
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, store=store)
    ana = await coord.connect(Identity("ana", "SHA256:ana"), Client())
    view = await ana.create(TableOptions(seed=3))
    store.fail_next = True
    with pytest.raises(TableError, match="could not save"):
        await ana.change_options(TableOptions(mode="party", seed=3))
    assert coord.tables[view.code].options.mode == "standard"
    await ana.change_options(TableOptions(mode="party", seed=3, turn_seconds=45))
    again = Coordinator(rng=random.Random(2), allow_seeded_tables=True, store=store)
    await again.restore()
    restored = again.tables[view.code].options
    assert (restored.mode, restored.turn_seconds) == ("party", 45)
    await store.close()
