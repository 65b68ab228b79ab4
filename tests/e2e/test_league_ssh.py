"""`dixit-tui league --host H --port P` (issue 26): the league's games played over real SSH against a real server,
through the JSON protocol, each seat with an SSH key of its own: the server rates every seat (its leaderboard lists
them), and the command prints the same figures as the in-process league."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from dixit_tui.cli import main
from dixit_tui.league_ssh import Server, run_league_ssh
from tests.e2e.harness import HOST
from tests.e2e.json_client import run_command
from tests.e2e.servers import dixit_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


async def test_a_league_over_ssh_plays_its_games_at_the_server_and_every_seat_is_rated(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coord):
        league = await run_league_ssh(
            Server(HOST, server.port, None, game_timeout=60.0), ["random", "smart"], 3, (3, 4), seed=2, target=10
        )
        assert league.games == 3 and len(league.results) == 3
        seats = sum(len(r["players"]) for r in league.results)
        assert league.void == 0 and all(r["winners"] for r in league.results)
        assert sum(s.seats for s in league.stats.values()) == seats
        # the server rated each seat by its key, as it rates people: one rating per seat of each game
        assert sum(r.games for r in coord.ratings.players.values()) == seats
        assert {r.name for r in coord.ratings.players.values()} <= {
            f"{s}{i}" for s in ("random", "smart") for i in (1, 2, 3, 4)
        }
        status, board = await run_command(server.port, "leaderboard")
        assert status == 0 and len(board.splitlines()) == 1 + len(coord.ratings.players)
        assert "random" in league.text() and "smart" in league.text()


async def test_the_league_command_with_host_prints_the_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with dixit_server(tmp_path) as (server, coord):
        argv = ["league", "--strategies", "random,shrewd", "--games", "2", "--players", "3", "--target", "10"]
        argv += ["--host", HOST, "--port", str(server.port), "--insecure", "--json", "--quiet"]
        status = await asyncio.to_thread(main, argv)
        assert status == 0
        figures = json.loads(capsys.readouterr().out)
        assert figures["games"] == 2
        assert {s["strategy"] for s in figures["strategies"]} <= {"random", "shrewd"}
        assert sum(s["seats"] for s in figures["strategies"]) == 6
        assert sum(r.games for r in coord.ratings.players.values()) == 6


async def test_a_refused_table_is_said_and_ends_the_league_with_status_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with dixit_server(tmp_path) as (server, _):
        argv = ["league", "--strategies", "random", "--games", "2", "--players", "3", "--target", "5"]
        argv += ["--host", HOST, "--port", str(server.port), "--insecure", "--quiet"]
        assert await asyncio.to_thread(main, argv) == 1
        assert "could not create a table: The target score must be between 10 and 100." in capsys.readouterr().err
