"""SVG snapshots of the wall before and after the game: a spectator's table screen at 200x60 (a team on a video call
shares it). The lobby while people sit down (the code big, how to join, the seats, what the table waits for), also as
a terminal without UTF-8 gets it (`LANG=C`: ASCII only); the last turn's reveal at the end of the game, held on the
wall; then the winner big and the final standings.

Deterministic: a seeded coordinator and table, fixed moves; the wall's hold of the last reveal is 60 s (the table's
`reveal_seconds`), ended by the test. Regenerate with
`.venv/bin/python -m pytest tests/tui/test_wall_ends_snapshots.py --snapshot-update` and look at the SVGs first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.capabilities import Capabilities
from tests.tui.fixtures import Recorder, coordinator, make_app, options, seat_many
from tests.tui.terminal_filters import AsciiForms
from tests.tui.wall_pilot import over, wall_shown

Compare = Callable[..., bool]
SIZE = (200, 60)


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
    await wall_shown(pilot)


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
