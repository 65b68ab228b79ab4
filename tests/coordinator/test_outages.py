"""A store that fails (a full disk here; Redis frozen in tests/redis) and attacks on reconnect codes: the log says what
happened as summaries, not a line (and a traceback) per refused move; a table whose stand-ins could not be saved goes
on by itself once the store saves again; a headless session whose leaving fails still cleans up (issue 24, items 10
and 11)."""

from __future__ import annotations

import asyncio
import errno
import gc
import logging
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from dixit_tui.coordinator import Coordinator, Identity, TableError, TableOptions, service
from dixit_tui.coordinator.codes import new_reconnect_code
from dixit_tui.coordinator.limits import TableLimits
from dixit_tui.log_caps import REPEATS
from dixit_tui.protocol.json_stream import serve_json
from dixit_tui.store import SqliteStore
from tests.coordinator.clients import connect, game_of, table_of


class FullDisk(SqliteStore):
    """SQLite whose writes fail as on a full disk while `full` is set."""

    full = False

    async def append(self, code: str, records: Sequence[Any]) -> None:
        if self.full:
            raise OSError(errno.ENOSPC, "No space left on device")
        await super().append(code, records)


async def _full_disk(tmp_path: Path) -> FullDisk:
    store = FullDisk(tmp_path / "dixit.sqlite3")
    await store._run(store._open)
    return store


async def wait_until(predicate: Any, tries: int = 500) -> None:
    for _ in range(tries):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not reached")


async def test_a_full_disk_logs_one_traceback_not_one_per_refused_move(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await _full_disk(tmp_path)
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, store=store)
    ana, p1, _ = await table_of(coord, 3, seed=4)
    await ana.session.start()
    await ana.session.clue("tide", game_of(ana).hand[0].card)
    cards = [c.card for c in game_of(p1).hand[:2]]
    store.full = True
    caplog.clear()
    monkeypatch.setattr(REPEATS, "_last", {})  # (what earlier tests logged within the last 10 s does not count)
    monkeypatch.setattr(REPEATS, "_dropped", Counter())
    with caplog.at_level(logging.INFO, logger="dixit_tui"):
        for _ in range(20):
            with pytest.raises(TableError) as refused:
                await p1.session.submit(cards)
            assert refused.value.code == "storage"
        store.full = False
        await p1.session.submit(cards)
    records = [r for r in caplog.records if r.name == "dixit_tui.coordinator.service"]
    tracebacks = [r for r in records if r.exc_info]
    assert len(tracebacks) == 1, [r.getMessage() for r in tracebacks]
    assert len([r for r in records if r.levelno >= logging.WARNING]) <= 4, [r.getMessage() for r in records]
    assert any("the store saves again; 20 change(s)" in r.getMessage() for r in records)
    with caplog.at_level(logging.WARNING, logger="dixit_tui.coordinator.tallies"):
        coord.tally.flush()  # (the summary due within a minute, logged now)
    summaries = [r.getMessage() for r in caplog.records if r.name == "dixit_tui.coordinator.tallies"]
    assert any(s.startswith("changes refused: the store could not save them: 20 in ") for s in summaries), summaries
    await store.close()


async def test_stand_ins_the_store_could_not_save_play_once_it_saves_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The turn's time ran out during an outage: the stand-ins' moves were refused and rolled back. Before, nothing
    armed the table's clock again and it waited for ever; now it tries again until the store saves, and everyone
    at the table gets the new state."""
    monkeypatch.setattr(service, "STORE_RETRY", 0.01)
    now = [1000.0]
    store = await _full_disk(tmp_path)
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, store=store, clock=lambda: now[0])
    ana, p1, p2 = await table_of(coord, 3, seed=4, turn_seconds=5)
    await ana.session.start()
    await ana.session.clue("tide", game_of(ana).hand[0].card)
    table = next(iter(coord.tables.values()))
    store.full = True
    now[0] += 5.5
    assert table.timer is not None
    table.timer.cancel()  # it fires (as the loop would call it: the test's clock is ahead of the loop's)
    await coord.expire(table)  # the deadline: the stand-ins' moves cannot be saved
    assert game_of(p1).phase == "submit"
    seen = [len(c.updates) for c in (ana, p1, p2)]
    store.full = False
    await wait_until(lambda: game_of(p2).phase == "vote")
    assert all(len(c.updates) > before for c, before in zip((ana, p1, p2), seen, strict=True))
    assert not coord.unsaved
    await store.close()


class Pipe:
    def __init__(self) -> None:
        self.inbox: asyncio.Queue[bytes] = asyncio.Queue()
        self.written = 0

    async def readline(self) -> bytes:
        return await self.inbox.get()

    def write(self, data: bytes) -> None:
        self.written += 1

    async def drain(self) -> None:
        return None


async def test_a_headless_session_whose_leaving_fails_still_cleans_up(tmp_path: Path) -> None:
    """The client leaves during an outage: leaving its table cannot be saved. Before, serve_json raised (logged as
    "session of connection #N failed") and its output task was never awaited ("Task exception was never
    retrieved")."""
    store = await _full_disk(tmp_path)
    coord = Coordinator(rng=random.Random(1), store=store)
    problems: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _, context: problems.append(context))
    pipe = Pipe()
    task = asyncio.create_task(serve_json(coord, Identity("ana", "SHA256:ana"), pipe, pipe))
    pipe.inbox.put_nowait(b'{"cmd":"create"}\n')
    await wait_until(lambda: bool(coord.tables))
    store.full = True
    pipe.inbox.put_nowait(b"")  # the client is gone
    assert await asyncio.wait_for(task, 5) == 0
    gc.collect()
    await asyncio.sleep(0)
    assert problems == []
    loop.set_exception_handler(None)
    await store.close()


async def test_wrong_reconnect_codes_and_lockouts_are_logged_as_summaries(caplog: pytest.LogCaptureFixture) -> None:
    limits = TableLimits(reconnect_delay=0.0001, reconnect_tries_per_connection=1000, reconnect_tries_per_ip=30)
    coord = Coordinator(rng=random.Random(1), limits=limits)
    host = await connect(coord, "ana", "SHA256:ana")
    await host.session.create(TableOptions())
    mallory = await connect(coord, "mallory")
    mallory.session.identity = Identity("mallory", None, "203.0.113.5")
    with caplog.at_level(logging.INFO, logger="dixit_tui"):
        for _ in range(60):
            with pytest.raises(TableError):
                await mallory.session.reclaim(new_reconnect_code())
        coord.tally.flush()
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 2, lines
    wrong = "reconnect codes refused (bad_code): 30 in"
    assert any(line.startswith(wrong) and "203.0.113.5 30" in line for line in lines), lines
    assert any(line.startswith("reconnect tries refused: too many wrong codes: 30 in") for line in lines)


async def test_when_the_store_saves_again_every_table_a_change_failed_at_gets_its_state(tmp_path: Path) -> None:
    """A move failed at one table during the outage; the store works again (a change at another table is saved):
    everyone at the first table is sent its state again, so a client waiting for one goes on."""
    store = await _full_disk(tmp_path)
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, store=store)
    ana, p1, p2 = await table_of(coord, 3, seed=4)
    await ana.session.start()
    await ana.session.clue("tide", game_of(ana).hand[0].card)
    other = await connect(coord, "zoe", "SHA256:zoe")
    await other.session.create(TableOptions())
    store.full = True
    with pytest.raises(TableError):
        await p1.session.submit([c.card for c in game_of(p1).hand[:2]])
    seen = [len(c.updates) for c in (ana, p1, p2)]
    store.full = False
    await other.session.chat("hello")  # saved: the store is back
    assert all(len(c.updates) > before for c, before in zip((ana, p1, p2), seen, strict=True))
    assert not coord.unsaved
    await store.close()
