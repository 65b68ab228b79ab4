"""`ssh HOST tables` shows each table's timer, as the lobby's Timer column does (found playing over OpenSSH: the
plain listing had no timer)."""

from __future__ import annotations

import random

from dixit_tui.coordinator import Coordinator, Identity
from dixit_tui.plain_commands import tables_text
from tests.tui.fixtures import options


async def test_the_plain_tables_listing_has_a_timer_column() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    ana = await coord.connect(Identity("ana", "key-ana"), lambda _u: None)
    timed = (await ana.create(options(turn_seconds=90))).code
    ben = await coord.connect(Identity("ben", "key-ben"), lambda _u: None)
    untimed = (await ben.create(options())).code
    header, *rows = tables_text(coord).splitlines()
    assert header.split() == ["code", "mode", "status", "players", "decks", "timer", "host"]
    cells = {row.split()[0]: row.split() for row in rows}
    assert cells[timed][-3:] == ["90", "s", "ana"]  # "90 s", as the lobby says it
    assert cells[untimed][-2:] == ["-", "ben"]  # no timer
