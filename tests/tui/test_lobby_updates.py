"""A lobby update that changes nothing the lobby shows (the same tables, the same name) rebuilds nothing: not the
list, not the welcome line, not the shell hint. A real change is shown."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Static

from dixit_tui.coordinator import Identity, LobbyUpdate
from dixit_tui.tui.app import CoordinatorUpdate, DixitApp
from dixit_tui.tui.lobby import LobbyScreen, TableList
from tests.tui.fixtures import coordinator, options, settle

SIZE = (100, 30)


async def test_a_lobby_update_that_changes_nothing_rebuilds_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    rebuilt = 0
    list_rows = TableList.list_rows

    def count_list_rows(self: TableList, rows: Any) -> None:
        nonlocal rebuilt
        rebuilt += 1
        list_rows(self, rows)

    monkeypatch.setattr(TableList, "list_rows", count_list_rows)
    updated: list[str | None] = []
    update = Static.update

    def count_update(self: Static, *args: object, **kwargs: object) -> None:
        updated.append(self.id)
        update(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Static, "update", count_update)
    app = DixitApp(coord, Identity("ana", "key-ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert app.screen.query_one("#tables", TableList).row_count == 1
        before, updated[:] = rebuilt, []
        for _ in range(3):  # the same tables again
            app.post_message(CoordinatorUpdate(LobbyUpdate(coord.summaries())))
            await settle(pilot)
        assert rebuilt == before and not updated, (rebuilt - before, updated)
        # a real change is shown
        await (await coord.connect(Identity("cara", key="key-cara"), lambda update: None)).create(options())
        await settle(pilot)
        tables = app.screen.query_one("#tables", TableList)
        assert tables.row_count == 2 and rebuilt == before + 1
        assert view.code in tables.keys
