"""The plain line mode gets a keyless player's seat back with its reconnect code (found playing over SSH: carol's
window closed mid-game; in `ssh -t HOST plain`, `join AHEK` asked for her reconnect code, and no command took it)."""

from __future__ import annotations

import random

from dixit_tui.coordinator import Coordinator, Identity
from dixit_tui.line_mode import LinePlayer
from tests.coordinator.clients import connect, table_of


async def test_a_keyless_player_gets_their_seat_back_in_line_mode() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    ana, _p1 = await table_of(coord, 2, seed=4)
    code = ana.view.code  # type: ignore[union-attr]
    cara = await connect(coord, "cara")  # no SSH key
    await cara.session.join(code)
    table = coord.tables[code]
    await ana.session.start()
    seat_code = table.seats[2].code
    await cara.session.close()  # cara's window closed
    said: list[str] = []
    player = LinePlayer(said.append)
    player.session = await coord.connect(Identity("cara"), player.deliver)
    await player.command(f"join {code}")
    assert said[-1] == "Type reconnect and your code."
    await player.command(f"reconnect {seat_code.lower().replace('-', ' ')}")  # as the TUI takes it, spaces too
    assert player.view is not None and player.view.you == 2
    assert table.seats[2].session is player.session
