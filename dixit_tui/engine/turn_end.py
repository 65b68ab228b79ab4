"""The end of a turn: the reveal scored, then the game ended, or the hands refilled and the next turn begun."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from dixit_tui.engine.config import PARTY, STANDARD, TEAM, FirstStoryteller
from dixit_tui.engine.draft import Draft
from dixit_tui.engine.events import (
    CardsDrawn,
    DrawPileReshuffled,
    GameEnded,
    HandsPassed,
    PracticeEnded,
    StorytellerChosen,
    TurnBegan,
    TurnScored,
)
from dixit_tui.engine.reveal import Points, Reveal, SlotResult
from dixit_tui.engine.rng import rng_for, shuffled
from dixit_tui.engine.scoring import score_party, score_seats, score_units
from dixit_tui.engine.state import GameState
from dixit_tui.engine.state_copy import FORGOTTEN


def leaders(state: GameState, seats: Sequence[int]) -> tuple[int, ...]:
    if not seats:
        return ()
    best = max(state.scores[s] for s in seats)
    return tuple(s for s in seats if state.scores[s] == best)


def end_turn(draft: Draft) -> None:
    """Score, then either end the game or discard, refill, (party) pass hands, and begin the next turn."""
    state = draft.state
    if state.practice:
        _end_practice(draft)
        return
    draft.emit(TurnScored(_score(state)))
    if game_finished(state):
        draft.emit(GameEnded(leaders(state, state.active_seats())))
        return
    _refill(draft)
    if state.config.mode is PARTY:
        draft.emit(HandsPassed())
    teller = state.turn.storyteller
    assert teller is not None
    draft.emit(TurnBegan(state.turn.number + 1, state.next_active(teller)))


def _end_practice(draft: Draft) -> None:
    """The practice turn's reveal shows what each player would have scored (their scores do not change); then a
    fresh shuffle of every card is dealt again, and turn 1 begins (with a random storyteller if the table asked)."""
    after = draft.state
    reveal = _score(after)
    points = tuple(replace(p, score=after.scores[p.seat]) for p in reveal.points)
    draft.emit(TurnScored(replace(reveal, points=points)))
    draft.emit(PracticeEnded(shuffled(after.cards, after.seed, after.rng_draws)))
    if after.config.first is FirstStoryteller.RANDOM:
        seats = after.active_seats()
        draft.emit(StorytellerChosen(seats[rng_for(after.seed, after.rng_draws).randrange(len(seats))]))


def game_finished(state: GameState) -> bool:
    seats, config = state.active_tuple(), state.config
    if config.mode is STANDARD:
        scores, target = state.scores, config.target
        if len(seats) == len(scores):  # everyone is still in
            return max(scores) >= target
        return any([scores[seat] >= target for seat in seats])
    told, storytells = state.told, config.storytells
    return all(told[s] >= storytells for s in seats)


def _refill(draft: Draft) -> None:
    """Everyone draws back to hand size. If the pile cannot supply everyone, it is first shuffled together with the
    discard pile into a new draw pile (running out never ends the game). The CardsDrawn are folded in at once: the
    same state as folding them one by one, with the hands rebuilt once."""
    state = draft.state
    size, hands, seats = state.rules.hand_size, state.hands, state.active_tuple()
    if len(seats) == len(hands):  # everyone is still in
        short = size * len(hands) - sum(map(len, hands))
    else:
        short = sum([size - len(hands[seat]) for seat in seats])
    if short > len(state.draw_pile):
        draft.emit(DrawPileReshuffled(shuffled((*state.draw_pile, *state.discard), state.seed, state.rng_draws)))
    pile, events = state.draw_pile, draft.events
    new_hands = list(hands)
    top = drawn = 0
    for seat in seats:
        need = size - len(hands[seat])
        if need > 0:
            cards = pile[top : top + need]
            events.append(CardsDrawn(seat, cards))
            new_hands[seat] = hands[seat] + cards
            top += need
            drawn += 1
    if drawn:
        f = state.__dict__
        f["hands"] = tuple(new_hands)
        f["draw_pile"] = pile[top:]
        f["version"] += drawn
        f.update(FORGOTTEN)


def _score(state: GameState) -> Reveal:
    turn = state.turn
    teller = turn.storyteller
    assert teller is not None and turn.clue is not None
    owner_of = {card: seat for seat, cards in turn.submissions.items() for card in cards}
    if turn.clue_card is not None:
        owner_of[turn.clue_card] = teller  # as GameState.owner_of, for every card at once
    board, votes = turn.board, turn.votes
    owners = list(map(owner_of.get, board))  # by slot - 1
    voters_on: list[list[int]] = [[] for _ in board]  # by slot - 1
    for voter in sorted(votes):
        for slot in votes[voter]:
            voters_on[slot - 1].append(voter)
    texts, red = state.cards, turn.red
    slots = tuple(
        [
            SlotResult(slot, card, owner or 0, tuple(on), slot == red, texts[card].text)
            for slot, card, owner, on in zip(range(1, len(board) + 1), board, owners, voters_on, strict=True)
        ]
    )
    seats = state.active_tuple()
    points: list[Points] = []
    if state.config.mode is PARTY:
        assert turn.red is not None
        green = {seat: slots_[0] for seat, slots_ in turn.votes.items()}
        got = score_party(green, turn.red)
        outcome = "party"
        for seat in seats:
            delta = got.get(seat, 0)
            points.append(Points(seat, party=delta, delta=delta, score=state.scores[seat] + delta))
    else:
        assert turn.clue_card is not None
        teller_slot = board.index(turn.clue_card) + 1
        rules, scores = state.rules, state.scores
        if state.config.mode is TEAM:
            team_of = state.team_of
            outcome, units = score_units(
                seats=seats,
                storyteller=teller,
                teller_slot=teller_slot,
                owners={slot: owner for slot, owner in enumerate(owners, start=1) if owner is not None},
                votes=votes,
                bonus_cap=rules.bonus_cap,
                single_vote_extra=rules.single_vote_extra,
                unit_of=lambda s: team_of(s) or 0,
            )
            for seat in seats:
                pass1, bonus_raw, bonus, extra = units[team_of(seat) or 0]
                total = pass1 + bonus + extra
                points.append(Points(seat, pass1, bonus_raw, bonus, extra, 0, total, scores[seat] + total))
        else:
            outcome, pass1s, raws, extras = score_seats(
                len(scores), seats, teller, teller_slot, owners, votes, rules.single_vote_extra
            )
            cap = rules.bonus_cap
            for seat in seats:
                pass1, bonus_raw, extra = pass1s[seat], raws[seat], extras[seat]
                bonus = bonus_raw if cap is None or bonus_raw <= cap else cap
                total = pass1 + bonus + extra
                points.append(Points(seat, pass1, bonus_raw, bonus, extra, 0, total, scores[seat] + total))
    return Reveal(turn.number, teller, turn.clue, outcome, slots, tuple(points))
