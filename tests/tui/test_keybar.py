"""The key bar: it shows the keys that work now (one per action), follows the focus, and a click presses a key."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from dixit_tui.tui.widgets.keybar import KeyBar


class Picker(Static, can_focus=True):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "pick", "Pick")]

    def action_pick(self) -> None:
        pass


class KeysApp(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "start", "Start"),
        Binding("space", "start", "Start", show=False),
        Binding("v", "void", "Void turn"),
        Binding("h", "hidden", "Hidden", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.started = 0
        self.voids_allowed: bool | None = True

    def compose(self) -> ComposeResult:
        yield Picker("pick me", id="picker")
        yield KeyBar()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "void":
            return self.voids_allowed
        return True

    def action_start(self) -> None:
        self.started += 1

    def action_void(self) -> None:
        pass


def line(app: KeysApp) -> str:
    return str(app.query_one(KeyBar).render())


async def test_the_bar_lists_shown_keys_once_each_and_dims_disabled_ones() -> None:
    app = KeysApp()
    async with app.run_test(size=(80, 10)) as pilot:
        app.set_focus(None)
        await pilot.pause()
        bar = app.query_one(KeyBar)
        assert [(k.display, k.description) for k in bar.keys] == [("s", "Start"), ("v", "Void turn")]
        assert line(app) == " s Start  v Void turn "
        app.voids_allowed = None  # shown, but not available now
        app.refresh_bindings()
        await pilot.pause()
        assert [k.enabled for k in bar.keys] == [True, False]
        app.voids_allowed = False  # hidden
        app.refresh_bindings()
        await pilot.pause()
        assert line(app) == " s Start "


async def test_the_bar_follows_the_focus() -> None:
    app = KeysApp()
    async with app.run_test(size=(80, 10)) as pilot:
        app.set_focus(None)
        await pilot.pause()
        assert "Pick" not in line(app)
        app.query_one(Picker).focus()
        await pilot.pause()
        assert line(app) == " ⏎ Pick  s Start  v Void turn "
        app.set_focus(None)
        await pilot.pause()
        assert "Pick" not in line(app)


async def test_a_click_on_a_key_presses_it_and_a_disabled_key_does_nothing() -> None:
    app = KeysApp()
    async with app.run_test(size=(80, 10)) as pilot:
        app.set_focus(None)
        await pilot.pause()
        await pilot.click(KeyBar, offset=(3, 0))  # on " s Start "
        await pilot.pause()
        assert app.started == 1
        app.voids_allowed = None
        app.refresh_bindings()
        await pilot.pause()
        await pilot.click(KeyBar, offset=(12, 0))  # on " v Void turn ", disabled
        await pilot.click(KeyBar, offset=(60, 0))  # past the keys
        await pilot.pause()
        assert app.started == 1


async def test_a_narrow_bar_shortens_words_then_takes_a_second_row_and_keeps_every_key() -> None:
    app = KeysApp()
    async with app.run_test(size=(80, 10)) as pilot:
        app.set_focus(None)
        bar = app.query_one(KeyBar)
        await pilot.resize_terminal(18, 10)  # " s Start  v Void " is 17 cells: shorter words, one row
        await pilot.pause()
        assert line(app) == " s Start  v Void " and bar.size.height == 1
        await pilot.resize_terminal(12, 10)  # even " s Start v Void" does not fit: two rows, every key
        await pilot.pause()
        assert line(app).splitlines() == [" s Start", " v Void"]
        assert bar.size.height == 2
        await pilot.click(KeyBar, offset=(2, 0))  # s, on the first row
        await pilot.pause()
        assert app.started == 1
        await pilot.resize_terminal(80, 10)
        await pilot.pause()
        assert line(app) == " s Start  v Void turn " and bar.size.height == 1
