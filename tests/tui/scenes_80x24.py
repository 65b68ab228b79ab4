"""The scenes of the 80x24 snapshots (tests/tui/test_snapshots_80x24.py), also checked by tests/tui/test_layout.py:
every phase for standard, party and team tables, at the common terminal size.

ana hosts every table; a spectator (zed) watches, so the top bar has its "1 watching". Deterministic: a seeded
coordinator and table, fixed moves for the other seats.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot

from dixit_tui.coordinator import Identity, PlayerSession
from dixit_tui.tui.widgets.recap import RecapScreen
from tests.tui.fixtures import (
    Recorder,
    default_move,
    me,
    options,
    phase_of,
    play_until,
    seat_many,
    settle,
    steady,
)

SIZE = (80, 24)
Scenario = Callable[[Pilot[Any]], Awaitable[None]]

NAMES = ["ben", "cara", "dev", "eve", "fay", "gus", "hal", "ivy", "jo", "kim", "lee"]
MODES: dict[str, dict[str, Any]] = {
    "standard": {"others": 2},
    "party": {"others": 6, "mode": "party"},  # 7 players: the board has 7 cards
    "team": {"others": 5, "mode": "team"},
}
CROWDED: dict[str, dict[str, Any]] = {"odyssey12": {"others": 11, "profile": "odyssey"}}  # a board of 12 cards


async def sit(pilot: Pilot[Any], mode: str, *, start: bool = True) -> list[PlayerSession]:
    """ana creates a table of `mode`, the others sit down, zed watches; ana starts it (s)."""
    app, session = me(pilot)
    await settle(pilot)
    kwargs = dict(MODES.get(mode) or CROWDED[mode])
    others = kwargs.pop("others")
    view = await session.create(options(**kwargs))
    seated = [s for s, _ in await seat_many(app.coordinator, NAMES[:others], view.code)]
    watcher = await app.coordinator.connect(Identity("zed", key="key-zed"), Recorder())
    await watcher.watch(view.code)
    await settle(pilot)
    if start:
        await pilot.press("s", "y")
        await settle(pilot)
    return seated


async def close_recaps(pilot: Pilot[Any]) -> None:
    while isinstance(pilot.app.screen, RecapScreen):
        await pilot.press("enter")
        await settle(pilot)


def lobby(mode: str) -> Scenario:
    async def run(pilot: Pilot[Any]) -> None:
        await sit(pilot, mode, start=False)
        await steady(pilot)

    return run


def clue(mode: str) -> Scenario:
    async def run(pilot: Pilot[Any]) -> None:
        await sit(pilot, mode)
        if mode == "party":
            await pilot.press(*"echo")  # the party storyteller's clue comes before the hand
        else:
            await pilot.press("2", "enter", *"moon")
        await steady(pilot)

    return run


def submit(mode: str) -> Scenario:
    async def run(pilot: Pilot[Any]) -> None:
        seated = await sit(pilot, mode)
        await default_move(seated[0])  # ben tells
        await settle(pilot)
        await pilot.press("down")
        await steady(pilot)

    return run


def vote(mode: str) -> Scenario:
    """ana votes in turn 2 (after the first recap): the host's widest key bar (transcript and recap keys too)."""

    async def run(pilot: Pilot[Any]) -> None:
        seated = await sit(pilot, mode)
        _, session = me(pilot)
        await default_move(seated[0])  # ben tells turn 1
        await play_until([session, *seated], lambda: phase_of(session)[1:] == (2, "vote"))
        view = session.view()
        assert view is not None and view.game is not None
        if view.game.storyteller == view.you or not view.game.can_vote:  # ana must vote: play to her next vote
            await play_until([session, *seated], lambda: phase_of(session)[1:] == (3, "vote"))
        await settle(pilot)
        await close_recaps(pilot)
        await pilot.press("right")
        await steady(pilot)

    return run


async def party_red(pilot: Pilot[Any]) -> None:
    seated = await sit(pilot, "party")
    _, session = me(pilot)
    await default_move(session)  # ana tells, blind
    await play_until([session, *seated], lambda: phase_of(session)[2] == "vote")
    await settle(pilot)
    await pilot.press("enter", "right")  # green on the pointer, then the red step
    await steady(pilot)


def recap(mode: str) -> Scenario:
    async def run(pilot: Pilot[Any]) -> None:
        seated = await sit(pilot, mode)
        _, session = me(pilot)
        await play_until([session, *seated], lambda: phase_of(session)[1] == 2)
        await settle(pilot)
        assert not isinstance(pilot.app.screen, RecapScreen)  # the clue line tells the outcome; r opens the recap
        await pilot.press("r")
        await steady(pilot)
        assert isinstance(pilot.app.screen, RecapScreen)

    return run


def over(mode: str) -> Scenario:
    async def run(pilot: Pilot[Any]) -> None:
        seated = await sit(pilot, mode)
        _, session = me(pilot)
        await play_until([session, *seated], lambda: phase_of(session)[0] == "over", limit=4000)
        await settle(pilot)
        await close_recaps(pilot)
        await steady(pilot)

    return run


PHASES: dict[str, Callable[[str], Scenario]] = {
    "lobby": lobby,
    "clue": clue,
    "submit": submit,
    "vote": vote,
    "recap": recap,
    "over": over,
}
SCENARIOS: dict[str, Scenario] = {f"{mode}-{phase}": make(mode) for mode in MODES for phase, make in PHASES.items()}
SCENARIOS["party-red_marker"] = party_red


async def odyssey12_vote(pilot: Pilot[Any]) -> None:
    """12 players: every one of the 12 cards still has a line of its own at 80x24."""
    seated = await sit(pilot, "odyssey12")
    _, session = me(pilot)
    await default_move(seated[0])  # ben tells
    await play_until([session, *seated[1:]], lambda: phase_of(session)[2] == "vote")
    await settle(pilot)
    await pilot.press("9")
    await steady(pilot)


SCENARIOS["odyssey12-vote"] = odyssey12_vote
