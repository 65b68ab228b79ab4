"""The state as a fold of events: `apply` folds one event in, `fold` many. Pure: the state given is never
changed; the events are folded into one private copy of it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import MappingProxyType
from typing import Any

from dixit_tui.engine.config import PARTY, TEAM, rules_for
from dixit_tui.engine.events import (
    BoardLaidOut,
    CardsDrawn,
    CardsSubmitted,
    ClueGiven,
    DrawPileReshuffled,
    Event,
    GameEnded,
    GameStarted,
    HandsPassed,
    HostPassed,
    PlayerRemoved,
    PracticeEnded,
    StorytellerChosen,
    TurnBegan,
    TurnScored,
    TurnVoided,
    VoteCast,
)
from dixit_tui.engine.state import CLUE, OVER, SUBMIT, VOTE, GameState, Turn
from dixit_tui.engine.state_copy import FORGOTTEN, UNKNOWN, copy_state, evolve

_new = object.__new__
_set = object.__setattr__


def fold(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """The state after `events` (from `state`, or from the GameStarted they begin with). Pure: `state` is never
    changed; the events are folded into one private copy of it."""
    own: GameState | None = None  # the copy this call made, still free to fill in
    for event in events:
        if type(event) is GameStarted:
            state = own = _apply_start(event)
            continue
        if state is None:
            raise ValueError("a game needs a GameStarted event first")
        if own is not state:
            state = own = copy_state(state)
        apply_into(state, event)
    if state is None:
        raise ValueError("a game needs a GameStarted event first")
    return state


def _with_hand(hands: tuple[tuple[str, ...], ...], seat: int, hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    new = list(hands)
    new[seat] = hand
    return tuple(new)


def _without(hand: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...]:
    if len(cards) == 1 and cards[0] in hand:  # the usual case: one card, given from the hand
        i = hand.index(cards[0])
        return hand[:i] + hand[i + 1 :]
    gone = set(cards)
    return tuple(c for c in hand if c not in gone)


def apply(state: GameState | None, event: Event) -> GameState:
    """Fold one event in. Pure: returns a new state."""
    if type(event) is GameStarted:
        return _apply_start(event)
    if state is None:
        raise ValueError("a game needs a GameStarted event first")
    new = copy_state(state)
    apply_into(new, event)
    return new


def _apply_start(e: GameStarted) -> GameState:
    config = e.config.normalized()
    rules = rules_for(config, len(e.names))
    n, h = len(e.names), rules.hand_size
    hands = tuple(tuple(e.order[i * h : (i + 1) * h]) for i in range(n))
    if e.practice and not 0 <= e.host < n:
        raise ValueError("GameStarted: the practice turn's storyteller (the host) is not a seat")
    state = GameState(
        config=config,
        rules=rules,
        names=e.names,
        active=(True,) * n,
        host=e.host,
        cards=MappingProxyType({c.id: c for c in e.cards}),
        hands=hands,
        draw_pile=tuple(e.order[n * h :]),
        discard=(),
        scores=(0,) * n,
        told=(0,) * n,
        phase=CLUE,
        turn=Turn(number=0, storyteller=e.host) if e.practice else Turn(number=1, storyteller=None),
        seed=e.seed,
        rng_draws=1,
        version=1,
        practice=e.practice,
    )
    state.__dict__.update(UNKNOWN)
    return state


# Each `_on_...` folds one event into `s`, a copy of the state that nobody else holds yet (`fold`, `apply` and
# `step` make it), by replacing entries of its field dict `f` (= s.__dict__). They read the state only through `s`
# and `f`, as it is before the event, and never change an object the old state shares (tuples, turns, mappings).
Fields = dict[str, Any]


def _on_storyteller_chosen(s: GameState, f: Fields, e: StorytellerChosen) -> None:
    f["turn"] = evolve(s.turn, storyteller=e.seat)
    f["rng_draws"] = s.rng_draws + 1


def _fold_clue(s: GameState, f: Fields, e: ClueGiven) -> None:
    """Fold a ClueGiven in, with the version and the remembered answers (see apply_into): outside team mode the
    seats that give a card next are known at once (every seat still in but the storyteller; in party mode, every
    seat)."""
    seat, card = e.seat, e.card
    if card is not None:
        f["hands"] = _with_hand(s.hands, seat, _without(s.hands[seat], (card,)))
    f["phase"] = SUBMIT
    turn = s.turn
    f["turn"] = evolve(turn, storyteller=seat, clue=e.text, clue_card=card)
    f["version"] += 1
    f.update(FORGOTTEN)
    mode = s.config.mode
    if mode is not TEAM and not turn.submissions:  # GameState._waiting_for, for a turn with no card in yet
        active = s.active_tuple()
        f["_waiting"] = active if mode is PARTY else tuple([other for other in active if other != seat])


def fold_submission(s: GameState, f: Fields, e: CardsSubmitted) -> None:
    """Fold a CardsSubmitted in, with the version and the remembered answers (see apply_into): the one event
    of most commands, folded without the generic bookkeeping."""
    seat, cards = e.seat, e.cards
    hands = list(s.hands)
    hand = hands[seat]
    if len(cards) == 1 and cards[0] in hand:  # _without(hand, cards), inlined for the usual case
        i = hand.index(cards[0])
        hands[seat] = hand[:i] + hand[i + 1 :]
    else:
        hands[seat] = _without(hand, cards)
    f["hands"] = tuple(hands)
    turn = s.turn
    fields_ = turn.__dict__.copy()  # evolve(turn, submissions=...), inlined: it runs for every card given
    submissions = turn.submissions.copy()  # type: ignore[attr-defined]  # the proxy copies its dict
    submissions[seat] = cards
    fields_["submissions"] = MappingProxyType(submissions)
    new = _new(Turn)
    _set(new, "__dict__", fields_)
    f["turn"] = new
    f["version"] += 1
    waiting = f.get("_waiting")
    f.update(FORGOTTEN)
    if waiting is None or s.phase is not SUBMIT or s.config.mode is TEAM:
        return
    if seat in waiting:  # outside team mode the seats that may submit are those that could before, but this one
        i = waiting.index(seat)
        waiting = waiting[:i] + waiting[i + 1 :]
    f["_waiting"] = waiting


def _on_board_laid_out(s: GameState, f: Fields, e: BoardLaidOut) -> None:
    f["phase"] = VOTE
    f["turn"] = evolve(s.turn, board=e.order)
    f["rng_draws"] = s.rng_draws + 1


def fold_vote(s: GameState, f: Fields, e: VoteCast) -> None:
    """Fold a VoteCast in, with the version and the remembered answers (see apply_into): a vote changes neither
    who votes nor the forbidden slots, so only the answers `_waiting` and `_public` are forgotten."""
    turn, seat = s.turn, e.seat
    fields_ = turn.__dict__.copy()  # evolve(turn, votes=..., red=...), inlined: it runs for every vote
    votes = turn.votes.copy()  # type: ignore[attr-defined]  # the proxy copies its dict
    votes[seat] = e.slots
    fields_["votes"] = MappingProxyType(votes)
    if e.red is not None:
        fields_["red"] = e.red
    new = _new(Turn)
    _set(new, "__dict__", fields_)
    f["turn"] = new
    f["version"] += 1
    f["_public"] = None
    waiting = f.get("_waiting")
    if waiting is None:
        return
    if s.phase is not VOTE:
        f["_waiting"] = None
    elif seat in waiting:  # who had not voted, but this one
        i = waiting.index(seat)
        f["_waiting"] = waiting[:i] + waiting[i + 1 :]


def _on_turn_scored(s: GameState, f: Fields, e: TurnScored) -> None:
    turn, reveal = s.turn, e.reveal
    # the shown cards go to the discard pile; the turn keeps only its public facts
    f["discard"] = (*s.discard, *turn.board)
    f["last_reveal"] = reveal
    f["turn"] = Turn(number=turn.number, storyteller=turn.storyteller, clue=turn.clue)
    if s.practice:  # nothing counts: scores, turns told and history stay
        return
    scores = list(s.scores)
    for p in reveal.points:
        scores[p.seat] = p.score
    told = list(s.told)
    told[reveal.storyteller] += 1
    f["scores"] = tuple(scores)
    f["told"] = tuple(told)
    f["history"] = (*s.history, reveal)


def _on_draw_pile_reshuffled(s: GameState, f: Fields, e: DrawPileReshuffled) -> None:
    f["draw_pile"] = e.order
    f["discard"] = ()
    f["rng_draws"] = s.rng_draws + 1


def _on_cards_drawn(s: GameState, f: Fields, e: CardsDrawn) -> None:
    cards, pile = e.cards, s.draw_pile
    if pile[: len(cards)] != cards:
        raise ValueError("CardsDrawn does not match the top of the draw pile")
    f["hands"] = _with_hand(s.hands, e.seat, (*s.hands[e.seat], *cards))
    f["draw_pile"] = pile[len(cards) :]


def _on_hands_passed(s: GameState, f: Fields, e: HandsPassed) -> None:
    passed = {s.next_active(seat): s.hands[seat] for seat in s.active_seats()}
    f["hands"] = tuple(passed.get(seat, hand) for seat, hand in enumerate(s.hands))


def _on_turn_began(s: GameState, f: Fields, e: TurnBegan) -> None:
    f["phase"] = CLUE
    f["turn"] = Turn(number=e.number, storyteller=e.storyteller)


def _on_turn_voided(s: GameState, f: Fields, e: TurnVoided) -> None:
    turn = s.turn
    hands = s.hands
    for seat in s.seats:
        given = s.given_by(seat)
        if given:
            hands = _with_hand(hands, seat, (*hands[seat], *given))
    f["hands"] = hands
    f["phase"] = CLUE
    f["turn"] = Turn(number=turn.number, storyteller=turn.storyteller, voided_card=turn.clue_card)


def _on_player_removed(s: GameState, f: Fields, e: PlayerRemoved) -> None:
    seat = e.seat
    discard = (*s.discard, *s.hands[seat])
    f["active"] = tuple(a and i != seat for i, a in enumerate(s.active))
    f["_active"] = None
    f["host"] = e.host
    f["hands"] = _with_hand(s.hands, seat, ())
    f["discard"] = discard
    f["turn"] = evolve(s.turn, storyteller=e.storyteller)


def _on_host_passed(s: GameState, f: Fields, e: HostPassed) -> None:
    f["host"] = e.host


def _on_practice_ended(s: GameState, f: Fields, e: PracticeEnded) -> None:
    order = e.order
    h = s.rules.hand_size
    if sorted(order) != sorted(s.cards):
        raise ValueError("PracticeEnded must shuffle every card of the game")
    dealt_hands: list[tuple[str, ...]] = []
    dealt = 0
    for seat in s.seats:
        dealt_hands.append(tuple(order[dealt : dealt + h]) if s.active[seat] else ())
        dealt += h if s.active[seat] else 0
    n = len(s.names)
    f.update(
        hands=tuple(dealt_hands),
        draw_pile=tuple(order[dealt:]),
        discard=(),
        scores=(0,) * n,
        told=(0,) * n,
        phase=CLUE,
        turn=Turn(number=1, storyteller=None),
        rng_draws=s.rng_draws + 1,
        practice=False,
    )


def _on_game_ended(s: GameState, f: Fields, e: GameEnded) -> None:
    f["phase"] = OVER
    f["winners"] = e.winners


_APPLY: dict[type, Callable[[GameState, Fields, Any], None]] = {
    StorytellerChosen: _on_storyteller_chosen,
    BoardLaidOut: _on_board_laid_out,
    TurnScored: _on_turn_scored,
    DrawPileReshuffled: _on_draw_pile_reshuffled,
    CardsDrawn: _on_cards_drawn,
    HandsPassed: _on_hands_passed,
    TurnBegan: _on_turn_began,
    TurnVoided: _on_turn_voided,
    PlayerRemoved: _on_player_removed,
    HostPassed: _on_host_passed,
    PracticeEnded: _on_practice_ended,
    GameEnded: _on_game_ended,
}


# The events folded by rules that also count the version and forget what they change of the remembered answers.
_FOLD_WHOLE: dict[type, Callable[[GameState, Fields, Any], None]] = {
    ClueGiven: _fold_clue,
    CardsSubmitted: fold_submission,
    VoteCast: fold_vote,
}


def apply_into(s: GameState, e: Event) -> None:
    """Fold one event (not GameStarted) into `s`, a copy no one else holds yet."""
    f = s.__dict__
    whole = _FOLD_WHOLE.get(type(e))
    if whole is not None:
        whole(s, f, e)
        return
    on = _APPLY.get(type(e))
    if on is None:
        raise ValueError(f"unknown event {e!r}")
    on(s, f, e)
    f["version"] += 1
    f.update(FORGOTTEN)  # the answers remembered about the state before the event
