"""The log and chat feed: new lines show at the bottom in one frame, scrolled back it stays where the reader is."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from dixit_tui.tui.widgets.chat import FeedLog


class FeedApp(App[None]):
    def compose(self) -> ComposeResult:
        yield FeedLog(id="feed", wrap=True, markup=False, highlight=False, min_width=20)


def visible(feed: FeedLog) -> list[str]:
    top = feed.scroll_offset.y
    return [strip.text.rstrip() for strip in feed.lines[top : top + feed.scrollable_content_region.height]]


async def test_lines_written_before_the_log_has_a_size_end_at_the_bottom() -> None:
    app = FeedApp()
    async with app.run_test(size=(40, 6)) as pilot:
        feed = app.query_one(FeedLog)
        for n in range(20):
            feed.write_line(Text(f"line {n}"))
        await pilot.pause()
        assert visible(feed)[-1] == "line 19"


async def test_a_new_line_shows_at_once_and_moves_the_scrollbar() -> None:
    app = FeedApp()
    async with app.run_test(size=(40, 6)) as pilot:
        feed = app.query_one(FeedLog)
        await pilot.pause()
        for n in range(30):
            feed.write_line(Text(f"line {n}"))
            assert visible(feed)[-1] == f"line {n}"  # scrolled in the same step, not a frame later
            await pilot.pause()
        assert feed.show_vertical_scrollbar
        scrollbar = feed.vertical_scrollbar
        assert scrollbar.window_virtual_size == len(feed.lines) == 30
        assert scrollbar.position == feed.max_scroll_y  # the thumb at the bottom


async def test_scrolled_back_the_reader_stays_put() -> None:
    app = FeedApp()
    async with app.run_test(size=(40, 6)) as pilot:
        feed = app.query_one(FeedLog)
        await pilot.pause()
        for n in range(30):
            feed.write_line(Text(f"line {n}"))
        await pilot.pause()
        feed.scroll_home(animate=False, immediate=True)
        await pilot.pause()
        feed.write_line(Text("line 30"))
        await pilot.pause()
        assert visible(feed)[0] == "line 0"
        assert feed.vertical_scrollbar.window_virtual_size == 31
