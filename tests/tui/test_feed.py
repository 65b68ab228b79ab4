"""The log and chat feed: new lines show at the bottom at once, long lines wrap, scrolled back (mouse wheel) it stays
where the reader is and says how many newer rows there are."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.events import MouseScrollDown, MouseScrollUp

from dixit_tui.tui.widgets.chat import ChatPanel, Feed


class FeedApp(App[None]):
    CSS = "Feed { height: 4; }"

    def compose(self) -> ComposeResult:
        yield Feed(id="feed")


def visible(feed: Feed) -> list[str]:
    return [strip.text.rstrip() for strip in feed.shown_rows()]


async def test_lines_written_before_the_feed_has_a_size_end_at_the_bottom() -> None:
    app = FeedApp()
    async with app.run_test(size=(40, 6)) as pilot:
        feed = app.query_one(Feed)
        for n in range(20):
            feed.write_line(Text(f"line {n}"))
        await pilot.pause()
        assert visible(feed) == ["line 16", "line 17", "line 18", "line 19"]


async def test_a_new_line_shows_at_once_at_the_bottom() -> None:
    app = FeedApp()
    async with app.run_test(size=(40, 6)) as pilot:
        feed = app.query_one(Feed)
        await pilot.pause()
        feed.write_line(Text("first"))
        assert visible(feed) == ["first"]  # a short feed starts at the top
        for n in range(30):
            feed.write_line(Text(f"line {n}"))
            assert visible(feed)[-1] == f"line {n}"
            await pilot.pause()
        assert len(feed.lines) == 31


async def test_long_lines_wrap_at_the_width() -> None:
    app = FeedApp()
    async with app.run_test(size=(22, 6)) as pilot:  # 20 cells inside the padding
        feed = app.query_one(Feed)
        feed.write_line(Text("one two three four five six seven"))
        await pilot.pause()
        assert visible(feed) == ["one two three four", "five six seven"]


async def test_at_the_end_the_top_row_starts_a_line() -> None:
    """The top row showed the end of a wrapped line alone ("clue.", seen playing): at the end of the feed a line that
    does not fit whole leaves its rows blank; scrolled back, the feed goes row by row as before; a line taller than
    the feed shows its last rows."""
    app = FeedApp()
    async with app.run_test(size=(22, 6)) as pilot:  # 20 cells inside the padding, 4 rows
        feed = app.query_one(Feed)
        await pilot.pause()
        feed.write_line(Text("one two three four five six seven"))  # two rows
        feed.write_line(Text("a"))
        feed.write_line(Text("b"))
        feed.write_line(Text("c"))
        assert visible(feed) == ["", "a", "b", "c"]  # not "five six seven"
        feed.write_line(Text("eight nine ten eleven twelve"))
        assert visible(feed) == ["b", "c", "eight nine ten", "eleven twelve"]
        feed.post_message(_scroll_up(feed))
        await pilot.pause()
        assert feed.back == 3 and visible(feed) == ["one two three four", "five six seven", "a", "b"]
        feed.write_line(Text(" ".join(["word"] * 20)))  # five rows: taller than the feed
        feed.post_message(_scroll_down(feed))
        feed.post_message(_scroll_down(feed))
        feed.post_message(_scroll_down(feed))
        await pilot.pause()
        assert feed.back == 0 and visible(feed) == ["word word word word"] * 4


async def test_scrolled_back_the_reader_stays_put() -> None:
    app = FeedApp()
    async with app.run_test(size=(40, 6)) as pilot:
        feed = app.query_one(Feed)
        await pilot.pause()
        for n in range(30):
            feed.write_line(Text(f"line {n}"))
        await pilot.pause()
        for _ in range(2):
            feed.post_message(_scroll_up(feed))
        await pilot.pause()
        assert feed.back == 6
        assert visible(feed) == ["line 20", "line 21", "line 22", "line 23"]
        feed.write_line(Text("line 30"))
        await pilot.pause()
        assert visible(feed) == ["line 20", "line 21", "line 22", "line 23"]
        assert "7 newer rows" in feed.render_line(3).text
        for _ in range(3):
            feed.post_message(_scroll_down(feed))
        await pilot.pause()
        assert feed.back == 0
        assert visible(feed)[-1] == "line 30"
        assert "newer" not in feed.render_line(3).text


def _scroll_up(feed: Feed) -> MouseScrollUp:
    return MouseScrollUp(feed, 5, 1, 0, 0, 0, False, False, False)


def _scroll_down(feed: Feed) -> MouseScrollDown:
    return MouseScrollDown(feed, 5, 1, 0, 0, 0, False, False, False)


class PanelApp(App[None]):
    CSS = "ChatPanel { height: 6; }"

    def compose(self) -> ComposeResult:
        yield ChatPanel(id="chat")


async def test_pgup_and_pgdn_in_the_chat_box_scroll_the_log() -> None:
    """Without a mouse: from the chat box, PgUp goes a page back (less one row), PgDn comes back to the newest."""
    app = PanelApp()
    async with app.run_test(size=(40, 8)) as pilot:
        panel = app.query_one(ChatPanel)
        panel.add_log(f"line {n}" for n in range(20))
        panel.input.focus()
        await pilot.pause()
        newest = visible(panel.feed)
        height = panel.feed.content_size.height
        await pilot.press("pageup")
        assert panel.feed.back == height - 1
        assert visible(panel.feed) != newest
        await pilot.press("pageup", "pageup", "pageup", "pageup", "pageup", "pageup", "pageup")
        assert visible(panel.feed)[0] == "· line 0"  # stops at the oldest line
        for _ in range(10):
            await pilot.press("pagedown")
        assert panel.feed.back == 0 and visible(panel.feed) == newest
        assert panel.input.value == ""  # the keys typed nothing
