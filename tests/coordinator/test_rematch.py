"""A rematch table: same options, same seats (without those removed for good), same host; rebuilt from the store."""

from __future__ import annotations

import random
from pathlib import Path

from dixit_tui.coordinator import Coordinator, TableOptions
from dixit_tui.store import SqliteStore


async def test_a_rematch_table_keeps_seats_and_host_and_is_rebuilt_from_the_store(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path)
    try:
        coord = Coordinator(rng=random.Random(1), store=store)
        old = coord.create_table(TableOptions(target=12, turn_seconds=90))
        for name in ("ana", "ben", "cara", "dev"):
            old.add_seat(name, f"key-{name}", bot=name == "dev")
        await coord.commit(old)
        old.seats[1].removed = True  # ben left the game for good
        old.lobby_host = 2  # the host role had passed to cara
        new, moved = coord.rematch_table(old)
        await coord.commit(new)
        assert new.code != old.code and moved == {0: 0, 2: 1, 3: 2}
        assert [s.name for s in new.seats] == ["ana", "cara", "dev"] and new.host == 1
        kept = [(s.key, s.code, s.bot) for s in old.seats if not s.removed]
        assert [(s.key, s.code, s.bot) for s in new.seats] == kept
        assert new.options == old.options and new.game is None
        assert new.log[-1] == f"A rematch of table {old.code}: same seats, same options."

        again = Coordinator(rng=random.Random(2), store=store)
        assert await again.restore() == 2
        rebuilt = again.tables[new.code]
        assert [s.name for s in rebuilt.seats] == ["ana", "cara", "dev"] and rebuilt.host == 1
        assert rebuilt.options == new.options and [s.code for s in rebuilt.seats] == [s.code for s in new.seats]
    finally:
        await store.close()
