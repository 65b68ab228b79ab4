"""80x24 over real SSH (asyncssh + pyte): a player at the common terminal size sees every card of the board and the
whole key bar, a terminal made too small says so and plays nothing blind, and after the resizes the board still
shows the card the dial points at."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import (
    TIMEOUT,
    board_slots,
    card_marks,
    create_table,
    footer,
    give_clue,
    join_by_code,
    key_of,
    open_lobby,
    press,
    row,
    start_game,
    state_of,
    status,
    submit_cards,
    text,
    wait_footer,
    wait_gone,
    wait_status,
    wait_text,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


def board_row(client_text: str, slot: int) -> bool:
    """The board's line for `slot` with the dial's pointer on it (`▶ 3  text`)."""
    return any(f"▶ {slot}  " in line for line in client_text.splitlines())


async def test_80x24_shows_the_whole_board_and_key_bar_and_survives_resizes(tmp_path: Path) -> None:
    async with dixit_server(tmp_path, seed=5) as (server, coord):
        ana = await open_lobby(server.port, "ana", key_of("ana"), size=(80, 24))
        code = await create_table(ana)
        ben = await open_lobby(server.port, "ben", key_of("ben"))
        cara = await open_lobby(server.port, "cara", key_of("cara"))
        for client in (ben, cara):
            await join_by_code(client, code)
        await wait_text(ana, "3 seated")
        table = coord.tables[code]
        await start_game(ana)
        await give_clue(ben, 1, "harbour")
        await asyncio.gather(submit_cards(ana, [1, 2]), submit_cards(cara, [1, 2]))

        await wait_status(ana, "Vote: turn the dial")
        await wait_footer(ana, "⏎ Vote")
        state = state_of(table)
        board = set(state.turn.board)
        assert len(board) == 5
        # every card of the board, at a glance (waited for: the status line and the key bar are no proof that the
        # rest of the frame is on the terminal yet)
        await wait_text(ana, *card_marks(table, board).values())
        whole = ("⏎ Vote", "c Chat", "v Void", "x Remove", "l Leave", "f1 Help")  # the host's whole key bar
        await ana.wait_until(lambda: all(key in footer(ana) for key in whole), TIMEOUT, f"the key bar {whole}")
        assert f"table {code}" in row(ana, 0)

        allowed = [slot for slot, owner in board_slots(state).items() if owner != 0]  # ana is seat 0
        last = max(allowed)
        await press(ana, str(last))
        await ana.wait_until(lambda: board_row(text(ana), last), TIMEOUT, f"the board to point at {last}")

        ana.resize(50, 15)
        await wait_text(ana, "Terminal too small", "need 60x20")
        await press(ana, "enter")  # would vote: a terminal too small plays nothing blind
        ana.resize(80, 24)
        await wait_gone(ana, "Terminal too small")
        await ana.wait_until(lambda: board_row(text(ana), last), TIMEOUT, f"the board to show card {last} again")
        assert status(ana).startswith("Vote: turn the dial")
        assert 0 not in state_of(table).turn.votes

        ana.resize(60, 20)  # the smallest size: the board scrolls, the dial's card stays in sight
        await ana.wait_until(lambda: board_row(text(ana), last), TIMEOUT, f"card {last} at 60x20")
        await ana.wait_until(lambda: "f1 Help" in text(ana), TIMEOUT, "the whole key bar at 60x20")
        for client in (ana, ben, cara):
            await client.close()
