"""The styles of the words on screen ("bold") are parsed once per process: a session opening the lobby or joining a
table after another has parses none with its app's stylesheet (whose first parse reads every CSS variable of the
app: 1.3k Python calls of each session)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from tests.tui.fixtures import coordinator, options, settle
from tests.work_counters import wrapped_methods


@pytest.mark.parametrize("command", [None, "join", "watch"])
async def test_a_second_session_parses_no_style_with_its_stylesheet(command: str | None) -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options(seats=8))
    parsed: list[str] = []
    with wrapped_methods() as wrap:

        def counted(original: Any) -> Any:
            def parse_style(self: Stylesheet, style: Any) -> Any:
                parsed.append(str(style))
                return original(self, style)

            return parse_style

        wrap(Stylesheet, "parse_style", counted)
        for name in ("ana", "bea"):
            parsed.clear()
            app = DixitApp(coord, Identity(name, f"key-{name}"), command=command and f"{command} {view.code}")
            async with app.run_test(size=(100, 30)) as pilot:
                await settle(pilot)
    assert not parsed, parsed
