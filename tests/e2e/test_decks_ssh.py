"""A second deck over real SSH: the host mixes base and atlas in the create dialog (asyncssh + pyte) or in the JSON
`create` command, and cards of the atlas deck reach the players' hands.

The server is the one `dixit-tui serve` runs (lobby app and headless protocol on one coordinator, every built-in
deck loaded) on 127.0.0.1; its random source is seeded so the shuffle is the same on every run. The tests read the
coordinator's state only to know which card texts to look for; every action goes through keys or JSON lines.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import cast

import pytest

from dixit_tui.decks import load_builtin
from tests.e2e.harness import PtyClient
from tests.e2e.json_client import JsonClient
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import (
    CREATE_DECKS,
    KEYS,
    TIMEOUT,
    add_bot,
    find,
    is_reverse,
    lobby_keys,
    open_lobby,
    press,
    start_game,
    state_of,
    table_code,
    wait_text,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


def atlas_texts() -> dict[str, str]:
    """card id -> text of every card of the atlas deck."""
    return {card.id: card.text for card in load_builtin("atlas").cards}


def mode_focused(client: PtyClient) -> bool:
    spot = find(client, "Mode ")
    return spot is not None and is_reverse(client, *spot)


async def test_the_create_dialog_mixes_both_decks_and_atlas_cards_reach_the_hand(tmp_path: Path) -> None:
    atlas = atlas_texts()
    async with dixit_server(tmp_path, allow_seeded_tables=False) as (server, coord):
        host = await open_lobby(server.port, "ana")
        await lobby_keys(host)
        await press(host, "c")
        await wait_text(host, "Create a table", "Decks", "[X] base", "[ ] atlas", "84 cards")
        # The Mode field has the focus once its label turns reverse; then Tab past Rules and base to atlas, Space.
        await host.wait_until(lambda: mode_focused(host), TIMEOUT, "the Mode field to get the focus")
        await press(host, KEYS["tab"] * (2 + CREATE_DECKS.index("atlas")), "space")
        await wait_text(host, "[X] base", "[X] atlas", "168 cards, mixed")
        await press(host, "f2")
        await wait_text(host, "Friends join with the code")
        code = table_code(host)
        table = coord.tables[code]
        assert table.options.decks == ("base", "atlas")

        await add_bot(host)
        await wait_text(host, "2 seated")
        await add_bot(host)
        await wait_text(host, "3 seated")
        await start_game(host)
        state = state_of(table)
        assert len(state.cards) == 168
        mine = [card for card in state.hands[0] if card in atlas]
        assert mine, "the seeded shuffle deals ana an atlas card"
        # Every atlas card of ana's hand is on her screen (its start: a card list shows at least that on one line).
        for card in mine:
            await wait_text(host, atlas[card][:24])
        await host.close()


async def test_json_create_with_both_decks_deals_atlas_cards_and_lists_the_decks(tmp_path: Path) -> None:
    atlas_text = atlas_texts()
    async with dixit_server(tmp_path, allow_seeded_tables=False) as (server, _):
        ben = await JsonClient.open(server.port, "ben")
        watcher = await JsonClient.open(server.port, "cy")
        ben.send({"cmd": "create", "mode": "party", "decks": ["base", "nope"], "ref": "x"})
        error = await ben.wait_for("error", ref="x")
        assert error["code"] == "bad_deck" and "atlas" in str(error["message"]), error

        code = await ben.create(mode="standard", profile="odyssey", decks=["base", "atlas"], seats=12, bots=11)
        state = await ben.wait_for("state", table=code)
        assert state["decks"] == ["base", "atlas"]
        listing = await watcher.wait_for("state", table=None, tables=[{**watcher_row(code), "players": 12}])
        assert listing["tables"] == [{**watcher_row(code), "players": 12}]  # the row names both decks

        ben.send({"cmd": "start"})
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        hand: list[dict[str, str]] = []
        while not hand:
            assert loop.time() < deadline, ben.messages[-2:]
            states = [m for m in ben.messages if m.get("type") == "state" and m.get("phase") not in (None, "lobby")]
            hand = cast("list[dict[str, str]]", states[-1]["hand"]) if states else []
            if not hand:
                await asyncio.sleep(0.05)
        atlas = [card for card in hand if card["card"] in atlas_text]
        assert atlas, hand  # 7 of 168 cards, half of them atlas: the seeded shuffle gives ben some
        assert all(card["text"] == atlas_text[card["card"]] for card in atlas)
        await watcher.close()
        await ben.close()


def watcher_row(code: str) -> dict[str, object]:
    return {
        "table": code,
        "mode": "odyssey",
        "status": "lobby",
        "seats": 12,
        "host": "ben",
        "spectators": 0,
        "decks": ["base", "atlas"],
        "turn_seconds": None,  # no time limit (the lobby names it)
        "bots_only": False,  # a person sits there
    }
