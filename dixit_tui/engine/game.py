"""The rules: `decide` checks a command against the state and returns events; `apply` folds one event in.

Both are pure. `decide` never changes the state it is given; an illegal command raises a RuleError. Randomness
comes from the seed in the state and a draw counter, and its outcome is written into the events, so a replay of
the events never needs the random generator.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import fields
from types import MappingProxyType
from typing import Any, TypeVar

from dixit_tui.engine.cards import Card
from dixit_tui.engine.commands import Command, GiveClue, RemovePlayer, Submit, VoidTurn, Vote
from dixit_tui.engine.config import CLUE_MAX_LEN, FirstStoryteller, GameConfig, Mode, rules_for
from dixit_tui.engine.errors import (
    BadCard,
    BadClue,
    BadVote,
    ConfigError,
    GameOver,
    NotHost,
    NotYourTurn,
    RuleError,
    WrongPhase,
)
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
    PlayerRemoved,
    PracticeEnded,
    StorytellerChosen,
    TurnBegan,
    TurnScored,
    TurnVoided,
    VoteCast,
)
from dixit_tui.engine.reveal import Points, Reveal, SlotResult
from dixit_tui.engine.scoring import score_party, score_standard
from dixit_tui.engine.state import GameState, Phase, Turn

# --- copying frozen states -----------------------------------------------------------------------------------

_FIELDS: dict[type, tuple[str, ...]] = {}
T = TypeVar("T")


def _evolve(obj: T, **changes: Any) -> T:
    """Like dataclasses.replace for our frozen, slotted states, without re-running __init__ (3.6 vs 7.4 us)."""
    cls = type(obj)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    new = object.__new__(cls)
    for name in names:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(obj, name))
    return new


# --- randomness ------------------------------------------------------------------------------------------------


def _rng(seed: int, draws: int) -> random.Random:
    return random.Random(f"dixit:{seed}:{draws}")


def _shuffled(items: Iterable[str], seed: int, draws: int) -> tuple[str, ...]:
    out = list(items)
    _rng(seed, draws).shuffle(out)
    return tuple(out)


# --- starting a game -------------------------------------------------------------------------------------------


def start(
    config: GameConfig,
    names: Sequence[str],
    cards: Sequence[Card],
    seed: int,
    host: int = 0,
    *,
    practice: bool = False,
) -> list[Event]:
    """The events that open a game: deal, and (if the table asked) a random first storyteller.

    With `practice`, turn 0 is a practice turn told by the host: played like any turn, but nothing it scores
    counts; then every card is dealt again from a fresh shuffle and turn 1 begins as a game without practice would."""
    config = config.normalized()
    rules = rules_for(config, len(names))
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        raise ConfigError("Two cards share an id; every card needs its own.")
    need = rules.players * rules.hand_size
    if len(cards) < need:
        raise ConfigError(
            f"The deck has {len(cards)} cards but {rules.players} players x {rules.hand_size} cards need {need}."
        )
    if not 0 <= host < len(names):
        raise ConfigError("The host must be one of the players.")
    order = _shuffled(ids, seed, 0)
    events: list[Event] = [GameStarted(config, tuple(names), tuple(cards), seed, order, host, practice)]
    state = fold(events)
    if config.first is FirstStoryteller.RANDOM and not practice:
        events.append(StorytellerChosen(_rng(seed, state.rng_draws).randrange(len(names))))
    return events


def new_game(
    config: GameConfig, names: Sequence[str], cards: Sequence[Card], seed: int, host: int = 0
) -> tuple[GameState, list[Event]]:
    events = start(config, names, cards, seed, host)
    return fold(events), events


def fold(events: Iterable[Event], state: GameState | None = None) -> GameState:
    for event in events:
        state = apply(state, event)
    if state is None:
        raise ValueError("a game needs a GameStarted event first")
    return state


# --- decide ----------------------------------------------------------------------------------------------------


def decide(state: GameState, command: Command) -> list[Event]:
    """Check `command` and return the events it causes (possibly a whole end of turn). Raises RuleError."""
    if state.phase is Phase.OVER:
        raise GameOver("The game is over.")
    seat = command.seat
    if not (0 <= seat < len(state.names)) or not state.active[seat]:
        raise NotYourTurn("You are not playing at this table.")
    match command:
        case GiveClue():
            return _decide_clue(state, command)
        case Submit():
            return _decide_submit(state, command)
        case Vote():
            return _decide_vote(state, command)
        case VoidTurn():
            return _decide_void(state, command)
        case RemovePlayer():
            return _decide_remove(state, command)
    raise RuleError(f"Unknown command {command!r}.")  # pragma: no cover


def _decide_clue(state: GameState, cmd: GiveClue) -> list[Event]:
    if state.phase is not Phase.CLUE:
        raise WrongPhase("The clue has already been given this turn.")
    teller = state.turn.storyteller
    if teller is not None and cmd.seat != teller:
        raise NotYourTurn(f"Only the storyteller ({state.names[teller]}) gives the clue.")
    text = " ".join(cmd.text.split())
    if not text:
        raise BadClue("A clue cannot be empty: a word, a sound, a line of a song, anything.")
    if len(text) > CLUE_MAX_LEN:
        raise BadClue(f"A clue can be at most {CLUE_MAX_LEN} characters.")
    if state.config.mode is Mode.PARTY:
        if cmd.card is not None:
            raise BadCard("In party mode the clue refers to no card: give the clue alone.")
    else:
        if cmd.card is None:
            raise BadCard("Choose one card from your hand to go with your clue.")
        if cmd.card not in state.hands[cmd.seat]:
            raise BadCard("That card is not in your hand.")
        if cmd.card == state.turn.voided_card:
            raise BadCard("This turn was voided: choose a different card for your new clue.")
    return _lay_board_if_complete(state, [ClueGiven(cmd.seat, text, cmd.card)])


def _decide_submit(state: GameState, cmd: Submit) -> list[Event]:
    if state.phase is not Phase.SUBMIT:
        raise WrongPhase("This is not the time to give cards.")
    if not state.may_submit(cmd.seat):
        raise NotYourTurn(_why_no_submit(state, cmd.seat))
    want = 1 if state.config.mode is not Mode.STANDARD else state.rules.submit_count
    cards = tuple(cmd.cards)
    if len(cards) != want:
        raise BadCard(f"Give exactly {want} card{'s' if want > 1 else ''}.")
    if len(set(cards)) != len(cards):
        raise BadCard("Give two different cards.")
    if any(c not in state.hands[cmd.seat] for c in cards):
        raise BadCard("That card is not in your hand.")
    return _lay_board_if_complete(state, [CardsSubmitted(cmd.seat, cards)])


def _lay_board_if_complete(state: GameState, events: list[Event]) -> list[Event]:
    """Once every card is in, shuffle them into numbered slots (team mode may need none after the clue)."""
    after = fold(events, state)
    if after.submission_complete():
        given = [c for s in after.seats for c in after.given_by(s)]
        events.append(BoardLaidOut(_shuffled(given, after.seed, after.rng_draws)))
    return events


def _why_no_submit(state: GameState, seat: int) -> str:
    if seat in state.turn.submissions:
        return "You have already given your card; it is final."
    if seat == state.turn.storyteller:
        return "You are the storyteller: your card is already in."
    if state.config.mode is Mode.TEAM:
        if state.team_submitter(seat) is not None:
            return "Your teammate has given your team's card; you vote this turn."
        if state.partner(seat) is None:
            return "Your team has one player left, who votes."
        teller = state.turn.storyteller
        if teller is not None and seat in state.teammates(teller):
            return "Your team is telling this turn."
    return "You do not give a card this turn."


def _decide_vote(state: GameState, cmd: Vote) -> list[Event]:
    if state.phase is not Phase.VOTE:
        raise WrongPhase("Voting has not started yet.")
    if cmd.seat not in state.voters():
        if cmd.seat == state.turn.storyteller:
            raise NotYourTurn("The storyteller does not vote.")
        raise NotYourTurn("You do not vote this turn.")
    slots = tuple(cmd.slots)
    allowed = state.rules.votes_allowed
    if not 1 <= len(slots) <= allowed:
        raise BadVote("Vote for one card." if allowed == 1 else "Vote for one or two cards.")
    if len(set(slots)) != len(slots):
        raise BadVote("Your two votes must be on different cards.")
    size = len(state.turn.board)
    for slot in (*slots, *(() if cmd.red is None else (cmd.red,))):
        if not 1 <= slot <= size:
            raise BadVote(f"There is no card {slot}: the board has cards 1 to {size}.")
    forbidden = state.forbidden_slots(cmd.seat)
    if any(s in forbidden for s in slots):
        raise BadVote(
            "You cannot vote for your own card."
            if state.config.mode is not Mode.TEAM
            else "You cannot vote for your team's card."
        )
    party_teller = state.config.mode is Mode.PARTY and cmd.seat == state.turn.storyteller
    if party_teller and cmd.red is None:
        raise BadVote("As storyteller, place your red marker too.")
    if not party_teller and cmd.red is not None:
        raise BadVote("Only the party storyteller places the red marker.")
    events: list[Event] = [VoteCast(cmd.seat, slots, cmd.red)]
    after = apply(state, events[0])
    if not after.waiting_for():
        events.extend(_end_turn(after))
    return events


def _decide_void(state: GameState, cmd: VoidTurn) -> list[Event]:
    if cmd.seat != state.host:
        raise NotHost("Only the table's host can void the turn.")
    if state.phase is Phase.CLUE:
        raise WrongPhase("Nothing to void yet: no clue has been given this turn.")
    return [TurnVoided(state.turn.number)]


def _decide_remove(state: GameState, cmd: RemovePlayer) -> list[Event]:
    target = cmd.target
    if cmd.seat != state.host and cmd.seat != target:
        raise NotHost("Only the table's host can remove another player.")
    if not (0 <= target < len(state.names)) or not state.active[target]:
        raise NotYourTurn("That seat has no player.")
    events: list[Event] = []
    if state.phase in (Phase.SUBMIT, Phase.VOTE):
        events.append(TurnVoided(state.turn.number))
    after = fold(events, state)
    still = [s for s in after.active_seats() if s != target]
    host = after.host if after.host != target else after.next_active(target)
    teller = after.turn.storyteller
    if teller == target:
        teller = after.next_active(target)
    events.append(PlayerRemoved(target, host, teller))
    after = apply(after, events[-1])
    if _too_few(after) or _game_finished(after):  # e.g. the one who had not told yet has left
        # Nothing the practice turn scores counts: a game that ends during it has no winner.
        events.append(GameEnded(() if after.practice else _leaders(after, still)))
    return events


def _too_few(state: GameState) -> bool:
    if state.config.mode is Mode.TEAM:
        teams = {state.team_of(s) for s in state.active_seats()}
        return len(teams) < state.rules.min_players
    return len(state.active_seats()) < state.rules.min_players


def _leaders(state: GameState, seats: Sequence[int]) -> tuple[int, ...]:
    if not seats:
        return ()
    best = max(state.scores[s] for s in seats)
    return tuple(s for s in seats if state.scores[s] == best)


# --- end of a turn ---------------------------------------------------------------------------------------------


def _end_turn(state: GameState) -> list[Event]:
    """Score, then either end the game or discard, refill, (party) pass hands, and begin the next turn."""
    if state.practice:
        return _end_practice(state)
    events: list[Event] = [TurnScored(_score(state))]
    state = apply(state, events[0])
    if _game_finished(state):
        events.append(GameEnded(_leaders(state, state.active_seats())))
        return events
    refill = _refill(state)
    events.extend(refill)
    state = fold(refill, state)
    if state.config.mode is Mode.PARTY:
        events.append(HandsPassed())
    teller = state.turn.storyteller
    assert teller is not None
    events.append(TurnBegan(state.turn.number + 1, state.next_active(teller)))
    return events


def _end_practice(state: GameState) -> list[Event]:
    """The practice turn's reveal shows what each player would have scored (their scores do not change); then a
    fresh shuffle of every card is dealt again, and turn 1 begins (with a random storyteller if the table asked)."""
    reveal = _score(state)
    points = tuple(_evolve(p, score=state.scores[p.seat]) for p in reveal.points)
    events: list[Event] = [TurnScored(_evolve(reveal, points=points))]
    after = apply(state, events[0])
    events.append(PracticeEnded(_shuffled(after.cards, after.seed, after.rng_draws)))
    after = apply(after, events[-1])
    if after.config.first is FirstStoryteller.RANDOM:
        seats = after.active_seats()
        events.append(StorytellerChosen(seats[_rng(after.seed, after.rng_draws).randrange(len(seats))]))
    return events


def _game_finished(state: GameState) -> bool:
    seats = state.active_seats()
    if state.config.mode is Mode.STANDARD:
        return any(state.scores[s] >= state.config.target for s in seats)
    return all(state.told[s] >= state.config.storytells for s in seats)


def _refill(state: GameState) -> list[Event]:
    """Everyone draws back to hand size. If the pile cannot supply everyone, it is first shuffled together with the
    discard pile into a new draw pile (running out never ends the game)."""
    needs = {s: state.rules.hand_size - len(state.hands[s]) for s in state.active_seats()}
    events: list[Event] = []
    pile = state.draw_pile
    if sum(needs.values()) > len(pile):
        pile = _shuffled((*pile, *state.discard), state.seed, state.rng_draws)
        events.append(DrawPileReshuffled(pile))
    for seat, need in needs.items():
        if need > 0:
            events.append(CardsDrawn(seat, pile[:need]))
            pile = pile[need:]
    return events


def _score(state: GameState) -> Reveal:
    turn = state.turn
    teller = turn.storyteller
    assert teller is not None and turn.clue is not None
    owners = {i + 1: state.owner_of(card) for i, card in enumerate(turn.board)}
    voters_on: dict[int, list[int]] = {slot: [] for slot in owners}
    for voter in sorted(turn.votes):
        for slot in turn.votes[voter]:
            voters_on[slot].append(voter)
    slots = tuple(
        SlotResult(slot, card, owners[slot] or 0, tuple(voters_on[slot]), slot == turn.red, state.cards[card].text)
        for slot, card in enumerate(turn.board, start=1)
    )
    seats = state.active_seats()
    points: list[Points] = []
    if state.config.mode is Mode.PARTY:
        assert turn.red is not None
        green = {seat: slots_[0] for seat, slots_ in turn.votes.items()}
        got = score_party(green, turn.red)
        outcome = "party"
        for seat in seats:
            delta = got.get(seat, 0)
            points.append(Points(seat, party=delta, delta=delta, score=state.scores[seat] + delta))
    else:
        teller_slot = next(slot for slot, owner in owners.items() if turn.board[slot - 1] == turn.clue_card)
        unit_of = state.team_of if state.config.mode is Mode.TEAM else (lambda s: s)
        outcome, units = score_standard(
            seats=seats,
            storyteller=teller,
            teller_slot=teller_slot,
            owners={slot: owner for slot, owner in owners.items() if owner is not None},
            votes=dict(turn.votes),
            bonus_cap=state.rules.bonus_cap,
            single_vote_extra=state.rules.single_vote_extra,
            unit_of=lambda s: unit_of(s) or 0,
        )
        for seat in seats:
            u = units[unit_of(seat) or 0]
            points.append(
                Points(seat, u.pass1, u.bonus_raw, u.bonus, u.extra, 0, u.total, state.scores[seat] + u.total)
            )
    return Reveal(turn.number, teller, turn.clue, outcome, slots, tuple(points))


# --- apply -----------------------------------------------------------------------------------------------------


def _with_hand(hands: tuple[tuple[str, ...], ...], seat: int, hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return (*hands[:seat], hand, *hands[seat + 1 :])


def _without(hand: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...]:
    gone = set(cards)
    return tuple(c for c in hand if c not in gone)


def _frozen(mapping: dict[int, tuple[int, ...]] | dict[int, tuple[str, ...]]) -> MappingProxyType[int, Any]:
    return MappingProxyType(mapping)


def apply(state: GameState | None, event: Event) -> GameState:
    """Fold one event into the state. Pure: returns a new state."""
    if isinstance(event, GameStarted):
        return _apply_start(event)
    if state is None:
        raise ValueError("a game needs a GameStarted event first")
    new = _apply(state, event)
    # `new` is a fresh object no one else holds yet (every branch of _apply builds one): set its version in place
    # rather than copying the whole state a second time.
    assert new is not state
    object.__setattr__(new, "version", state.version + 1)
    return new


def _apply_start(e: GameStarted) -> GameState:
    config = e.config.normalized()
    rules = rules_for(config, len(e.names))
    n, h = len(e.names), rules.hand_size
    hands = tuple(tuple(e.order[i * h : (i + 1) * h]) for i in range(n))
    if e.practice and not 0 <= e.host < n:
        raise ValueError("GameStarted: the practice turn's storyteller (the host) is not a seat")
    return GameState(
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
        phase=Phase.CLUE,
        turn=Turn(number=0, storyteller=e.host) if e.practice else Turn(number=1, storyteller=None),
        seed=e.seed,
        rng_draws=1,
        version=1,
        practice=e.practice,
    )


def _apply(s: GameState, e: Event) -> GameState:
    turn = s.turn
    match e:
        case StorytellerChosen(seat=seat):
            return _evolve(s, turn=_evolve(turn, storyteller=seat), rng_draws=s.rng_draws + 1)
        case ClueGiven(seat=seat, text=text, card=card):
            hands = s.hands if card is None else _with_hand(s.hands, seat, _without(s.hands[seat], [card]))
            return _evolve(
                s,
                hands=hands,
                phase=Phase.SUBMIT,
                turn=_evolve(turn, storyteller=seat, clue=text, clue_card=card),
            )
        case CardsSubmitted(seat=seat, cards=cards):
            subs = _frozen({**turn.submissions, seat: cards})
            hands = _with_hand(s.hands, seat, _without(s.hands[seat], cards))
            return _evolve(s, hands=hands, turn=_evolve(turn, submissions=subs))
        case BoardLaidOut(order=order):
            return _evolve(s, phase=Phase.VOTE, turn=_evolve(turn, board=order), rng_draws=s.rng_draws + 1)
        case VoteCast(seat=seat, slots=slots, red=red):
            votes = _frozen({**turn.votes, seat: slots})
            return _evolve(s, turn=_evolve(turn, votes=votes, red=turn.red if red is None else red))
        case TurnScored(reveal=reveal) if s.practice:  # nothing counts: scores, turns told and history stay
            done = Turn(number=turn.number, storyteller=turn.storyteller, clue=turn.clue)
            return _evolve(s, discard=(*s.discard, *turn.board), last_reveal=reveal, turn=done)
        case TurnScored(reveal=reveal):
            scores = list(s.scores)
            for p in reveal.points:
                scores[p.seat] = p.score
            told = list(s.told)
            told[reveal.storyteller] += 1
            # the shown cards go to the discard pile; the turn keeps only its public facts
            done = Turn(number=turn.number, storyteller=turn.storyteller, clue=turn.clue)
            discard = (*s.discard, *turn.board)
            return _evolve(
                s,
                scores=tuple(scores),
                told=tuple(told),
                discard=discard,
                last_reveal=reveal,
                history=(*s.history, reveal),
                turn=done,
            )
        case DrawPileReshuffled(order=order):
            return _evolve(s, draw_pile=order, discard=(), rng_draws=s.rng_draws + 1)
        case CardsDrawn(seat=seat, cards=cards):
            if s.draw_pile[: len(cards)] != cards:
                raise ValueError("CardsDrawn does not match the top of the draw pile")
            hands = _with_hand(s.hands, seat, (*s.hands[seat], *cards))
            return _evolve(s, hands=hands, draw_pile=s.draw_pile[len(cards) :])
        case HandsPassed():
            seats = s.active_seats()
            passed = {s.next_active(seat): s.hands[seat] for seat in seats}
            return _evolve(s, hands=tuple(passed.get(seat, hand) for seat, hand in enumerate(s.hands)))
        case TurnBegan(number=number, storyteller=teller):
            return _evolve(s, phase=Phase.CLUE, turn=Turn(number=number, storyteller=teller))
        case TurnVoided():
            hands = s.hands
            for seat in s.seats:
                given = s.given_by(seat)
                if given:
                    hands = _with_hand(hands, seat, (*hands[seat], *given))
            return _evolve(
                s,
                hands=hands,
                phase=Phase.CLUE,
                turn=Turn(number=turn.number, storyteller=turn.storyteller, voided_card=turn.clue_card),
            )
        case PlayerRemoved(seat=seat, host=host, storyteller=teller):
            active = tuple(a and i != seat for i, a in enumerate(s.active))
            hands = _with_hand(s.hands, seat, ())
            return _evolve(
                s,
                active=active,
                host=host,
                hands=hands,
                discard=(*s.discard, *s.hands[seat]),
                turn=_evolve(turn, storyteller=teller),
            )
        case PracticeEnded(order=order):
            h = s.rules.hand_size
            if sorted(order) != sorted(s.cards):
                raise ValueError("PracticeEnded must shuffle every card of the game")
            dealt_hands: list[tuple[str, ...]] = []
            dealt = 0
            for seat in s.seats:
                dealt_hands.append(tuple(order[dealt : dealt + h]) if s.active[seat] else ())
                dealt += h if s.active[seat] else 0
            n = len(s.names)
            return _evolve(
                s,
                hands=tuple(dealt_hands),
                draw_pile=tuple(order[dealt:]),
                discard=(),
                scores=(0,) * n,
                told=(0,) * n,
                phase=Phase.CLUE,
                turn=Turn(number=1, storyteller=None),
                rng_draws=s.rng_draws + 1,
                last_reveal=None,
                practice=False,
            )
        case GameEnded(winners=winners):
            return _evolve(s, phase=Phase.OVER, winners=winners)
    raise ValueError(f"unknown event {e!r}")  # pragma: no cover
