"""What one command costs the coordinator, counted (never timed): the parts of a view every seat sees alike are built
once per change, a session is not sent a view or a listing equal to the last update it got, and the built-in decks'
cards are read and sanitised once per process."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from dixit_tui.coordinator import Coordinator, Identity, LobbyUpdate, StateUpdate, TableOptions, Update
from dixit_tui.coordinator import service as service_module
from dixit_tui.coordinator import table as table_module
from dixit_tui.coordinator.table import Table
from dixit_tui.engine import GiveClue, Phase, Submit, Vote
from dixit_tui.engine.random_play import random_command

NAMES = ("ana", "ben", "cy", "dee", "eve", "fay", "gus", "hal")


class Inbox:
    def __init__(self) -> None:
        self.updates: list[Update] = []

    def __call__(self, update: Update) -> None:
        self.updates.append(update)


async def _table_of_eight(coordinator: Coordinator) -> tuple[list[Any], list[Inbox], Any]:
    inboxes = [Inbox() for _ in NAMES]
    sessions = [await coordinator.connect(Identity(name), inbox) for name, inbox in zip(NAMES, inboxes, strict=True)]
    view = await sessions[0].create(TableOptions(seed=3))
    for session in sessions[1:]:
        await session.join(view.code)
    await sessions[0].start()
    return sessions, inboxes, coordinator.table(view.code)


async def _play(sessions: list[Any], table: Any, rng: random.Random) -> None:
    command = random_command(table.game.state, rng)
    match command:
        case GiveClue(seat=seat, text=text, card=card):
            await sessions[seat].clue(text, card)
        case Submit(seat=seat, cards=cards):
            await sessions[seat].submit(cards)
        case Vote(seat=seat, slots=slots, red=red):
            await sessions[seat].vote(slots, red)
        case _:
            raise AssertionError(f"unexpected command {command!r}")


async def test_a_command_at_an_eight_seat_table_builds_the_shared_parts_of_the_views_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    coordinator = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    sessions, inboxes, table = await _table_of_eight(coordinator)
    calls: Counter[str] = Counter()
    engine_view_for = table_module.view_for

    def counted_view_for(state: Any, seat: int | None) -> Any:
        calls["view_for"] += 1
        return engine_view_for(state, seat)

    def counted(name: str) -> Any:
        method = getattr(Table, name)

        def wrapper(self: Any, *args: Any) -> Any:
            calls[name] += 1
            return method(self, *args)

        return wrapper

    monkeypatch.setattr(table_module, "view_for", counted_view_for)
    for name in ("typing_seats", "chat_paused", "chat_for"):
        monkeypatch.setattr(Table, name, counted(name))
    rng = random.Random(5)
    commands = 0
    while table.game.state.phase is not Phase.OVER and commands < 40:
        for inbox in inboxes:
            inbox.updates.clear()
        calls.clear()
        await _play(sessions, table, rng)
        commands += 1
        # one engine view per seat, and the rest once for all eight
        assert calls == {"view_for": 8, "typing_seats": 1, "chat_paused": 1, "chat_for": 1}, commands
        views = [u.view for inbox in inboxes for u in inbox.updates if isinstance(u, StateUpdate)]
        assert len(views) == 8 and all(v is not None for v in views)
        first = views[0]
        assert first is not None
        for view in views[1:]:
            assert view is not None
            assert view.seats is first.seats and view.log is first.log and view.chat is first.chat
            assert view.stand_ins is first.stand_ins and view.typing is first.typing
    assert commands == 40


async def test_the_spectators_of_a_table_share_one_view(monkeypatch: pytest.MonkeyPatch) -> None:
    coordinator = Coordinator(rng=random.Random(8), allow_seeded_tables=True)
    sessions, _, table = await _table_of_eight(coordinator)
    watchers = [Inbox() for _ in range(4)]
    for index, inbox in enumerate(watchers):
        await (await coordinator.connect(Identity(f"w{index}"), inbox)).watch(table.code)
    calls: Counter[int | None] = Counter()
    engine_view_for = table_module.view_for

    def counted_view_for(state: Any, seat: int | None) -> Any:
        calls[seat] += 1
        return engine_view_for(state, seat)

    monkeypatch.setattr(table_module, "view_for", counted_view_for)
    rng = random.Random(9)
    for _ in range(20):
        for inbox in watchers:
            inbox.updates.clear()
        calls.clear()
        await _play(sessions, table, rng)
        assert calls == dict.fromkeys([*range(8), None], 1)  # once per seat, once for all four spectators
        views = [u.view for inbox in watchers for u in inbox.updates if isinstance(u, StateUpdate)]
        assert len(views) == 4 and all(view is views[0] for view in views)
        assert views[0] is not None and views[0].you is None and views[0].game is not None
        assert views[0].game.hand == () and views[0].game.your_cards == ()


async def test_the_views_are_the_ones_view_for_builds() -> None:
    coordinator = Coordinator(rng=random.Random(2), allow_seeded_tables=True)
    sessions, _, table = await _table_of_eight(coordinator)
    watcher_inbox = Inbox()
    watcher = await coordinator.connect(Identity("zed"), watcher_inbox)
    await watcher.watch(table.code)
    rng = random.Random(6)
    for _ in range(30):
        await _play(sessions, table, rng)
        for session, view in table.views():
            assert view == table.view_for(session)
        assert [s for s, _ in table.views()] == table.sessions()
        last = watcher_inbox.updates[-1]
        assert isinstance(last, StateUpdate) and last.view == table.view_for(watcher)
        assert last.view is not None and last.view.you is None and last.view.game is not None
        assert last.view.game.hand == ()


async def test_a_session_is_not_sent_the_view_it_has_already() -> None:
    coordinator = Coordinator(rng=random.Random(3), allow_seeded_tables=True)
    sessions, inboxes, table = await _table_of_eight(coordinator)
    for inbox in inboxes:
        inbox.updates.clear()
    coordinator.broadcast(table)  # nothing changed since the last views
    assert [len(inbox.updates) for inbox in inboxes] == [0] * 8
    await _play(sessions, table, random.Random(7))  # a move: everyone sees it
    assert [sum(isinstance(u, StateUpdate) for u in inbox.updates) for inbox in inboxes] == [1] * 8
    sessions[3].deliver(StateUpdate(None))  # something else came in between: the view is sent again
    coordinator.broadcast(table)
    assert [sum(isinstance(u, StateUpdate) for u in inbox.updates) for inbox in inboxes] == [1, 1, 1, 3, 1, 1, 1, 1]
    last = inboxes[3].updates[-1]
    assert isinstance(last, StateUpdate) and last.view == table.view_for(sessions[3])


async def test_a_lobby_session_is_not_sent_the_listing_it_has_already() -> None:
    coordinator = Coordinator(rng=random.Random(4))
    inboxes = [Inbox() for _ in range(3)]
    sessions = [await coordinator.connect(Identity(f"p{i}"), inbox) for i, inbox in enumerate(inboxes)]
    await sessions[0].create(TableOptions())
    listings = [sum(isinstance(u, LobbyUpdate) for u in inbox.updates) for inbox in inboxes[1:]]
    assert listings == [2, 2]  # on connecting, and the new table
    coordinator.flush_lobby()  # the same listing again: nobody needs it
    assert [sum(isinstance(u, LobbyUpdate) for u in inbox.updates) for inbox in inboxes[1:]] == listings
    await sessions[1].join(coordinator.summaries()[0].code)  # a change: the one still in the lobby sees it
    coordinator.flush_lobby()  # (at the end of the lobby's interval)
    assert sum(isinstance(u, LobbyUpdate) for u in inboxes[2].updates) == 3
    last = inboxes[2].updates[-1]
    assert isinstance(last, LobbyUpdate) and last.tables[0].players == 2


async def test_the_built_in_cards_are_sanitised_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    from dixit_tui.decks import loader

    cache = getattr(service_module, "_builtin_cards", None)
    if cache is not None:
        cache.cache_clear()  # as in a fresh process
    cleaned: Counter[str] = Counter()
    clean = loader.clean_card_text

    def counted(text: str, *args: Any, **kwargs: Any) -> Any:
        cleaned[text] += 1
        return clean(text, *args, **kwargs)

    monkeypatch.setattr(loader, "clean_card_text", counted)
    deck = service_module._default_cards(["base"])
    assert len(cleaned) > 0 and max(cleaned.values()) == 1
    once = sum(cleaned.values())
    for seed in (1, 2):  # two tables, two games: no card is read or sanitised again
        coordinator = Coordinator(rng=random.Random(seed), allow_seeded_tables=True)
        _, _, table = await _table_of_eight(coordinator)
        assert table.game is not None and table.game.state.cards
    assert sum(cleaned.values()) == once
    assert service_module._default_cards(["base"]) is deck


async def test_no_view_is_built_for_a_seat_held_at_another_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    from dixit_tui.coordinator.shared import RemoteSeat  # (imports the Redis client: only where it is needed)

    coordinator = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    sessions, inboxes, table = await _table_of_eight(coordinator)
    for seat in range(3, 8):  # five players are at another worker
        table.seats[seat].session = RemoteSeat("elsewhere")
    built: list[int | None] = []
    engine_view_for = table_module.view_for

    def counted_view_for(state: Any, seat: int | None) -> Any:
        built.append(seat)
        return engine_view_for(state, seat)

    monkeypatch.setattr(table_module, "view_for", counted_view_for)
    for inbox in inboxes:
        inbox.updates.clear()
    coordinator.broadcast(table, [LobbyUpdate(())])
    assert built == [0, 1, 2]
    assert [s for s, _ in table.views()] == sessions[:3]
    assert all(inbox.updates for inbox in inboxes[:3]) and not any(inbox.updates for inbox in inboxes[3:])
