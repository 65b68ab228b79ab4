"""A notice on the table screen: where its toast stands."""

from __future__ import annotations

from textual.widgets._toast import Toast, ToastRack

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from tests.tui.fixtures import coordinator, options, settle

SIZE = (100, 30)


async def test_a_notice_covers_no_line_of_the_log_at_80x24() -> None:
    """A toast stands on the key bar's line, right of its keys, one line high: it covered the log's last four lines
    (40 columns wide, padded) at 80x24 (issue 22 item 13)."""
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    app = DixitApp(coord, Identity("ana", "key-ana"), command=f"join {view.code}")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        app.notify("ben left the table; a bot plays for them.", markup=False)
        await settle(pilot)
        toast = app.screen.get_child_by_type(ToastRack).query_one(Toast)
        log = app.screen.query_one("#chat")
        assert not toast.region.overlaps(log.region), (toast.region, log.region)
        assert toast.region.y == 23 and toast.region.height == 1, toast.region
