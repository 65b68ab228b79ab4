"""What opening the lobby costs in work, counted, not timed: the Python calls from the app's creation to its lobby on
screen once another session has opened one before it (tests/tui/patch_cost.py's scenario: an 8-seat table listed)."""

from __future__ import annotations

from dixit_tui.coordinator import Identity
from dixit_tui.textual_host.process_caches import forget_shared
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.lobby import LobbyScreen
from tests.tui.fixtures import coordinator, options, screen_text, settle
from tests.work_counters import PythonCalls

SIZE = (100, 30)
CALLS = 39_500
"""Python calls for opening the lobby once another session has, headless, the test pilot's own calls included (Textual
8.2.8; 8.0.0 makes fewer): 41,500 with the list in Textual's DataTable, 38,400 once it was a Line-API widget drawing
its lines (issue 23; tests/tui/patch_cost.py's lobby: 48,700 with 11 widgets, 40,000 with 6, 37,100 then)."""


async def opened(coord: object, name: str) -> None:
    app = DixitApp(coord, Identity(name, f"key-{name}"))  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert "Open tables" in screen_text(app)


async def test_opening_the_lobby_stays_within_its_python_calls() -> None:
    forget_shared()  # (the same lines drawn by another test's app: the first lobby here draws them)
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    await host.create(options(seats=8))
    await opened(coord, "ana")
    with PythonCalls() as counted:
        await opened(coord, "bea")
    calls = counted.calls
    assert calls <= CALLS, f"opening the lobby made {calls} Python calls (at most {CALLS})"
