"""The lobby's list of tables is drawn once per process: a second session showing the same list the same way draws
none of its lines (each cost Textual's DataTable some 2,000 Python calls a session, when the list was one); a session
whose list differs (its cursor on another row, its list focused or not, the pointer over it) still shows its own, as
drawn afresh."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input

from dixit_tui.coordinator import Identity
from dixit_tui.textual_host.process_caches import forget_shared
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.lobby import LobbyScreen, TableList
from tests.tui.fixtures import coordinator, options, settle
from tests.work_counters import wrapped_methods

SIZE = (100, 30)


async def _drawn_afresh(pilot: Any, app: DixitApp) -> str:
    """The screen as it shows now, and as the list draws it with nothing shared: they must be the same (a text box's
    cursor stops blinking first: on a loaded machine a blink fell between the two pictures, one CI run)."""
    for box in app.screen.query(Input):
        box.cursor_blink = False
    await settle(pilot)
    shown = app.export_screenshot()
    forget_shared()
    tables = app.screen.query_one("#tables", TableList)
    tables.refresh()
    await settle(pilot)
    assert app.export_screenshot() == shown
    return shown


async def test_a_second_lobby_draws_none_of_the_lists_lines_and_each_shows_its_own() -> None:
    coord = coordinator()
    for name in ("host", "cara", "dan"):
        host = await coord.connect(Identity(name, key=f"key-{name}"), lambda update: None)
        await host.create(options())
    forget_shared()
    drawn = 0
    with wrapped_methods() as wrap:

        def counted(original: Any) -> Any:
            def draw(self: TableList, *args: Any) -> Any:
                nonlocal drawn
                drawn += 1
                return original(self, *args)

            return draw

        wrap(TableList, "_draw", counted)
        first, second = DixitApp(coord, Identity("ana", "key-ana")), DixitApp(coord, Identity("bea", "key-bea"))
        async with first.run_test(size=SIZE) as one, second.run_test(size=SIZE) as two:
            await settle(one, two)
            assert isinstance(first.screen, LobbyScreen) and isinstance(second.screen, LobbyScreen)
            assert drawn > 0  # (the first session's list: drawn once)
            assert second.screen.query_one("#tables", TableList).row_count == 3
            drawn = 0
            second.screen.query_one("#tables", TableList).refresh()
            await settle(one, two)
            assert drawn == 0  # the second session's: every line found drawn
            # each shows its own: the cursor on another row, the list not focused, the pointer over it
            await _drawn_afresh(two, second)
            await two.press("down")
            await settle(one, two)
            moved = await _drawn_afresh(two, second)
            assert moved != await _drawn_afresh(one, first)
            await two.press("j")  # the join box: the list loses the focus
            await settle(one, two)
            await _drawn_afresh(two, second)
            await two.hover("#tables", offset=(10, 2))
            await settle(one, two)
            await _drawn_afresh(two, second)
