"""Ratings per SSH key: a fold of the games' stored results, equal live and rebuilt; who counts, and how."""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

from dixit_tui.coordinator import Coordinator, Identity
from dixit_tui.plain_commands import handle_plain
from dixit_tui.protocol.schema import validate_message
from dixit_tui.ratings import Ratings, fold, placings, rebuild
from dixit_tui.store import SqliteStore
from tests.protocol.clients import Game


def result(*players: dict[str, Any], winners: list[int] | None = None, at: float = 1.0) -> dict[str, Any]:
    seats = [
        {"seat": i, "moves": 10, "stand_ins": 0, "removed": False, "builtin": False, **p} for i, p in enumerate(players)
    ]
    best = max(p["score"] for p in seats)
    chosen = [p["seat"] for p in seats if p["score"] == best] if winners is None else winners
    return {"t": "result", "code": "AAAA", "at": at, "winners": chosen, "players": seats}


def test_only_keyed_players_are_rated_ranked_among_themselves_with_ties() -> None:
    game = result(
        {"name": "ana", "key": "k:ana", "score": 30},
        {"name": "guest", "key": None, "score": 31},
        {"name": "Oneiros", "key": None, "score": 12, "bot": True, "builtin": True},
        {"name": "ben", "key": "k:ben", "score": 20},
        {"name": "cy", "key": "k:cy", "score": 20},
    )
    assert placings(game) == [("k:ana", "ana", 1), ("k:ben", "ben", 2), ("k:cy", "cy", 2)]


def test_a_void_game_counts_for_nobody_and_leaving_finishes_last() -> None:
    void = result({"name": "ana", "key": "k:a", "score": 5}, {"name": "ben", "key": "k:b", "score": 3}, winners=[])
    assert placings(void) == []
    alone = result({"name": "ana", "key": "k:a", "score": 5}, {"name": "guest", "key": None, "score": 3})
    assert placings(alone) == []  # one rated player: nothing to compare
    game = result(
        {"name": "ana", "key": "k:a", "score": 30, "stand_ins": 6},  # most of her moves by a stand-in
        {"name": "ben", "key": "k:b", "score": 10},
        {"name": "cy", "key": "k:c", "score": 25, "removed": True},
        {"name": "dan", "key": "k:d", "score": 12, "stand_ins": 5},  # half: still his own game
    )
    assert placings(game) == [("k:a", "ana", 3), ("k:b", "ben", 2), ("k:c", "cy", 3), ("k:d", "dan", 1)]


def test_a_result_that_arrives_late_is_folded_in_its_place() -> None:
    games = [
        result({"name": "ana", "key": "a", "score": s}, {"name": "ben", "key": "b", "score": 10}, at=float(at))
        for at, s in ((1, 20), (3, 5), (2, 30), (4, 11))
    ]
    live = Ratings()
    for game in games:
        live.add(game)
    assert live.as_rows() == fold(games).as_rows() == fold(reversed(games)).as_rows()
    ana, ben = live.players["a"], live.players["b"]
    assert ana.games == ben.games == 4 and ana.mu > ben.mu


async def play_games(coord: Coordinator, rounds: int) -> None:
    async with Game(seed=11) as g:
        g.coord, g.tick = coord, 0.001
        players = [await g.connect(name) for name in ("ana", "ben", "cy", "dan")]
        guest = await g.connect("eve", keyless=True)
        rng = random.Random(3)
        for number in range(rounds):
            seated = rng.sample([*players, guest], 3 + number % 2)
            for client in seated:
                if client.state["table"] is not None:
                    await g.send(client, {"cmd": "leave"})
            await g.create(seated[0], seated[1:], mode="standard", target=10, seed=number)
            await g.send(seated[0], {"cmd": "start"})
            await g.play()
        for client in g.clients:  # every message is the protocol's (one client sees several games: no order check)
            for message in client.received:
                validate_message(message)


async def test_ratings_rebuilt_from_the_store_equal_the_live_ones_and_survive_a_restart(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path)
    try:
        coord = Coordinator(rng=random.Random(2), allow_seeded_tables=True, store=store)
        await play_games(coord, 6)
        live = coord.ratings.as_rows()
        assert len(live) == 4 and sum(games for *_, games in live) >= 6 * 2
        assert (await rebuild(store)).as_rows() == live
        again = Coordinator(rng=random.Random(3), store=store)
        await again.restore()  # a server started again (or after a kill -9) folds them at start
        assert again.ratings.as_rows() == live
    finally:
        await store.close()
    command = [sys.executable, "-m", "dixit_tui", "ratings", "--rebuild", "--json", "--data-dir", str(tmp_path)]
    done = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE)
    out, _ = await asyncio.wait_for(done.communicate(), 60)
    assert done.returncode == 0
    rebuilt = json.loads(out)["players"]
    assert [(p["key"], p["name"], p["mu"], p["sigma"], p["games"]) for p in rebuilt] == live


async def test_the_leaderboard_over_json_and_as_plain_text() -> None:
    coord = Coordinator(rng=random.Random(2), allow_seeded_tables=True)
    await play_games(coord, 3)
    best = coord.ratings.leaderboard()[0]
    async with Game() as g:
        g.coord = coord
        lee = await g.connect("lee")
        (board,) = await g.send(lee, {"cmd": "leaderboard", "limit": 3})
        assert board["type"] == "leaderboard" and len(board["players"]) == 3
        first = board["players"][0]
        assert (first["rank"], first["name"], first["games"]) == (1, best.name, best.games)
        assert first["rating"] == round(best.mu - 3 * best.sigma, 3)
        g.check()

    class Out:
        def __init__(self) -> None:
            self.data = b""

        def write(self, data: bytes) -> None:
            self.data += data

    out = Out()
    assert await handle_plain(coord, Identity("lee"), "leaderboard", None, out) == 0
    lines = out.data.decode().splitlines()
    assert lines[0].split() == ["rank", "name", "rating", "games"]
    assert lines[1].split() == ["1", best.name, f"{best.conservative:.1f}", str(best.games)]
