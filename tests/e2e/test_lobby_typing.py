"""The host typing in the table's lobby over real SSH: plain typing never starts the game (issue 9, item 3).

The host is a real SSH terminal (asyncssh + pyte) with the real typing guard of the confirmation dialog; the other
two players are sessions of the same coordinator.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dixit_tui.coordinator import Identity
from dixit_tui.tui.widgets.confirm import ConfirmScreen
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import (
    create_table,
    key_of,
    open_lobby,
    press,
    wait_gone,
    wait_status,
    wait_text,
)
from tests.e2e.watched import typed
from tests.tui.fixtures import Recorder

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


async def test_a_chat_line_typed_without_c_does_not_start_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shipped_guard: float
) -> None:
    monkeypatch.setattr(ConfirmScreen, "GUARD", shipped_guard, raising=False)
    async with dixit_server(tmp_path) as (server, coord):
        ana = await open_lobby(server.port, "ana", key_of("ana"))
        try:
            code = await create_table(ana, target=10)
            for name in ("ben", "cara"):
                other = await coord.connect(Identity(name, key=f"key-{name}"), Recorder())
                await other.join(code)
            await wait_status(ana, "Press s to start the game")
            table = coord.tables[code]
            # Chat lines meant for the chat, typed quickly without `c` first (the second opens Leave with its `l`).
            for line in ("hey, ready? sp b", "hello there, ready? sp b"):
                await typed(ana, line)  # (every key handled and drawn: what it opened, if anything, is on screen)
                assert table.game is None, (line, ana.screen_text())  # the game has not started
            assert not ana.closed and "internal error" not in ana.raw_text()
            # The typing may have left a question open (Start the game? Leave?), never answered: Esc closes it.
            if "n or Esc" in ana.screen_text():
                await press(ana, "escape")
                await wait_gone(ana, "n or Esc")
            await wait_text(ana, f"Dixit · table {code}")  # still at the table
            assert [s.name for s in table.seats][:3] == ["ana", "ben", "cara"]
            # Starting is a question: `s` asks, and only a deliberate `y` after a quiet moment starts.
            await wait_status(ana, "Press s to start the game")
            await press(ana, "s")
            await wait_text(ana, "Start the game with", "y: Start")
            await press(ana, "y")
            await wait_text(ana, "turn 1 ·")
            assert table.game is not None
        finally:
            await ana.close()
