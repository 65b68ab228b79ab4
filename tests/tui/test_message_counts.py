"""The messages a watcher's app handles per update, counted (never timed): an 8-seat table of bots watched by a
spectator's app and played by a seated player's app, two turns played by the bots and the player (counts from
tests/tui/message_cost.py, per screen, for the bots' moves only).

An ordinary move costs a spectator one message (the coordinator's update): its repaints reach the screen directly.
A phase change lays the screen out: the layout tells the widgets it showed, hid or resized only when one of them has
something to do about it, a message that bubbles (a focus moving, an option highlighted) reaches only the nodes that
handle it, and the screen is arranged once for the layout (not once more for the first widget asking its size).
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.widget import Widget

from dixit_tui.tui import dispatch
from tests.tui.message_cost import Row, run

_rows: dict[str, Row] | None = None


async def played() -> dict[str, Row]:
    """Two turns, counted once per test process (the counts are data: each test reads them)."""
    global _rows
    if _rows is None:
        _rows = await run(2)
    return _rows


def phase_changes(rows: dict[str, Row]) -> dict[str, Row]:
    changes = {label: row for label, row in rows.items() if "->" in label}
    assert {"clue->submit", "submit->vote", "vote->clue"} <= changes.keys(), list(rows)
    return changes


def handles(receiver: type, message: type[Any]) -> bool:
    """True if `receiver` has a handler of its own for `message` (Widget's Show and Hide handlers only pass the event to
    scroll bars, or blur a hidden widget that had the focus), or handles every event (the app)."""
    if getattr(receiver, "on_event", None) is not MessagePump.on_event:
        return True
    plan = dispatch._plan(receiver, message.handler_name, message)
    return any(decorated or named not in (Widget._on_show, Widget._on_hide) for _, decorated, named in plan)


async def test_an_ordinary_move_costs_a_spectator_one_message() -> None:
    rows = await played()
    for label in ("submit", "vote"):
        row = rows[label]
        spectator = row.counts[0]
        assert dict(spectator.by_type) == {"CoordinatorUpdate": row.n}, (label, spectator.by_receiver)
        assert spectator.layouts == 0


async def test_a_layout_tells_only_widgets_that_act_on_it() -> None:
    """Resize, Show and Hide go only to widgets with a handler for them (most widgets have none for a Resize)."""
    moot: list[str] = []
    for label, row in phase_changes(await played()).items():
        for who, counts in zip(("spectator", "player"), row.counts, strict=True):
            for (message, receiver), n in counts.receivers.items():
                if message in (events.Resize, events.Show, events.Hide) and not handles(receiver, message):
                    moot.append(f"{label} {who}: {message.__name__} -> {receiver.__name__} x{n}")
    assert not moot, moot


async def test_a_bubbling_message_reaches_only_the_nodes_that_handle_it() -> None:
    """A focus moving, an option highlighted: posted to the node it is about, then to the ancestors with a handler
    (the containers between them are skipped)."""
    needless: list[str] = []
    bubbled = 0
    for label, row in phase_changes(await played()).items():
        for who, counts in zip(("spectator", "player"), row.counts, strict=True):
            for message, receivers in counts.paths.values():
                bubbled += 1
                for receiver in receivers[1:]:
                    # (a screen still gets it while something waits for its idle: a drawing, callbacks)
                    if not handles(receiver, message) and not issubclass(receiver, Screen):
                        needless.append(f"{label} {who}: {message.__name__} -> {receiver.__name__}")
    assert bubbled >= 3  # (the vote's board highlighted; the hand blurred and focused)
    assert not needless, needless


async def test_a_layout_arranges_the_screen_once() -> None:
    laid_out = 0
    for label, row in phase_changes(await played()).items():
        for who, counts in zip(("spectator", "player"), row.counts, strict=True):
            # (a phase change that resizes nothing lays nothing out: the side column's picture keeps its room when
            # a seat's line of words comes or goes)
            laid_out += counts.layouts >= 1
            # (each layout arranges the whole screen once, or a part of it and no whole screen)
            assert counts.arrangements + counts.parts == counts.layouts, (label, who, counts)
    assert laid_out >= 3, laid_out
