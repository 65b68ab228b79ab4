"""A killed server loses no finished game's rating: three players with SSH keys play a game to the end over JSON, the
real `dixit-tui serve` is SIGKILLed, started again on its data folder, and `ssh HOST leaderboard` says the same."""

from __future__ import annotations

import random
from pathlib import Path

import asyncssh
import pytest

from dixit_tui.bench.server import ServerProcess, serve_argv
from tests.e2e.json_client import JsonClient, everyone_over, play, run_command

# (it runs a server of its own, on SQLite: the two-worker pass would only repeat it)
pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180), pytest.mark.same_on_two_workers]


async def test_a_killed_server_keeps_every_finished_games_rating(tmp_path: Path) -> None:
    server = ServerProcess(lambda: serve_argv(tmp_path / "keys", tmp_path / "data"), cwd=tmp_path)
    await server.start()
    try:
        names = ("ana", "ben", "cy")
        keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in names]
        players = [await JsonClient.open(server.port, n, client_key=k) for n, k in zip(names, keys, strict=True)]
        code = await players[0].create(mode="standard", target=10, seed=7)
        for player in players[1:]:
            player.send({"cmd": "join", "table": code})
            await player.wait_for("state", table=code)
        await players[0].wait_for(lambda m: m.get("type") == "state" and len(m["players"]) == 3)
        players[0].send({"cmd": "start"})
        await play(players, everyone_over(players), random.Random(2))
        status, before = await run_command(server.port, "leaderboard")
        assert status == 0
        rows = before.splitlines()[1:]
        assert sorted(row.split()[1] for row in rows) == ["ana", "ben", "cy"], before
        assert all(row.split()[3] == "1" for row in rows)  # one game each
        for player in players:
            await player.close()
        await server.kill()
        await server.start()
        status, after = await run_command(server.port, "leaderboard")
        assert status == 0 and after == before
    finally:
        await server.stop()
