"""A screen that opens on a table (a player back after a drop) shows each chat line among the log lines, where it
was said (found playing over OpenSSH: ben's "hello all", said in the lobby, came under "ben is back", below the
whole log)."""

from __future__ import annotations

from contextlib import AsyncExitStack

from dixit_tui.coordinator import ChatLine
from dixit_tui.tui.widgets.chat import ChatPanel, feed_order
from tests.tui.apps import ana_hosting, open_apps
from tests.tui.fixtures import coordinator, settle


def test_chat_lines_go_after_the_log_lines_noted_before_them() -> None:
    hi, yo, old = ChatLine(1, "ben", "hi", after=3), ChatLine(2, "cy", "yo", after=5), ChatLine(1, "ben", "?")
    log = ("c", "d", "e", "f")  # the last 4 of 6 lines noted: "a" and "b" are gone
    assert feed_order(log, 6, [hi, yo]) == [("c",), hi, ("d", "e"), yo, ("f",)]
    said_early = ChatLine(1, "ben", "early", after=0)  # said before the oldest line kept: first
    assert feed_order(log, 6, [said_early, hi]) == [said_early, ("c",), hi, ("d", "e", "f")]
    assert feed_order(log, 6, [hi, old]) == [("c",), hi, old, ("d", "e", "f")]  # place not known: after the last
    assert feed_order((), 0, [hi]) == [hi] and feed_order(log, 6, []) == [log]


async def test_a_player_back_at_the_table_reads_the_lobbys_chat_before_the_games_start() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        _ana, pa, code, (ben, _cara) = await ana_hosting(stack, coord, ["ben", "cara"])
        await ben.chat("hello all")
        await pa.press("s", "y")  # the game starts: log lines after ben's
        await settle(pa)
        await ben.close()  # ben's window closed; he joins again with his key: his seat back, a new screen
        ((back, pb),) = await open_apps(stack, coord, ["ben"], code)
        await settle(pb)
        feed = [line.plain for line in back.screen.query_one(ChatPanel).feed.lines]
        said, started = feed.index("ben: hello all"), next(i for i, t in enumerate(feed) if "game has started" in t)
        assert said < started, feed
        assert feed.index("· ben sat down.") < said
