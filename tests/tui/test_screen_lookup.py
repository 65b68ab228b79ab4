"""`node.screen` found by walking the parents' references directly (`screen_patches`): the same answers as Textual's,
the screen a widget is on (not the one on top), NoScreen for a widget not mounted, with fewer Python calls."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.dom import NoScreen
from textual.screen import Screen
from textual.widgets import Label

from dixit_tui.tui.screen_patches import install_screen_patches
from tests.work_counters import PythonCalls


class _Deep(Screen[None]):
    def compose(self) -> ComposeResult:
        with Vertical(), Horizontal(), Vertical(), Horizontal():
            yield Label("deep", id="deep")


class _App(App[None]):
    def compose(self) -> ComposeResult:
        yield Label("base", id="base")


async def test_a_widget_finds_its_own_screen_in_a_few_calls() -> None:
    install_screen_patches()
    app = _App()
    async with app.run_test(size=(40, 10)) as pilot:
        base = app.query_one("#base", Label)
        deep_screen = _Deep()
        await app.push_screen(deep_screen)
        await pilot.pause()
        deep = deep_screen.query_one("#deep", Label)
        assert deep.screen is deep_screen
        assert base.screen is app.screen_stack[0] and base.screen is not app.screen
        with pytest.raises(NoScreen):
            _ = Label("loose").screen
        with PythonCalls() as counted:
            found = deep.screen
        calls = counted.calls
        assert found is deep_screen
        # (before: one call of the `_parent` property per step up, and the property itself: 6 here)
        assert calls <= 1, f"{calls} Python calls to find a widget's screen five levels down"
