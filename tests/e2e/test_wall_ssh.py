"""The wall over real SSH (issue 23, "a shared screen for a call"): a spectator whose terminal is 200x60 watches a
table that others play and sees the clue in big letters and every card on the board with its full text, then the
reveal in full; made smaller than 160x48, the usual table comes back. Before the game the wall shows the table's code
big and how to join it; at its end, the winner big and the final standings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dixit_tui.coordinator import Identity, PlayerSession
from dixit_tui.tui import banner_font
from tests.e2e.harness import PtyClient
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import TIMEOUT, key_of, text, wait_text
from tests.e2e.watched import drawn, seated
from tests.tui.fixtures import options, phase_of, play_until

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

CLUE = "a quiet storm"


def card_on_screen(screen: str, slot: int) -> str:
    """The text in card `slot`'s box on the screen (its lines joined), "" when there is no such box."""
    lines = screen.splitlines()
    for top, line in enumerate(lines):
        found = re.search(rf"[╭┏]─ {slot} [^╮┓]*[╮┓]", line) or re.search(rf"[╭┏]━ {slot} [^╮┓]*[╮┓]", line)
        if found is None:
            continue
        left, right = found.start(), found.end()
        inside: list[str] = []
        for below in lines[top + 1 :]:
            cell = below[left:right]
            if cell[:1] in "╰┗":
                return " ".join(" ".join(inside).split())
            inside.append(cell[2:-2])
    return ""


async def test_a_spectator_at_200x60_sees_the_clue_big_and_every_card_in_full(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coord):
        host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
        view = await host.create(options())
        players: list[PlayerSession] = [host, *await seated(coord, view.code, ["ben", "cara"])]
        tv = await PtyClient.connect(
            server.port, "tv", client_key=key_of("tv"), command=f"watch {view.code}", size=(200, 60)
        )
        await wait_text(tv, f"Dixit · table {view.code}")
        await host.start()
        await play_until(players, lambda: phase_of(host)[2] == "vote")
        game = host.view().game  # type: ignore[union-attr]
        assert game is not None and game.clue == CLUE and len(game.board) == 5
        big = banner_font.banner(banner_font.plain_letters(CLUE) or "", 2, "█")
        await wait_text(tv, "Turn 1 · the vote", *[row.strip() for row in big])
        await drawn(tv)  # (the rest of the frame too: a big one comes in several packets)
        screen = text(tv)
        for slot in game.board:
            assert card_on_screen(screen, slot.slot) == slot.text, screen
        assert "l: leave the table" in screen

        await play_until(players, lambda: phase_of(host)[1] == 2)  # the vote ends: turn 1 is revealed
        await wait_text(tv, "Turn 1, revealed", "✎ storyteller: ana", "given by ben", "given by cara")

        tv.resize(120, 40)  # under 160x48: the usual table (its seats panel, the recap's line)
        await tv.wait_until(lambda: "Turn 1, revealed" not in text(tv), TIMEOUT, "the wall to go")
        await wait_text(tv, "Seats", "(r: recap)")
        await tv.close()


async def test_a_spectator_at_200x60_sees_the_code_big_in_the_lobby_and_the_winner_at_the_end(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coord):
        host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
        view = await host.create(options(target=10))
        tv = await PtyClient.connect(
            server.port, "tv", client_key=key_of("tv"), command=f"watch {view.code}", size=(200, 60)
        )
        code = [row.strip() for row in banner_font.banner(view.code, 2, "█")]
        await wait_text(tv, *code, "NAME@", f"join {view.code}", "Waiting for 2 more players")
        players: list[PlayerSession] = [host, *await seated(coord, view.code, ["ben", "cara"])]
        await wait_text(tv, "Seats: 3 of 8 taken, 5 more can sit", "Ready: waiting for the host, ana, to start")

        await host.start()
        await play_until(players, lambda: phase_of(host)[0] == "over")
        game = host.view().game  # type: ignore[union-attr]
        assert game is not None and len(game.winners) == 1
        winner = host.view().seats[game.winners[0]].name  # type: ignore[union-attr]
        big = [row.strip() for row in banner_font.banner(banner_font.plain_letters(winner) or "", 2, "█")]
        await wait_text(tv, "Game over", *big, "Final standings", f"{winner} won with")
        await tv.close()
