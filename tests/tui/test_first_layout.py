"""A new session draws its first screen once and lays it out at most twice: no Resize to the size it has already, no
layout for the virtual sizes the first layout gave, nor for the screen's mounting; the layouts its containers ask for
as they compose are answered by one more layout (a patch answered them with the first: +2.5% of a join's Python
calls without it, tests/tui/patch_cost.py, retired 2026-12-07). Counters, not times."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from textual._compositor import Compositor
from textual.geometry import Size

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.lobby import LobbyScreen
from dixit_tui.tui.table_screen import TableScreen
from tests.tui.fixtures import coordinator, options, screen_text, settle

SIZE = (100, 30)


class Work:
    """Layouts per screen class, and whole-screen drawings."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.layouts: Counter[str] = Counter()
        self.full_frames = 0
        reflow = Compositor.reflow
        full = Compositor.render_full_update

        def counting_reflow(compositor: Compositor, parent: Any, size: Size) -> Any:
            self.layouts[type(parent).__name__] += 1
            return reflow(compositor, parent, size)

        def counting_full(compositor: Compositor, simplify: bool = False) -> Any:
            self.full_frames += 1
            return full(compositor, simplify)

        monkeypatch.setattr(Compositor, "reflow", counting_reflow)
        monkeypatch.setattr(Compositor, "render_full_update", counting_full)

    def reset(self) -> None:
        self.layouts.clear()
        self.full_frames = 0


async def test_a_join_lays_the_table_out_at_most_twice_and_draws_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    work = Work(monkeypatch)
    app = DixitApp(coord, Identity("ana", "key-ana"), command=f"join {view.code}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert f"Dixit · table {view.code}" in screen_text(app)
        # (before: the empty default screen 6 times, the table 4 times, and the table drawn whole twice)
        assert work.layouts == {"DefaultScreen": 1, "TableScreen": 2}
        assert work.full_frames == 1


async def test_the_lobby_is_laid_out_at_most_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    work = Work(monkeypatch)
    app = DixitApp(coordinator(), Identity("ana", "key-ana"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert "Welcome, ana!" in screen_text(app)
        assert work.layouts["LobbyScreen"] == 2  # (its first layout, and the one its containers asked for meanwhile)
        assert work.layouts["DefaultScreen"] <= 1
        # (it is laid out while the app starts, when Textual renders but does not show a frame: it is drawn after)


async def test_a_new_size_still_lays_the_screen_out_and_the_same_size_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    work = Work(monkeypatch)
    app = DixitApp(coord, Identity("ana", "key-ana"), command=f"join {view.code}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.screen
        assert isinstance(table, TableScreen)

        work.reset()
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        assert work.layouts["TableScreen"] >= 1
        assert table.size == Size(120, 40) and table.has_class("-wide") and table.has_class("-tall")
        assert screen_text(app).splitlines()[-1].strip(), "the key bar is on the new last row"

        work.reset()
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        assert work.layouts == {}, "a Resize to the size the screen has laid it out again"
        # (Textual draws the screen whole once for it: the app's override that dropped such a Resize saved 0.5% of
        # a join's Python calls, tests/tui/patch_cost.py --off app.on_resize, and went with issue 23)
        assert work.full_frames <= 1
