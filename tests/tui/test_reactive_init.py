"""A new widget's reactive attributes are set from a plan made once per widget class (`reactive_init`): a second join
sets most of them without Textual's per-attribute setup, and every node ends with the values Textual gives it.
Counters and comparisons, not times."""

from __future__ import annotations

from typing import Any

import pytest
from textual.dom import DOMNode
from textual.reactive import Reactive

from dixit_tui.coordinator import Identity
from dixit_tui.tui import reactive_init
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from tests.tui.fixtures import coordinator, options, settle

SIZE = (100, 30)


def _reactive_values(app: DixitApp) -> list[tuple[str, dict[str, Any]]]:
    nodes: list[DOMNode] = [app]
    for screen in app.screen_stack:
        nodes.append(screen)
        nodes.extend(screen.walk_children())
    return [
        (type(node).__name__, {k: v for k, v in vars(node).items() if k.startswith("_reactive_")}) for node in nodes
    ]


async def _join(name: str, code: str, coord: Any) -> list[tuple[str, dict[str, Any]]]:
    app = DixitApp(coord, Identity(name, f"key-{name}"), command=f"join {code}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        return _reactive_values(app)


async def test_a_join_sets_its_widgets_reactive_defaults_from_a_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    reactive_init.plan_reactive_setup()
    await _join("ana", view.code, coord)
    before = reactive_init.stored
    planned = await _join("ben", view.code, coord)
    # (each widget has some 18 reactive attributes, most of them a plain default)
    assert reactive_init.stored - before >= 300, "a join's widgets had their reactive defaults set one by one"
    planned_initialize = Reactive.__dict__["_initialize_object"]
    monkeypatch.setattr(Reactive, "_initialize_object", classmethod(_textual_initialize_object))
    textual_way = await _join("cy", view.code, coord)
    monkeypatch.setattr(Reactive, "_initialize_object", planned_initialize)
    assert [name for name, _ in planned] == [name for name, _ in textual_way]
    for (name, got), (_, want) in zip(planned, textual_way, strict=True):
        assert got.keys() == want.keys(), name
        for key, value in want.items():
            if isinstance(value, str | int | float | bool | type(None) | tuple):
                assert got[key] == value, f"{name}.{key}"


def _textual_initialize_object(cls: type[Reactive[Any]], obj: Any) -> None:
    """Textual's `Reactive._initialize_object`, as in textual/reactive.py."""
    for name, reactive in obj._reactives.items():
        reactive._initialize_reactive(obj, name)
