"""The wall before and after the game (tui/wall_lobby.py, tui/wall_over.py), as pure functions of (a spectator's
view, the wall's own state, size, capabilities): the lobby with the code big and how to join, the seats and what the
table waits for; the last turn's reveal, then the winners big and the final standings."""

from __future__ import annotations

import dataclasses
import re

from dixit_tui.tui import banner_font
from dixit_tui.tui import wall_picture as wall
from dixit_tui.tui.capabilities import FULL, Capabilities
from tests.tui.pictures import picture_text
from tests.tui.wall_scenes import in_lobby, spectated

ASCII = Capabilities(utf8=False, colors="none")
JOIN = "ssh -t -p 2222 NAME@dixit.example.org join {code}"


def big(text: str, ink: str = "█") -> list[str]:
    return [row.strip() for row in banner_font.banner(banner_font.plain_letters(text) or "", 2, ink)]


async def test_the_lobby_shows_the_code_big_how_to_join_the_seats_and_who_it_waits_for() -> None:
    view = await in_lobby(2, bots=1)
    local = wall.Local(join=JOIN.format(code=view.code))
    assert wall.wall_wanted(view, 200, 60)
    text = picture_text(wall.wall_picture(view, 200, 60, FULL, local))
    assert all(row in text for row in big(view.code)), text
    assert JOIN.format(code=view.code) in text and "NAME: the name you play under" in text
    assert f"or pick table {view.code} in the lobby's list." in text
    bot = view.seats[2].name
    assert "1  ana (host)" in text and "2  ben" in text and f"3  {bot} (bot)" in text and "4  · free ·" in text
    assert "Seats: 3 of 8 taken, 5 more can sit" in text
    assert "Refresh game · 3 to 8 players · first to 30 points" in text
    assert "Ready: waiting for the host, ana, to start the game." in text
    assert "Table · waiting for the host to start" in text  # the head line too (it said "for players to sit down")
    assert len(text.splitlines()) <= 60


async def test_the_lobby_says_how_many_more_players_it_needs() -> None:
    view = await in_lobby(1)
    text = picture_text(wall.wall_picture(view, 200, 60, FULL, wall.Local(join=JOIN.format(code=view.code))))
    assert "Waiting for 2 more players: 3 are needed to start." in text
    assert "Table · waiting for 2 more players" in text
    assert "Seats: 1 of 8 taken, 7 more can sit" in text


async def test_a_full_lobby_says_all_seats_are_taken_not_how_to_join() -> None:
    view = await in_lobby(3, seats=3)
    text = picture_text(wall.wall_picture(view, 200, 60, FULL, wall.Local(join=JOIN.format(code=view.code))))
    assert "All seats are taken: more people can watch, not play." in text
    assert "Join from your shell" not in text and JOIN.format(code=view.code) not in text
    assert "Refresh game · 3 players · first to 30 points" in text  # not "3 to 3 players"
    assert "Seats: 3 of 3 taken, all taken" in text


async def test_the_lobby_head_line_says_a_table_that_cannot_start_is_not_ready() -> None:
    view = await in_lobby(6, bots=1, mode="team")  # teams of two: seven cannot start
    assert view.start_problem is not None
    text = picture_text(wall.wall_picture(view, 200, 60, FULL, wall.Local(join=JOIN.format(code=view.code))))
    assert "Table · not ready to start" in text and f"Waiting: {view.start_problem}" in text


async def test_the_lobby_without_utf8_or_colours_is_plain_ascii() -> None:
    view = await in_lobby(2)
    picture = wall.wall_picture(view, 200, 60, ASCII, wall.Local(join=JOIN.format(code=view.code)))
    text = picture_text(picture)
    assert text.isascii() and all(row in text for row in big(view.code, "#"))
    assert all(segment.style is None or segment.style.color is None for strip in picture for segment in strip)


async def test_the_last_reveal_then_the_winner_big_the_standings_and_what_next() -> None:
    (view,) = await spectated("standard", "over", target=10, reveal_seconds=8)
    game = view.game
    assert game is not None and game.last_reveal is not None and game.winners and wall.final_reveal_due(view)
    assert wall.wall_shows(view) and not wall.wall_shows(dataclasses.replace(view, you=0))
    held = picture_text(wall.wall_picture(view, 200, 60, FULL, wall.Local(final_reveal=True)))
    assert f"Turn {game.turn}, revealed" in held and "That was the last turn: the final standings next." in held
    assert all(f"+{p.delta}" in held for p in game.last_reveal.points)

    text = picture_text(wall.wall_picture(view, 200, 60, FULL))
    (winner,) = (view.seats[w].name for w in game.winners)
    top = max(p.score for p in game.players)
    assert all(row in text for row in big(winner)), text
    assert f"{winner} won with {top} points." in text and "Final standings" in text
    for player in game.players:
        name = view.seats[player.seat].name
        assert re.search(rf"\d\. [★ ] {name} +{player.score} +█+", text), name
    assert " 1. ★ " + winner in text and "█" * 20 in text
    assert "Next: the host, ana, can start a rematch" in text
    assert f"Turn {game.turn} was the last: the clue “a quiet storm”" in text
    assert len(text.splitlines()) <= 60


async def test_without_the_tables_reveal_hold_the_end_goes_straight_to_the_standings() -> None:
    (view,) = await spectated("standard", "over", target=10)  # (the tests' tables hold no reveal: reveal_seconds=0)
    assert not wall.final_reveal_due(view)
    text = picture_text(wall.wall_picture(view, 200, 60, FULL, wall.Local(final_reveal=True)))
    assert "Final standings" in text and "revealed" not in text


async def test_a_team_game_names_the_winning_team_big() -> None:
    (view,) = await spectated("team", "over")
    game = view.game
    assert game is not None
    teams = sorted({t for w in game.winners if (t := game.players[w].team) is not None})
    text = picture_text(wall.wall_picture(view, 200, 60, ASCII))
    assert text.isascii() and "Final standings" in text
    label = " and ".join(f"team {t + 1}" for t in teams)
    assert all(row in text for row in big(label, "#")), text
    top = max(p.score for p in game.players)
    assert f"{label.capitalize()} (" in text and f") won with {top} points." in text  # (with its unit, as for one)


async def test_when_many_share_the_win_the_banner_counts_them() -> None:
    (view,) = await spectated("party", "over")
    game = view.game
    assert game is not None and len(game.winners) == 6  # (everyone scored alike with these moves)
    text = picture_text(wall.wall_picture(view, 200, 60, FULL))
    assert all(row in text for row in big("6 winners")), text
    assert "ana, ben, cara, dev, eve and fay share the win with 30 points." in text
    # the log names them as a list too (found playing: "Game over. ana and ben and Oneiros and ... won.")
    assert "Game over. ana, ben, cara, dev, eve and fay won." in view.log


async def test_player_names_are_shown_as_typed_never_as_markup() -> None:
    view = await in_lobby(2)
    odd = dataclasses.replace(view.seats[1], name="[red]ed[/]")
    view = dataclasses.replace(view, seats=(view.seats[0], odd))
    text = picture_text(wall.wall_picture(view, 200, 60, FULL, wall.Local(join=JOIN.format(code=view.code))))
    assert "2  [red]ed[/]" in text
