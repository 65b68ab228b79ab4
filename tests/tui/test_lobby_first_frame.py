"""A plain `ssh host` session: the lobby's first layout (so its first frame) already has the welcome line and the open
tables, and the update that follows the connection, which repeats the same tables, rebuilds nothing."""

from __future__ import annotations

from typing import Any

import pytest
from textual.screen import Screen
from textual.widgets import Static

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.lobby import LobbyScreen, TableList
from tests.tui.fixtures import coordinator, options, settle

SIZE = (100, 30)


async def test_the_lobby_is_drawn_first_with_its_welcome_and_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    seen: list[tuple[str, int]] = []  # at each layout of the lobby: (its welcome line, rows in its list)
    layout = Screen._refresh_layout

    def counted(self: Screen[Any], *args: Any, **kwargs: Any) -> None:
        if isinstance(self, LobbyScreen):
            welcome = str(self.query_one("#welcome", Static).render())
            seen.append((welcome, self.query_one("#tables", TableList).row_count))
        layout(self, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    rebuilt = 0
    clear = TableList.clear

    def count_clear(self: TableList, columns: bool = False) -> TableList:
        nonlocal rebuilt
        rebuilt += 1
        return clear(self, columns)

    monkeypatch.setattr(TableList, "clear", count_clear)
    app = DixitApp(coord, Identity("ana", "key-ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert seen, "the lobby was never laid out"
        assert seen[0] == ("Welcome, ana! Join a table, watch one, or create your own.", 1), seen
        assert rebuilt == 1, "the connection's lobby update rebuilt the list it already showed"
        # a real change is shown
        await coord.connect(Identity("ben", key="key-ben"), lambda update: None)
        await (await coord.connect(Identity("cara", key="key-cara"), lambda update: None)).create(options())
        await settle(pilot)
        assert app.screen.query_one("#tables", TableList).row_count == 2 and rebuilt == 2
        assert view.code in {str(key.value) for key in app.screen.query_one("#tables", TableList).rows}
