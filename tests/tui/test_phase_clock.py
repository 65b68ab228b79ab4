"""The top bar's clock is the phase's own time limit: when a player drops, their stand-in's time shows in the status
line, and the phase's clock stays as it was, on a player's 80x24 screen and on a spectator's wall (before, the bar
counted down to whichever came first, so a drop made the phase's clock jump to the grace, and at a table without a
limit made one appear). On a clock the test drives: the coordinator's and the screen's are the same fixed epoch
seconds, moved on by the test."""

from __future__ import annotations

import random
from contextlib import AsyncExitStack

import pytest

from dixit_tui.bots.player import seat_bots
from dixit_tui.coordinator import Coordinator, Identity
from dixit_tui.tui import table_screen
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.wall_picture import WALL_SIZE
from dixit_tui.tui.widgets.top_lines import TopLines
from tests.tui.fixtures import EVERY_CHANGE, options, seat_many, settle


@pytest.mark.parametrize("turn_seconds", [120, None])
async def test_the_top_bars_clock_stays_the_phases_when_a_player_drops(
    monkeypatch: pytest.MonkeyPatch, turn_seconds: int | None
) -> None:
    now = [1000.0]
    monkeypatch.setattr(table_screen, "epoch", lambda: now[0])
    coord = Coordinator(
        rng=random.Random(1),
        allow_seeded_tables=True,
        bots=seat_bots,
        limits=EVERY_CHANGE,
        disconnect_grace=60,
        clock=lambda: now[0],
    )
    async with AsyncExitStack() as stack:
        app = DixitApp(coord, Identity("ana", "key-ana"))
        pilot = await stack.enter_async_context(app.run_test(size=(80, 24)))
        await settle(pilot)
        assert app.session is not None
        view = await app.session.create(options(turn_seconds=turn_seconds))
        (_ben, _), (cy, _) = await seat_many(coord, ["ben", "cy"], view.code)
        wall = DixitApp(coord, Identity("sam", "key-sam"), command=f"watch {view.code}")  # a spectator's wall
        wall_pilot = await stack.enter_async_context(wall.run_test(size=WALL_SIZE))
        await app.session.start()
        game = app.session.view().game  # type: ignore[union-attr]
        assert game is not None
        await app.session.clue("a quiet storm", game.hand[0].card)  # the cards' phase: ben's and cy's, 120 s
        await settle(pilot, wall_pilot)
        screens = [app.screen, wall.screen]
        assert all(isinstance(s, TableScreen) for s in screens) and wall.screen.has_class("-wall")
        tops = [s.query_one(TopLines) for s in screens]
        for top in tops:
            assert ("⏱ 2:00 left" in top.bar.plain) if turn_seconds else ("⏱" not in top.bar.plain), top.bar.plain

        now[0] += 40  # 40 s into the phase, cy drops: a stand-in plays for her after the 60 s grace
        await cy.close()
        await settle(pilot, wall_pilot)
        for top in tops:
            assert "A stand-in plays for cy in 1:00." in top.status.plain, top.status.plain
            bar = top.bar.plain
            if turn_seconds:
                assert "⏱ 1:20 left" in bar, bar  # the phase's 80 s left, not cy's grace
            else:
                assert "⏱" not in bar, bar  # no limit: no phase clock, only the stand-in's time in the status line
        now[0] += 1
        for screen, top in zip(screens, tops, strict=True):
            assert isinstance(screen, TableScreen)
            screen._tick()  # the once-a-second tick: both count down
            assert ("⏱ 1:19 left" in top.bar.plain) if turn_seconds else ("⏱" not in top.bar.plain), top.bar.plain
            assert "A stand-in plays for cy in 0:59." in top.status.plain, top.status.plain
