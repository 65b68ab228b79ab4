"""SVG snapshots of the reveal as a scene (issue 23): after the last vote the table holds the turn's reveal and it
opens by itself, each card with its owner and who voted for it, the storyteller's card marked, the points each
gained, and "Next turn (Enter)". Standard, party and team, at 80x24 and 200x60.

The hold's clock is the coordinator's, stopped here (the scene never depends on how long drawing takes).
Regenerate with `.venv/bin/python -m pytest tests/tui/test_reveal_snapshots.py --snapshot-update` and look at the
SVGs before keeping them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from dixit_tui.tui.widgets.recap import RecapScreen
from tests.tui.fixtures import make_app, me, phase_of, play_until, steady
from tests.tui.table_scenes import sit

SIZES = [(80, 24), (200, 60)]
Compare = Callable[..., bool]


def _held(mode: str, others: int) -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def scene(pilot: Pilot[Any]) -> None:
        app, session = me(pilot)
        app.coordinator.timers.clock = lambda: 1000.0  # the hold never runs out while the picture is taken
        seated = await sit(pilot, others, mode=mode, reveal_seconds=8)
        await play_until([session, *seated], lambda: phase_of(session)[1] == 2)
        await steady(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, RecapScreen) and screen.held, "the reveal did not open by itself"
        assert app.session is not None and app.session.view() is not None
        assert app.session.view().reveal_until == 1008.0  # type: ignore[union-attr]

    return scene


SCENES = {"standard": _held("standard", 2), "party": _held("party", 5), "team": _held("team", 5)}


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "200x60"])
@pytest.mark.parametrize("name", list(SCENES))
def test_the_held_reveal(snap_compare: Compare, name: str, size: tuple[int, int]) -> None:
    assert snap_compare(make_app(), terminal_size=size, run_before=SCENES[name])
