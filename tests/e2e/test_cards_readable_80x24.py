"""Every card's whole text can be read at 80x24, over real SSH (issue 22, item 8).

At an odyssey vote with 8 cards on an 80x24 terminal every card was cut, even the highlighted one stopped after two
lines, and a spectator's Down moved nothing. Now the highlighted card is always shown whole (the board scrolls to
it when needed), the others one line each, and whoever does not vote moves the board's highlight with the arrows.

ben votes and zed watches, both real SSH terminals of 80x24 (asyncssh + pyte); the other seven are sessions of the
same coordinator.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from dixit_tui.coordinator import Identity
from tests.e2e.harness import TIMEOUT, PtyClient
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import (
    join_by_code,
    key_of,
    open_lobby,
    press,
    submit_cards,
    wait_footer,
    wait_status,
    wait_text,
)
from tests.tui.fixtures import Recorder, default_move, options

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

SIZE = (80, 24)
NAMES = ["ana", "cara", "dev", "eve", "fay", "gus", "hal"]


def main_column(client: PtyClient) -> str:
    """The words right of the side column (the clue, the board, the dial...), rows joined, one space apart."""
    rows = [line[27:].replace("│", " ").replace("║", " ") for line in client.screen.display]
    return " ".join(" ".join(rows).split())


def shown_whole(client: PtyClient, slot: int, text: str) -> bool:
    return f"▶ {slot} " in main_column(client) and " ".join(text.split()) in main_column(client)


async def test_each_card_reads_whole_at_an_eight_card_odyssey_vote(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coord):
        sessions = [await coord.connect(Identity(n, key=f"key-{n}"), Recorder()) for n in NAMES]
        view = await sessions[0].create(options(profile="odyssey"))
        code = view.code
        for session in sessions[1:]:
            await session.join(code)
        ben = await open_lobby(server.port, "ben", key_of("ben"), size=SIZE)
        zed = await open_lobby(server.port, "zed", key_of("zed"), size=SIZE, command=f"watch {code}")
        try:
            await join_by_code(ben, code)
            await wait_text(zed, f"table {code}", "you are watching")
            await sessions[0].start()
            await wait_status(ben, "Anyone may give the first clue")
            assert await default_move(sessions[1], clue="first")
            for session in sessions:
                await default_move(session)
            await submit_cards(ben, [1])
            await wait_footer(ben, "⏎ Vote")
            table = coord.tables[code]
            assert table.game is not None
            board = [(slot.slot, slot.text) for slot in sessions[0].view().game.board]  # type: ignore[union-attr]
            assert len(board) == 8
            # ben turns the dial to each card he may vote for: its whole text is on screen
            own = table.game.state.forbidden_slots(next(i for i, s in enumerate(table.seats) if s.name == "ben"))
            for slot, text in board:
                if slot in own:
                    continue
                await press(ben, str(slot))
                await ben.wait_until(partial(shown_whole, ben, slot, text), TIMEOUT, f"card {slot} whole")
            # zed watches: Down moves the board's highlight, card by card, each read whole
            await zed.wait_until(lambda: shown_whole(zed, *board[0]), TIMEOUT, "card 1 whole at zed's")
            for slot, text in board[1:]:
                await press(zed, "down")
                await zed.wait_until(partial(shown_whole, zed, slot, text), TIMEOUT, f"card {slot} whole")
        finally:
            await ben.close()
            await zed.close()
