"""A widget's styled lines (its content with padding, border, title and background around it) are made once per process
for every session that shows the widget the same way, and never given to a session that shows it otherwise.

Counted, never timed: `StylesCache.render_line` (Textual's making of one styled line) per app and widget, and the
lines asked of the process-wide cache (`tests.tui.styled_line_counts`). Every line a test renders is also compared
with what Textual makes with the cache off (`StylesCache.render_widget` as Textual has it): a line shared where the
focus, the size, the theme, a background, the padding, the opacity or the title differ would show another session's
line, and fail the comparison.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from contextlib import AsyncExitStack
from typing import Any
from unittest.mock import patch

import pytest
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult
from textual.containers import Container
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Input

from dixit_tui.textual_host.process_caches import forget_shared
from dixit_tui.textual_host.screen_patches import install_screen_patches
from tests.tui.fixtures import default_move, default_move_pending, phase, play_until, screen_text, settle
from tests.tui.screen_cost import watched_table
from tests.tui.styled_line_counts import counted_styled_lines, textual_way

FIXED = Strip(
    [
        Segment("hello ", RichStyle(italic=True)),
        Segment("world", RichStyle(bold=True, color="#ff8800", bgcolor="#203040")),
    ]
)
"""One content line, the same object in every app (as a shared picture gives every session)."""


class Fixed(Widget, can_focus=True):
    DEFAULT_CSS = """
    Fixed { width: 30; height: 6; padding: 1 2; border: round $primary; background: $surface 60%; }
    Fixed:focus { border: round $accent; }
    """

    content = FIXED

    def render_line(self, y: int) -> Strip:
        return self.content


class Holder(Container):
    DEFAULT_CSS = """
    Holder { background: $panel; height: auto; }
    Holder.-other { background: darkblue; }
    """


class FixedApp(App[None]):
    def compose(self) -> ComposeResult:
        with Holder():
            yield Fixed()
        yield Input()

    def on_mount(self) -> None:
        self.query_one(Input).focus()


Lines = list[tuple[tuple[str, RichStyle | None], ...]]


def render(widget: Widget) -> Lines:
    """Every line of `widget` drawn from nothing (its own cache emptied), as text and styles."""
    widget._styles_cache.clear()
    return [tuple((seg.text, seg.style) for seg in strip) for strip in widget.render_lines(widget.region.size.region)]


def textual_lines(widget: Widget) -> Lines:
    """What Textual's own StylesCache makes for `widget`."""
    return textual_way(lambda: render(widget))


async def test_a_second_app_showing_a_widget_the_same_way_makes_no_styled_line() -> None:
    install_screen_patches()
    async with FixedApp().run_test(size=(60, 20)) as first, FixedApp().run_test(size=(60, 20)) as second:
        await settle(first, second)
        forget_shared()  # (the apps drew their screens already)
        one, two = first.app.query_one(Fixed), second.app.query_one(Fixed)
        with counted_styled_lines() as counted:
            lines = render(one)
        assert counted.made == len(lines) == 6
        with counted_styled_lines() as counted:
            assert render(two) == lines
        assert counted.made == 0  # (each app made its own six)
        assert counted.taken == 6
        assert lines == textual_lines(one) == textual_lines(two)


async def other_content(app: App[Any]) -> None:
    fixed = app.query_one(Fixed)
    fixed.content = Strip([Segment("hello ", RichStyle(italic=True)), Segment("there", RichStyle(bold=True))])
    fixed.refresh()


async def focus(app: App[Any]) -> None:
    app.set_focus(app.query_one(Fixed))


async def other_size(app: App[Any]) -> None:
    app.query_one(Fixed).styles.width = 34


async def taller(app: App[Any]) -> None:
    app.query_one(Fixed).styles.height = 7


async def light_theme(app: App[Any]) -> None:
    app.theme = "textual-light"


async def other_background_beneath(app: App[Any]) -> None:
    app.query_one(Holder).add_class("-other")


async def other_padding(app: App[Any]) -> None:
    app.query_one(Fixed).styles.padding = (1, 3)


async def half_opaque(app: App[Any]) -> None:
    app.query_one(Fixed).styles.opacity = 0.5


async def titled(app: App[Any]) -> None:
    app.query_one(Fixed).border_title = "Title"


async def dimmed_text(app: App[Any]) -> None:
    app.query_one(Fixed).styles.text_opacity = 0.5


async def tinted(app: App[Any]) -> None:
    app.query_one(Fixed).styles.tint = "red 40%"


CHANGES: list[Callable[[App[Any]], Any]] = [
    other_content,
    focus,
    other_size,
    taller,
    light_theme,
    other_background_beneath,
    other_padding,
    half_opaque,
    titled,
    dimmed_text,
    tinted,
]


@pytest.mark.parametrize("change", CHANGES, ids=[change.__name__ for change in CHANGES])
async def test_a_widget_shown_another_way_makes_its_own_styled_lines(change: Callable[[App[Any]], Any]) -> None:
    """The same content line at two apps, one of them showing the widget otherwise: each gets Textual's lines for
    its own way (the second made its own: any line taken from the first would differ from Textual's)."""
    install_screen_patches()
    async with FixedApp().run_test(size=(60, 20)) as first, FixedApp().run_test(size=(60, 20)) as second:
        await change(second.app)
        await settle(first, second)
        forget_shared()  # (the apps drew their screens already)
        one, two = first.app.query_one(Fixed), second.app.query_one(Fixed)
        lines = render(one)
        made = Counter[int]()
        render_line = StylesCache.render_line

        def counted(self: StylesCache, *args: Any) -> Strip:
            made[id(self)] += 1
            return render_line(self, *args)

        with patch.object(StylesCache, "render_line", counted), counted_styled_lines() as styled:
            other = render(two)
        assert other != lines  # (the change shows)
        assert made[id(two._styles_cache)] > 0  # the second app made lines of its own
        assert styled.made > 0 or change is tinted  # (a tinted widget goes Textual's way, uncounted)
        assert lines == textual_lines(one)
        assert other == textual_lines(two)


async def test_a_widget_whose_state_changes_gets_the_lines_of_its_state_each_time() -> None:
    """Focused, then not: the widget's own lines follow (its styles as `render_line` reads them are worked out again
    when they change)."""
    install_screen_patches()
    async with FixedApp().run_test(size=(60, 20)) as pilot:
        app = pilot.app
        fixed = app.query_one(Fixed)
        await settle(pilot)
        forget_shared()
        before = render(fixed)
        await focus(app)
        await settle(pilot)
        focused = render(fixed)
        assert focused != before
        assert focused == textual_lines(fixed)
        app.query_one(Input).focus()
        await settle(pilot)
        assert render(fixed) == before == textual_lines(fixed)


async def test_a_move_makes_each_styled_line_at_one_spectators_screen_only() -> None:
    """A card given changes a seat row, the status line and the log at every spectator's screen (same size): each
    widget's changed lines are styled at one of the three screens, the others take them (each styled its own; they
    took them line by line from the styled lines' cache, and now take the rows whole: `KeptLines`)."""
    async with AsyncExitStack() as stack:
        sessions, apps, pilots = await watched_table(stack)
        await play_until(sessions, lambda: phase(sessions[0]) == "submit")
        await settle(*pilots)
        owner: dict[int, tuple[int, str]] = {}
        for index, app in enumerate(apps):
            for widget in app.screen.walk_children(Widget, with_self=True):
                owner[id(widget._styles_cache)] = (index, f"{type(widget).__name__}#{widget.id}")
        movers = [s for s in sessions if default_move_pending(s)]
        render_line = StylesCache.render_line
        made: Counter[tuple[int, str]] = Counter()

        def counted(self: StylesCache, *args: Any) -> Strip:
            made[owner.get(id(self), (-1, "?"))] += 1
            return render_line(self, *args)

        for session in movers[:3]:
            await settle(*pilots)
            made.clear()
            with patch.object(StylesCache, "render_line", counted), counted_styled_lines() as styled:
                await default_move(session)
                await settle(*pilots)
            assert phase(sessions[0]) == "submit"
            widgets = {name for _, name in made}
            assert any(name.startswith("SidePanel") for name in widgets), made  # (a seat row changed)
            for name in widgets:
                assert len([index for index, other in made if other == name]) == 1, made  # styled at one screen
            assert styled.asked >= sum(made.values()) > 0, made  # (the one screen's lines, made from the cache)
        assert len({screen_text(app) for app in apps}) == 1


async def test_a_widget_drawn_again_after_a_style_change_gets_the_lines_of_its_new_style() -> None:
    """The way a widget is drawn is kept on it while nothing it is made of changes: a change of a style that only the
    border title reads (its colour) is one of those, though the styles `render_line` reads otherwise are the same."""
    install_screen_patches()
    async with FixedApp().run_test(size=(60, 20)) as pilot:
        app = pilot.app
        fixed = app.query_one(Fixed)
        fixed.border_title = "Title"
        await settle(pilot)
        before = render(fixed)
        assert before == textual_lines(fixed)
        fixed.styles.border_title_color = "red"
        await settle(pilot)
        after = render(fixed)
        assert after != before
        assert after == textual_lines(fixed)
        fixed.styles.border_title_style = "italic"
        await settle(pilot)
        italic = render(fixed)
        assert italic != after
        assert italic == textual_lines(fixed)
