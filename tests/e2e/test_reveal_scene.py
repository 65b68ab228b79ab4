"""The reveal as a scene, over real SSH (issue 23: "the reveal is the best moment of Dixit, and it flashes by"): a
first-timer at a bot table sees, after the last vote, the board with each card's owner and who voted for it, the
storyteller's card marked and the points each gained. The table holds it (the default `reveal_seconds`, on the
coordinator's clock, which this test drives): the bots do not give the next clue meanwhile. It closes by itself when
the hold ends, or at once when she presses Enter or Space (nobody waits for a player who already looked)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dixit_tui.bots.player import BotPlayer, Hold
from dixit_tui.coordinator import Coordinator
from dixit_tui.coordinator.models import REVEAL_SECONDS
from dixit_tui.engine import Reveal
from tests.bots.holds import still_holding
from tests.e2e.bots import bots_at, quick
from tests.e2e.harness import PtyClient, wait_for
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import (
    RECAP_NEXT,
    TIMEOUT,
    add_bot,
    cast_vote,
    create_table,
    give_clue,
    key_of,
    open_lobby,
    press,
    start_game,
    state_of,
    submit_cards,
    text,
    wait_gone,
    wait_text,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

SIZE = (120, 50)  # the whole recap on one screen (at 80x24 its cards scroll: see the snapshots)


def _workers(coord: Coordinator) -> list[Coordinator]:
    return list(getattr(coord, "workers", [coord]))  # two workers (`--two-workers`): each holds the reveal itself


def _shows_the_reveal(screen: str, reveal: Reveal, names: list[str]) -> None:
    """Every card's owner and its voters, the storyteller's card marked, everyone's points this turn."""
    assert f"Turn {reveal.turn} revealed" in screen and RECAP_NEXT in screen, screen
    for slot in reveal.slots:
        owner = names[slot.owner] + (" (you)" if slot.owner == 0 else "")
        if slot.owner == reveal.storyteller:  # her own: "(yours)", not "(ana (you))"
            mark = "yours" if slot.owner == 0 else names[slot.owner]
            assert f"✎ storyteller's card ({mark})" in screen, screen
        else:
            assert f"given by {owner}" in screen, screen
        voters = ", ".join(names[s] + (" (you)" if s == 0 else "") for s in slot.votes)
        assert (f"votes: {voters}" if slot.votes else "no votes") in screen, screen
    for points in reveal.points:
        delta = f"+{points.delta}" if points.delta > 0 else str(points.delta)
        row = rf"{re.escape(names[points.seat])}\b.*\s{re.escape(delta)}\s+{points.score}\b"
        assert re.search(row, screen), (row, screen)


def storyteller(coord: Coordinator, code: str) -> list[BotPlayer]:
    """The bot that tells next (it owes the clue the reveal holds back)."""
    table = coord.tables[code]
    teller = [b for b in bots_at(table) if b.seat == state_of(table).turn.storyteller]
    assert len(teller) == 1, "the next storyteller is a bot"
    return teller


async def _end_hold_by_clock(coord: Coordinator, code: str, now: list[float]) -> None:
    now[0] += REVEAL_SECONDS
    for worker in _workers(coord):
        table = worker.tables.get(code)
        if table is not None:
            await worker.reveal_over(table)


async def test_a_first_timer_at_a_bot_table_sees_the_reveal_until_it_is_over_or_she_moves_on(tmp_path: Path) -> None:
    now = [1000.0]
    async with dixit_server(tmp_path, first_clue_grace=3600.0) as (server, coord):
        for worker in _workers(coord):
            worker.timers.clock = lambda: now[0]  # the hold's clock is the test's: it passes when the test says
        ana: PtyClient = await open_lobby(server.port, "ana", key_of("ana"), size=SIZE)
        code = await create_table(ana, target=30)
        await add_bot(ana)
        await add_bot(ana)
        await wait_text(ana, "3 seated")
        # quick bots: one that did not hold for the reveal would tell at once
        await wait_for(lambda: len(quick(coord, code)) == 2, TIMEOUT, "the two bots")
        await start_game(ana)
        await give_clue(ana, 1, "tide")  # the bots leave the first clue to her

        # turn 1: the bots give their cards and vote; after the last vote her screen shows the reveal
        await wait_text(ana, "Turn 1 revealed", RECAP_NEXT)
        names = list(state_of(coord.tables[code]).names)
        reveal = state_of(coord.tables[code]).last_reveal
        assert reveal is not None and reveal.turn == 1
        _shows_the_reveal(text(ana), reveal, names)
        # the next storyteller is a bot: it holds for the reveal instead of telling (a quick bot tells in about 1 s)
        bots = bots_at(coord.tables[code])
        await wait_for(lambda: any(b.holds.get(Hold.REVEAL) for b in bots), TIMEOUT, "a bot to hold for the reveal")
        await still_holding(storyteller(coord, code), Hold.REVEAL)  # (whatever its think delay: by its own look, it
        # holds a minute on)
        assert state_of(coord.tables[code]).turn.clue is None, "a bot told during the reveal"
        assert RECAP_NEXT in text(ana)  # still on her screen
        # its time is up (the coordinator's clock): it closes by itself and the bot tells
        await _end_hold_by_clock(coord, code, now)
        await wait_gone(ana, RECAP_NEXT)
        await wait_for(lambda: state_of(coord.tables[code]).turn.clue is not None, TIMEOUT, "the bot's clue")

        # turn 2: she gives her cards and votes; once revealed, Enter moves on at once (the clock stands still)
        count = state_of(coord.tables[code]).rules.submit_count
        await submit_cards(ana, list(range(1, count + 1)))
        await wait_for(lambda: state_of(coord.tables[code]).phase == "vote", TIMEOUT, "the vote")
        state = state_of(coord.tables[code])
        mine = {i + 1 for i, card in enumerate(state.turn.board) if state.owner_of(card) == 0}
        await cast_vote(ana, min(set(range(1, len(state.turn.board) + 1)) - mine))
        await wait_text(ana, "Turn 2 revealed", RECAP_NEXT)
        reveal = state_of(coord.tables[code]).last_reveal
        assert reveal is not None and reveal.turn == 2
        _shows_the_reveal(text(ana), reveal, names)
        await still_holding(storyteller(coord, code), Hold.REVEAL)
        assert state_of(coord.tables[code]).turn.clue is None, "a bot told during the reveal"
        await press(ana, "space")  # Space (or Enter): she has looked
        await wait_gone(ana, RECAP_NEXT)
        await wait_for(lambda: state_of(coord.tables[code]).turn.clue is not None, TIMEOUT, "the next bot's clue")
