"""A notice on the table screen: where its toast stands."""

from __future__ import annotations

import pytest
from textual.widgets._toast import Toast, ToastRack

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.widgets.keybar import KeyBar
from tests.tui.fixtures import coordinator, options, settle

SIZE = (100, 30)


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_a_notice_covers_no_line_of_the_log_nor_the_key_bar(size: tuple[int, int]) -> None:
    """A toast stands on the top line, one line high, right-aligned: it covered the log's last four lines (40 columns
    wide, padded) at 80x24 (issue 22 item 13), then, on the key bar's line, the keys (seen playing). Two notices at
    at once: the newest takes the place of the first, so the status line under the top line stays clear."""
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    app = DixitApp(coord, Identity("ana", "key-ana"), command=f"join {view.code}")
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        app.notify("ben left the table; a bot plays for them.", markup=False)
        await settle(pilot)
        toast = app.screen.get_child_by_type(ToastRack).query_one(Toast)
        log = app.screen.query_one("#chat")
        keys = app.screen.query_one(KeyBar)
        assert not toast.region.overlaps(log.region), (toast.region, log.region)
        assert not toast.region.overlaps(keys.region), (toast.region, keys.region)
        assert toast.region.y == 0 and toast.region.height == 1, toast.region
        app.notify("cara left the table; a bot plays for them.", markup=False)
        await settle(pilot)
        toasts = list(app.screen.get_child_by_type(ToastRack).query(Toast))
        assert [t.region.y for t in toasts] == [0], [t.region for t in toasts]
        assert "cara left" in str(toasts[0].render()), toasts[0].render()
