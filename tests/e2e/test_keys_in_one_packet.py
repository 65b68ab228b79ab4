"""Keys that reach the server in one packet (typing fast, or over a slow link) act in the order typed, over real SSH
(asyncssh + pyte): editing keys in a text box before the letters behind them, Tab before the digits for the next
field, and a typo's Backspace in a chat line before its fix.

Textual looks up a key's bindings (Backspace, Ctrl+U, Home, Tab are bindings) only once the key has bubbled back up
to the app; the letters behind it went straight to the text box meanwhile. Each `send` below is one write: one SSH
packet holding all its keys.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import TIMEOUT, PtyClient
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import (
    CREATE_TABS,
    KEYS,
    find,
    footer,
    open_lobby,
    press,
    settle_screen,
    text,
    wait_text,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]


def field(client: PtyClient, label: str) -> str:
    """The value shown in a number field of the create dialog ('' if empty)."""
    spot = find(client, label + " ")
    assert spot is not None, text(client)
    x, y = spot
    return "".join(cell.data for cell in (client.screen.buffer[y][x + 14 + i] for i in range(6))).strip()


async def shows(client: PtyClient, label: str, value: str) -> None:
    """The field comes to show `value` (keys acting out of order leave another value for good: "54" then "5" for
    Backspace, 4; a quiet screen is not proof the keys were read, on a loaded machine: seen once under -n 2)."""
    await settle_screen(client)
    await client.wait_until(lambda: field(client, label) == value, TIMEOUT, f"{label} to show {value}")
    await settle_screen(client)
    assert field(client, label) == value, (label, text(client))


async def test_editing_keys_and_the_letters_behind_them_act_in_order_over_ssh(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, _coord):
        ana = await open_lobby(server.port, "ana")
        await press(ana, "c")
        await wait_text(ana, "Create a table", "Target score")
        await settle_screen(ana)
        assert field(ana, "Seats") == "8"

        ana.send(KEYS["tab"] * CREATE_TABS["Seats"] + "\x15" + "5")  # Tabs to Seats, Ctrl+U, 5
        await shows(ana, "Seats", "5")
        ana.send("\x7f" + "4")  # Backspace, 4
        await shows(ana, "Seats", "4")
        ana.send("\x01" + "1")  # Home (Ctrl+A), 1
        await shows(ana, "Seats", "14")
        ana.send("\x0b" + "\x7f" + "6")  # Ctrl+K (the 4 after the cursor), Backspace (the 1), 6
        await shows(ana, "Seats", "6")
        ana.send("\x15" + "4" + KEYS["tab"] + "12")  # Seats 4, Tab to the target (chosen whole: 12 replaces it)
        await shows(ana, "Target score", "12")
        assert field(ana, "Seats") == "4"

        await press(ana, "f2")
        await wait_text(ana, "Friends join with the code")
        await press(ana, "c")
        await ana.wait_until(lambda: "esc Back" in footer(ana), TIMEOUT, "the chat box to get the focus")
        ana.send("hellp" + "\x7f" + "o all" + KEYS["enter"])  # a typo fixed in the same packet
        await wait_text(ana, "hello all")
        assert "hellp" not in text(ana) and "hello allo" not in text(ana)
        await ana.close()
