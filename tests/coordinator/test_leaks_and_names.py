"""A table does not keep the spectators who chatted there once they left; log lines tell look-alike names apart
(issue 24, item 12)."""

from __future__ import annotations

import gc
import logging
import random
import weakref

import pytest

from dixit_tui.coordinator import Coordinator, TableError, TableOptions
from dixit_tui.sanitize import log_text
from tests.coordinator.clients import connect, table_of


async def test_spectators_who_chatted_and_left_are_not_kept() -> None:
    coord = Coordinator(rng=random.Random(1))
    host = await connect(coord, "ana", "SHA256:ana")
    view = await host.session.create(TableOptions())
    gone: list[weakref.ref[object]] = []
    for index in range(20):
        watcher = await connect(coord, f"w{index}")
        await watcher.session.watch(view.code)
        await watcher.session.chat("hi")
        await watcher.session.close()
        gone += [weakref.ref(watcher.session), weakref.ref(watcher)]  # the session, and its sink (an app's)
        del watcher
    gc.collect()
    kept = [ref for ref in gone if ref() is not None]
    assert not kept, f"{len(kept)} of 40 sessions and sinks kept"
    assert len(coord.tables[view.code].limiter.sent) <= 1  # the host's seat, if it chatted: nobody else


async def test_the_chat_limit_of_a_seat_holds_across_reconnections() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    ana, _, _ = await table_of(coord, 3, seed=4)
    await ana.session.start()
    code = ana.session.table.code  # type: ignore[union-attr]
    for _ in range(5):
        await ana.session.chat("hi")
    await ana.session.close()  # her seat is kept in a running game
    back = await connect(coord, "ana", "SHA256:ana")
    await back.session.join(code)
    with pytest.raises(TableError, match="Slow down"):
        await back.session.chat("again")


async def test_log_lines_tell_a_cyrillic_name_from_a_latin_one(caplog: pytest.LogCaptureFixture) -> None:
    assert log_text("\u0430na") == "\\u0430na" and log_text("ana") == "ana" and log_text("a\\u0430") == "a\\\\u0430"
    coord = Coordinator(rng=random.Random(1))
    host = await connect(coord, "bob", "SHA256:bob")
    view = await host.session.create(TableOptions())
    twin = await connect(coord, "\u0430na", "SHA256:twin")  # a Cyrillic a: it reads as "ana"
    with caplog.at_level(logging.INFO, logger="dixit_tui"):
        await twin.session.join(view.code)
        await twin.session.leave()
    left = [r.getMessage() for r in caplog.records if "left the table" in r.getMessage()]
    assert left == [f"table {view.code}: \\u0430na left the table before the start"], left
    assert all(r.getMessage().isascii() for r in caplog.records), [r.getMessage() for r in caplog.records]
