"""The wall's picture (tui/wall_picture.py) as a pure function of (a spectator's view, size, capabilities): what it
shows, and that spectators of the same size share one picture (counters, not times)."""

from __future__ import annotations

import dataclasses

from textual.strip import Strip

from dixit_tui.tui import banner_font
from dixit_tui.tui import wall_picture as wall
from dixit_tui.tui.capabilities import FULL, Capabilities
from tests.tui.pictures import picture_text
from tests.tui.wall_scenes import spectated

ASCII = Capabilities(utf8=False)


async def test_spectators_of_the_same_size_share_one_picture() -> None:
    first, second = await spectated("standard", "vote", watchers=2)
    before = dataclasses.replace(wall.counts)
    one = wall.wall_picture(first, 200, 48, FULL)
    other = wall.wall_picture(second, 200, 48, FULL)
    again = wall.wall_picture(dataclasses.replace(second), 200, 48, FULL)  # an equal view, another object
    assert one is other is again
    assert (wall.counts.drawn - before.drawn, wall.counts.shared - before.shared) == (1, 2)
    assert wall.wall_picture(first, 180, 48, FULL) is not one  # another size
    assert wall.wall_picture(first, 200, 48, ASCII) is not one  # other capabilities
    assert wall.counts.drawn - before.drawn == 3


async def test_the_vote_shows_the_clue_big_and_every_card_in_full() -> None:
    (view,) = await spectated("standard", "vote")
    game = view.game
    assert game is not None and game.clue is not None and len(game.board) == 5
    text = picture_text(wall.wall_picture(view, 200, 48, FULL))
    for row in banner_font.banner(banner_font.plain_letters(game.clue) or "", 2, "█"):
        assert row.strip() in text  # the clue in big letters
    for slot in game.board:  # each card's whole text, word for word, in its box
        assert all(word in text for word in slot.text.split()), slot.text
    for seat in view.seats:
        assert seat.name in text
    assert "The vote: waiting for ben and cara." in text
    assert "l: leave the table" in text


async def test_the_reveal_shows_owners_voters_the_storytellers_card_and_points() -> None:
    (view,) = await spectated("standard", "reveal")
    game = view.game
    assert game is not None and game.last_reveal is not None and game.clue is None
    reveal = game.last_reveal
    text = picture_text(wall.wall_picture(view, 200, 48, FULL))
    assert "Turn 1, revealed" in text
    teller = view.seats[reveal.storyteller].name
    assert f"✎ {teller}'s card" in text and f"✎ storyteller: {teller}" in text
    for slot in reveal.slots:
        if slot.owner != reveal.storyteller:
            assert f"given by {view.seats[slot.owner].name}" in text
        assert all(word in text for word in slot.text.split())
    for points in reveal.points:
        assert f"+{points.delta}" in text
    assert "1 vote: ben" in text


async def test_while_the_next_cards_come_in_the_last_turn_stays_on_the_wall() -> None:
    (view,) = await spectated("standard", "submit")
    game = view.game
    assert game is not None and game.clue is not None and game.last_reveal is not None
    text = picture_text(wall.wall_picture(view, 200, 48, FULL))
    assert "Turn 2 · the cards come in" in text and "The cards come in: waiting for" in text
    assert f"Turn 1, as it ended: the clue “{game.last_reveal.clue}”" in text
    assert all(f"┏━ {slot.slot} ✎" in text or f"╭─ {slot.slot} ─" in text for slot in game.last_reveal.slots)


async def test_without_utf8_the_picture_is_ascii() -> None:
    (view,) = await spectated("party", "reveal")
    text = picture_text(wall.wall_picture(view, 200, 48, ASCII))
    assert text.isascii()
    assert "#####" in text and "o red marker" in text


async def test_the_wall_is_for_spectators_at_160x48_and_more() -> None:
    (view,) = await spectated("standard", "vote")
    assert wall.wall_wanted(view, 160, 48)
    assert not wall.wall_wanted(view, 159, 48) and not wall.wall_wanted(view, 160, 47)
    assert not wall.wall_wanted(dataclasses.replace(view, you=0), 200, 60)  # a player's screen: unchanged


def test_a_clue_the_font_cannot_draw_is_a_framed_bold_line() -> None:
    pen = wall.Pen(FULL)
    lines = wall.clue_banner(pen, "月の光", 100)
    text = [picture_text(tuple(Strip(line) for line in lines))]
    assert "“月の光”" in text[0] and "╭" in text[0]
    assert len(wall.clue_banner(pen, "Café au lait", 200)) == banner_font.HEIGHT  # accents off: big letters
