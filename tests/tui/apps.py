"""Apps at a table in Pilot tests: DixitApps sharing one coordinator, and what a test reads from their table screens."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any

from textual.pilot import Pilot

from dixit_tui.coordinator import (
    Coordinator,
    Identity,
    PlayerSession,
)
from dixit_tui.coordinator.table import Table
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen

SIZE = (80, 24)


def table_of(app: DixitApp) -> TableScreen:
    screen = app._table_screen()
    assert isinstance(screen, TableScreen), app.screen_stack
    return screen


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
