"""The plain line mode's table list ends with what a newcomer can do: join a code when some table has a free seat,
else create one (it said "Type join and a code." with every table full or playing, and every join was refused)."""

from __future__ import annotations

import random

from dixit_tui.coordinator import Coordinator, Identity, TableOptions
from dixit_tui.line_mode import LinePlayer
from tests.coordinator.clients import connect, table_of


async def test_the_table_list_says_create_when_no_table_has_a_free_seat() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    full = await table_of(coord, 3, seed=4, seats=3)  # every seat taken
    playing = await table_of(coord, 3, seed=5)  # started: nobody new sits down
    await playing[0].session.start()
    said: list[str] = []
    dan = LinePlayer(said.append)
    dan.session = await coord.connect(Identity("dan", "SHA256:dan"), dan.deliver)
    await dan.command("tables")
    assert said[-1].startswith("2 tables open: "), said[-1]
    assert said[-1].endswith(". No table here takes new players: type create to make one."), said[-1]
    assert full[0].view is not None and full[0].view.code in said[-1]
    eve = await connect(coord, "eve", key="SHA256:eve")
    await eve.session.create(TableOptions(seats=4))  # a seat free at eve's
    await dan.command("tables")
    assert said[-1].startswith("3 tables open: ") and said[-1].endswith(". Type join and a code."), said[-1]
