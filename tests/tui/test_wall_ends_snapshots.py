"""SVG snapshots of the wall before and after the game: a spectator's table screen at 200x60 (a team on a video call
shares it). The lobby while people sit down (the code big, how to join, the seats, what the table waits for), also as
a terminal without UTF-8 gets it (`LANG=C`: ASCII only); the last turn's reveal at the end of the game, held on the
wall; then the winner big and the final standings.

Deterministic: a seeded coordinator and table, fixed moves; the wall's hold of the last reveal is 60 s (the table's
`reveal_seconds`), ended by the test. Regenerate with
`.venv/bin/python -m pytest tests/tui/test_wall_ends_snapshots.py --snapshot-update` and look at the SVGs first."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

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


async def _wall(pilot: Pilot[Any]) -> Wall:
    await steady(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, TableScreen) and screen.has_class("-wall"), "the wall is not shown"
    wall = screen.query_one(Wall)
    assert wall.picture
    return wall


async def lobby(pilot: Pilot[Any]) -> None:
    """ana watches ben's table while people sit down: ben (the host), cara and a bot."""
    app = pilot.app
    assert isinstance(app, DixitApp) and app.session is not None
    coord = app.coordinator
    host = await coord.connect(Identity("ben", key="key-ben"), Recorder())
    view = await host.create(options())
    await seat_many(coord, ["cara"], view.code)
    await host.add_bots(1)
    await app.session.watch(view.code)
    await _wall(pilot)


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
        await _wall(pilot)  # the wall shows the game being played
        await play_until(sessions, lambda: phase_of(host)[0] == "over")
        wall = await _wall(pilot)
        assert "That was the last turn" in "".join(strip.text for strip in wall.picture)
        if standings:
            wall.end_final_reveal()
            await _wall(pilot)

    return scene


def test_the_wall_in_the_lobby(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=lobby)


def test_the_wall_in_the_lobby_in_ascii(snap_compare: Compare) -> None:
    app = DixitApp(coordinator(), Identity("ana", "key-ana"), capabilities=Capabilities(utf8=False))
    app._filters.append(AsciiForms())
    assert snap_compare(app, terminal_size=SIZE, run_before=lobby)


def test_the_wall_at_the_last_reveal(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=over(standings=False))


def test_the_wall_at_the_end_of_the_game(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=over(standings=True))
