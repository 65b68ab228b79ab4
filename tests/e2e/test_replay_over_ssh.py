"""`ssh HOST replay CODE`: the transcript of a finished game, for anyone, over SSH (it answered "Unknown command").

The game is played to its end by sessions of the server's coordinator; the transcript is asked for over a real SSH
connection (asyncssh, no PTY), as `ssh NAME@HOST replay CODE` does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dixit_tui.coordinator import Identity, PlayerSession
from dixit_tui.engine import Phase
from tests.e2e.json_client import run_command
from tests.e2e.servers import dixit_server
from tests.tui.fixtures import Recorder, default_move, options

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]


def phase(session: PlayerSession) -> str | None:
    view = session.view()
    return None if view is None or view.game is None else view.game.phase


async def test_a_finished_game_is_replayed_over_ssh_to_anyone(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coord):
        sessions = [await coord.connect(Identity(n, key=f"key-{n}"), Recorder()) for n in ("ana", "ben", "cara")]
        code = (await sessions[0].create(options(target=10))).code
        for session in sessions[1:]:
            await session.join(code)
        status, out = await run_command(server.port, f"replay {code}")
        assert status == 2 and "no finished game" in out, out  # a lobby: nothing to replay
        await sessions[0].start()
        status, out = await run_command(server.port, f"replay {code}")
        assert status == 2 and "not over yet" in out and f"watch {code}" in out, out
        for _ in range(400):  # bounded: a game to 10 points takes a few dozen moves
            if phase(sessions[0]) == Phase.OVER:
                break
            for session in sessions:
                await default_move(session)
        assert phase(sessions[0]) == Phase.OVER
        status, out = await run_command(server.port, f"replay {code}")  # (asked as "ana": anyone may)
        assert status == 0, out
        lines = out.splitlines()
        assert lines[0].endswith("game, players: ana, ben, cara"), lines[:3]
        assert "Turn 1: " in out and "Winner" in out, out
        status, out = await run_command(server.port, f"replay {code.lower()} --json")
        assert status == 0, out
        record = json.loads(out)
        assert record["table"] == code and [p["name"] for p in record["players"]] == ["ana", "ben", "cara"]
        status, out = await run_command(server.port, "replay ZZZZ")
        assert status == 2 and "tables" in out, out
