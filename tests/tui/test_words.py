"""Words and marks that say exactly what is true: the transcript, the help of each mode, the score track."""

from __future__ import annotations

import random
import re
from contextlib import AsyncExitStack

from textual.widgets import Input

from dixit_tui.engine import view_for
from dixit_tui.engine.random_play import random_command
from dixit_tui.transcript import transcript_of
from dixit_tui.tui.help import help_text
from dixit_tui.tui.widgets.keybar import KeyBar
from dixit_tui.tui.widgets.main_view import MainView
from tests.engine.helpers import make_game
from tests.tui.apps import open_apps, session_of, status, table_of
from tests.tui.fixtures import coordinator, default_move, options, screen_text, seat_many, settle


def test_the_transcript_says_no_votes_once_and_lists_voters_otherwise() -> None:
    game = make_game(5, "standard", "refresh", target=10)
    rng = random.Random(3)
    while (command := random_command(game.state, rng)) is not None:
        game.execute(command)
    lines = transcript_of(view_for(game.state, 0))
    given = [line for line in lines if "given by" in line]
    assert given
    assert not any("votes: no votes" in line for line in lines)
    assert any(line.endswith("; no votes") for line in given)
    assert any(re.search(r"; votes: \w+", line) for line in given)


def test_the_help_of_party_and_team_tells_their_own_turn() -> None:
    party, team, refresh = help_text("party"), help_text("team"), help_text("refresh")
    # Party: the clue is given before the storyteller sees their hand; it is about no card.
    assert "clue about one of their cards" not in party
    assert "before seeing their\nhand**, so it is about no card" in party
    # Team: the teammate gives a card too, and only one member of each other team gives one; the other votes.
    assert "Every other player secretly gives a card" not in team
    assert "Everyone but the storyteller **votes**" not in team
    assert "their teammate adds the card" in team and "the other member votes" in team
    assert "Every player except the storyteller scores **+1 for each vote on their own card**" not in team
    # The standard game keeps its turn and scoring.
    assert "clue about one of their cards" in refresh and "Every other player secretly gives a card" in refresh


def keys(app: object) -> list[str]:
    """The key bar as the player reads it: "s Start", "⏎ Choose card"... (only the enabled, shown keys)."""
    bar = table_of(app).query_one(KeyBar)  # type: ignore[arg-type]
    return [f"{k.display} {k.description}" for k in bar.keys if k.enabled]


async def test_start_is_offered_only_when_the_table_can_start() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        await settle(pa)
        assert status(ana) == "Waiting for players. A refresh game needs 3 to 8 players; there is 1."
        assert not any(k.endswith(" Start") for k in keys(ana)), keys(ana)
        assert not any(k.key == "s" for k in table_of(ana).query_one(KeyBar).keys)  # not even greyed out
        await seat_many(coord, ["ben", "cara"], view.code)
        await settle(pa)
        assert status(ana).startswith("Press s to start the game")
        assert "s Start" in keys(ana), keys(ana)


async def test_the_hand_offers_choose_card_only_when_a_card_can_be_chosen_and_words_match() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        others = [s for s, _ in await seat_many(coord, ["ben", "cara", "dan"], view.code)]
        await pa.press("s", "y")
        await settle(pa)
        screen = table_of(ana)
        hand = screen.query_one(MainView)

        # The first clue: ana may choose a card for it; Enter picks it and the clue box says how to go back.
        assert screen.focused is hand and "⏎ Choose card" in keys(ana), keys(ana)
        await pa.press("enter")
        await settle(pa)
        assert isinstance(screen.focused, Input)
        note = screen_text(ana)
        assert "Esc: back to the table" in note and "back to your hand" not in note
        assert "esc Back to the table" in keys(ana), keys(ana)
        await pa.press("escape")
        await settle(pa)

        assert await default_move(others[0])  # ben tells first: ana gives a card now
        await settle(pa)
        assert screen.focused is hand and "⏎ Choose card" in keys(ana), keys(ana)
        assert await default_move(session_of(ana))  # ana's card is in: nothing to choose any more
        await settle(pa)
        assert screen.focused is hand, screen.focused
        assert "⏎ Choose card" not in keys(ana), keys(ana)
        assert "Choose card" not in screen_text(ana).splitlines()[-1]
        # One card each at four players: never "cards from".
        assert status(ana) == "Your card is in. Waiting for a card each from cara and dan.", status(ana)
        assert await default_move(others[1])
        await settle(pa)
        assert status(ana) == "Your card is in. Waiting for a card from dan.", status(ana)


async def test_at_three_players_the_status_says_two_cards() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        others = [s for s, _ in await seat_many(coord, ["ben", "cara"], view.code)]
        await pa.press("s", "y")
        await settle(pa)
        assert await default_move(others[0])
        assert await default_move(session_of(ana))
        await settle(pa)
        assert status(ana) == "Your cards are in. Waiting for two cards from cara.", status(ana)
