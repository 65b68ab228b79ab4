"""SVG snapshots of the wall: a spectator's table screen at 200x60, the picture a team on a video call shares
(tui/wall_picture.py). The clue in big letters, every card's full text, the seats; during the held reveal each card's
owner and voters, the storyteller's card marked, the points gained. Standard during the vote; the reveal in standard,
party and team; and the reveal as a terminal without UTF-8 gets it (`LANG=C`: ASCII only).

Deterministic: a seeded coordinator and table, fixed moves; the reveal's hold on a stopped clock. Regenerate with
`.venv/bin/python -m pytest tests/tui/test_wall_snapshots.py --snapshot-update` and look at the SVGs first."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.capabilities import Capabilities
from tests.tui.fixtures import coordinator, make_app
from tests.tui.terminal_filters import AsciiForms
from tests.tui.wall_pilot import watched

Compare = Callable[..., bool]
SIZE = (200, 60)


@pytest.mark.parametrize("mode", ["standard", "party", "team"])
def test_the_wall_during_the_reveal(snap_compare: Compare, mode: str) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=watched(mode, "reveal"))


def test_the_wall_during_the_vote(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=watched("standard", "vote"))


def test_the_wall_in_ascii(snap_compare: Compare) -> None:
    app = DixitApp(coordinator(), Identity("ana", "key-ana"), capabilities=Capabilities(utf8=False))
    app._filters.append(AsciiForms())
    assert snap_compare(app, terminal_size=SIZE, run_before=watched("standard", "reveal"))
