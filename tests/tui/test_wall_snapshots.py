"""SVG snapshots of the wall: a spectator's table screen at 200x60, the picture a team on a video call shares
(tui/wall_picture.py). The clue in big letters, every card's full text, the seats; during the held reveal each card's
owner and voters, the storyteller's card marked, the points gained. Standard during the vote; the reveal in standard,
party and team; and the reveal as a terminal without UTF-8 gets it (`LANG=C`: ASCII only).

Deterministic: a seeded coordinator and table, fixed moves; the reveal's hold on a stopped clock. Regenerate with
`.venv/bin/python -m pytest tests/tui/test_wall_snapshots.py --snapshot-update` and look at the SVGs first."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from dixit_tui.coordinator import Identity, PlayerSession
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.capabilities import Capabilities
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.widgets.wall import Wall
from tests.tui.fixtures import Recorder, coordinator, make_app, options, phase_of, play_until, seat_many, steady
from tests.tui.test_caps_snapshots import AsciiForms

Compare = Callable[..., bool]
SIZE = (200, 60)
PLAYERS = {"standard": ["ben", "cara", "dev"], "party": ["ben", "cara", "dev", "eve", "fay", "gus"]}
PLAYERS["team"] = PLAYERS["party"]


def _watched(mode: str, step: str) -> Callable[[Pilot[Any]], Awaitable[None]]:
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


@pytest.mark.parametrize("mode", ["standard", "party", "team"])
def test_the_wall_during_the_reveal(snap_compare: Compare, mode: str) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_watched(mode, "reveal"))


def test_the_wall_during_the_vote(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_watched("standard", "vote"))


def test_the_wall_in_ascii(snap_compare: Compare) -> None:
    app = DixitApp(coordinator(), Identity("ana", "key-ana"), capabilities=Capabilities(utf8=False))
    app._filters.append(AsciiForms())
    assert snap_compare(app, terminal_size=SIZE, run_before=_watched("standard", "reveal"))
