"""What an update costs a table screen before anything is drawn, counted (never timed): the Python calls a session's
app makes to put an ordinary move (a card given, a vote cast, a seat going offline) into its widgets, at an 8-seat
table, at a spectator's app and at a player's app whose player is not acting (tests/tui/view_cost.py). An ordinary
move changes a seat row, the status line and maybe a log line: the screen must not build again what did not change
(the top bar, the keys' states, the seats that did not move, the Content of lines whose words are the same), nor walk
the widget tree to find its widgets.

And the shortcuts that make it cheap: `topbar_key` and `clue_line_key` say when the top bar's and the clue line's
words are the same, checked over whole games of each mode, at every seat and at a spectator.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

import pytest

from dixit_tui.coordinator import Identity, PlayerSession, TableView
from dixit_tui.coordinator.models import StateUpdate
from dixit_tui.tui import table_words as words
from tests.tui.fixtures import Recorder, coordinator, options, play_until, seat_many
from tests.tui.view_cost import updates_of_a_turn

# Python calls per update at the app that handles it last (the first finds the lines the sessions share undrawn).
# Before: a card given 727 (watcher) and 1038 (player); a vote 621 and 647; a seat going offline 808 and 1095.
# After: 380 and 423; 295 and 307; 585 and 560. (Some slack: caches other tests warmed, or did not.) Once a widget's
# repaint went Textual's way again (issue 23 removed dispatch.py: Widget.refresh posts the widget its Prompt, a few
# calls per widget changed): a card given 459 and 493, a vote 366 and 378, offline 672 and 638.
MOST = {"card": 520, "vote": 395, "offline": 710}


@pytest.mark.parametrize("role", ["watcher", "player"])
async def test_an_ordinary_move_costs_the_screen_only_the_work_of_its_change(role: str) -> None:
    seen = await updates_of_a_turn(role)
    counted = defaultdict(list)
    for kind, handled in seen:
        if kind in MOST:
            assert handled.updates == 1, (kind, handled.updates)
            counted[kind].append(handled.calls)
    assert len(counted["card"]) == (6 if role == "watcher" else 4), counted
    assert len(counted["vote"]) == (6 if role == "watcher" else 4), counted
    assert len(counted["offline"]) == 1, counted
    for kind, most in MOST.items():
        assert max(counted[kind]) <= most, (role, kind, counted[kind])


async def _views_of_games() -> list[TableView]:
    """Every view every seat and a spectator received in short games of each mode (lobby, practice turn, turns, the
    end), and each of them again with a countdown and more spectators."""
    views: list[TableView] = []
    names = ["ben", "cara", "dan", "eve", "finn"]
    for mode, seats in (("standard", 4), ("party", 6), ("team", 6)):
        coord = coordinator()
        sinks: list[Recorder] = [Recorder()]
        host = await coord.connect(Identity("ana", key="key-ana"), sinks[0])
        table = await host.create(options(mode=mode, seats=seats, target=10, storytells=1))
        seated = await seat_many(coord, names[: seats - 1], table.code)
        sinks += [sink for _, sink in seated]
        watcher_sink = Recorder()
        watcher = await coord.connect(Identity("wes", key="key-wes"), watcher_sink)
        await watcher.watch(table.code)
        sinks.append(watcher_sink)
        sessions = [host, *[s for s, _ in seated]]
        await host.practice()

        def over(session: PlayerSession = host) -> bool:
            view = session.view()
            return view is not None and view.status == "over"

        await play_until(sessions, over)
        for sink in sinks:
            views += [u.view for u in sink.updates if isinstance(u, StateUpdate) and u.view is not None]
    out = list(views)
    for view in views:
        out.append(replace(view, deadline=1000.0, spectators=view.spectators + 2))
    return out


async def test_equal_top_bar_keys_mean_equal_top_bars() -> None:
    views = await _views_of_games()
    assert len(views) > 100
    for width in (18, 40, 60, 100):
        for now in (900.0, 959.5):
            groups: dict[tuple[object, ...], set[words.Words]] = defaultdict(set)
            for view in views:
                groups[words.topbar_key(view, width, now)].add(words.topbar(view, width, now))
            assert all(len(lines) == 1 for lines in groups.values()), width
            assert len(groups) > 10  # (the keys do tell the views apart)


async def test_equal_clue_line_keys_mean_equal_clue_lines() -> None:
    views = await _views_of_games()
    reveals = [None, *{view.game.last_reveal for view in views if view.game and view.game.last_reveal}]
    assert len(reveals) > 3
    for reveal in reveals:
        groups: dict[tuple[object, ...], set[words.Words | None]] = defaultdict(set)
        for view in views:
            groups[words.clue_line_key(view, reveal)].add(words.clue_line(view, reveal))
            typing = replace(view, typing=(0, 1))  # two writing a clue
            groups[words.clue_line_key(typing, reveal)].add(words.clue_line(typing, reveal))
        assert all(len(lines) == 1 for lines in groups.values())
        assert len(groups) > 10
