"""Tables never stall: phase time limits and disconnected players are covered by a stand-in."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from dixit_tui.coordinator import Coordinator, TableError, TableOptions
from dixit_tui.coordinator.timers import STALL_GRACE
from tests.coordinator.clients import Client, connect, game_of, table_of


async def test_phase_time_limit_plays_for_everyone_missing() -> None:
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, clock=lambda: now[0])
    clients = await table_of(coord, 3, seed=2, turn_seconds=1)
    await clients[0].session.start()
    table = coord.tables[game_code(clients[0])]
    view = clients[1].view
    assert view is not None and view.deadline == now[0] + 1
    await run_out(coord, table, now)
    assert game_of(clients[1]).phase == "submit"
    assert "nobody gave the first clue, so ana tells" in game_log(clients[1])[-1]
    for _ in range(5):  # the submits, then the votes, are played when their time runs out
        if game_of(clients[1]).turn == 2:
            break
        await run_out(coord, table, now)
    assert game_of(clients[1]).turn == 2


async def test_a_disconnected_player_is_covered_after_the_grace_period() -> None:
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, disconnect_grace=0.3, clock=lambda: now[0])
    clients = await table_of(coord, 3, seed=4)
    await clients[0].session.start()
    g = game_of(clients[0])
    await clients[0].session.clue("tide", g.hand[0].card)
    await clients[2].session.close()
    g1 = game_of(clients[1])
    await clients[1].session.submit([c.card for c in g1.hand[:2]])
    table = coord.tables[game_code(clients[0])]
    assert table.deadline == now[0] + 0.3
    await run_out(coord, table, now)
    assert game_of(clients[1]).phase == "vote"
    assert any(line == "p2 is away: a stand-in gave 2 cards for them." for line in game_log(clients[1]))


async def test_nobody_is_covered_while_someone_else_can_act() -> None:
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, disconnect_grace=0.1, clock=lambda: now[0])
    clients = await table_of(coord, 3, seed=4)
    await clients[0].session.start()
    await clients[2].session.close()  # the first clue is open to everyone: p2's absence blocks nothing
    table = coord.tables[game_code(clients[0])]
    assert table.deadline is None and table.timer is None  # no clock runs
    now[0] += 3600
    await coord.expire(table)  # (and were one to fire, an hour later, nothing is due)
    assert game_of(clients[0]).phase == "clue"
    assert clients[0].view.deadline is None  # type: ignore[union-attr]


async def test_an_abandoned_table_waits_for_its_players() -> None:
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, disconnect_grace=0.1, clock=lambda: now[0])
    clients = await table_of(coord, 3, seed=4, turn_seconds=1)
    await clients[0].session.start()
    code = clients[0].view.code  # type: ignore[union-attr]
    for c in clients:
        await c.session.close()
    table = coord.tables[code]
    assert table.deadline is None and table.timer is None  # its clocks stopped
    now[0] += 3600
    await coord.expire(table)
    game = coord.tables[code].game
    assert game is not None and game.state.turn.number == 1 and game.state.phase.value == "clue"


@pytest.mark.parametrize("turn_seconds", [120, None])
async def test_the_views_phase_deadline_is_the_phases_own_whoever_drops(turn_seconds: int | None) -> None:
    """`phase_deadline` is when the phase's own time limit runs out (None without one). When p2 drops 40 s into a
    120 s phase with a 60 s grace, `deadline` (the earliest stand-in) moves to p2's grace; `phase_deadline` stays."""
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, disconnect_grace=60, clock=lambda: now[0])
    ana, p1, p2 = await table_of(coord, 3, seed=4, turn_seconds=turn_seconds)
    assert ana.view is not None and ana.view.phase_deadline is None  # before the start nothing is timed
    await ana.session.start()
    await ana.session.clue("tide", game_of(ana).hand[0].card)  # the cards' phase, from 1000
    limit = 1120.0 if turn_seconds else None
    for client in (ana, p1, p2):
        assert client.view is not None and client.view.phase_deadline == limit
        assert client.view.deadline == limit
    now[0] += 40
    await p2.session.close()  # p2's stand-in is due at 1100
    for client in (ana, p1):
        view = client.view
        assert view is not None and dict(view.stand_ins) == {2: 1100}
        assert view.deadline == 1100 and view.phase_deadline == limit
    await ana.session.remove(2)  # two players left: the game is over, nothing is timed
    assert ana.view is not None and ana.view.status == "over"
    assert ana.view.phase_deadline is None and ana.view.deadline is None


async def test_timer_bounds_are_checked() -> None:
    coord = Coordinator()
    c = await connect(coord, "ana")
    with pytest.raises(TableError, match="timer"):
        await c.session.create(TableOptions(turn_seconds=0))
    assert isinstance(c, Client)


# --- seats nobody came to, paused tables, stale stand-ins ---------------------------------------------------------


async def test_a_rematch_seat_nobody_came_back_to_is_covered_after_the_grace() -> None:
    """cara never connects to the rematch: her seat has no `away since`, yet the game must not wait for it forever
    (before, the stand-in's time was pushed a full grace away at every look)."""
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, disconnect_grace=0.3, clock=lambda: now[0])
    old = coord.create_table(TableOptions(seed=4))
    for name in ("ana", "ben", "cara"):
        old.add_seat(name, f"key-{name}")
    await coord.commit(old)
    new, _ = coord.rematch_table(old)
    await coord.commit(new)
    ana = await connect(coord, "ana", key="key-ana")
    ben = await connect(coord, "ben", key="key-ben")
    await ana.session.join(new.code)
    await ben.session.join(new.code)
    await ana.session.start()
    assert "cara is not here: when the game waits for them, a stand-in plays after 1 second." in game_log(ana)
    await ana.session.clue("tide", game_of(ana).hand[0].card)
    await ben.session.submit([c.card for c in game_of(ben).hand[:2]])
    table = coord.tables[new.code]
    assert table.deadline is not None and table.deadline <= now[0] + 0.3  # (not pushed a full grace away)
    await run_out(coord, table, now)
    assert game_of(ben).phase == "vote"
    assert "cara is away: a stand-in gave 2 cards for them." in game_log(ben)


def game_log(client: Client) -> tuple[str, ...]:
    view = client.view
    assert view is not None
    return view.log


async def test_a_table_everyone_left_pauses_its_clocks_and_resumes_them_where_they_stopped() -> None:
    """Nobody plays for anyone while the table is empty; when ana is back, the phase's time limit and p2's grace go
    on from where they stopped (before, they had run out meanwhile and a stand-in played the moment she was back)."""
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, disconnect_grace=50, clock=lambda: now[0])
    ana, p1, p2 = await table_of(coord, 3, seed=4, turn_seconds=120)
    code = game_code(ana)
    await ana.session.start()
    await ana.session.clue("tide", game_of(ana).hand[0].card)  # submit phase: until 1120
    now[0] += 20
    await p2.session.close()  # p2's stand-in is due at 1070
    view = ana.view
    assert view is not None and view.deadline == 1070 and dict(view.stand_ins) == {2: 1070}
    now[0] += 10  # 1030: the last two leave, 40 s of p2's grace and 90 s of the phase left
    await ana.session.close()
    await p1.session.close()
    table = coord.tables[code]
    assert table.deadline is None and table.timer is None and not table.stand_ins
    assert table.shown_phase_deadline is None  # its clocks wait: none is shown
    now[0] += 3600  # an hour with nobody there
    back = await connect(coord, "ana", key="SHA256:ana")
    await back.session.join(code)
    view = back.view
    assert view is not None and view.game is not None and view.game.phase == "submit"
    assert not any("stand-in" in line for line in view.log), view.log[-3:]
    # p1 left as the table paused (its whole grace left), p2 had 40 s of it left; the phase 90 s
    assert dict(view.stand_ins) == {1: now[0] + 50, 2: now[0] + 40}
    assert view.deadline == now[0] + 40 and table.phase_deadline == now[0] + 90
    assert view.phase_deadline == now[0] + 90  # the phase's own clock, not p2's grace


async def test_stand_ins_are_dropped_when_the_game_ends() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, disconnect_grace=3600)
    ana, _, p2 = await table_of(coord, 3, seed=4)
    await ana.session.start()
    await ana.session.clue("tide", game_of(ana).hand[0].card)
    await p2.session.close()
    view = ana.view
    assert view is not None and [seat for seat, _ in view.stand_ins] == [2]
    await ana.session.remove(1)  # two players left: the game is over
    view = ana.view
    assert view is not None and view.status == "over"
    assert view.stand_ins == () and view.deadline is None


def game_code(client: Client) -> str:
    view = client.view
    assert view is not None
    return view.code


async def fire(coord: Coordinator, table: Any) -> None:
    """The table's timer goes off now, as the event loop would call it, and what it started is done."""
    assert table.timer is not None
    table.timer.cancel()
    coord.timers.fire(table)
    for _ in range(1_000):
        if not coord._tasks:
            return
        await asyncio.sleep(0)
    raise AssertionError("the timer's work did not end")


async def run_out(coord: Coordinator, table: Any, now: list[float]) -> None:
    """The clock reaches the table's deadline (no later) and its timer goes off."""
    assert table.deadline is not None
    now[0] = max(now[0], table.deadline)
    await fire(coord, table)


def stalls(caplog: pytest.LogCaptureFixture) -> int:
    """Deadlines put off because they fired late, as the server's log says."""
    return sum("(the server was stalled)" in r.getMessage() for r in caplog.records if r.name.endswith(".timers"))


async def test_after_a_stall_moves_sent_in_time_come_before_the_stand_ins(caplog: pytest.LogCaptureFixture) -> None:
    """The server stopped for 20 s (SIGSTOP) with a 5 s limit: when it runs again, the expired deadline fires first,
    before the submits that waited in the players' sockets are read. It is put off by a short grace (once), so
    those moves count and nobody is played for; a deadline missed again after that grace is played as usual."""
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, clock=lambda: now[0])
    ana, p1, p2 = await table_of(coord, 3, seed=4, turn_seconds=5)
    code = game_code(ana)
    await ana.session.start()
    await ana.session.clue("tide", game_of(ana).hand[0].card)  # submit phase: until 1005
    table = coord.tables[code]
    storyteller = game_of(ana).storyteller
    waiting = [c for c in (ana, p1, p2) if game_of(c).you != storyteller]
    now[0] += 20  # stopped at 1000.2 (the submits were sent then), running again at 1020
    await fire(coord, table)  # the timer that fired first
    assert not any("stand-in" in line for line in game_log(ana)), game_log(ana)[-3:]
    assert stalls(caplog) == 1
    assert table.deadline == now[0] + STALL_GRACE
    assert ana.view is not None and ana.view.deadline == now[0] + STALL_GRACE  # shown to the players
    await waiting[0].session.submit([c.card for c in game_of(waiting[0]).hand[:2]])  # read late: still counts
    now[0] += STALL_GRACE + 5  # the other one's move never came, and the server stalled again
    await fire(coord, table)
    assert stalls(caplog) == 1  # a deadline is put off once
    assert game_of(ana).phase == "vote"
    assert sum("stand-in" in line for line in game_log(ana)) == 1, game_log(ana)[-3:]


async def test_a_stand_in_due_before_its_phase_began_is_no_stall(caplog: pytest.LogCaptureFixture) -> None:
    """Found playing over SSH (1-minute timer): carol's window closed, her grace ran out, and when the next phase
    began her stand-in was due at once, by a deadline already past. Its timer, on time, was taken for one fired 61 s
    late ("the server was stalled"), and every clock was pushed on by a minute: the card phase showed 1:31 left."""
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, disconnect_grace=20, clock=lambda: now[0])
    ana, _p1, p2 = await table_of(coord, 3, seed=4, turn_seconds=60)
    table = coord.tables[game_code(ana)]
    await ana.session.start()
    await p2.session.close()  # p2's window closed: a stand-in plays for p2 once the grace is over, at 1020
    now[0] += 30
    await ana.session.clue("tide", game_of(ana).hand[0].card)  # the card phase, until 1090; p2's stand-in is due
    assert table.deadline == 1020  # already past: its timer goes off at once
    await fire(coord, table)
    assert stalls(caplog) == 0
    assert table.phase_deadline == 1090
    assert game_of(ana).waiting_for == (1,)  # the stand-in gave p2's card
