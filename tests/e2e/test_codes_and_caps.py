"""Issue 10 over real SSH: a reconnect code does not beat a key, guessing codes is metered, and the table, bot and
idle-table caps hold against headless hosts that fill the server and leave."""

from __future__ import annotations

import random
from pathlib import Path

import asyncssh
import pytest

from dixit_tui.coordinator import Coordinator
from dixit_tui.coordinator.codes import ALPHABET
from tests.e2e.harness import TIMEOUT, wait_for
from tests.e2e.json_client import JsonClient
from tests.e2e.servers import dixit_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

ATTACKER = "127.0.0.3"  # another loopback address: another "machine" for the per-address counts


async def answer(client: JsonClient, message: dict[str, object], ref: str) -> dict[str, object]:
    """Send `message` with `ref` and return the error it was answered with (or {} once a state came back)."""
    client.send({**message, "ref": ref})
    return await client.wait_for("error", ref=ref)


def guess(rng: random.Random) -> str:
    """A guess in the shape of a code (ABC-DEF-GHJ-KMN)."""
    return "-".join("".join(rng.choice(ALPHABET) for _ in range(3)) for _ in range(4))


def cards(state: dict[str, object]) -> list[str]:
    hand = state["hand"]
    assert isinstance(hand, list)
    return [str(card["card"]) for card in hand]


def errors(client: JsonClient) -> list[str]:
    return [str(m["code"]) for m in client.messages if m.get("type") == "error"]


async def started_table(port: int, coord: Coordinator) -> tuple[JsonClient, list[JsonClient], str]:
    """ana (with an SSH key) hosts a started game with ben and cy (keyless)."""
    ana = await JsonClient.open(port, "ana", client_key=asyncssh.generate_private_key("ssh-ed25519"))
    code = await ana.create(target=10)
    others = [await JsonClient.open(port, name) for name in ("ben", "cy")]
    for other in others:
        other.send({"cmd": "join", "table": code})
        await other.wait_for("state", table=code)
    ana.send({"cmd": "start"})
    await ana.wait_for("state", phase="clue")
    return ana, others, code


async def test_a_keyless_client_with_the_code_of_a_key_bound_seat_is_refused_and_the_owner_keeps_it(
    tmp_path: Path,
) -> None:
    async with dixit_server(tmp_path, store=True, limit=["reconnect_delay=0.01"]) as (server, coord):
        ana, others, code = await started_table(server.port, coord)
        table = coord.tables[code]
        assert table.seats[0].key is not None and table.seats[0].session is not None
        state = await ana.wait_for("state", phase="clue")
        hand = cards(state)
        ana_code = table.seats[0].code  # however mallory learnt it (a screen share, a photo)

        mallory = await JsonClient.open(server.port, "mallory", local_ip=ATTACKER)
        refused = await answer(mallory, {"cmd": "reconnect", "code": ana_code}, "steal")
        assert refused["code"] == "key_required"
        assert not [m for m in mallory.messages if m.get("type") == "state" and m.get("table") == code]
        ana.send({"cmd": "chat", "text": "still here"})
        await ana.wait_for("chat", text="still here")
        assert table.seats[0].session is not None and table.seats[0].session.identity.key is not None
        assert not [m for m in ana.messages if m.get("type") == "notice"]  # never "you joined from another terminal"
        last = [m for m in ana.messages if m.get("type") == "state"][-1]
        assert state["reconnect_code"] is None  # her key brings her back: no code to show, or to leak
        assert last["table"] == code and last["you"] == 0 and cards(last) == hand

        # the code still works for a keyless seat: ben comes back from another terminal
        ben_code = [m for m in others[0].messages if m.get("type") == "state"][-1]["reconnect_code"]
        assert isinstance(ben_code, str) and len(ben_code) == 15
        laptop = await JsonClient.open(server.port, "ben-laptop")
        laptop.send({"cmd": "reconnect", "code": ben_code.replace("-", " ").lower()})
        await laptop.wait_for("state", table=code, you=1)
        for client in (ana, *others, mallory, laptop):
            await client.close()


async def test_guessing_codes_is_refused_past_the_limit_per_connection_and_per_address(tmp_path: Path) -> None:
    limits = ["reconnect_delay=0.01", "reconnect_tries_per_connection=5", "reconnect_tries_per_ip=8"]
    async with dixit_server(tmp_path, store=True, limit=limits) as (server, coord):
        ana, others, _code = await started_table(server.port, coord)
        rng = random.Random(10)
        mallory = await JsonClient.open(server.port, "mallory", local_ip=ATTACKER)
        for i in range(7):
            await answer(mallory, {"cmd": "reconnect", "code": guess(rng)}, f"guess{i}")
        assert errors(mallory) == ["bad_code"] * 5 + ["too_many_tries"] * 2
        await mallory.close()
        # a new connection from the same address gets only what is left of the address's count
        again = await JsonClient.open(server.port, "mallory2", local_ip=ATTACKER)
        for i in range(5):
            await answer(again, {"cmd": "reconnect", "code": guess(rng)}, f"again{i}")
        assert errors(again) == ["bad_code"] * 3 + ["too_many_tries"] * 2
        # a player elsewhere is not held back
        ben = await JsonClient.open(server.port, "ben2")
        await answer(ben, {"cmd": "reconnect", "code": "ZZZ-ZZZ"}, "typo")
        assert errors(ben) == ["bad_code"]
        for client in (ana, *others, again, ben):
            await client.close()


async def test_headless_hosts_that_fill_the_server_with_bot_tables_and_leave_are_capped_and_closed(
    tmp_path: Path,
) -> None:
    limits = ["max_tables_per_player=1", "max_tables_per_ip=2", "max_tables=3", "max_bots_per_table=3"]
    async with dixit_server(tmp_path, store=True, limit=limits, close_idle_after=1.0) as (server, coord):
        host = await JsonClient.open(server.port, "h1", local_ip=ATTACKER)
        # 11 bots at a 12-seat table with 1 s turns: refused before any table is made
        refused = await answer(host, {"cmd": "create", "mode": "party", "bots": 11, "turn_seconds": 1}, "big")
        assert refused["code"] == "too_many_bots" and "at most 3 bots" in str(refused["message"])
        assert not coord.tables
        code = await host.create(mode="standard", profile="odyssey", bots=3, turn_seconds=1)
        await wait_for(lambda: len(coord.tables[code].seats) == 4, TIMEOUT, "the bots to sit down")
        refused = await answer(host, {"cmd": "add_bots", "count": 1}, "more")
        assert refused["code"] == "too_many_bots"
        # one open table per player; a second name from the same address gets one more, then the address is full
        refused = await answer(host, {"cmd": "create"}, "second")
        assert refused["code"] == "too_many_tables" and "your most" in str(refused["message"])
        other = await JsonClient.open(server.port, "h2", local_ip=ATTACKER)
        await other.create()
        third = await JsonClient.open(server.port, "h3", local_ip=ATTACKER)
        refused = await answer(third, {"cmd": "create"}, "third")
        assert refused["code"] == "too_many_tables" and "your address" in str(refused["message"])
        # and the server's own total
        elsewhere = await JsonClient.open(server.port, "h4")
        await elsewhere.create()
        late = await JsonClient.open(server.port, "h5")
        refused = await answer(late, {"cmd": "create"}, "late")
        assert refused["code"] == "too_many_tables" and "This server has 3 open tables" in str(refused["message"])

        # the host starts the bot game and leaves: the table waits (no stand-in, no bot move) and then closes
        host.send({"cmd": "start"})
        await host.wait_for("state", phase="clue")
        table = coord.tables[code]
        await host.close()
        moves = len(table.game.events) if table.game else 0
        await wait_for(lambda: code not in coord.tables, TIMEOUT, "the table nobody is at to close")
        assert table.game is not None and len(table.game.events) == moves, "the bots played on with nobody there"
        # its place is free again
        fresh = await JsonClient.open(server.port, "h6")
        lobby = await fresh.create(bots=3)
        await wait_for(lambda: len(coord.tables[lobby].seats) == 4, TIMEOUT, "the bots to sit down")
        # a host who leaves a table's lobby to its bots: the bots leave too and the table goes
        await fresh.close()
        await wait_for(lambda: lobby not in coord.tables, TIMEOUT, "the lobby left to bots to close")
        for client in (other, third, elsewhere, late):
            await client.close()
