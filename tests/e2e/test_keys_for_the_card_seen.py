"""A vote, a mark or a card given goes to the card the player saw highlighted, over real SSH (issue 22, item 1).

- At the vote, `2` on your own card is refused and the dial stays on 1: the Enter typed next voted for 1. Now it does
  nothing and says so; pressed again, it votes for the card the dial shows.
- At the odyssey dial, `1` (your own) then Space marked card 2: now Space marks nothing and says so.
- In team mode, an Enter meant as "give this card", typed just after the teammate gave the team's card, became a vote
  when the dial replaced the hand: a key typed for a step that just ended never acts in the next one.

ben is a real SSH terminal (asyncssh + pyte); the others are sessions of the same coordinator, moved by the test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from dixit_tui.coordinator import Identity, PlayerSession
from dixit_tui.coordinator.table import Table
from dixit_tui.tui import table_screen
from tests.e2e.harness import PtyClient
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import (
    join_by_code,
    key_of,
    open_lobby,
    press,
    submit_cards,
    wait_footer,
    wait_gone,
    wait_status,
    wait_text,
)
from tests.e2e.watched import drawn
from tests.tui.fixtures import Recorder, default_move, options

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

NAMES = ["ana", "cara", "dev", "eve", "fay", "gus", "hal"]


@asynccontextmanager
async def ben_at(
    tmp_path: Path, others: int, **kwargs: object
) -> AsyncIterator[tuple[PtyClient, Table, list[PlayerSession]]]:
    """A table of `others` sessions and ben (SSH, seated last), started."""
    async with dixit_server(tmp_path) as (server, coord):
        sessions = [await coord.connect(Identity(n, key=f"key-{n}"), Recorder()) for n in NAMES[:others]]
        view = await sessions[0].create(options(**kwargs))
        for session in sessions[1:]:
            await session.join(view.code)
        ben = await open_lobby(server.port, "ben", key_of("ben"))
        try:
            await join_by_code(ben, view.code)
            await sessions[0].start()
            yield ben, coord.tables[view.code], sessions
        finally:
            await ben.close()


def ben_seat(table: Table) -> int:
    return next(i for i, s in enumerate(table.seats) if s.name == "ben")


def votes_of(table: Table, seat: int) -> tuple[int, ...]:
    assert table.game is not None
    return tuple(table.game.state.turn.votes.get(seat, ()))


async def to_the_vote(ben: PtyClient, sessions: list[PlayerSession]) -> None:
    """cara gives the first clue; everyone gives a card (ben with his keys): ben's dial shows."""
    await wait_status(ben, "Anyone may give the first clue")
    assert await default_move(sessions[1], clue="first")
    for session in sessions:
        await default_move(session)
    await submit_cards(ben, [1])
    await wait_footer(ben, "⏎ Vote")


async def test_enter_after_a_refused_number_does_not_vote_for_another_card(tmp_path: Path) -> None:
    async with ben_at(tmp_path, 3, target=10) as (ben, table, sessions):
        await to_the_vote(ben, sessions)
        seat = ben_seat(table)
        assert table.game is not None
        (own,) = table.game.state.forbidden_slots(seat)
        shown = 2 if own == 1 else 1  # where the dial stands: the first card that is not his
        await press(ben, str(own))
        await wait_text(ben, f"Card {own} is yours")
        await press(ben, "enter")
        await wait_text(ben, f"Enter did nothing: card {own} is yours, so it was not chosen.")
        await drawn(ben)
        assert votes_of(table, seat) == ()
        # pressed again, Enter votes for the card the dial shows (and the board highlights)
        await press(ben, "enter")
        await wait_text(ben, f"Your vote: {shown}")
        assert votes_of(table, seat) == (shown,)


async def test_the_refusal_hint_goes_when_the_dial_moves_or_a_vote_is_cast(tmp_path: Path) -> None:
    """Playtest over OpenSSH: after "Enter did nothing: ... The dial is on 2", typing 5 then Enter voted for 5 but the
    hint "press Enter again to vote for 2" stayed on screen. A hint goes once the dial moves or a vote is cast."""
    async with ben_at(tmp_path, 3, target=10) as (ben, table, sessions):
        await to_the_vote(ben, sessions)
        seat = ben_seat(table)
        assert table.game is not None
        (own,) = table.game.state.forbidden_slots(seat)
        shown = 2 if own == 1 else 1
        other = next(s for s in range(len(table.game.state.turn.board), 0, -1) if s not in (own, shown))
        hint = f"Enter did nothing: card {own} is yours, so it was not chosen."
        await press(ben, str(own))
        await press(ben, "enter")
        await wait_text(ben, hint)
        await press(ben, str(other))  # the dial moves: the hint about where it was goes
        await wait_gone(ben, hint)  # (a quiet screen is no proof the key was handled, on a loaded machine)
        assert votes_of(table, seat) == ()
        await press(ben, str(own))
        await press(ben, "enter")
        await wait_text(ben, hint)
        await press(ben, "enter")  # the vote is cast: the hint goes too
        await ben.wait_until(lambda: votes_of(table, seat) == (other,), 10, "ben's vote")
        await wait_gone(ben, hint)  # (the vote is counted before ben's screen draws it)


async def test_space_after_a_refused_number_marks_nothing_at_the_odyssey_dial(tmp_path: Path) -> None:
    async with ben_at(tmp_path, 7, profile="odyssey") as (ben, table, sessions):
        await to_the_vote(ben, sessions)
        seat = ben_seat(table)
        assert table.game is not None
        (own,) = table.game.state.forbidden_slots(seat)
        shown = 2 if own == 1 else 1
        await wait_text(ben, "Marked: none")
        await press(ben, str(own))
        await wait_text(ben, f"Card {own} is yours")
        await press(ben, "space")
        await wait_text(ben, f"Space did nothing: card {own} is yours, so it was not chosen.")
        await drawn(ben)
        assert "Marked: none" in ben.screen_text()
        await press(ben, "space")  # pressed again: marks the card the dial shows
        await wait_text(ben, f"Marked: {shown}")
        assert votes_of(table, seat) == ()


async def test_an_enter_typed_for_the_hand_does_not_vote_when_the_teammate_gave_the_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [1000.0]
    monkeypatch.setattr(table_screen, "REACTION", 0.5, raising=False)
    monkeypatch.setattr(table_screen, "clock", lambda: now[0], raising=False)  # (absent before)
    async with ben_at(tmp_path, 5, mode="team") as (ben, table, sessions):
        game = table.game
        assert game is not None
        seat = ben_seat(table)
        mate = game.state.partner(seat)
        teller = next(s for s in sessions if s.view().you not in (seat, mate))  # type: ignore[union-attr]
        await wait_status(ben, "Anyone may give the first clue")
        assert await default_move(teller, clue="first")
        for session in sessions:
            if session.view().you != mate:  # type: ignore[union-attr]
                await default_move(session)
        await wait_footer(ben, "⏎ Choose card")  # ben's hand: he may give his team's card
        # his teammate gives it first, the last card in: the vote begins, the dial takes the hand's place...
        assert await default_move(next(s for s in sessions if s.view().you == mate))  # type: ignore[union-attr]
        await wait_footer(ben, "⏎ Vote")
        # ... and ben's Enter, meant as "give this card" and on its way as the screen changed, does not vote
        await press(ben, "enter")
        await wait_text(ben, "Enter did nothing: the table moved on")
        await drawn(ben)
        assert votes_of(table, seat) == ()
        now[0] += 1.0  # a moment later, he has seen the board: Enter votes
        await press(ben, "enter")
        await ben.wait_until(lambda: votes_of(table, seat) != (), 10, "ben's vote")
