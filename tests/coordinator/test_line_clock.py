"""The plain line mode tells the time: the phase's time left when its clock starts and on `status`, and when a
stand-in will play for a player who dropped out (the full-screen app's top bar and status line showed both; a player
in `ssh -t HOST plain` never heard of either). Said once each, never a line a second; the clock is the test's."""

from __future__ import annotations

import random

from dixit_tui.coordinator import Coordinator, Identity
from dixit_tui.line_mode import LinePlayer
from tests.coordinator.clients import table_of

LATE = ", then a stand-in plays for the late."


async def test_line_mode_says_the_phases_time_left_and_the_stand_ins() -> None:
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, disconnect_grace=60, clock=lambda: now[0])
    ana, p1 = await table_of(coord, 2, seed=4, turn_seconds=120)
    said: list[str] = []
    cy = LinePlayer(said.append, clock=lambda: now[0])
    cy.session = await coord.connect(Identity("cy", "SHA256:cy"), cy.deliver)
    await cy.command(f"join {ana.view.code}")  # type: ignore[union-attr]
    assert not any(line.startswith("Time left") for line in said)  # the lobby has no clock
    await ana.session.start()
    assert said.count(f"Time left: 2:00{LATE}") == 1, said  # the clue's phase: 120 s from 1000
    now[0] += 40
    await cy.command("status")
    assert said[-1] == f"Time left: 1:20{LATE}", said[-3:]
    game = ana.view.game  # type: ignore[union-attr]
    assert game is not None
    await ana.session.clue("tide", game.hand[0].card)  # the cards' phase, from 1040: its own 2:00
    assert said[-1] == f"Time left: 2:00{LATE}", said[-3:]
    assert said[-2].startswith("Your turn: give 2 cards"), said[-3:]
    now[0] += 10
    await p1.session.close()  # p1's stand-in is due at 1050 + 60
    assert said[-1] == "A stand-in plays for p1 in 1:00.", said[-3:]
    now[0] += 30
    await cy.command("status")
    assert said[-2:] == [f"Time left: 1:20{LATE}", "A stand-in plays for p1 in 0:30."], said[-4:]
    assert sum(line.startswith("Time left") for line in said) == 4  # once a phase, once a status: no more
    assert sum(line.startswith("A stand-in plays") for line in said) == 2


async def test_line_mode_says_no_time_at_a_table_without_a_limit() -> None:
    now = [1000.0]
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True, clock=lambda: now[0])
    ana, _p1 = await table_of(coord, 2, seed=4)
    said: list[str] = []
    cy = LinePlayer(said.append, clock=lambda: now[0])
    cy.session = await coord.connect(Identity("cy", "SHA256:cy"), cy.deliver)
    await cy.command(f"join {ana.view.code}")  # type: ignore[union-attr]
    await ana.session.start()
    await cy.command("status")
    assert said and not any("Time left" in line or "stand-in" in line for line in said), said
