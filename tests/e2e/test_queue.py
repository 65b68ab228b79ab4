"""The queue over real SSH: JSON clients that `queue` are seated at one new table, started, and play it to the end;
bots fill the table of one who asked for them; a client that drops while queued leaves the queue."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.e2e.bots import quick
from tests.e2e.harness import TIMEOUT, wait_for
from tests.e2e.json_client import JsonClient, everyone_over, play
from tests.e2e.servers import dixit_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

QUEUE = {"cmd": "queue", "mode": "standard", "profile": "refresh", "players": [4, 6]}


def queued(coord: object) -> int:
    """Clients waiting in the queue, at every worker."""
    return sum(w.matchmaker.waiting() for w in getattr(coord, "workers", [coord]))


async def test_four_json_clients_that_queue_are_seated_at_one_table_and_play_it_to_the_end(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coord):
        players = [await JsonClient.open(server.port, name, "json bot") for name in ("ana", "ben", "cy", "dan")]
        for player in players[:3]:
            player.send(QUEUE)
            await player.wait_for("queue", queued=True)
        await wait_for(lambda: queued(coord) == 3, TIMEOUT, "three in the queue")
        assert all(p.state["table"] is None for p in players)
        players[3].send(QUEUE)
        found = [await p.wait_for("queue", queued=False) for p in players]
        codes = {m["table"] for m in found}
        assert len(codes) == 1 and None not in codes
        for player in players:
            await player.wait_for(lambda m: m.get("type") == "state" and m["phase"] == "clue")
        assert [p.state["you"] for p in players] == [0, 1, 2, 3] and queued(coord) == 0
        for player, message in zip(players, found, strict=True):  # the queue message comes before the table's state
            first = next(i for i, m in enumerate(player.messages) if m.get("type") == "state" and m["table"] in codes)
            assert player.messages.index(message) < first
        await play(players, everyone_over(players), random.Random(4))
        assert {p.state["table"] for p in players} == codes
        for player in players:
            assert await player.close() == 0


async def test_a_client_that_asks_for_bots_gets_a_table_filled_with_them_and_started(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coord):
        ana = await JsonClient.open(server.port, "ana", "json bot")
        ana.send({**QUEUE, "players": 3, "fill_with_bots_after": 0})
        found = await ana.wait_for("queue", queued=False)
        code = str(found["table"])
        await wait_for(lambda: len(quick(coord, code)) == 2, TIMEOUT, "the two bots")  # (their pace is not tested)
        state = await ana.wait_for(lambda m: m.get("type") == "state" and m["phase"] == "clue")
        assert state["table"] == found["table"] and state["you"] == 0
        assert [(p["bot"], p["builtin"]) for p in state["players"]] == [(True, False), (True, True), (True, True)]
        await play([ana], lambda: bool(ana.of_type("over")), random.Random(5))
        assert await ana.close() == 0


async def test_a_client_that_drops_while_queued_leaves_the_queue(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coord):
        ana = await JsonClient.open(server.port, "ana")
        ana.send(QUEUE)
        await ana.wait_for("queue", queued=True)
        await wait_for(lambda: queued(coord) == 1, TIMEOUT, "ana in the queue")
        ana.conn.close()  # dropped: no goodbye
        await wait_for(lambda: queued(coord) == 0, TIMEOUT, "ana out of the queue")
        ben = await JsonClient.open(server.port, "ben")
        ben.send({"cmd": "unqueue", "ref": 1})
        error = await ben.wait_for("error")
        assert error["code"] == "not_queued"
        await ben.close()
