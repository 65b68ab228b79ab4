"""Every kind of illegal command raises a typed RuleError with a human message and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dixit_tui.engine import (
    BadCard,
    BadClue,
    BadVote,
    Command,
    Game,
    GameOver,
    GiveClue,
    NotHost,
    NotYourTurn,
    RemovePlayer,
    RuleError,
    Submit,
    VoidTurn,
    Vote,
    WrongPhase,
)
from tests.engine.helpers import give_clue, make_game, play_turn, slot_of, submit_all


def refused(game: Game, command: Command, error: type[RuleError], match: str = "") -> None:
    before, events = game.state, len(game.events)
    with pytest.raises(error, match=match or None) as info:
        game.execute(command)
    assert info.value.message and info.value.code
    assert game.state == before and len(game.events) == events


def at_clue(n: int = 4, mode: str = "standard") -> Game:
    return make_game(n, mode, "odyssey" if n > 8 else "refresh")


def at_submit(n: int = 4, mode: str = "standard") -> Game:
    game = at_clue(n, mode)
    give_clue(game, 0)
    return game


def at_vote(n: int = 4, mode: str = "standard", profile: str = "refresh") -> Game:
    game = make_game(n, mode, profile)
    give_clue(game, 0)
    submit_all(game)
    return game


CLUE_CASES: list[tuple[str, Callable[[], Game], Callable[[Game], Command], type[RuleError], str]] = [
    (
        "not the storyteller",
        lambda: at_vote(),
        lambda g: GiveClue(1, "x", g.state.hands[1][0]),
        WrongPhase,
        "",
    ),
    ("empty", at_clue, lambda g: GiveClue(0, "   ", g.state.hands[0][0]), BadClue, "empty"),
    ("too long", at_clue, lambda g: GiveClue(0, "x" * 81, g.state.hands[0][0]), BadClue, "80"),
    (
        "card not in hand",
        at_clue,
        lambda g: GiveClue(0, "x", g.state.hands[1][0]),
        BadCard,
        "not in your hand",
    ),
    ("no card", at_clue, lambda g: GiveClue(0, "x", None), BadCard, "Choose one card"),
    ("card in party", lambda: at_clue(6, "party"), lambda g: GiveClue(0, "x", "t-000"), BadCard, "no card"),
    ("seat out of range", at_clue, lambda g: GiveClue(9, "x", None), NotYourTurn, ""),
]

SUBMIT_CASES: list[tuple[str, Callable[[], Game], Callable[[Game], Command], type[RuleError], str]] = [
    ("before the clue", at_clue, lambda g: Submit(1, g.state.hands[1][:1]), WrongPhase, ""),
    ("storyteller", at_submit, lambda g: Submit(0, g.state.hands[0][:1]), NotYourTurn, "storyteller"),
    ("wrong count", at_submit, lambda g: Submit(1, g.state.hands[1][:2]), BadCard, "exactly 1"),
    ("not in hand", at_submit, lambda g: Submit(1, g.state.hands[2][:1]), BadCard, "not in your hand"),
    (
        "same card twice",
        lambda: at_submit(3),
        lambda g: Submit(1, (g.state.hands[1][0],) * 2),
        BadCard,
        "different",
    ),
    (
        "one card at 3 players",
        lambda: at_submit(3),
        lambda g: Submit(1, g.state.hands[1][:1]),
        BadCard,
        "exactly 2",
    ),
    (
        "teller's team twice",
        lambda: at_submit(6, "team"),
        lambda g: Submit(0, g.state.hands[0][:1]),
        NotYourTurn,
        "",
    ),
]

VOTE_CASES: list[tuple[str, Callable[[], Game], Callable[[Game], Command], type[RuleError], str]] = [
    ("before the board", at_submit, lambda g: Vote(1, (1,)), WrongPhase, ""),
    ("storyteller votes", at_vote, lambda g: Vote(0, (1,)), NotYourTurn, "storyteller does not vote"),
    ("own card", at_vote, lambda g: Vote(1, (slot_of(g, 1),)), BadVote, "own card"),
    ("no such slot", at_vote, lambda g: Vote(1, (9,)), BadVote, "no card 9"),
    ("slot zero", at_vote, lambda g: Vote(1, (0,)), BadVote, "no card 0"),
    ("two votes at 4", at_vote, lambda g: Vote(1, (slot_of(g, 0), slot_of(g, 2))), BadVote, "one card"),
    ("no vote", at_vote, lambda g: Vote(1, ()), BadVote, ""),
    (
        "same card twice at 8",
        lambda: at_vote(8, profile="odyssey"),
        lambda g: Vote(1, (slot_of(g, 0), slot_of(g, 0))),
        BadVote,
        "different",
    ),
    (
        "three votes at 8",
        lambda: at_vote(8, profile="odyssey"),
        lambda g: Vote(1, (slot_of(g, 0), slot_of(g, 2), slot_of(g, 3))),
        BadVote,
        "one or two",
    ),
    ("either own card at 3", lambda: at_vote(3), lambda g: Vote(1, (slot_of(g, (1, 1)),)), BadVote, "own"),
    ("red from a voter", lambda: at_vote(6, "party"), lambda g: Vote(1, (1,), red=2), BadVote, "red"),
    ("party teller without red", lambda: at_vote(6, "party"), lambda g: Vote(0, (1,)), BadVote, "red marker"),
    ("red off the board", lambda: at_vote(6, "party"), lambda g: Vote(0, (1,), red=7), BadVote, "no card 7"),
    (
        "team submitter votes",
        lambda: at_vote(6, "team"),
        lambda g: Vote(1, (slot_of(g, 0),)),
        NotYourTurn,
        "",
    ),
    (
        "teller's teammate votes",
        lambda: at_vote(6, "team"),
        lambda g: Vote(3, (slot_of(g, 1),)),
        NotYourTurn,
        "",
    ),
]

TABLE_CASES: list[tuple[str, Callable[[], Game], Callable[[Game], Command], type[RuleError], str]] = [
    ("void by a player", at_submit, lambda g: VoidTurn(1), NotHost, "host"),
    ("void with nothing to void", at_clue, lambda g: VoidTurn(0), WrongPhase, "Nothing to void"),
    ("remove by a player", at_submit, lambda g: RemovePlayer(1, 2), NotHost, "host"),
    ("remove an empty seat", at_submit, lambda g: RemovePlayer(0, 7), NotYourTurn, "no player"),
]


@pytest.mark.parametrize(
    ("name", "setup", "command", "error", "match"),
    CLUE_CASES + SUBMIT_CASES + VOTE_CASES + TABLE_CASES,
    ids=[c[0] for c in CLUE_CASES + SUBMIT_CASES + VOTE_CASES + TABLE_CASES],
)
def test_illegal(
    name: str,
    setup: Callable[[], Game],
    command: Callable[[Game], Command],
    error: type[RuleError],
    match: str,
) -> None:
    game = setup()
    refused(game, command(game), error, match)


def test_a_submission_is_final() -> None:
    game = at_submit()
    game.execute(Submit(1, game.state.hands[1][:1]))
    refused(game, Submit(1, game.state.hands[1][:1]), NotYourTurn, "final")


def test_a_vote_may_change_until_the_last_vote_arrives() -> None:
    game = at_vote()
    game.execute(Vote(1, (slot_of(game, 2),)))
    game.execute(Vote(1, (slot_of(game, 0),)))
    assert game.state.turn.votes[1] == (slot_of(game, 0),)
    game.execute(Vote(2, (slot_of(game, 0),)))
    game.execute(Vote(3, (slot_of(game, 1),)))
    assert game.state.last_reveal is not None and game.state.turn.number == 2
    refused(game, Vote(1, (1,)), WrongPhase)


def test_removed_players_cannot_act() -> None:
    game = at_submit(5)
    game.execute(RemovePlayer(0, 4))
    give_clue(game, 0)
    refused(game, Submit(4, ("t-000",)), NotYourTurn, "not playing")


def test_nothing_is_accepted_after_the_game_ends() -> None:
    game = make_game(4, target=10)
    for turn in range(6):
        play_turn(game, turn % 4, {v: turn % 4 for v in range(4) if v != turn % 4})
    refused(game, GiveClue(0, "more", game.state.hands[0][0]), GameOver, "over")
    refused(game, VoidTurn(0), GameOver)


def test_after_a_void_the_storyteller_chooses_another_card() -> None:
    game = at_submit()
    card = game.state.turn.clue_card
    assert card is not None
    game.execute(VoidTurn(0))
    refused(game, GiveClue(0, "again", card), BadCard, "different card")
    other = next(c for c in game.state.hands[0] if c != card)
    game.execute(GiveClue(0, "again", other))
