"""examples/queue_agent.py, as an agent author runs it: four of them, each its own process over real SSH, queue on the
server, are seated at one table and play it to the end."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import HOST, TIMEOUT
from tests.e2e.servers import dixit_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

AGENT = Path(__file__).resolve().parents[2] / "examples" / "queue_agent.py"


async def test_four_example_agents_queue_are_seated_together_and_play_to_the_end(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coord):
        agents = [
            await asyncio.create_subprocess_exec(
                sys.executable,
                str(AGENT),
                "--host",
                HOST,
                "--port",
                str(server.port),
                "--name",
                name,
                "--players",
                "4",
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
            for name in ("ana", "ben", "cy", "dan")
        ]
        outputs = await asyncio.wait_for(asyncio.gather(*(a.communicate() for a in agents)), 12 * TIMEOUT)
        for agent, (out, err) in zip(agents, outputs, strict=True):
            assert agent.returncode == 0, (out.decode(), err.decode())
        texts = [out.decode() for out, _ in outputs]
        found = {line.rsplit(" ", 1)[-1] for text in texts for line in text.splitlines() if "A table was found" in line}
        assert len(found) == 1, texts  # all four at one table
        assert all("game over" in text for text in texts), texts
        assert sum(w.matchmaker.seated for w in getattr(coord, "workers", [coord])) == 1
