"""SVG snapshots of the practice turn at 80x24 and 120x40: the help beside the table while the host tells, and
while another player chooses a card. Regenerate with `--snapshot-update` and look at the SVGs before keeping them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from tests.tui.fixtures import coordinator, options, seat_many, settle

SIZES = [(80, 24), (120, 40)]
Compare = Callable[..., bool]


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
@pytest.mark.parametrize("host", [True, False], ids=["storyteller", "player"])
def test_practice_snapshot(snap_compare: Compare, size: tuple[int, int], host: bool) -> None:
    coord = coordinator()
    app = DixitApp(coord, Identity("ana" if host else "ben", "key-me"))

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        assert app.session is not None
        if host:
            view = await app.session.create(options())
            await seat_many(coord, ["ben", "cara"], view.code)
            await settle(pilot)
            await pilot.press("p", "y")
        else:
            first = await coord.connect(Identity("ana", "key-ana"), lambda _: None)
            view = await first.create(options())
            await app.session.join(view.code)
            await seat_many(coord, ["cara"], view.code)
            await first.practice()
            table = coord.tables[view.code]
            assert table.game is not None
            await first.clue("moonlight", table.game.state.hands[0][0])
        await settle(pilot)
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
