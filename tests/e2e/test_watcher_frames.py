"""Watchers coalesce: a burst of changes at a table reaches a terminal that is only watching as one or two screen
updates (its app takes the coordinator's updates at most once per interval), while a player's own typing is drawn at
once. Counters (the frames drawn, the updates held), not times.

The watchers' interval is made long here (`SSHDriver.WATCHER_FRAME_INTERVAL`), so that what the tests count
does not depend on the machine's speed: the burst is over well within one interval.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from dixit_tui.coordinator import Identity
from dixit_tui.ssh.driver import SSHDriver
from tests.e2e.harness import PtyClient
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import TIMEOUT, footer, key_of, press, wait_text
from tests.e2e.watched import INTERVAL, all_drawn, driver_of, frames_drawn, pacing_of, release, watched_table
from tests.tui.fixtures import options

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


async def test_a_burst_of_changes_reaches_a_watcher_as_at_most_two_frames(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SSHDriver, "WATCHER_FRAME_INTERVAL", INTERVAL, raising=False)
    async with dixit_server(tmp_path) as (server, coord):
        players, watcher = await watched_table(server, coord, ["ben", "cy"])
        driver = driver_of(coord, "wes")
        await all_drawn(driver)
        before = frames_drawn(driver).count

        for number in range(8):  # chat lines a little apart: each one alone would be a frame of its own
            await players[number % 3].chat(f"line {number}")
            await asyncio.sleep(0.05)
        held = pacing_of(driver).held  # (a newer view of the table replaces the one held before it)
        assert held >= 1
        release(driver)  # the burst is over: what is pending is drawn at the next tick
        await wait_text(watcher, "line 7")
        await all_drawn(driver)
        drawn = frames_drawn(driver).count - before
        print(f"8 chat lines -> {drawn} frames, {held} updates held and taken at once")
        assert 1 <= drawn <= 2, f"a burst of 8 changes took {drawn} frames"
        await watcher.close()


async def test_a_players_own_typing_is_drawn_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SSHDriver, "WATCHER_FRAME_INTERVAL", INTERVAL, raising=False)
    async with dixit_server(tmp_path) as (server, coord):
        host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
        view = await host.create(options())
        ana = await PtyClient.connect(server.port, "ana", client_key=key_of("ana"), command=f"join {view.code}")
        await wait_text(ana, f"Dixit · table {view.code}")
        driver = driver_of(coord, "ana")
        await all_drawn(driver)
        release(driver)
        frames = frames_drawn(driver).count
        await host.chat("hello ana")  # a change at the table: ana's session draws it at once (none for a while)...
        await ana.wait_until(
            lambda: frames_drawn(driver).count > frames, TIMEOUT, "a frame drawn at once (not after the interval)"
        )
        assert driver._loop.time() - pacing_of(driver).taken_at < INTERVAL  # ...so a watcher's next update would wait
        # (the change can come as two updates, the chat line and the new state: a second frame is held, so it is let
        # go here; what is tested next is typing)
        release(driver)
        await wait_text(ana, "hello ana")
        await press(ana, "c")  # the chat box, then typing: each key is drawn at once, not after the interval
        await ana.wait_until(lambda: "esc Back" in footer(ana), TIMEOUT, "the chat box to get the focus")
        await press(ana, *"zebra")
        await wait_text(ana, "zebra", timeout=INTERVAL / 3)
        await ana.close()
