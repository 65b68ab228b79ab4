"""The admins' table commands in a running game: `admin_remove` takes a player out for good (told why, back in the
lobby; the game goes on without them) and `admin_close` closes the table for everyone."""

from __future__ import annotations

from dixit_tui.coordinator import NoticeUpdate, StateUpdate
from dixit_tui.coordinator.models import TableStatus
from tests.coordinator.clients import table_of


async def test_an_admin_removes_a_player_from_a_running_game_then_closes_it() -> None:
    from dixit_tui.coordinator import Coordinator

    coord = Coordinator()
    ana, ben, cara, dev = await table_of(coord, 4)
    await ana.session.start()
    table = coord.tables[ana.session.view().code]  # type: ignore[union-attr]

    said = await coord.admin_remove(table.code, "p3")
    assert said == f"p3 removed from table {table.code}."
    assert table.seats[3].removed and table.status is TableStatus.PLAYING
    assert NoticeUpdate(f"An admin removed you from table {table.code}.") in dev.updates
    assert dev.session.table is None and StateUpdate(None) in dev.updates
    assert "An admin removed p3 from the game." in table.log

    assert await coord.admin_close(table.code) == f"Table {table.code} closed."
    assert table.code not in coord.tables
    for client in (ana, ben, cara):
        assert client.session.table is None
        assert any(isinstance(u, NoticeUpdate) and "An admin closed table" in u.text for u in client.updates)
