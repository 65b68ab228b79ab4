"""Helpers for TUI tests: a seeded coordinator, seats filled by recording sessions, and the screen as text."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input

from dixit_tui.bots.player import seat_bots
from dixit_tui.coordinator import Coordinator, Identity, PlayerSession, TableOptions, TableView, Update
from dixit_tui.coordinator.limits import TableLimits
from dixit_tui.coordinator.models import StateUpdate
from dixit_tui.decks import resolve_decks
from dixit_tui.engine import Card
from dixit_tui.tui.app import DixitApp


class Recorder:
    """A session sink that keeps every update (for seats played without an app)."""

    def __init__(self) -> None:
        self.updates: list[Update] = []

    def __call__(self, update: Update) -> None:
        self.updates.append(update)

    def last_view(self) -> TableView | None:
        for update in reversed(self.updates):
            if isinstance(update, StateUpdate):
                return update.view
        return None


EVERY_CHANGE = TableLimits(lobby_interval=0.0)


def coordinator() -> Coordinator:
    """A coordinator whose table codes and seeds are fixed (seeded rng, seeded tables allowed), and whose lobby
    listings are sent at each change (not gathered per interval: tests/coordinator/test_lobby_amplification.py)."""
    return Coordinator(rng=random.Random(1), allow_seeded_tables=True, bots=seat_bots, limits=EVERY_CHANGE)


async def seat(coord: Coordinator, name: str, code: str) -> tuple[PlayerSession, Recorder]:
    """Connect a recording session called `name` and seat it at table `code`."""
    sink = Recorder()
    session = await coord.connect(Identity(name, key=f"key-{name}"), sink)
    await session.join(code)
    return session, sink


async def seat_many(coord: Coordinator, names: Sequence[str], code: str) -> list[tuple[PlayerSession, Recorder]]:
    return [await seat(coord, name, code) for name in names]


def options(**kwargs: object) -> TableOptions:
    base: dict[str, object] = {"seed": 5, "reveal_seconds": 0}  # the reveal is not held (its own tests hold it)
    base.update(kwargs)
    return TableOptions(**base)  # type: ignore[arg-type]


def screen_text(app: App[Any]) -> str:
    """What the top screen shows, as plain text (one line per row)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text for strip in strips)


def deck_texts() -> dict[str, str]:
    cards: tuple[Card, ...] = resolve_decks(["base"])
    return {c.id: c.text for c in cards}


async def default_move(session: PlayerSession, clue: str = "a quiet storm") -> bool:
    """If `session`'s seat is awaited, make a fixed, legal move (first card(s), first allowed slot). True if moved."""
    view = session.view()
    if view is None or view.game is None or view.you is None:
        return False
    game = view.game
    if view.you not in game.waiting_for:
        return False
    if game.phase == "clue":
        await session.clue(clue, game.hand[0].card if game.clue_needs_card else None)
    elif game.phase == "submit":
        await session.submit([c.card for c in game.hand[: game.submit_count]])
    elif game.phase == "vote":
        allowed = [s.slot for s in game.board if s.slot not in game.forbidden_slots]
        await session.vote(allowed[:1], red=game.board[-1].slot if game.places_red else None)
    else:
        return False
    return True


async def play_until(sessions: Sequence[PlayerSession], done: Callable[[], bool], limit: int = 2000) -> None:
    """Let `sessions` make their default moves, in seat order, until `done()`."""
    for _ in range(limit):
        if done():
            return
        moved = False
        for session in sessions:
            if done():
                return
            moved = await default_move(session) or moved
        if not moved:
            raise AssertionError("nobody could move, and the goal was not reached")
    raise AssertionError("the goal was not reached")


def phase_of(session: PlayerSession) -> tuple[str, int, str | None]:
    """(status, turn, phase) of the session's table."""
    view = session.view()
    assert view is not None
    game = view.game
    return view.status, game.turn if game else 0, game.phase if game else None


async def settle(*pilots: Pilot[Any], rounds: int = 3) -> None:
    """Let every app process what the coordinator posted to it (a move by one reaches all)."""
    for _ in range(rounds):
        for pilot in pilots:
            await pilot.pause()


def make_app() -> DixitApp:
    return DixitApp(coordinator(), Identity("ana", "key-ana"))


def me(pilot: Pilot[Any]) -> tuple[DixitApp, PlayerSession]:
    app = pilot.app
    assert isinstance(app, DixitApp) and app.session is not None
    return app, app.session


async def steady(pilot: Pilot[Any]) -> None:
    """Settle, and stop input cursors from blinking so the picture never depends on timing."""
    await settle(pilot)
    for box in pilot.app.screen.query(Input):
        box.cursor_blink = False
    await settle(pilot)


def default_move_pending(session: PlayerSession) -> bool:
    view = session.view()
    return bool(view and view.game and view.you in view.game.waiting_for)


def phase(session: PlayerSession) -> str:
    view = session.view()
    assert view is not None and view.game is not None
    return view.game.phase
