"""`Table` changes its own seating and says whom a change concerns beyond its own sessions."""

from __future__ import annotations

import random
from dataclasses import dataclass

from dixit_tui.coordinator import TableOptions
from dixit_tui.coordinator.table import Table
from dixit_tui.decks import resolve_decks


@dataclass(eq=False)
class Someone:
    name: str
    builtin_bot: bool = False
    shows_reveal: bool = False


def table_of(*names: str) -> Table[Someone]:
    table: Table[Someone] = Table("AAAA", TableOptions(seed=1), random.Random(1), resolve_decks)
    for name in names:
        table.add_seat(name, None, bot=name.startswith("bot"))
    return table


def test_sitting_down_again_pushes_out_the_other_terminal_and_a_spectator_who_sits_stops_watching() -> None:
    table = table_of("ana", "ben")
    ana, ana_again, ben = Someone("ana"), Someone("ana"), Someone("ben")
    assert table.sit(0, ana) is None
    table.watch(ben)
    assert table.sit(1, ben) is None and not table.spectators
    assert table.sit(0, ana) is None  # the same session: nobody to tell
    assert table.sit(0, ana_again) is ana
    assert table.sessions() == [ana_again, ben]


def test_leaving_frees_a_lobby_seat_and_keeps_a_game_seat_away_from_then() -> None:
    table = table_of("ana", "ben", "cy")
    ana, ben, cy = Someone("ana"), Someone("ben"), Someone("cy")
    for seat, who in enumerate((ana, ben, cy)):
        table.sit(seat, who)
    table.leave(cy, now=5.0)
    assert [s.name for s in table.seats] == ["ana", "ben"]
    table.add_seat("cy", None)
    table.sit(2, cy)
    table.start()
    table.leave(ben, now=7.0)
    assert table.seats[1].session is None and table.away_since == {1: 7.0}
    assert table.log[-1] == "ben is disconnected; their seat is kept."
    table.sit(1, ben)
    assert table.away_since == {} and table.log[-1] == "ben is back."


def test_a_rematch_hands_over_people_and_spectators_and_leaves_the_built_in_bots() -> None:
    old, new = table_of("ana", "bot1", "bot2"), table_of("ana", "bot1", "bot2")
    ana, bot1, outside_bot, sam = Someone("ana"), Someone("bot1", True), Someone("bot2"), Someone("sam")
    for seat, who in enumerate((ana, bot1, outside_bot)):
        old.sit(seat, who)
    old.watch(sam)
    bots, arriving = old.hand_over(new, {0: 0, 1: 1, 2: 2})
    assert bots == ["bot1"]  # a built-in bot stops with its game: a fresh one is to sit down
    assert arriving == [ana, outside_bot, sam]  # a bot that is not ours is a client like any other: it moves
    assert new.sessions() == [ana, outside_bot, sam] and old.sessions() == [bot1]


def test_closing_a_table_stops_its_clocks_and_returns_everyone_at_it() -> None:
    table = table_of("ana")
    ana, sam = Someone("ana"), Someone("sam")
    table.sit(0, ana)
    table.watch(sam)
    table.deadline, table.stand_ins = 12.0, {0: 12.0}
    assert table.close() == [ana, sam]
    assert table.sessions() == [] and table.deadline is None and table.stand_ins == {}
