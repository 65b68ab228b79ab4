"""What an ordinary move at an 8-seat table sends to a watcher's real SSH terminal, counted (never timed): one frame,
one write to the channel, and few bytes (the style codes sent only where the style changes; see
tests/ssh/test_output_cost.py for the same screen drawn with fewer bytes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.servers import dixit_server
from tests.e2e.watched import all_drawn, driver_of, frames_drawn, watched_table
from tests.tui.fixtures import default_move, default_move_pending, phase, play_until

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


async def test_an_ordinary_move_is_one_frame_one_write_and_few_bytes(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coord):
        sessions, watcher = await watched_table(
            server, coord, ["ben", "cy", "dee", "eli", "fay", "gil", "hal"], seats=8
        )
        host = sessions[0]
        await host.start()
        await play_until(sessions, lambda: phase(host) == "submit")
        driver = driver_of(coord, "wes")
        await all_drawn(driver, like=host)
        sent: list[int] = []
        channel: Any = driver._channel
        write = channel.write

        def counted(data: bytes) -> None:
            sent.append(len(data))
            write(data)

        channel.write = counted
        moves = []
        for _ in range(2):  # the cards, then the votes (not the last of each: that one changes the phase)
            movers = [s for s in sessions if default_move_pending(s)]
            for session in movers[:-1]:
                frames, writes = frames_drawn(driver).count, len(sent)
                await default_move(session)
                await all_drawn(driver, like=session)
                moves.append((frames_drawn(driver).count - frames, len(sent) - writes, sum(sent[writes:])))
            await default_move(movers[-1])
            await all_drawn(driver, like=movers[-1])
        print("per move (frames, channel writes, bytes):", moves)
        assert len(moves) == 12
        assert all(frames == 1 and writes == 1 for frames, writes, _ in moves), moves
        assert sum(size for _, _, size in moves) <= 12 * 600, moves  # (Textual's way: about 850 a move)
        await watcher.close()
