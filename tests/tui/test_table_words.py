"""The table's words without Textual: what the status line, the notes, the clue line, the questions and the notices
say, for each phase and mode, to a player, the storyteller, a teammate and a spectator. The views come from a real
coordinator (seeded), played through its sessions; the words are plain functions of those views."""

from __future__ import annotations

import ast
import dataclasses
import random
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from dixit_tui.coordinator import Coordinator, Identity, OverUpdate, PlayerSession, TableOptions
from dixit_tui.engine import ConfigError, GameConfig, Mode, Phase, Profile, a_or_an, check_player_count
from dixit_tui.tui import table_words as words
from dixit_tui.tui.help import SCORING
from dixit_tui.tui.seat_rows import SeatLine
from dixit_tui.tui.table_words import Choices, Words, name_list
from dixit_tui.tui.widgets.recap import legend, points_table
from tests.tui.pictures import render_seats
from tests.tui.table_play import give, ignore, open_table, play_to_the_end, tell, teller_of, view_of, vote_all


def plain(text: Words | None) -> str:
    assert text is not None
    return text.plain


def in_style(text: Words, style: str) -> list[str]:
    """The stretches of `text` shown in `style` (e.g. the names in bold)."""
    return [part for part, shown in text.parts if shown == style]


def say(session: PlayerSession, choices: Choices | None = None) -> str:
    return words.status(view_of(session), choices or Choices()).plain


def test_the_words_import_no_textual() -> None:
    code = (
        "import sys, dixit_tui.tui.table_words, dixit_tui.tui.host; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stdout


def test_the_screens_do_not_import_the_app() -> None:
    """The app imports its screens; they reach it through `tui.host` (no import cycle, not even for type checking)."""
    tui = Path(words.__file__).parent
    importers = []
    for path in sorted(tui.rglob("*.py")):
        if path.name == "app.py" and path.parent == tui:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "dixit_tui.tui.app":
                importers.append(path.name)
    assert importers == []


def test_words_carry_styles_as_plain_data() -> None:
    line = Words.of("Waiting for ", ("ana", "bold"), "", Words.of(" and ", ("ben", "bold")), ".")
    assert line.plain == "Waiting for ana and ben."
    assert in_style(line, "bold") == ["ana", "ben"]
    assert Words.of("\n").join([Words.of("a"), Words.of(""), Words.of("b")]).plain == "a\n\nb"
    assert name_list([]).plain == "nobody"
    assert name_list(["ana", "ben", "cara"]).plain == "ana, ben and cara"
    assert name_list(["a", "b", "c", "d", "e", "f"]).plain == "a, b, c and 3 others"
    assert in_style(name_list(["[b]x[/b]"]), "bold") == ["[b]x[/b]"]  # a name is text, never markup


async def test_the_lobby_says_who_starts_and_how() -> None:
    ana, ben, zoe = await open_table(["ana", "ben"], watcher=True)
    host, guest, spectator = view_of(ana), view_of(ben), view_of(zoe)
    assert host.start_problem is not None
    assert say(ana) == f"Waiting for players. {host.start_problem}"
    # two seated of the three needed: the others wait for a player too, not for the host (they read "Waiting for
    # ana (host) to start the game." while ana could not start: seen playing)
    assert guest.start_problem == spectator.start_problem == host.start_problem
    assert say(ben) == f"Waiting for players. {host.start_problem}"
    assert say(zoe) == f"You are watching. Waiting for players. {host.start_problem}"
    info = words.lobby_info(host).plain.splitlines()
    assert info[0] == f"Table {host.code} · refresh · 2 of 8 seats taken"
    assert info[1] == f"Friends join with the code {host.code}."
    assert "The first player to reach 30 points wins." in info
    assert "Each reveal stays on screen up to 8 s; Enter moves you on." in info  # the table's reveal_seconds
    assert "Your SSH key gets your seat back if you drop out: connect with it again." in info
    assert info[-2] == f"Not ready to start. {host.start_problem}"
    assert words.lobby_info(guest).plain.endswith(f"Not ready to start. {host.start_problem}")
    assert words.lobby_info(spectator).plain.endswith("You are watching this table.")
    assert words.clue_line(host) is None and words.practice_help(host) is None
    assert words.leave_question(guest, with_key=True).body.plain == "Your seat is freed."
    assert words.leave_question(spectator, with_key=False).body.plain == "Back to the lobby."
    assert words.remove_question(host, 1).body.plain == "Remove ben from the table? Their seat is freed."
    assert words.add_bot_stale(host, seats=2) is None
    assert words.add_bot_stale(host, seats=1) == "the seats changed"


async def test_the_host_is_asked_before_the_start_and_the_question_goes_stale() -> None:
    ana, _, cara = await open_table(["ana", "ben", "cara"])
    host = view_of(ana)
    assert say(ana) == "Press s to start the game (p: practice turn first)."
    assert say(cara) == "Waiting for ana (host) to start the game."  # ready: now it is the host's move
    assert words.lobby_info(host).plain.splitlines()[-2] == "You are the host: press s to start the game."
    question = words.start_question(host, practice=False)
    assert (question.title, question.yes, question.no) == ("Start the game with 3 players?", "Start", "Not yet")
    assert words.start_question(host, practice=True).title == "Start with a practice turn, 3 players?"
    assert words.start_stale(host, 3) is None
    await cara.leave()
    assert words.start_stale(view_of(ana), 3) == "the table cannot start now"  # two players cannot start


async def test_standard_clue_submit_and_vote_as_each_seat_sees_them() -> None:
    sessions = await open_table(["ana", "ben", "cara", "dan"], watcher=True, first="random")
    zoe = sessions.pop()
    await sessions[0].start()
    teller = teller_of(sessions)
    view = view_of(teller)
    game = view.game
    assert game is not None and game.phase == Phase.CLUE
    name = words.seat_name(view, game.storyteller)
    others = [s for s in sessions if s is not teller]
    # the clue
    assert say(teller) == "Choose a card (↑↓, Enter), then type your clue."
    chosen = game.hand[1].card
    assert say(teller, Choices(chosen=chosen, in_clue_box=True)) == "Type your clue for card 2 and press Enter."
    assert say(teller, Choices(chosen=chosen)) == "Card 2 chosen: press Enter to type your clue."  # (after Esc)
    note = words.hand_note(view, Choices())
    assert note is not None and note.plain == f"Choose the card for your clue: ↑↓ or 1-{len(game.hand)}, then Enter."
    note = words.hand_note(view, Choices(chosen=chosen, in_clue_box=True))
    assert note is not None and note.plain.startswith("Card 2 chosen: type your clue below")
    note = words.hand_note(view, Choices(chosen=chosen))  # (after Esc: letters typed go nowhere)
    assert note is not None and note.plain == "Card 2 chosen: press Enter to type your clue."
    assert words.hand_tags(game, chosen, chosen, ()) == ("✓ chosen",)
    assert say(others[0]) == f"Waiting for {name} to give the clue."
    assert say(zoe) == f"You are watching. Waiting for {name} to give the clue."
    assert plain(words.hand_note(view_of(zoe), Choices())) == "You are watching: hands stay hidden."
    line = words.clue_line(view_of(others[0]))
    assert line is not None and line.plain == f"No clue yet: {name} is the storyteller."
    line = words.clue_line(view)  # the storyteller's own screen
    assert line is not None and line.plain == "No clue yet: you are the storyteller."
    assert words.clue_label(view) == "Clue:" and words.clue_label(view_of(others[0])) == "Kept:"
    await tell(teller)
    # the cards
    waiting = [seat for o in others if (seat := view_of(o).you) is not None]
    assert (
        say(teller) == f"Your card is in. Waiting for a card each from {name_list(words.names(view, waiting)).plain}."
    )
    assert say(others[0]) == "Choose a card that fits the clue (Enter), then confirm."
    line = words.clue_line(view_of(zoe))
    assert line is not None and line.plain == f"Clue: “a quiet storm” — told by {name}"
    assert plain(words.clue_line(view_of(teller))).endswith(f"told by {name} (you)")
    note = words.hand_note(view_of(others[0]), Choices())
    assert note is not None and note.plain == "Enter gives a card; you confirm, then it's final."
    writing = Choices(writing_clue=True)
    assert say(teller, writing) == "Your clue is already given: your text is kept, not sent. Esc: your hand."
    assert say(others[0], writing) == f"{name} gave the first clue: your text is kept, not sent. Esc: your hand."
    assert words.clue_kept(view_of(others[0])) == f"{name} gave the first clue; your text is kept, not sent."
    giving = view_of(others[0]).game
    assert giving is not None
    question = words.submit_question(giving, [giving.hand[0].card])
    assert question.title == "Give this card?" and question.yes == "Give it"
    assert question.body.plain.startswith("Clue: “a quiet storm”\n\n1. ")
    assert question.body.plain.endswith("\nOnce given, a card cannot be taken back.")
    turn = giving.turn
    assert words.submit_stale(view_of(others[0]), turn, many=False) is None
    await give(others[:1])
    assert words.submit_stale(view_of(others[0]), turn, many=False) == "your card is already in"
    assert say(others[0]).startswith("Your card is in. Waiting for ")
    void = words.void_question(view_of(sessions[0]))
    assert void.body.plain.startswith("Void turn 1? Every card given this turn goes back to its owner")
    assert in_style(void.body, "bold") == [name]
    await give(others)
    # the vote
    assert words.submit_stale(view_of(others[0]), turn, many=False) == "the vote has begun"
    assert say(others[0]) == "Vote: turn the dial and press Enter."
    assert words.vote_note(view_of(others[0])) is None
    assert say(teller).startswith("You are the storyteller. Waiting for votes from ")
    assert plain(words.vote_note(view_of(teller))) == (
        "You are the storyteller: you do not vote. Your card is on the board."
    )
    assert plain(words.vote_note(view_of(zoe))) == "You are watching the vote."
    assert say(zoe).startswith("You are watching. Waiting for votes from ")
    await vote_all(others[:1])
    voted = view_of(others[0]).game
    assert voted is not None
    assert say(others[0]).startswith(f"Your vote: {voted.your_votes[0]} (you can change it until everyone has voted).")
    assert "your vote" in words.board_tags(voted, voted.your_votes[0])
    assert words.board_tags(voted, 1, marked=(1,), green=1)[-2:] == ("✓ marked", "✓ green")
    await vote_all(others)
    # the reveal, in the clue line until the next clue
    after = view_of(others[0])
    assert after.game is not None and after.game.phase == Phase.CLUE and after.game.turn == 2
    line = words.clue_line(after)
    assert line is not None
    assert line.plain.splitlines()[1].startswith("Turn 1 (r: recap): ")
    assert in_style(line, "dim") == [" (r: recap)"]
    assert words.moved_on(after, 1, (Phase.SUBMIT,)) == "the turn is over"


async def test_three_players_give_two_cards_and_mark_them() -> None:
    sessions = await open_table(["ana", "ben", "cara"], first="random")
    await sessions[0].start()
    teller = teller_of(sessions)
    await tell(teller)
    other = next(s for s in sessions if s is not teller)
    view = view_of(other)
    game = view.game
    assert game is not None and game.submit_count == 2
    assert say(other) == "Choose 2 cards that fit the clue (Enter), then confirm."
    first = game.hand[2].card
    note = words.hand_note(view, Choices(marked=(first,)))
    assert note is not None  # which card is marked, and for what ("(marked: 3)" read as a count of marks)
    assert note.plain == (
        "Enter marks or unmarks a card to give (card 3 is marked); once 2 cards are marked you confirm, "
        "then they are final."
    )
    none = plain(words.hand_note(view, Choices()))
    assert none.startswith("Enter marks or unmarks a card to give (none marked yet);")
    both = plain(words.hand_note(view, Choices(marked=(first, game.hand[0].card))))
    assert "(cards 3 and 1 are marked)" in both
    assert words.hand_tags(game, first, None, (first,)) == ("✓ marked 1/2",)
    assert words.submit_question(game, [c.card for c in game.hand[:2]]).title == "Give these cards?"
    assert say(teller).startswith("Your card is in. Waiting for two cards each from ")


async def test_the_first_clue_is_open_to_everyone() -> None:
    sessions = await open_table(["ana", "ben", "cara"], watcher=True)
    zoe = sessions.pop()
    await sessions[0].start()
    assert say(sessions[1]) == "Anyone may give the first clue: choose a card (↑↓, Enter), then type your clue."
    assert say(zoe) == "You are watching. Waiting for the first clue."
    line = words.clue_line(view_of(zoe))
    assert line is not None and line.plain == "No clue yet: anyone may give the first clue."
    await tell(sessions[1])
    assert words.why_no_clue(view_of(sessions[2])) == "ben gave the first clue"


async def test_party_the_blind_clue_everyone_gives_and_the_red_marker() -> None:
    names = ["ana", "ben", "cara", "dan", "eve", "finn"]
    sessions = await open_table(names, mode="party", first="random")
    await sessions[0].start()
    teller = teller_of(sessions)
    view = view_of(teller)
    assert say(teller) == "You are the storyteller: press Enter to type your clue (your hand is hidden)."
    assert say(teller, Choices(in_clue_box=True)) == (
        "Type your clue and press Enter (your hand stays hidden until then)."
    )
    note = words.hand_note(view, Choices())
    assert note is not None and note.plain.startswith("Party rule: you give the clue before you see your hand.")
    # "once", not "1 time" (seen playing a party game); "twice", then "3 times"
    assert words.lobby_info(view).plain.splitlines()[2] == "The game ends when everyone has told once."
    assert " · each tells once · " in words.topbar(view, 200, 0).plain
    assert [words.times(n) for n in (1, 2, 3)] == ["once", "twice", "3 times"]
    await tell(teller)
    assert say(teller) == "Everyone gives a card, the storyteller too: choose one that fits the clue."
    await give(sessions)
    teller_view = view_of(teller)
    assert teller_view.game is not None and teller_view.game.places_red
    assert say(teller) == "Vote: turn the dial to your green vote and press Enter; then place the red marker."
    assert say(teller, Choices(placing_red=True)) == (
        "Place the red marker: turn the dial, Enter sends both votes (Esc: back)."
    )


async def test_team_the_teammates_card_and_the_team_chat() -> None:
    names = ["ana", "ben", "cara", "dan", "eve", "finn"]
    sessions = await open_table(names, mode="team", first="random")
    await sessions[0].start()
    teller = teller_of(sessions)
    view = view_of(teller)
    game = view.game
    assert game is not None and view.you is not None
    mate = words.teammate(game, view.you)
    assert mate is not None
    mate_name = words.seat_name(view, mate)
    assert words.team_chat_mate(view) == mate_name
    await tell(teller)
    assert say(sessions[mate]) == (
        f"Your teammate {words.seat_name(view, view.you)} is telling: give the card that best fits."
    )
    pair = next(s for s in sessions if view_of(s).you not in (view.you, mate))
    pair_view = view_of(pair)
    assert pair_view.you is not None
    pair_mate = words.teammate(pair_view.game, pair_view.you)
    assert pair_mate is not None
    assert say(pair) == (
        f"Your team gives one card: you or {words.seat_name(view, pair_mate)}. The first to give it submits; "
        "the other votes."
    )
    # each team gives one card: a team still to give is "team 3's card (cara or finn)", never "a card each"
    # (found playing over SSH: "Waiting for a card each from ana and dee", who were one team giving one card)
    third = [s for s in range(len(names)) if s not in (view.you, mate, pair_view.you, pair_mate)]
    team = game.players[third[0]].team
    assert team is not None
    third_card = f"team {team + 1}'s card ({' or '.join(words.seat_name(view, s) for s in third)})"
    told = say(teller)
    assert told.startswith("Your card is in. Waiting for ") and "a card each" not in told and third_card in told
    assert f"a card from {mate_name}" in told
    await give([pair])
    waiting = say(sessions[pair_mate])
    assert waiting.startswith("You vote this turn. Waiting for ") and third_card in waiting
    assert f"a card from {mate_name}" in waiting and "a card each" not in waiting
    assert words.submit_stale(view_of(sessions[pair_mate]), 1, many=False) == "your team's card is in"
    await give(sessions)
    assert plain(words.vote_note(view_of(sessions[mate]))) == (
        "You do not vote this turn: your team's card is on the board."
    )


async def test_the_end_says_who_won_and_what_now() -> None:
    sessions = await open_table(["ana", "ben", "cara"], watcher=True, mode="standard", target=10, first="random")
    zoe = sessions.pop()
    await sessions[0].start()
    await play_to_the_end(sessions)
    host, guest = view_of(sessions[0]), view_of(sessions[1])
    game = host.game
    assert game is not None and game.phase == Phase.OVER and game.winners
    won = [words.seat_name(host, w) for w in game.winners]
    assert say(sessions[0]) == f"Game over: {name_list(won, 12).plain} won. m: rematch · r: recap · l: leave."
    assert say(sessions[1]).endswith(" won. r: last recap · l: leave the table.")
    over = words.over_text(guest, None).plain.splitlines()
    assert over[0].startswith("★ Game over: ")
    assert over[2] == "Final scores" and over[-1] == "Press r to see the last turn's recap, l to leave the table."
    assert over[-2] == "The host, ana, can start a rematch: you would move there."
    assert words.over_text(host, None).plain.splitlines()[-2].startswith("Press m for a rematch")
    # the end announced names the winners even before the view has them
    announced = OverUpdate(scores=((0, 1), (1, 2), (2, 3)), winners=(2,))
    assert say(zoe, Choices(over=announced)) == "Game over: cara won. r: last recap · l: leave the table."
    assert words.over_text(view_of(zoe), announced).plain.splitlines()[3] == " 1. ★   3  cara"
    assert words.clue_line(host) is None
    assert words.why_no_clue(host) == "The game is over"
    assert words.moved_on(host, game.turn, (Phase.SUBMIT,)) == "the game is over"
    assert words.rematch_stale(host) is None and words.rematch_stale(guest) == "the table has moved on"


async def test_a_game_over_before_any_turn_offers_no_recap() -> None:
    """Found playing over SSH: a 3-player game ended at its first turn (the host removed a bot) and said "r: recap"
    and "Press r to see the last turn's recap", but no turn had been played: r did nothing."""
    sessions = await open_table(["ana", "ben", "cara"], mode="standard", target=10)
    await sessions[0].start()
    await sessions[0].remove(2)  # two players left: the game is over
    host, guest = view_of(sessions[0]), view_of(sessions[1])
    assert host.game is not None and host.game.phase == Phase.OVER and host.game.last_reveal is None
    assert say(sessions[0]).endswith(" m: rematch · l: leave.")
    assert say(sessions[1]).endswith(" l: leave the table.") and "recap" not in say(sessions[1])
    assert words.over_text(guest, None).plain.splitlines()[-1] == "Press l to leave the table."


async def test_the_final_scores_of_a_team_game_say_you_and_your_team_in_one_bracket() -> None:
    sessions = await open_table(["ana", "ben", "cara", "dev", "eve", "finn"], mode="team", first="random")
    await sessions[0].start()
    await play_to_the_end(sessions)
    view = view_of(sessions[0])
    assert view.game is not None and view.game.phase == Phase.OVER
    text = words.over_text(view, None).plain.splitlines()
    start = text.index("Final scores") + 1
    scores = text[start : start + 6]
    # one rank per team, on its first line (it was "1. ★ 18 ann", "2. ★ 18 eve" for teammates)
    ranks = [line[:4].strip() for line in scores]
    assert ranks[::2] == ["1.", "2.", "3."] and ranks[1::2] == ["", "", ""], scores
    assert view.you is not None
    team = view.game.players[view.you].team
    assert team is not None
    (mine,) = [line for line in scores if "ana" in line]
    assert mine.endswith(f"ana (you, team {team + 1})"), scores  # not "ana (you) (team 1)"
    assert all(re.search(r"\w \(team \d\)$", line) for line in scores if line is not mine), scores


def test_an_odyssey_game_takes_an() -> None:
    """It said "A odyssey game needs 3 to 12 players"."""
    assert a_or_an("odyssey") == "An odyssey" and a_or_an("party") == "A party"
    with pytest.raises(ConfigError, match=r"^An odyssey game needs 3 to 12 players; there are 2\.$"):
        check_player_count(GameConfig(Mode.STANDARD, Profile.ODYSSEY), 2)


def test_the_seat_marks_stand_apart_and_waiting_is_not_an_ellipsis() -> None:
    """Narrow, a seat's symbols came glued to its number ("1✎") and "…" for waiting read as a name cut short."""
    lines = (
        SeatLine(seat=0, name="ana", score=3, storyteller=True, host=True),
        SeatLine(seat=1, name="ben", score=5, waiting=True),
    )
    rows = [row.plain for row in render_seats(lines, 26)]
    assert rows[0].startswith("1 ✎ ♛  ana") and rows[1].startswith("2  ◷   ben"), rows
    assert "◷ waiting" in " ".join(rows[2:]) and "…" not in "".join(rows), rows


async def test_the_recap_names_the_passes_as_the_help_does() -> None:
    """The recap's columns and legend say "Pass 1" and "Pass 2" (the help's names), never "Bonus"."""
    sessions = await open_table(["ana", "ben", "cara"], mode="standard", target=10, first="random")
    await sessions[0].start()
    await play_to_the_end(sessions)
    view = view_of(sessions[0])
    assert view.game is not None
    reveal = view.game.history[-1]
    names = [s.name for s in view.seats]
    table = points_table(reveal, names, Mode.STANDARD, {}, view.you)
    headers = [str(column.header) for column in table.columns]
    assert "Pass 1" in headers and "Pass 2" in headers and "Bonus" not in headers, headers
    said = legend(reveal, Mode.STANDARD).plain
    assert "Pass 2: decoy bonus, 1 per vote on your card" in said and "Bonus" not in said, said
    assert "Pass 2: decoy bonus." in SCORING


def test_tied_scores_share_a_rank_and_a_team_has_one() -> None:
    """Equal scores share their rank (1, 1, 3); in team mode a team has one rank, on its first line."""

    def game(mode: str, teams: list[int | None]) -> Any:  # (what `ranked` reads of a PlayerView)
        return SimpleNamespace(mode=mode, players=[SimpleNamespace(team=t) for t in teams])

    solo = game(Mode.STANDARD, [None] * 4)
    assert words.ranked(solo, [(0, 5), (1, 9), (2, 9), (3, 2)]) == [(1, 9, 1), (2, 9, 1), (0, 5, 3), (3, 2, 4)]
    team = game(Mode.TEAM, [0, 1, 2, 0, 1, 2])
    assert words.ranked(team, [(0, 18), (1, 12), (2, 18), (3, 18), (4, 12), (5, 18)]) == [
        (0, 18, 1),
        (3, 18, None),
        (2, 18, 1),
        (5, 18, None),
        (1, 12, 3),
        (4, 12, None),
    ]


async def test_the_top_bar_gives_up_its_least_useful_words_first() -> None:
    sessions = await open_table(["ana", "ben", "cara"], watcher=True, first="random")
    await sessions[0].start()
    view = view_of(sessions[-1])
    full = words.topbar(view, 200, 0).plain
    assert full.startswith(f"Dixit · table {view.code} · refresh · to 30 points · turn 1 · pile ")
    assert full.endswith(" · you are watching · 1 watching")
    assert "pile" not in words.topbar(view, len(full) - 1, 0).plain  # the pile goes first
    narrow = words.topbar(view, 63, 0)  # then every part in its short words, the name of the game, "table"
    assert narrow.plain == f"{view.code} · refresh · to 30 · turn 1 · you are watching · 1 watching"
    assert in_style(narrow, "bold") == [view.code]
    assert words.topbar(view, 40, 0).plain == narrow.plain  # never the code, the timer or who is watching
    timed = dataclasses.replace(view, deadline=965.0, phase_deadline=1000.0)  # (a stand-in due sooner: not the bar's)
    assert "⏱ 1:05 left" in words.topbar(timed, 200, 935.0).plain
    assert "⏱" not in words.topbar(dataclasses.replace(view, deadline=1000.0), 200, 935.0).plain  # no phase limit
    assert in_style(words.topbar(timed, 200, 935.0), "bold")[-1] == "⏱ 1:05 left"


async def test_offline_players_and_their_stand_ins() -> None:
    sessions = await open_table(["ana", "ben", "cara"], first="random")
    await sessions[0].start()
    teller = teller_of(sessions)
    other = next(s for s in sessions if s is not teller)
    view = view_of(other)
    assert view.game is not None and view.game.storyteller is not None
    seat = view.game.storyteller
    away = dataclasses.replace(view, stand_ins=((seat, 1065.0),))
    name = words.seat_name(view, seat)
    said = words.away(away, 1000.0)
    assert said is not None and said.plain == f"A stand-in plays for {name} in 1:05."
    # nothing for you to do and only the offline storyteller awaited: the line says only that
    assert words.status_line(away, Choices(), 1000.0).plain == f"▶ {said.plain}"
    assert words.away(view, 1000.0) is None
    both = dataclasses.replace(view, stand_ins=((seat, 1065.0), ((seat + 1) % 3, 1112.0)))
    later = words.seat_name(view, (seat + 1) % 3)
    assert words.away(both, 1000.0).plain == f"Stand-ins play for {name} in 1:05 and {later} in 1:52."  # type: ignore[union-attr]


async def test_coming_back_after_leaving_a_game() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    ana = await coord.connect(Identity("ana", "key-ana"), ignore)
    ben = await coord.connect(Identity("ben"), ignore)  # no SSH key: a reconnect code
    cara = await coord.connect(Identity("cara", "key-cara"), ignore)
    table = await ana.create(TableOptions(seed=5))
    await ben.join(table.code)
    await cara.join(table.code)
    await ana.start()
    keyless = view_of(ben)
    assert keyless.reconnect_code is not None
    assert words.leave_question(keyless, with_key=False).body.plain == (
        f"Your seat is kept. Your reconnect code is {keyless.reconnect_code}: write it down. To come back, join "
        f"{table.code} as ben and type the code, or press r in the lobby and type it. While you are away, the game "
        "may wait for you.\n\nTo leave the game for good instead, press x at the table."
    )
    assert words.leave_question(keyless, with_key=False).yes == "Step away"
    assert "You are the host: if you stay away, another player takes over." in (
        words.leave_question(view_of(ana), with_key=True).body.plain
    )
    # the host's x is a pick of players (themselves among them); anyone else's x is leaving for good, at once
    assert words.leave_question(view_of(ana), with_key=True).body.plain.endswith(
        "press x at the table and pick yourself."
    )
    assert words.remove_question(keyless, keyless.you or 0).title == "Leave for good?"
    assert [label.plain for _, label in words.remove_choices(keyless, lambda seat: str(seat + 1))] == [
        "2  ben (you: leave the game for good)"
    ]
    keyed = view_of(cara)
    assert words.come_back(keyed, with_key=True).startswith(f"Your seat is kept: join {table.code} again with the same")
    assert words.leave_question(keyed, with_key=True).title == f"Leave table {table.code}?"
    removal = words.remove_question(view_of(ana), 1)
    assert removal.body.plain.startswith("Remove ben from the game for good? They cannot come back.")
    assert words.remove_stale(view_of(ana), 1, "ben") is None
    assert [label.plain for _, label in words.remove_choices(view_of(ana), lambda seat: str(seat + 1))] == [
        "2  ben",
        "3  cara",
        "1  ana (you: leave the game for good)",
    ]


def test_the_practice_help_and_the_voided_notice() -> None:
    assert words.voided_notice(0) == "The practice turn was voided: every card went back to its owner."
    assert words.voided_notice(3) == "Turn 3 was voided: every card went back to its owner."
    assert words.HEADLINE == "Practice turn: this does not count."


async def test_after_a_void_the_storyteller_sees_which_card_is_out_of_the_new_clue() -> None:
    sessions = await open_table(["ana", "ben", "cara", "dan"], first="random")
    await sessions[0].start()
    teller = teller_of(sessions)
    await tell(teller)
    voided = view_of(teller).game
    assert voided is not None
    card = voided.your_cards[0]
    await sessions[0].void()
    game = view_of(teller).game
    assert game is not None and game.phase == Phase.CLUE and game.voided_card == card
    assert words.hand_tags(game, card, None, ()) == (words.VOIDED_TAG,)
    others = [c.card for c in game.hand if c.card != card]
    assert all(words.hand_tags(game, c, None, ()) == () for c in others)
    listener = next(s for s in sessions if s is not teller)
    heard = view_of(listener).game
    assert heard is not None and heard.voided_card is None  # only the storyteller is told


async def test_a_full_lobby_says_nobody_more_can_play_not_how_to_join() -> None:
    ana, _ben, _cara, zoe = await open_table(["ana", "ben", "cara"], watcher=True, seats=3)
    for session in (ana, zoe):
        info = words.lobby_info(view_of(session)).plain.splitlines()
        assert info[1] == "All seats are taken: more people can watch, not play."
    ana2, _ben2, zoe2 = await open_table(["ana", "ben"], watcher=True, seats=3)
    assert words.lobby_info(view_of(zoe2)).plain.splitlines()[1] == f"Friends join with the code {view_of(ana2).code}."


async def test_a_table_with_fewer_seats_says_the_players_it_needs() -> None:
    """It said "A refresh game needs 3 to 8 players" at a table of 3 seats (a playtest)."""
    (ana, _ben) = await open_table(["ana", "ben"], seats=3)
    assert view_of(ana).start_problem == "This refresh table needs 3 players; there are 2."
    assert say(ana) == "Waiting for players. This refresh table needs 3 players; there are 2."
    (ana,) = await open_table(["ana"], seats=5, profile="odyssey")
    assert view_of(ana).start_problem == "This odyssey table needs 3 to 5 players; there is 1."
    (ana,) = await open_table(["ana"])  # no seat limit: the rules' range
    assert view_of(ana).start_problem == "A refresh game needs 3 to 8 players; there is 1."


async def test_the_team_recap_lists_the_teams_in_order_and_marks_the_tellers() -> None:
    """Found playing a team game: the storyteller's team had no ✎ though the legend explains it, and with ana gone
    (her seat came first) "Team 1" came last."""
    names = ["ana", "ben", "cara", "dan", "eve", "finn"]
    sessions = await open_table(names, mode="team", first="random")
    await sessions[0].start()
    await play_to_the_end(sessions)
    view = view_of(sessions[0])
    assert view.game is not None
    reveal = view.game.history[-1]
    teams = {p.seat: p.team for p in view.game.players}
    backwards = dataclasses.replace(reveal, points=tuple(reversed(reveal.points)))
    table = points_table(backwards, [s.name for s in view.seats], Mode.TEAM, teams, view.you)
    labels = [str(cell) for cell in table.columns[0].cells]
    assert [label.split(":")[0] for label in labels] == ["Team 1", "Team 2", "Team 3"], labels
    marked = [label for label in labels if label.endswith(" ✎")]
    teller_team = teams[reveal.storyteller]
    assert teller_team is not None and marked == [labels[teller_team]], labels
