"""Rematch and empty lobbies (issue 22, item 5): the host changes the mode and options in the rematch's lobby before
the start (to switch to party, six people had to leave and meet at a new code), and a lobby whose people all left
closes after a few minutes on the coordinator's clock, its spectator never reading "Waiting for ? to start"."""

from __future__ import annotations

import random
from contextlib import AsyncExitStack

import pytest

from dixit_tui.coordinator import Coordinator, Identity, NoticeUpdate, TableError, TableOptions
from dixit_tui.tui import table_words as words
from dixit_tui.tui.create import CreateScreen
from tests.coordinator.clients import connect, table_of
from tests.tui.apps import open_apps, session_of, status
from tests.tui.apps import table_of as screen_of
from tests.tui.fixtures import coordinator, options, settle


async def test_the_host_changes_the_rematch_to_party_with_o_in_its_lobby() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        ben = await coord.connect(Identity("ben", "key-ben"), lambda _: None)
        cara = await coord.connect(Identity("cara", "key-cara"), lambda _: None)
        await ben.join(view.code)
        await cara.join(view.code)
        await session_of(ana).start()
        await cara.remove(2)  # cara leaves for good: two are left, the game is over
        await settle(pa)
        await pa.press("m", "y")
        await settle(pa)
        rematch = session_of(ana).view()
        assert rematch is not None and rematch.status == "lobby" and rematch.code != view.code
        assert screen_of(ana).check_action("options", ()) is True  # the key bar offers o: Options
        await pa.press("o")
        await settle(pa)
        dialog = ana.screen
        assert isinstance(dialog, CreateScreen) and dialog.title_text == "Change the options"
        assert dialog.active_bindings["f2"].binding.description == "Change"  # the key bar, as the button (not Create)
        await pa.click("#mode-party")
        await settle(pa)
        await pa.press("f2")
        await settle(pa)
        table = coord.tables[rematch.code]
        assert table.options.mode == "party" and table.game is None
        assert table.log[-1] == "ana changed the options: party, decks base."
        assert status(ana).startswith("Waiting for players")  # two people: a party game needs more
        assert [s.name for s in table.seats] == ["ana", "ben"]


async def test_only_the_host_changes_options_and_only_before_the_start() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    ana, p1, p2 = await table_of(coord, 3, seed=4)
    with pytest.raises(TableError, match="Only the host"):
        await p1.session.change_options(TableOptions(mode="party"))
    with pytest.raises(TableError, match="at most 2 seats, and 3 are taken"):
        await ana.session.change_options(TableOptions(seats=2))
    changed = await ana.session.change_options(TableOptions(mode="team", turn_seconds=90))
    assert changed.options.mode == "team" and changed.options.turn_seconds == 90
    assert p2.view is not None and p2.view.options.mode == "team"
    assert [t.label for t in coord.summaries()] == ["team"]
    # the log says the time limit as the lobby does (it said "60 s a phase" beside "1 minute": seen playing)
    await ana.session.change_options(TableOptions(turn_seconds=60))
    said = coord.tables[changed.code].log[-1]
    assert said == "ana changed the options: standard (refresh), decks base, 1 min a phase."
    await ana.session.change_options(TableOptions())
    await ana.session.start()
    with pytest.raises(TableError, match="fixed once the game has started"):
        await ana.session.change_options(TableOptions(mode="party"))


async def test_a_lobby_its_people_left_closes_after_a_few_minutes_and_never_names_a_host_called_question_mark() -> None:
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), clock=lambda: now[0], close_empty_lobby_after=180)
    ana = await connect(coord, "ana", key="SHA256:ana")
    code = (await ana.session.create(TableOptions())).code
    watcher = await connect(coord, "wes")
    await watcher.session.watch(code)
    await ana.session.leave()  # the only player leaves; a spectator stays
    table = coord.tables[code]
    view = watcher.view
    assert view is not None and not view.seats
    assert words.status(view, words.Choices()).plain == "You are watching. Nobody sits at this table yet."
    assert "?" not in words.lobby_info(view).plain
    now[0] += 179
    await coord._close_idle(table)  # the timer fired early (or the clock says not yet): it stays
    assert code in coord.tables
    now[0] += 2
    await coord._close_idle(table)
    assert code not in coord.tables and code not in [t.code for t in coord.summaries()]
    notices = [u.text for u in watcher.updates if isinstance(u, NoticeUpdate)]
    assert notices[-1] == f"Table {code} closed: nobody sat at it for 3 minutes."
    assert watcher.session.table is None
