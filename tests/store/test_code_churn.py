"""Codes run out and the database grows forever (issue 24, item 5): a create/leave loop used a table code for good
each time, `used_codes` never shrank, was reloaded at start and copied whole on every create, and start-up read every
record of every closed table. Now creates are metered per key, address and network, a closed table's code is given
out again after `code_reuse_after` (its game is then replayed by its game id), start-up reads the open tables only,
and finished and abandoned games are pruned after their retention."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from dixit_tui.coordinator import Coordinator, Identity, TableError, TableOptions
from dixit_tui.coordinator import service as service_module
from dixit_tui.coordinator.limits import TableLimits
from dixit_tui.store import SqliteStore
from dixit_tui.store.sqlite import APPLICATION_ID, FILENAME
from tests.coordinator.clients import Client


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


async def arrive(coord: Coordinator, name: str, address: str = "192.0.2.1") -> Client:
    client = Client()
    client.session = await coord.connect(Identity(name, f"SHA256:{name}", address), client)
    return client


async def test_a_create_leave_loop_is_metered_per_key_address_and_network() -> None:
    clock = Clock()
    limits = TableLimits(creates_per_player=5, creates_per_ip=8, creates_per_network=12, create_window=600)
    coord = Coordinator(rng=random.Random(1), limits=limits, clock=clock)
    loop = await arrive(coord, "loop", "10.0.0.1")
    results = []
    for _ in range(40):  # one connection, create then leave, as fast as it can
        try:
            await loop.session.create(TableOptions())
            await loop.session.leave()
            results.append("ok")
        except TableError as err:
            results.append(err.code)
    assert results.count("ok") == 5 and set(results[5:]) == {"rate_limited"}
    # new keys from the same address, then from its network
    others = [await arrive(coord, f"k{i}", "10.0.0.1") for i in range(5)]
    assert [await _create_leave(c) for c in others] == ["ok", "ok", "ok", "rate_limited", "rate_limited"]
    near = [await arrive(coord, f"n{i}", f"10.0.0.{i + 2}") for i in range(6)]
    assert [await _create_leave(c) for c in near] == ["ok"] * 4 + ["rate_limited"] * 2
    assert len(coord.used_codes) == 12 and not coord.tables  # 12 tables made and closed, and no more
    clock.now += 601  # the window has passed
    assert await _create_leave(loop) == "ok"


async def _create_leave(client: Client) -> str:
    try:
        await client.session.create(TableOptions())
        await client.session.leave()
    except TableError as err:
        return err.code
    return "ok"


@pytest.fixture
def few_codes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Table codes come from AAAA, BBBB, CCCC, DDDD only (in turn, skipping the taken)."""
    given: list[str] = []

    def pick(rng: random.Random, taken: object, length: int = 4) -> str:
        for code in ("AAAA", "BBBB", "CCCC", "DDDD"):
            if code not in taken:  # type: ignore[operator]
                given.append(code)
                return code
        raise RuntimeError("no free code")

    monkeypatch.setattr(service_module, "new_code", pick)
    yield given


async def test_a_closed_tables_code_is_given_out_again_after_a_while_and_its_game_keeps_its_id(
    tmp_path: Path, few_codes: list[str]
) -> None:
    clock = Clock()
    limits = TableLimits(code_reuse_after=60)
    store = await SqliteStore.open(tmp_path)
    try:
        coord = Coordinator(rng=random.Random(1), limits=limits, clock=clock, store=store)
        ana = await arrive(coord, "ana")
        first = coord.tables[(await ana.session.create(TableOptions())).code]
        await ana.session.chat("the first game")
        await ana.session.leave()  # an empty lobby table closes
        assert first.code == "AAAA" and first.game_id.startswith("AAAA") and len(first.game_id) == 12
        clock.now += 10
        ben = await arrive(coord, "ben")
        assert (await ben.session.create(TableOptions())).code == "BBBB"  # AAAA closed 10 s ago
        await ben.session.leave()
        # after a restart the store knows: AAAA and BBBB are not given out before their minute has passed
        clock.now += 10
        coord = Coordinator(rng=random.Random(2), limits=limits, clock=clock, store=store)
        assert await coord.restore() == 0 and not coord.used_codes
        cy = await arrive(coord, "cy")
        assert (await cy.session.create(TableOptions())).code == "CCCC"
        await cy.session.leave()
        # later, AAAA goes to a new table; the old game is replayed by its id
        clock.now += 100
        coord = Coordinator(rng=random.Random(3), limits=limits, clock=clock, store=store)
        await coord.restore()
        dan = await arrive(coord, "dan")
        assert (await dan.session.create(TableOptions())).code == "AAAA"
        old = await store.history(first.game_id)
        assert old[0]["game"] == first.game_id and any(r.get("text") == "the first game" for r in old)
        assert old[-1]["t"] == "closed"
        new = await store.history("AAAA")
        assert new[0]["game"] != first.game_id and all(r["t"] != "closed" for r in new)
        assert await store.history(coord.tables["AAAA"].game_id) == new  # a game id reaches its game anywhere
        assert [t.code for t in await store.load()] == ["AAAA"]  # start-up reads the open tables only
    finally:
        await store.close()


async def test_prune_deletes_finished_and_abandoned_games_after_their_retention(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path)
    try:
        await store.append("OPEN", [{"t": "create", "game": "OPENX"}])
        await store.append("DONE", [{"t": "create", "game": "DONEX"}, {"t": "result", "at": 999.0}])
        await store.append("DONE", [{"t": "closed", "at": 1000.0, "over": True}])
        await store.append("LEFT", [{"t": "create", "game": "LEFTX"}, {"t": "closed", "at": 1000.0, "over": False}])
        await store.append("NEWR", [{"t": "create", "game": "NEWRX"}, {"t": "closed", "at": 5000.0, "over": False}])
        assert await store.prune(2000.0, None, dry_run=True) == 1
        assert await store.history("DONE")  # a dry run deletes nothing
        assert await store.prune(None, 2000.0) == 1  # abandoned before 2000: LEFT
        assert await store.history("LEFT") == [] and await store.history("DONE")
        assert await store.prune(2000.0, 6000.0) == 2  # DONE (finished) and NEWR
        assert [await store.history(c) != [] for c in ("OPEN", "DONE", "NEWR")] == [True, False, False]
        assert await store.results() == [{"t": "result", "at": 999.0}]  # the ratings keep the pruned game's result
    finally:
        await store.close()


async def test_a_version_1_data_folder_is_upgraded_and_its_closed_tables_wait_before_reuse(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / FILENAME)
    db.executescript(
        "CREATE TABLE records (code TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (code, seq))"
        " WITHOUT ROWID; CREATE TABLE snapshots (code TEXT PRIMARY KEY, seq INTEGER NOT NULL, data TEXT NOT NULL);"
    )
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    db.execute("PRAGMA user_version=1")
    rows = [("OLDA", 1, {"t": "create"}), ("OLDA", 2, {"t": "closed"}), ("OPNA", 1, {"t": "create"})]
    db.executemany("INSERT INTO records VALUES (?, ?, ?)", [(c, s, json.dumps(d)) for c, s, d in rows])
    db.commit()
    db.close()
    store = await SqliteStore.open(tmp_path)
    try:
        assert [t.code for t in await store.load()] == ["OPNA"]
        with pytest.raises(Exception, match="moved on"):  # closed "now" (at the upgrade): not reused at once
            await store.append("OLDA", [{"t": "create", "game": "OLDAZZZZZZZZ"}])
        store.reuse_after = 0.0
        await store.append("OLDA", [{"t": "create", "game": "OLDAZZZZZZZZ"}])
        assert len(await store.history("OLDA")) == 1
    finally:
        await store.close()


async def test_replay_names_the_game_by_its_id_and_prune_runs_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], few_codes: list[str]
) -> None:
    import asyncio

    from dixit_tui.cli import main

    clock = Clock()
    clock.now = 1000.0  # long ago: past every retention
    store = await SqliteStore.open(tmp_path)
    try:
        coord = Coordinator(rng=random.Random(1), clock=clock, store=store, allow_seeded_tables=True)
        ana = await arrive(coord, "ana")
        table = coord.tables[(await ana.session.create(TableOptions(seed=1))).code]
        for name in ("ben", "cy"):
            await (await arrive(coord, name)).session.join(table.code)
        await ana.session.start()
        game_name = table.game_name
    finally:
        await store.close()
    assert game_name.startswith("AAAA-") and len(game_name) == 13
    for asked in ("AAAA", game_name, game_name.lower()):
        assert await asyncio.to_thread(main, ["replay", asked, "--data-dir", str(tmp_path)]) == 0
        assert capsys.readouterr().out.startswith(f"Table AAAA, game {game_name}\n")
    # the game is open (its players may come back): prune keeps it whatever the retention
    assert await asyncio.to_thread(main, ["prune", "--data-dir", str(tmp_path), "--keep-abandoned", "0"]) == 0
    assert capsys.readouterr().out == "deleted 0 games past their retention\n"
    store = await SqliteStore.open(tmp_path)
    try:
        await store.append("AAAA", [{"t": "closed", "at": 1000.0, "over": False}])
    finally:
        await store.close()
    args = ["prune", "--data-dir", str(tmp_path), "--keep-abandoned", "1"]
    assert await asyncio.to_thread(main, [*args, "--dry-run"]) == 0
    assert capsys.readouterr().out == "would delete 1 game past their retention\n"
    assert await asyncio.to_thread(main, args) == 0
    assert capsys.readouterr().out == "deleted 1 game past their retention\n"
    assert await asyncio.to_thread(main, ["replay", game_name, "--data-dir", str(tmp_path)]) == 1
