"""Strategy legality over many real engine states in every mode, the BotView adapters, and the brain."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from dixit_tui.bots.brain import Brain
from dixit_tui.bots.similarity import fit, normalise, words
from dixit_tui.bots.strategy import (
    ClueAction,
    RandomStrategy,
    SmartStrategy,
    SubmitAction,
    VoteAction,
    card_words,
    choose_clue,
    choose_submission,
    choose_vote,
    clue_allowed,
    decide,
    legal,
    to_command,
)
from dixit_tui.bots.strategy_names import strategy_named
from dixit_tui.bots.view import BotView
from dixit_tui.decks import resolve_decks
from dixit_tui.engine import (
    Card,
    GameConfig,
    GameState,
    Mode,
    Phase,
    PlayerView,
    Profile,
    RuleError,
    VoidTurn,
    fold,
    new_game,
    view_for,
)
from dixit_tui.engine import decide as engine_decide
from dixit_tui.protocol.views import game_fields

CARDS = resolve_decks(["base"])

CONFIGS = [
    (Mode.STANDARD, Profile.REFRESH, 3),
    (Mode.STANDARD, Profile.REFRESH, 5),
    (Mode.STANDARD, Profile.REFRESH, 8),
    (Mode.STANDARD, Profile.ODYSSEY, 4),
    (Mode.STANDARD, Profile.ODYSSEY, 7),
    (Mode.STANDARD, Profile.ODYSSEY, 12),
    (Mode.PARTY, Profile.ODYSSEY, 6),
    (Mode.PARTY, Profile.ODYSSEY, 9),
    (Mode.TEAM, Profile.ODYSSEY, 6),
    (Mode.TEAM, Profile.ODYSSEY, 10),
]


def owed_views(
    mode: Mode, profile: Profile, players: int, seed: int, voids: bool = False
) -> Iterator[tuple[GameState, int, PlayerView]]:
    """Every (state, seat, view) where a seat owes an action, along a game played half smart and half random.
    With `voids`, the host sometimes voids the turn (the brains are told, as the coordinator's update would)."""
    config = GameConfig(mode, profile, target=15)
    state, _ = new_game(config, [f"p{i}" for i in range(players)], CARDS, seed=seed)
    rng = random.Random(seed)
    brains = [
        Brain(SmartStrategy() if i % 2 else RandomStrategy(), random.Random(seed * 100 + i)) for i in range(players)
    ]
    for _ in range(5_000):
        if state.phase is Phase.OVER:
            return
        if voids and state.phase is not Phase.CLUE and rng.random() < 0.03:
            turn = state.turn.number
            state = fold(engine_decide(state, VoidTurn(state.host)), state)
            for brain in brains:
                brain.voided(turn)
            continue
        seat = rng.choice(state.waiting_for())
        view = view_for(state, seat)
        yield state, seat, view
        decided = brains[seat].next_action(BotView.from_player_view(view))
        assert decided is not None, (state.phase, seat)
        key, action = decided
        state = fold(engine_decide(state, to_command(action, seat)), state)  # the engine accepts it
        brains[seat].accepted(key)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("mode, profile, players", CONFIGS, ids=lambda v: getattr(v, "value", v))
def test_both_strategies_are_legal_in_every_mode(mode: Mode, profile: Profile, players: int) -> None:
    checked = {"clue": 0, "submit": 0, "vote": 0}
    for seed in (1, 2):
        for state, seat, view in owed_views(mode, profile, players, seed):
            bot = BotView.from_player_view(view)
            need = bot.needed()
            assert need is not None
            checked[need] += 1
            for strategy in (SmartStrategy(), RandomStrategy()):
                rng = random.Random(seat)
                action = decide(view, strategy, rng)
                assert action is not None and legal(bot, action)
                engine_decide(state, to_command(action, seat))  # raises if the rules refuse it
                if need == "clue":
                    text, card = strategy.choose_clue(view, random.Random(seat))
                    if mode is Mode.PARTY:
                        assert (card is None and view.hand == ()) or not view.hand_hidden
                        assert card is None
                    else:
                        assert card in {c.card for c in view.hand}
                        assert clue_allowed(text, state.cards[card].text), (text, state.cards[card].text)
                elif need == "submit":
                    cards = strategy.choose_submission(view, random.Random(seat))
                    assert len(cards) == view.submit_count == (2 if mode is Mode.STANDARD and players == 3 else 1)
                    assert len(set(cards)) == len(cards) and set(cards) <= {c.card for c in view.hand}
                else:
                    slots, red = strategy.choose_vote(view, random.Random(seat))
                    assert 1 <= len(slots) <= view.votes_allowed and len(set(slots)) == len(slots)
                    assert not set(slots) & set(view.forbidden_slots)
                    assert all(1 <= s <= len(view.board) for s in slots)
                    assert (red is not None) == view.places_red
                    if red is not None:
                        assert 1 <= red <= len(view.board)
    assert all(checked.values()), checked


def test_party_clues_are_given_blind_and_without_a_card() -> None:
    seen = 0
    for _, _, view in owed_views(Mode.PARTY, Profile.ODYSSEY, 7, seed=4):
        if view.can_clue:
            assert view.hand == () and view.hand_hidden
            text, card = choose_clue(view, random.Random(seen))
            assert card is None and text.strip()
            seen += 1
    assert seen >= 7


def test_smart_clues_relate_to_their_card_but_copy_no_word_of_it() -> None:
    rng = random.Random(3)
    related = 0
    for n, card in enumerate(CARDS):
        others = [c for c in CARDS if c.id != card.id]
        hand = [card, *rng.sample(others, 5)]
        view = _clue_view(hand)
        text, chosen = choose_clue(view, random.Random(n))
        chosen_text = next(c.text for c in hand if c.id == chosen)
        banned = card_words(chosen_text)
        assert not any(w in banned for w in words(text)), (text, chosen_text)
        assert normalise(text) != normalise(chosen_text)
        related += fit(text, chosen_text) > 0.0
    assert related == len(CARDS)  # every card of the base deck gets a clue that fits it


def _clue_view(hand: list[Card]) -> BotView:
    from dixit_tui.bots.view import BotCard

    return BotView(
        mode="standard",
        phase="clue",
        turn=1,
        you=0,
        players=4,
        storyteller=0,
        clue=None,
        hand=tuple(BotCard(c.id, c.text) for c in hand),
        board=(),
        votes_allowed=1,
        forbidden_slots=(),
        your_cards=(),
        your_votes=(),
        waiting_for=(0,),
        can_clue=True,
        clue_needs_card=True,
        submit_count=0,
        can_vote=False,
        places_red=False,
    )


def test_smart_submits_and_votes_for_the_best_fit() -> None:
    from dixit_tui.bots.view import BotCard, BotSlot

    base = _clue_view([c for c in CARDS[:6]])
    sea = BotCard("x-sea", "Waves break on the shore at low tide.")
    view = BotView(
        **{
            **_fields(base),
            "phase": "submit",
            "clue": "ocean",
            "hand": (*base.hand[:5], sea),
            "can_clue": False,
            "submit_count": 1,
            "storyteller": 1,
        }
    )
    assert choose_submission(view, random.Random(0)) == ["x-sea"]
    board = (
        BotSlot(1, "a", "A mountain in the snow."),
        BotSlot(2, "b", "A beach at high tide."),
        BotSlot(3, "c", "Foam on the ocean waves."),
    )
    vote = BotView(
        **{
            **_fields(base),
            "phase": "vote",
            "clue": "sea",
            "board": board,
            "can_clue": False,
            "can_vote": True,
            "storyteller": 1,
            "forbidden_slots": (3,),
        }
    )
    picks = [choose_vote(vote, random.Random(i))[0] for i in range(20)]
    assert all(p == [2] for p in picks)  # never the forbidden slot 3, though it fits best


def _fields(view: BotView) -> dict[str, Any]:
    return {name: getattr(view, name) for name in view.__dataclass_fields__}


def test_two_votes_when_close_at_odyssey_seven_plus() -> None:
    twos = 0
    for _, _, view in owed_views(Mode.STANDARD, Profile.ODYSSEY, 8, seed=5):
        if view.can_vote:
            assert view.votes_allowed == 2
            slots, _ = choose_vote(view, random.Random(len(view.board)))
            twos += len(slots) == 2
    assert twos > 0


def test_party_storyteller_places_red_away_from_its_green_vote() -> None:
    count = 0
    for _, _, view in owed_views(Mode.PARTY, Profile.ODYSSEY, 6, seed=6):
        if view.places_red:
            slots, red = choose_vote(view, random.Random(count))
            assert red is not None and red not in slots
            count += 1
    assert count >= 6


def test_protocol_and_engine_views_agree() -> None:
    """BotView.from_protocol(state message) says what BotView.from_player_view says, for every owed decision."""
    for mode, profile, players in CONFIGS:
        for _, _, view in owed_views(mode, profile, players, seed=7):
            a = BotView.from_player_view(view)
            b = BotView.from_protocol({"type": "state", "table": "K7QF", **game_fields(view)})
            assert a.needed() == b.needed()
            assert (a.hand, a.board, a.clue, a.votes_allowed, a.forbidden_slots) == (
                b.hand,
                b.board,
                b.clue,
                b.votes_allowed,
                b.forbidden_slots,
            )
            assert (a.submit_count, a.places_red, a.clue_needs_card, a.players) == (
                b.submit_count,
                b.places_red,
                b.clue_needs_card,
                b.players,
            )


def test_voided_turns_are_retold_with_another_card() -> None:
    for mode, profile, players in [(Mode.STANDARD, Profile.REFRESH, 4), (Mode.TEAM, Profile.ODYSSEY, 6)]:
        for seed in range(3):
            for _ in owed_views(mode, profile, players, seed, voids=True):
                pass  # owed_views asserts that the engine accepts every move


def test_a_refused_clue_card_is_avoided_and_retried_randomly() -> None:
    view = _clue_view(list(CARDS[:6]))
    brain = Brain(SmartStrategy(), random.Random(1))
    key, first = brain.next_action(view) or (None, None)
    assert isinstance(first, ClueAction) and key is not None
    assert brain.next_action(view) is None  # in flight: not twice
    brain.refused(key, first, "bad_card")
    _, second = brain.next_action(view) or (None, None)
    assert isinstance(second, ClueAction) and second.card != first.card


def test_illegal_strategy_answers_fall_back_to_random_legal_moves() -> None:
    class Broken(RandomStrategy):
        name = "broken"

        def choose_vote(self, view, rng):  # type: ignore[no-untyped-def]
            return [99], None

        def choose_submission(self, view, rng):  # type: ignore[no-untyped-def]
            return ["nope"]

    for state, seat, view in owed_views(Mode.STANDARD, Profile.REFRESH, 4, seed=8):
        action = decide(view, Broken(), random.Random(0))
        assert action is not None and legal(BotView.from_player_view(view), action)
        assert isinstance(action, ClueAction | SubmitAction | VoteAction)
        engine_decide(state, to_command(action, seat))


def test_strategy_names() -> None:
    assert strategy_named("smart").name == "smart" and strategy_named("random").name == "random"
    with pytest.raises(ValueError, match="unknown strategy"):
        strategy_named("clever")


def test_rule_errors_are_what_the_engine_raises() -> None:
    state, _ = new_game(GameConfig(), ["a", "b", "c", "d"], CARDS, seed=1)
    with pytest.raises(RuleError):
        engine_decide(state, to_command(VoteAction((1,)), 0))
