"""The practice turn: turn 0, told by the host, played like any turn; nothing it scores counts, then every card is
dealt again from a fresh shuffle and the game proper begins at turn 1 exactly as a game without practice would."""

from __future__ import annotations

import random

import pytest

from dixit_tui.engine import (
    FirstStoryteller,
    Game,
    GameConfig,
    GiveClue,
    Mode,
    Phase,
    Profile,
    RemovePlayer,
    RuleError,
    VoidTurn,
    event_from_dict,
    event_to_dict,
    fold,
    view_for,
)
from dixit_tui.engine.events import GameStarted, PracticeEnded, StorytellerChosen, TurnScored
from dixit_tui.engine.random_play import play_out
from tests.engine.helpers import CARDS, NAMES, cast, give_clue, submit_all

SETUPS = [("standard", "refresh", 3), ("standard", "refresh", 5), ("standard", "odyssey", 8), ("party", "odyssey", 6)]
SETUPS += [("team", "odyssey", 6)]


def practice_game(n: int, mode: str = "standard", profile: str = "refresh", *, host: int = 0, **kw: object) -> Game:
    config = GameConfig(Mode(mode), Profile(profile), 10, 1, FirstStoryteller(str(kw.get("first", "first_clue"))))
    return Game.new(config, NAMES[:n], CARDS[:84], 7, host, practice=True)


def play_practice(game: Game) -> None:
    """The practice turn: the storyteller's clue, every card, and votes that score (seat 1 finds the card)."""
    state = game.state
    teller = state.turn.storyteller
    assert teller is not None
    give_clue(game, teller)
    submit_all(game)
    voters = game.state.voters()
    party = game.state.config.mode is Mode.PARTY
    votes = {v: teller if (v == voters[0] or party) and v != teller else _other(game, v, teller) for v in voters}
    cast(game, votes, red=_other(game, teller, teller) if party else None)


def _other(game: Game, voter: int, teller: int) -> int:
    """A seat whose card `voter` may vote for, not the storyteller's."""
    state = game.state
    mine = set(state.teammates(voter)) | set(state.teammates(teller))
    return next(s for s in state.active_seats() if s not in mine and state.given_by(s))


def test_practice_starts_at_turn_0_told_by_the_host() -> None:
    game = practice_game(4, host=2)
    state = game.state
    assert state.practice and state.turn.number == 0 and state.turn.storyteller == 2 and state.phase is Phase.CLUE
    assert state.waiting_for() == (2,)
    view = view_for(state, 1)
    assert view.practice and view.turn == 0 and not view.can_clue
    assert view_for(state, 2).can_clue


@pytest.mark.parametrize(("mode", "profile", "n"), SETUPS)
def test_the_practice_turn_counts_for_nothing_and_the_game_starts_fresh(mode: str, profile: str, n: int) -> None:
    game = practice_game(n, mode, profile)
    play_practice(game)
    state = game.state
    scored = next(e for e in game.events if isinstance(e, TurnScored))
    assert scored.reveal.turn == 0
    assert any(p.delta for p in scored.reveal.points), "the practice shows what would have been scored"
    assert all(p.score == 0 for p in scored.reveal.points), "but nobody's score changes"
    # the game proper: turn 1, open first clue, scores and turns told at 0, no history, full fresh hands
    assert not state.practice and state.phase is Phase.CLUE
    assert state.turn.number == 1 and state.turn.storyteller is None
    assert state.scores == (0,) * n and state.told == (0,) * n and state.history == ()
    # its reveal stays the last one until turn 1 is scored: the table holds it for the people to read, and the
    # wall shows it (it was dropped here: the practice's reveal never showed by itself, seen playing)
    assert state.last_reveal == scored.reveal
    assert all(len(hand) == state.rules.hand_size for hand in state.hands)
    assert state.discard == ()
    everywhere = [c for hand in state.hands for c in hand] + list(state.draw_pile)
    assert sorted(everywhere) == sorted(state.cards)  # every card back in play, once
    ended = next(e for e in game.events if isinstance(e, PracticeEnded))
    assert list(state.hands[0]) == list(ended.order[: state.rules.hand_size])
    # a replay of the events (through the store's JSON) is the live state
    stored = [event_from_dict(event_to_dict(e)) for e in game.events]
    assert stored == game.events
    assert fold(stored) == state
    # and the game plays to its end as usual
    final, _ = play_out(state, random.Random(3))
    assert final.phase is Phase.OVER and all(r.turn >= 1 for r in final.history)


def test_without_practice_nothing_changes() -> None:
    """A game started without practice has the same first events as before (GameStarted, practice False)."""
    config = GameConfig()
    plain = Game.new(config, NAMES[:4], CARDS[:84], 7)
    assert isinstance(plain.events[0], GameStarted) and not plain.events[0].practice
    assert plain.state.turn.number == 1 and not plain.state.practice
    old = event_to_dict(plain.events[0])
    del old["practice"]  # a record written before the practice turn existed
    assert event_from_dict(old) == plain.events[0]


def test_a_random_first_storyteller_is_drawn_after_the_practice() -> None:
    game = practice_game(4, first="random", host=1)
    assert game.state.turn.storyteller == 1  # the host tells the practice turn
    assert not any(isinstance(e, StorytellerChosen) for e in game.events)
    play_practice(game)
    chosen = [e for e in game.events if isinstance(e, StorytellerChosen)]
    assert len(chosen) == 1 and game.state.turn == game.state.turn.__class__(1, chosen[0].seat)
    assert fold(game.events) == game.state


def test_void_and_removal_during_practice() -> None:
    game = practice_game(4)
    give_clue(game, 0)
    game.execute(VoidTurn(0))
    assert game.state.practice and game.state.turn.number == 0 and game.state.phase is Phase.CLUE
    game.execute(RemovePlayer(0, 3))
    play_practice(game)
    state = game.state
    assert state.turn.number == 1 and state.hands[3] == () and not state.active[3]
    assert all(len(state.hands[s]) == state.rules.hand_size for s in state.active_seats())
    assert sorted([c for h in state.hands for c in h] + list(state.draw_pile)) == sorted(state.cards)


def test_a_removal_that_ends_the_game_during_practice_has_no_winner() -> None:
    game = practice_game(3)
    give_clue(game, 0)
    game.execute(RemovePlayer(2, 2))  # too few players for a game: it ends, but nothing counted yet
    state = game.state
    assert state.phase is Phase.OVER and state.turn.number == 0 and state.winners == ()


def test_practice_clue_rules_are_the_real_ones() -> None:
    game = practice_game(4)
    with pytest.raises(Exception, match="storyteller"):
        game.execute(GiveClue(1, "not me", game.state.hands[1][0]))


ALL_SETUPS = [
    *(("standard", "refresh", n) for n in (3, 4, 8)),
    *(("standard", "odyssey", n) for n in (3, 7, 12)),
    *(("party", "odyssey", n) for n in (6, 12)),
    *(("team", "odyssey", n) for n in (6, 12)),
]


@pytest.mark.parametrize(("mode", "profile", "n"), ALL_SETUPS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_practice_games_keep_every_card_and_replay_equal(mode: str, profile: str, n: int, seed: int) -> None:
    """Random moves, with a rare void or removal, from a practice start to the end: every card is in exactly one
    place after every event, scores never move during the practice, and the stored events fold to the live state."""
    from dixit_tui.engine import decide
    from dixit_tui.engine.random_play import random_command
    from tests.engine.helpers import random_table_command

    rng = random.Random(seed)
    game = practice_game(n, mode, profile, host=rng.randrange(n))
    for _ in range(5000):
        state = game.state
        if state.phase is Phase.OVER:
            break
        command = random_table_command(state, rng) if rng.random() < 0.01 else random_command(state, rng)
        assert command is not None
        try:
            events = decide(state, command)
        except RuleError:
            continue  # a random host action may be refused (e.g. too few players); that changes nothing
        for event in events:
            before = game.state
            game.state = fold([event], before)
            game.events.append(event)
            if before.practice:
                assert game.state.scores == (0,) * n and game.state.told == (0,) * n
        s = game.state
        places = [c for h in s.hands for c in h] + list(s.draw_pile) + list(s.discard) + list(s.turn.board)
        if s.phase is not Phase.VOTE:
            places += [c for seat in s.seats for c in s.given_by(seat)]
        assert sorted(places) == sorted(s.cards)
    assert game.state.phase is Phase.OVER
    assert fold(event_from_dict(event_to_dict(e)) for e in game.events) == game.state
