"""A table left with only bots does not list a bot as its host (found playing over OpenSSH: the lobby listed such a
table as "host Morpheus"). The JSON `host` keeps the bot's name (docs/protocol.md); the lobby shows "bots only"."""

from __future__ import annotations

from dixit_tui.coordinator import Identity
from dixit_tui.plain_commands import tables_text
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.lobby import LobbyScreen, TableList
from tests.tui.fixtures import coordinator, options, settle


async def test_a_table_of_bots_only_lists_no_bot_as_host() -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    wisp = await coord.connect(Identity("wisp", key="key-wisp", bot=True), lambda update: None)  # a `json bot`
    await wisp.join(view.code)
    await host.add_bots(1)
    await host.leave()  # the host goes: bots only are left, one of them its host now
    (summary,) = coord.summaries()
    assert summary.code == view.code and summary.bots_only and summary.host != "host"
    assert tables_text(coord).splitlines()[1].endswith("bots only")
    app = DixitApp(coord, Identity("ana", "key-ana"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        tables = app.screen.query_one("#tables", TableList)
        row = list(tables.rows[tables.keys.index(view.code)])
        assert row[-1] == "bots only", row
