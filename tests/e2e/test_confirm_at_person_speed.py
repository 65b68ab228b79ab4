"""Confirm keys typed at a person's speed, over real SSH (issue 22, item 10).

`l y` or `b y` typed 0.3-0.5 s apart left "Leave table?" and "Add a bot?" open: the guard against text typed into a
dialog by accident swallowed the `y` without a word. Now a `y` that comes too soon says what to do ("press y again to
leave"), and pressed again once the dialog is ready, it answers. The guard reads a clock the test moves: the keys are
typed "0.4 s apart" without sleeping.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dixit_tui.coordinator import Identity
from dixit_tui.tui.widgets import confirm
from dixit_tui.tui.widgets.confirm import ConfirmScreen
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import create_table, key_of, open_lobby, press, wait_gone, wait_status, wait_text
from tests.tui.fixtures import Recorder

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_y_typed_too_soon_says_press_it_again_and_then_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shipped_guard: float
) -> None:
    clock = Clock()
    monkeypatch.setattr(ConfirmScreen, "GUARD", shipped_guard, raising=False)
    monkeypatch.setattr(confirm, "clock", clock, raising=False)  # (absent before)
    async with dixit_server(tmp_path) as (server, coord):
        ana = await open_lobby(server.port, "ana", key_of("ana"))
        try:
            code = await create_table(ana, target=10)
            ben = await coord.connect(Identity("ben", key="key-ben"), Recorder())
            await ben.join(code)
            table = coord.tables[code]
            await wait_status(ana, "Waiting for players")
            # `b`, then `y` 0.3 s later: too soon, and the dialog says so
            await press(ana, "b")
            await wait_text(ana, "Add a bot?", "y works in a moment")
            clock.now += 0.3
            await press(ana, "y")
            await wait_text(ana, "Too soon: press y again to add")
            assert len(table.seats) == 2
            # the second `y`, 0.4 s later (0.7 s after the dialog opened): the bot is added
            clock.now += 0.4
            await press(ana, "y")
            await wait_gone(ana, "Add a bot?")
            await ana.wait_until(lambda: len(table.seats) == 3, 10, "the bot to sit down")
            # still guarded: a `y` in the middle of typing ("oyes") never answers, however long the dialog is open
            await press(ana, "l")
            await wait_text(ana, f"Leave table {code}?")
            clock.now += 5
            await press(ana, "o", "y", "e", "s")
            await wait_text(ana, "Too soon: press y again to leave")
            await press(ana, "escape")
            await wait_gone(ana, "Leave table")
            assert table.seats[0].name == "ana" and table.seats[0].connected
            # `l`, then `y` 0.4 s later, then `y` again 0.4 s later: ana leaves
            await press(ana, "l")
            await wait_text(ana, f"Leave table {code}?")
            clock.now += 0.4
            await press(ana, "y")
            await wait_text(ana, "Too soon: press y again to leave")
            assert table.seats[0].name == "ana" and table.seats[0].connected
            clock.now += 0.4
            await press(ana, "y")
            await wait_text(ana, "Open tables")
        finally:
            await ana.close()
