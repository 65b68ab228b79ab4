"""Apps at a table in Pilot tests: DixitApps sharing one coordinator, and what a test reads from their table screens."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any

from textual.dom import DOMNode
from textual.pilot import Pilot

from dixit_tui.coordinator import (
    Coordinator,
    Identity,
    PlayerSession,
)
from dixit_tui.coordinator.table import Table
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.vote_dial import VoteDial
from dixit_tui.tui.widgets.cards import Board
from tests.tui.fixtures import default_move, options, seat_many, settle

SIZE = (80, 24)


def table_of(app: DixitApp) -> TableScreen:
    screen = app._table_screen()
    assert isinstance(screen, TableScreen), app.screen_stack
    return screen


def dial_of(screen: DOMNode) -> VoteDial:
    """The vote dial (the board holds it while you vote)."""
    dial = screen.query_one(Board).dial
    assert dial is not None, "no dial: not voting"
    return dial


def status(app: DixitApp) -> str:
    return table_of(app).status_text().plain


def notes(app: DixitApp) -> list[str]:
    return [n.message for n in app._notifications]


def session_of(app: DixitApp) -> PlayerSession:
    assert app.session is not None
    return app.session


def table(coord: Coordinator, app: DixitApp) -> Table:
    view = session_of(app).view()
    assert view is not None
    return coord.tables[view.code]


async def open_apps(
    stack: AsyncExitStack, coord: Coordinator, names: list[str], code: str | None = None, size: tuple[int, int] = SIZE
) -> list[tuple[DixitApp, Pilot[Any]]]:
    out = []
    for name in names:
        command = f"join {code}" if code else None
        app = DixitApp(coord, Identity(name, f"key-{name}"), command=command)
        pilot = await stack.enter_async_context(app.run_test(size=size, notifications=True))
        out.append((app, pilot))
    return out


async def ana_hosting(
    stack: AsyncExitStack, coord: Coordinator, others: list[str], *, mode: str = "standard", start: bool = False
) -> tuple[DixitApp, Pilot[Any], str, list[PlayerSession]]:
    """ana's app at a table she created (`mode`), with `others` seated as sessions; started by her keys (s, y) if
    `start`. Returns her app, its pilot, the table's code and the others' sessions."""
    ((ana, pa),) = await open_apps(stack, coord, ["ana"])
    await settle(pa)
    view = await session_of(ana).create(options(mode=mode))
    seated = [s for s, _ in await seat_many(coord, others, view.code)]
    await settle(pa)
    if start:
        await pa.press("s", "y")
        await settle(pa)
    return ana, pa, view.code, seated


async def ana_at_her_vote(
    stack: AsyncExitStack, coord: Coordinator, size: tuple[int, int]
) -> tuple[DixitApp, Pilot[Any]]:
    """ana's app at a table she hosts, with ben and cara (sessions, first legal moves): started, ben's clue and
    everyone's cards in (ana's two by keys): her dial shows."""
    ((ana, pa),) = await open_apps(stack, coord, ["ana"], size=size)
    await settle(pa)
    view = await session_of(ana).create(options())
    seated = [s for s, _ in await seat_many(coord, ["ben", "cara"], view.code)]
    await settle(pa)
    await pa.press("s", "y")
    await settle(pa)
    await default_move(seated[0])
    await default_move(seated[1])
    await settle(pa)
    await pa.press("enter", "down", "enter")
    await settle(pa)
    await pa.press("y")
    await settle(pa)
    return ana, pa
