"""SVG snapshots of the table screen in each phase and each mode, at 80x24 and 120x40.

Deterministic: a seeded coordinator (table codes, reconnect codes) and a seeded table (the deal), fixed moves for
the other seats. Regenerate with `.venv/bin/python -m pytest tests/tui/test_table_snapshots.py --snapshot-update`
and look at the SVGs before keeping them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from dixit_tui.coordinator import Identity, PlayerSession
from dixit_tui.ssh.no_color import WithoutColor
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.capabilities import Capabilities
from dixit_tui.tui.widgets.recap import RecapScreen
from tests.tui.fixtures import (
    coordinator,
    default_move,
    make_app,
    me,
    options,
    phase_of,
    play_until,
    seat_many,
    settle,
    steady,
)

SIZES = [(80, 24), (120, 40)]
Compare = Callable[..., bool]
Scenario = Callable[[Pilot[Any]], Awaitable[None]]

NAMES = ["ben", "cara", "dev", "eve", "fay", "gus", "hal"]


async def sit(pilot: Pilot[Any], others: int, start: bool = True, **kwargs: Any) -> list[PlayerSession]:
    app, session = me(pilot)
    await settle(pilot)
    view = await session.create(options(**kwargs))
    seated = [s for s, _ in await seat_many(app.coordinator, NAMES[:others], view.code)]
    await settle(pilot)
    if start:
        await pilot.press("s", "y")
        await settle(pilot)
    return seated


async def lobby(pilot: Pilot[Any]) -> None:
    await sit(pilot, 2, start=False)
    _, session = me(pilot)
    await session.chat("welcome, [b]everyone[/")
    await steady(pilot)


async def clue(pilot: Pilot[Any]) -> None:
    await sit(pilot, 2)
    await pilot.press("2", "enter", *"moon")
    await steady(pilot)


async def submit(pilot: Pilot[Any]) -> None:
    ben, _ = await sit(pilot, 2)
    await default_move(ben)
    await settle(pilot)
    await pilot.press("enter")
    await steady(pilot)


async def vote(pilot: Pilot[Any]) -> None:
    ben, cara = await sit(pilot, 2)
    _, session = me(pilot)
    for s in (ben, session, cara):
        await default_move(s)
    await settle(pilot)
    await pilot.press("right")
    await steady(pilot)


async def revealed(pilot: Pilot[Any]) -> None:
    """Turn 1 revealed: the clue line says whose card it was and who found it (r opens the recap)."""
    seated = await sit(pilot, 2)
    _, session = me(pilot)
    await play_until([*seated, session], lambda: phase_of(session)[1] == 2)
    await steady(pilot)
    assert not isinstance(pilot.app.screen, RecapScreen)


async def recap(pilot: Pilot[Any]) -> None:
    await revealed(pilot)
    await pilot.press("r")
    await steady(pilot)
    assert isinstance(pilot.app.screen, RecapScreen)


async def over(pilot: Pilot[Any]) -> None:
    seated = await sit(pilot, 2, target=10)
    _, session = me(pilot)
    await play_until([session, *seated], lambda: phase_of(session)[0] == "over")
    await settle(pilot)
    while isinstance(pilot.app.screen, RecapScreen):
        await pilot.press("enter")
        await settle(pilot)
    await steady(pilot)


async def odyssey_two_votes(pilot: Pilot[Any]) -> None:
    seated = await sit(pilot, 7, profile="odyssey")
    _, session = me(pilot)
    await default_move(seated[0])
    await play_until([session, *seated[1:]], lambda: phase_of(session)[2] == "vote")
    await settle(pilot)
    await pilot.press("space", "right", "right")
    await steady(pilot)


async def party_clue(pilot: Pilot[Any]) -> None:
    await sit(pilot, 5, mode="party")
    await pilot.press("enter", *"echo")  # Enter opens the clue box
    await steady(pilot)


async def party_red(pilot: Pilot[Any]) -> None:
    seated = await sit(pilot, 5, mode="party")
    _, session = me(pilot)
    await default_move(session)  # ana tells, blind
    await play_until([session, *seated], lambda: phase_of(session)[2] == "vote")
    await settle(pilot)
    await pilot.press("enter", "right")  # green on the pointer, then the red step
    await steady(pilot)


async def team_submit(pilot: Pilot[Any]) -> None:
    seated = await sit(pilot, 5, mode="team")
    await default_move(seated[0])  # ben (team 2) tells
    await seated[4].close()  # fay's connection drops: her seat is kept, shown offline
    await steady(pilot)


SCENARIOS: dict[str, Scenario] = {
    "lobby": lobby,
    "clue": clue,
    "submit": submit,
    "vote": vote,
    "revealed": revealed,
    "recap": recap,
    "over": over,
    "odyssey8_two_votes": odyssey_two_votes,
    "party_blind_clue": party_clue,
    "party_red_marker": party_red,
    "team_submit": team_submit,
}


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_table_snapshot(snap_compare: Compare, name: str, size: tuple[int, int]) -> None:
    assert snap_compare(make_app(), terminal_size=size, run_before=SCENARIOS[name])


@pytest.mark.parametrize("name", ["vote", "party_red_marker", "team_submit"])
def test_table_snapshot_no_color(snap_compare: Compare, name: str) -> None:
    """NO_COLOR (as the SSH session sets it up: no colour at all): pointer, marks and roles stay readable."""
    app = DixitApp(coordinator(), Identity("ana", "key-ana"), capabilities=Capabilities(colors="none"))
    app._filters.append(WithoutColor())
    assert snap_compare(app, terminal_size=(80, 24), run_before=SCENARIOS[name])
