"""The wall's scenes (a spectator's table screen at 200x60, the picture a team on a video call shares): a table watched
by ana up to its vote or its reveal (`watched`), and played to its end (`over`). For the wall's snapshot tests
(tests/tui/test_wall_snapshots.py, test_wall_ends_snapshots.py) and its keys (test_wall_keys.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot

from dixit_tui.coordinator import Identity, PlayerSession
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.widgets.wall import Wall
from tests.tui.fixtures import Recorder, options, phase_of, play_until, seat_many, steady

Compare = Callable[..., bool]
PLAYERS = {"standard": ["ben", "cara", "dev"], "party": ["ben", "cara", "dev", "eve", "fay", "gus"]}
PLAYERS["team"] = PLAYERS["party"]


def watched(mode: str, step: str) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """ana watches a `mode` table played by others up to `step`: "vote" (turn 1's vote) or "reveal" (turn 1's reveal,
    held for its players on a stopped clock)."""

    async def scene(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, DixitApp) and app.session is not None
        coord = app.coordinator
        coord.timers.clock = lambda: 1000.0  # the hold never runs out while the picture is taken
        names = PLAYERS[mode]
        host = await coord.connect(Identity(names[0], key=f"key-{names[0]}"), Recorder(), shows_reveal=True)
        view = await host.create(options(mode=mode, reveal_seconds=8))
        sessions: list[PlayerSession] = [host, *[s for s, _ in await seat_many(coord, names[1:], view.code)]]
        await app.session.watch(view.code)
        await host.start()
        if step == "vote":
            await play_until(sessions, lambda: phase_of(host)[2] == "vote")
        else:
            await play_until(sessions, lambda: phase_of(host)[1] == 2)
        await steady(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.has_class("-wall"), "the wall is not shown"
        if step == "reveal":
            assert app.session.view().reveal_until == 1008.0  # type: ignore[union-attr]
        assert screen.query_one(Wall).picture

    return scene


async def wall_shown(pilot: Pilot[Any]) -> Wall:
    await steady(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, TableScreen) and screen.has_class("-wall"), "the wall is not shown"
    wall = screen.query_one(Wall)
    assert wall.picture
    return wall


def over(*, standings: bool) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """ana watches ben, cara and dev play a game to 10 points, to its end: the last turn's reveal held on the wall,
    or (`standings`) once that hold has ended."""

    async def scene(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, DixitApp) and app.session is not None
        coord = app.coordinator
        host = await coord.connect(Identity("ben", key="key-ben"), Recorder())
        view = await host.create(options(target=10, reveal_seconds=60))
        sessions: list[PlayerSession] = [host, *[s for s, _ in await seat_many(coord, ["cara", "dev"], view.code)]]
        await app.session.watch(view.code)
        await host.start()
        await wall_shown(pilot)  # the wall shows the game being played
        await play_until(sessions, lambda: phase_of(host)[0] == "over")
        wall = await wall_shown(pilot)
        assert "That was the last turn" in "".join(strip.text for strip in wall.picture)
        if standings:
            wall.end_final_reveal()
            await wall_shown(pilot)

    return scene
