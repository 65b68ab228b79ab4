"""Per-process work is done once per process: the second session's app parses no CSS, and opening a table neither
reparses the stylesheet nor restyles the screens below it. Counters, not times."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any

import pytest
import textual.css.stylesheet as stylesheet_module
from textual.css.stylesheet import Stylesheet

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.lobby import LobbyScreen
from dixit_tui.tui.table_screen import TableScreen
from tests.tui.fixtures import coordinator, options, settle

SIZE = (100, 30)


class Counts:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.parses = 0
        self.reparses = 0
        self.restyled: list[str] = []
        parse = stylesheet_module.parse
        reparse = Stylesheet.reparse
        update = Stylesheet.update

        def counting_parse(*args: Any, **kwargs: Any) -> Any:
            self.parses += 1
            return parse(*args, **kwargs)

        def counting_reparse(sheet: Stylesheet) -> None:
            self.reparses += 1
            reparse(sheet)

        def counting_update(sheet: Stylesheet, root: Any, animate: bool = False) -> None:
            self.restyled.append(type(root).__name__)
            update(sheet, root, animate)

        monkeypatch.setattr(stylesheet_module, "parse", counting_parse)
        monkeypatch.setattr(Stylesheet, "reparse", counting_reparse)
        monkeypatch.setattr(Stylesheet, "update", counting_update)

    def reset(self) -> None:
        self.parses = self.reparses = 0
        self.restyled.clear()


async def test_the_second_app_parses_no_css_and_a_table_opens_without_restyling_the_app(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    counts = Counts(monkeypatch)
    async with AsyncExitStack() as stack:
        first = DixitApp(coord, Identity("ana", "key-ana"))  # the lobby, then the table: what the second one does
        first_pilot = await stack.enter_async_context(first.run_test(size=SIZE))
        await settle(first_pilot)
        first_lobby = first.screen
        assert isinstance(first_lobby, LobbyScreen)
        assert await first_lobby.join(view.code)
        await settle(first_pilot)
        assert isinstance(first.screen, TableScreen)
        # (the first app may parse, unless an earlier test in this process did: it warms the cache)

        counts.reset()
        second = DixitApp(coord, Identity("ben", "key-ben"))
        second_pilot = await stack.enter_async_context(second.run_test(size=SIZE))
        await settle(second_pilot)
        lobby = second.screen
        assert isinstance(lobby, LobbyScreen)
        assert counts.parses == 0, "the second app parsed CSS the first one had parsed already"
        assert counts.reparses == 0

        counts.reset()
        assert await lobby.join(view.code)
        await settle(second_pilot, first_pilot)
        assert isinstance(second.screen, TableScreen)
        assert counts.parses == 0
        assert counts.reparses == 0, "opening the table parsed the whole stylesheet again"
        assert "DixitApp" not in counts.restyled, "opening the table restyled every screen of the app"
