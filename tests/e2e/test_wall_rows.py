"""The wall redraws only the rows a move changed (issue 23: one more spectator at most 0.3 ms per update): over real
SSH, a spectator's 200x60 screen after each step of play is row for row the screen of a spectator who connects just
then (drawn whole, from nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dixit_tui.coordinator import Identity, PlayerSession
from tests.e2e.harness import PtyClient
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import key_of, text, wait_text
from tests.e2e.watched import all_drawn, driver_of, seated
from tests.tui.fixtures import options, phase_of, play_until

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


async def test_a_spectators_wall_after_each_step_is_the_wall_drawn_afresh(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coord):
        host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
        view = await host.create(options())
        players: list[PlayerSession] = [host, *await seated(coord, view.code, ["ben", "cara"])]
        tv = await PtyClient.connect(
            server.port, "tv", client_key=key_of("tv"), command=f"watch {view.code}", size=(200, 60)
        )
        await wait_text(tv, f"Dixit · table {view.code}")
        await host.start()
        for n, goal in enumerate([(1, "submit"), (1, "vote"), (2, "clue"), (2, "submit")]):
            await play_until(players, lambda: phase_of(host)[1:] == goal)  # noqa: B023  # (used at once)
            name = f"fresh{n}"
            fresh = await PtyClient.connect(
                server.port, name, client_key=key_of(name), command=f"watch {view.code}", size=(200, 60)
            )
            await wait_text(fresh, f"Dixit · table {view.code}")
            await all_drawn(driver_of(coord, name), fresh)
            await all_drawn(driver_of(coord, "tv"), tv)
            ours, theirs = text(tv).splitlines(), text(fresh).splitlines()
            differ = [f"{y}: {a!r} | {b!r}" for y, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b]
            assert not differ, f"{goal}:\n" + "\n".join(differ)
            await fresh.close()
        await tv.close()
