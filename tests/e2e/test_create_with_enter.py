"""The create dialog as a form, over real SSH (issue 22, item 12): Enter creates the table from any field (it did
nothing on the first, only F2 created), a mode under the cursor but not chosen yet is chosen by Enter first, and the
label of the row with the focus is the one highlighted (Mode stayed highlighted after Tab moved on).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import TIMEOUT, PtyClient
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import KEYS, find, is_reverse, lobby_keys, open_lobby, press, table_code, wait_text

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]


def lit(client: PtyClient, label: str) -> bool:
    spot = find(client, label + " ")
    return spot is not None and is_reverse(client, *spot)


async def open_create(client: PtyClient) -> None:
    await lobby_keys(client)
    await press(client, "c")
    await wait_text(client, "Create a table", "Target score")
    await client.wait_until(lambda: lit(client, "Mode"), TIMEOUT, "the Mode field to get the focus")


async def test_enter_on_the_first_field_creates_the_table(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coord):
        ana = await open_lobby(server.port, "ana")
        try:
            await open_create(ana)
            await press(ana, "enter")
            await wait_text(ana, "Friends join with the code")
            code = table_code(ana)
            assert coord.tables[code].options.mode == "standard"
        finally:
            await ana.close()


async def test_the_label_follows_the_focus_and_enter_chooses_a_mode_before_it_creates(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coord):
        ana = await open_lobby(server.port, "ana")
        try:
            await open_create(ana)
            await press(ana, KEYS["tab"])
            await ana.wait_until(lambda: lit(ana, "Rules") and not lit(ana, "Mode"), TIMEOUT, "Rules lit, Mode not")
            await press(ana, KEYS["shift+tab"])
            await ana.wait_until(lambda: lit(ana, "Mode") and not lit(ana, "Rules"), TIMEOUT, "Mode lit, Rules not")
            # → moves the cursor to "party": Enter chooses it (the form does not go with "standard")...
            await press(ana, KEYS["right"], KEYS["enter"])
            await wait_text(ana, "Party games always use the Odyssey rules.")
            assert "Create a table" in ana.screen_text()
            # ... and the next Enter creates the party table
            await press(ana, KEYS["enter"])
            await wait_text(ana, "Friends join with the code")
            assert coord.tables[table_code(ana)].options.mode == "party"
        finally:
            await ana.close()
