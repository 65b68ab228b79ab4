"""The table screen's scenes, each a seeded table played to one phase of one mode with ana at it (`SCENARIOS`),
for the snapshot tests that take a picture of it (tests/tui/test_table_snapshots.py, test_caps_snapshots.py) and
`sit` for those that seat others at ana's table (test_reveal_snapshots.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot

from dixit_tui.coordinator import PlayerSession
from dixit_tui.tui.widgets.recap import RecapScreen
from tests.tui.fixtures import (
    default_move,
    me,
    options,
    phase_of,
    play_until,
    seat_many,
    settle,
    steady,
)

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
