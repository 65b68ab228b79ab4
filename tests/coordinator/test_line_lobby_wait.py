"""The plain line mode says what a table's lobby waits for: a player short, the guests read that, not "Waiting for
ana (host) to start." while the host could not start (found playing over OpenSSH: the TUI said it too)."""

from __future__ import annotations

import random

from dixit_tui.coordinator import Coordinator, Identity
from dixit_tui.line_mode import LinePlayer
from tests.tui.fixtures import options


async def test_a_guest_reads_that_the_table_waits_for_a_player_then_for_the_host() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    ana = await coord.connect(Identity("ana", "key-ana"), lambda _u: None)
    view = await ana.create(options(seats=3))
    said: list[str] = []
    ben = LinePlayer(said.append)
    ben.session = await coord.connect(Identity("ben", "key-ben"), ben.deliver)
    await ben.command(f"join {view.code}")
    assert "Not ready to start. This refresh table needs 3 players; there are 2." in said
    assert not any("(host) to start" in line for line in said), said
    cara = await coord.connect(Identity("cara", "key-cara"), lambda _u: None)
    await cara.join(view.code)
    assert said[-1] == "Waiting for ana (host) to start.", said[-3:]
