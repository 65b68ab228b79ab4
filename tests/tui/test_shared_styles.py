"""A widget's styles are worked out once per process: a second session joining a table parses no stylesheet, matches no
selector and sets no style property one by one, and every widget ends with exactly the styles Textual gives it without
the caches.
Counters and comparisons, not times."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import pytest
from textual.app import App
from textual.color import Color
from textual.containers import Horizontal, Vertical
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.layout import Layout
from textual.widget import Widget
from textual.widgets import Label

from dixit_tui.coordinator import Identity
from dixit_tui.textual_host import shared_styles
from dixit_tui.textual_host.shared_css import share_parsed_css
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from tests.tui.fixtures import coordinator, options, seat, settle

SIZE = (100, 30)


class Counts:
    """Selector matchings, rule sets handed to a new node's styles (each sets every property one by one), and CSS
    sources read (parsed, or taken from the cache of parsed sources) to parse a stylesheet whole."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        shared_styles.share_computed_styles()  # (first, or its patches would wrap these counters, and lose them)
        share_parsed_css()
        self.checks = 0
        self.replaced = 0
        self.sources_read = 0
        read = Stylesheet._parse_rules
        check = Stylesheet._check_rule.__func__  # type: ignore[attr-defined]
        replace = Stylesheet.replace_rules.__func__  # type: ignore[attr-defined]

        def counting_check(cls: type[Stylesheet], rule_set: Any, nodes: Any) -> Any:
            self.checks += 1
            return check(cls, rule_set, nodes)

        def counting_replace(cls: type[Stylesheet], node: DOMNode, rules: Any, animate: bool = False) -> None:
            if not node._is_mounted and not node.styles.base._rules:
                self.replaced += 1
            replace(cls, node, rules, animate)

        def counting_read(sheet: Stylesheet, *args: Any, **kwargs: Any) -> Any:
            self.sources_read += 1
            return read(sheet, *args, **kwargs)

        monkeypatch.setattr(Stylesheet, "_parse_rules", counting_read)
        monkeypatch.setattr(Stylesheet, "_check_rule", classmethod(counting_check))
        monkeypatch.setattr(Stylesheet, "replace_rules", classmethod(counting_replace))

    def reset(self) -> None:
        self.checks = self.replaced = self.sources_read = 0


async def test_a_second_join_matches_no_selector_and_parses_no_stylesheet(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    counts = Counts(monkeypatch)
    first = DixitApp(coord, Identity("ana", "key-ana"), command=f"join {view.code}")
    async with first.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(first.screen, TableScreen)
    counts.reset()
    second = DixitApp(coord, Identity("ben", "key-ben"), command=f"join {view.code}")
    async with second.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(second.screen, TableScreen)
        assert f"Dixit · table {view.code}" in "\n".join(s.text for s in second.screen._compositor.render_strips())
        # (before: 233 rule sets checked against the path, and the whole stylesheet parsed again, source by source,
        # each time the app met a new widget class: 133 sources read)
        assert counts.sources_read == 0, "the second join parsed stylesheets the first one had parsed"
        assert counts.checks == 0, "the second join matched selectors the first one had matched at the same places"
        assert counts.replaced >= 30, "the second join's new widgets were not given the rules found for the first"


def _nodes(app: DixitApp) -> Iterator[DOMNode]:
    yield app
    for screen in app.screen_stack:
        yield screen
        yield from screen.walk_children()


def comparable(rules: Any) -> dict[str, object]:
    """A node's rules, its layout by name (each node has a layout object of its own)."""
    return {key: value.name if isinstance(value, Layout) else value for key, value in rules.items()}


def styles_of(app: DixitApp) -> list[tuple[object, ...]]:
    """Every node's CSS styles, its component classes' and its style flags, in DOM order."""
    found: list[tuple[object, ...]] = []
    for node in _nodes(app):
        components = {name: comparable(styles.base._rules) for name, styles in node._component_styles.items()}
        scrollbars = (node.show_vertical_scrollbar, node.show_horizontal_scrollbar) if isinstance(node, Widget) else ()
        found.append(
            (
                type(node).__name__,
                node.id,
                sorted(node.classes),
                comparable(node.styles.base._rules),
                components,
                shared_styles._flags(node),
                scrollbars,
            )
        )
    return found


async def scene(name: str) -> list[list[tuple[object, ...]]]:
    """A player joins a table in its lobby, the game starts (the hand is built), the vote comes (the board): the
    styles of every node at each step."""
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    ben, _ = await seat(coord, "ben", view.code)
    app = DixitApp(coord, Identity(name, f"key-{name}"), command=f"join {view.code}")
    steps = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        steps.append(styles_of(app))
        await host.start()
        await settle(pilot)
        steps.append(styles_of(app))
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        steps.append(styles_of(app))
    lobby = DixitApp(coord, Identity(f"{name}2", f"key-{name}2"))
    async with lobby.run_test(size=SIZE) as pilot:
        await settle(pilot)
        steps.append(styles_of(lobby))
    await ben.close()
    return steps


async def test_every_widget_gets_the_styles_textual_gives_it(monkeypatch: pytest.MonkeyPatch) -> None:
    shared_styles.share_computed_styles()
    shared_apply = Stylesheet.apply
    assert shared_apply is not inspect.unwrap(shared_apply)
    with monkeypatch.context() as textual:  # every node styled Textual's way
        textual.setattr(Stylesheet, "apply", inspect.unwrap(shared_apply))
        textual_way = await scene("ana")
    assert Stylesheet.apply is shared_apply
    # (the cache starts over when full: the scene must not fill it up to there. A scene leaves 151 answers in it on
    # Textual 8.2.8, 526 on 8.0.0, whose screens take their breakpoint classes off and put them back at each Resize:
    # after the tests before it, the cache started over in the middle of the scenes below there)
    shared_styles._answers.clear()
    await scene("ana")  # (fills the cache)
    counts = Counts(monkeypatch)
    shared = await scene("ana")
    assert counts.checks == 0, "the same scene again matched selectors"
    for step, (expected, got) in enumerate(zip(textual_way, shared, strict=True)):
        assert len(expected) == len(got), step
        for want, have in zip(expected, got, strict=True):
            assert want == have, f"step {step}: {want[:2]}"


async def test_a_second_join_walks_up_no_path_to_ask_whether_a_widget_is_disabled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`:disabled` is asked of nearly every node of every place (Textual's own CSS has it): worked out down the path
    once, not by `is_disabled` (a walk up to the screen) at each node of each path (about 150 walks per join before)."""
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    shared_styles.share_computed_styles()
    first = DixitApp(coord, Identity("ana", "key-ana"), command=f"join {view.code}")
    async with first.run_test(size=SIZE) as pilot:
        await settle(pilot)
    walks = 0
    is_disabled = Widget.is_disabled

    def counting(widget: Widget) -> bool:
        nonlocal walks
        walks += 1
        return bool(is_disabled.fget(widget))  # type: ignore[attr-defined]

    monkeypatch.setattr(Widget, "is_disabled", property(counting))
    second = DixitApp(coord, Identity("ben", "key-ben"), command=f"join {view.code}")
    async with second.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(second.screen, TableScreen)
    assert walks <= 10, f"{walks} walks up a widget's path to know whether it is disabled"


class _DisabledApp(App[None]):
    CSS = "Label { color: green; } Label:disabled { color: red; } Vertical:disabled Label { text-style: bold; }"

    def compose(self) -> Iterator[Widget]:
        with Vertical(id="off", disabled=True), Horizontal():
            yield Label("a", id="a")
        with Vertical(id="on"), Horizontal():
            yield Label("b", id="b")


async def test_a_widget_under_a_disabled_container_gets_the_disabled_styles() -> None:
    """The same place (classes, ids) under a disabled and an enabled container: two answers, each Textual's."""
    shared_styles.share_computed_styles()
    share_parsed_css()
    for _ in range(2):  # (the second app gets the answers the first one left)
        app = _DisabledApp()
        async with app.run_test(size=(40, 10)) as pilot:
            await pilot.pause()
            off, on = app.query_one("#a", Label), app.query_one("#b", Label)
            assert off.styles.color == Color.parse("red") and off.styles.text_style.bold
            assert on.styles.color == Color.parse("green") and not on.styles.text_style.bold
            app.query_one("#off", Vertical).disabled = False
            await pilot.pause()
            assert off.styles.color == Color.parse("green")
