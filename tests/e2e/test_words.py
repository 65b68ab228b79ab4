"""Words that match what really works, over real SSH: the way back to a seat without a key (`join CODE`, then the
reconnect code), the lobby's list from its first paint, and the plain `help` with this server's address."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.harness import HOST
from tests.e2e.json_client import JsonClient, run_command
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import (
    TIMEOUT,
    find,
    join_by_code,
    key_of,
    open_lobby,
    press,
    printed,
    seat_players,
    start_game,
    state_of,
    text,
    wait_footer,
    wait_gone,
    wait_status,
    wait_text,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

CODE = re.compile(r"Your reconnect code is ((?:[A-Z2-9]{3}-){1,5}[A-Z2-9]{3})")


async def test_a_keyless_player_gets_the_seat_back_with_join_and_the_reconnect_code(tmp_path: Path) -> None:
    async with dixit_server(tmp_path, seed=11) as (server, coord):
        players, table = await seat_players(server.port, coord, ["ana", "ben"], target=10)
        ana, ben = (p.client for p in players)
        cara = await open_lobby(server.port, "cara")  # no key at all: keyboard-interactive
        await join_by_code(cara, table.code)
        await wait_text(ana, "3 seated")
        await start_game(ana)
        own = table.seats[2].code
        assert state_of(table).phase == "clue"

        # During play the code is findable: F1 shows it, to cara only.
        await press(cara, "\x1bOP")  # F1
        await wait_text(cara, f"Your reconnect code: {own}")
        await press(cara, "escape")
        await wait_gone(cara, "Your reconnect code:")
        await press(ben, "\x1bOP")
        await wait_text(ben, "Help: Standard game")
        assert "Your reconnect code:" not in text(ben)  # ben's seat is bound to his key: the key brings him back
        await press(ben, "escape")

        # The Leave dialog says how to come back, and that is what works.
        await press(cara, "l")
        await wait_text(cara, "Leave table")
        match = CODE.search(" ".join(text(cara).split()))
        assert match and match.group(1) == own, text(cara)
        assert f"join {table.code} as cara" in " ".join(text(cara).replace("│", " ").split())
        await press(cara, "y")
        await wait_text(cara, "Open tables")

        # From the lobby: join by code leads to the reconnect prompt, not to "watch it instead".
        await press(cara, "j")
        await wait_footer(cara, "esc Back to the list")  # the code field has the focus
        await press(cara, table.code, "enter")
        await wait_text(cara, f"Back to table {table.code}", "has a seat there")
        await press(cara, "WRONG9")
        await wait_text(cara, "▊  WRONG9")
        await press(cara, "enter")  # Enter and ctrl+u are bindings: they run after typed letters sent with them
        await wait_text(cara, "That reconnect code matches no seat")
        await press(cara, "\x15")  # ctrl+u clears the field
        await wait_gone(cara, "WRONG9")
        await press(cara, own)
        await wait_text(cara, f"▊  {own}")
        await press(cara, "enter")
        await wait_text(cara, f"Dixit · table {table.code}", "cara (you)")
        await wait_gone(cara, "Back to table")
        assert table.seats[2].session is not None

        # And straight from the shell: `ssh -t cara@host join CODE` after a drop.
        cara.drop()
        await ana.wait_until(lambda: table.seats[2].session is None, TIMEOUT, "cara gone")
        cara = await open_lobby(server.port, "cara", command=f"join {table.code}")
        await wait_text(cara, f"Back to table {table.code}")
        await press(cara, own.lower().replace("-", ""))  # case and dash do not matter
        await wait_text(cara, "▊  " + own.lower().replace("-", ""))
        await press(cara, "enter")
        await wait_text(cara, f"Dixit · table {table.code}", "cara (you)")
        assert table.seats[2].session is not None and len(table.seats) == 3

        # Per-player: nobody else was ever sent cara's code.
        for client in (ana, ben):
            assert own not in printed(client)
        for client in (ana, ben, cara):
            await client.close()


async def test_a_keyed_player_still_gets_the_seat_back_by_key(tmp_path: Path) -> None:
    async with dixit_server(tmp_path, seed=12) as (server, coord):
        players, table = await seat_players(server.port, coord, ["ana", "ben", "cara"], target=10)
        ana, ben, cara = (p.client for p in players)
        await start_game(ana)
        await press(cara, "l")
        await wait_text(cara, "Leave table")
        flat = " ".join(text(cara).replace("│", " ").split())
        assert f"join {table.code} again with the same SSH key" in flat, flat
        await press(cara, "y")
        await wait_text(cara, "Open tables")
        await cara.close()
        cara = await open_lobby(server.port, "cara", key_of("cara"), command=f"join {table.code}")
        await wait_text(cara, f"Dixit · table {table.code}", "cara (you)")
        assert "Back to table" not in text(cara)
        await wait_status(cara, "Anyone may give the first clue")
        # Someone else under cara's name, without her key, is told the seat goes back only to her key (a code would
        # not do: the code is for seats taken without a key).
        other = await open_lobby(server.port, "cara", command=f"join {table.code}")
        await other.wait_until(
            lambda: "taken with an SSH key" in " ".join(text(other).replace("▌", " ").split()), TIMEOUT, "the refusal"
        )
        assert "Back to table" not in text(other)
        assert table.seats[2].session is not None and len(table.seats) == 3
        for client in (ana, ben, cara, other):
            await client.close()


async def test_the_lobby_list_lines_up_from_its_first_paint(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, _):
        hosts = [await JsonClient.open(server.port, name) for name in ("benedict", "ana")]
        await hosts[0].create(mode="party")
        await hosts[1].create(mode="standard", profile="odyssey")
        client = await open_lobby(server.port, "cara", key_of("cara"), size=(80, 24))
        await wait_text(client, "benedict", " ana ")
        # No key pressed: the header and the rows share their columns.
        header = find(client, "Code  Mode")
        assert header is not None, text(client)
        lines = text(client).splitlines()
        rows = [line for line in lines if "lobby" in line and ("benedict" in line or " ana" in line)]
        assert len(rows) == 2, text(client)
        for title in ("Mode", "Seats", "Status", "Host"):
            x = lines[header[1]].index(title)
            for line in rows:
                assert line[x - 1] == " " and line[x] != " ", (title, lines[header[1]], line)
        # The Mode column shows the mode (and a standard game's rules), not the rules alone.
        assert re.search(r"\bstandard \(odyssey\)\s+1/12\s+lobby\s+ana\b", text(client)), text(client)
        assert re.search(r"\bparty\s+1/12\s+lobby\s+benedict\b", text(client)), text(client)
        await client.close()
        for host in hosts:
            await host.close()


async def test_plain_help_shows_this_servers_address(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, _):
        status, out = await run_command(server.port, "help")
        assert status == 0
        assert f"ssh -t -p {server.port} ana@{HOST} join CODE" in out, out
        assert f"ssh -p {server.port} ana@{HOST} json" in out, out
        assert "PORT" not in out and "HOST" not in out and "NAME" not in out, out
