"""The rules: `decide` checks a command against the state and returns events; `apply` folds one event in.

Both are pure. `decide` never changes the state it is given; an illegal command raises a RuleError. Randomness
comes from the seed in the state and a draw counter, and its outcome is written into the events, so a replay of
the events never needs the random generator.
"""

from __future__ import annotations

import _random
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from hashlib import sha512 as _sha512
from types import MappingProxyType
from typing import Any, TypeVar

from dixit_tui.engine.cards import Card
from dixit_tui.engine.commands import Command, GiveClue, PassHost, RemovePlayer, Submit, VoidTurn, Vote
from dixit_tui.engine.config import CLUE_MAX_LEN, PARTY, STANDARD, TEAM, FirstStoryteller, GameConfig, rules_for
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
    HostPassed,
    PlayerRemoved,
    PracticeEnded,
    StorytellerChosen,
    TurnBegan,
    TurnScored,
    TurnVoided,
    VoteCast,
)
from dixit_tui.engine.reveal import Points, Reveal, SlotResult
from dixit_tui.engine.scoring import score_party, score_seats, score_units
from dixit_tui.engine.state import CLUE, MEMO_KEYS, OVER, SUBMIT, VOTE, GameState, Turn

# --- copying frozen states -----------------------------------------------------------------------------------
#
# A GameState (and a Turn) keeps its fields in its __dict__; a copy is a new object with a copy of that dict. The
# rules never change a state anyone else holds: `fold` and `step` copy the state they are given once, fold every
# event of the call into that private copy (`_apply_into`), and only then hand it out, frozen for good.

_new = object.__new__
# A state forgets a remembered answer by holding None for it (GameState.waiting_for and the rest then work it out
# again), never by deleting it: every state of a game keeps its answers in the same places of its dict, which its
# copies and the attribute lookups go through quickly (a key deleted and added again would move and make holes).
_FORGOTTEN = dict.fromkeys(MEMO_KEYS)
_UNKNOWN = dict.fromkeys(("_active", *MEMO_KEYS))  # what a new state remembers: nothing yet
# A new GameState's or Turn's field dict is set through its class's own `__dict__` descriptor: the same as
# object.__setattr__(new, "__dict__", fields) without looking the descriptor up (and slicing the arguments) each time.
_SET_FIELDS: dict[type, Callable[[Any, dict[str, Any]], None]] = {
    cls: cls.__dict__["__dict__"].__set__ for cls in (GameState, Turn)
}
_set_turn_fields = _SET_FIELDS[Turn]
T = TypeVar("T")
V = TypeVar("V")


def _copy(obj: T) -> T:
    """A shallow copy of a GameState or Turn that no one else holds yet (so it may still be filled in)."""
    cls = type(obj)
    new = _new(cls)
    _SET_FIELDS[cls](new, obj.__dict__.copy())
    return new


def _evolve(obj: T, **changes: Any) -> T:
    """Like dataclasses.replace for a GameState or Turn, without re-running __init__."""
    cls = type(obj)
    new = _new(cls)
    fields_ = obj.__dict__.copy()
    fields_.update(changes)
    _SET_FIELDS[cls](new, fields_)
    return new


# --- randomness ------------------------------------------------------------------------------------------------


_new_random = random.Random.__new__  # the bare generator, not seeded yet
_seed_random = _random.Random.seed  # the generator's own seeding from an int, which random.Random.seed ends with


def _rng(seed: int, draws: int) -> random.Random:
    """random.Random(f"dixit:{seed}:{draws}"): the same generator, seeded with the int Random.seed makes of that
    string, without the Python-level __init__ and seed calls."""
    key = f"dixit:{seed}:{draws}".encode()
    rng: random.Random = _new_random(random.Random)
    _seed_random(rng, int.from_bytes(key + _sha512(key).digest()))
    rng.gauss_next = None  # type: ignore[attr-defined]  # as Random.__init__ leaves it
    return rng


def below(bits: Callable[[int], int], n: int) -> int:
    """A random int in [0, n) from a Mersenne Twister's getrandbits, drawn exactly as random.Random's randrange(n),
    choice and shuffle draw in CPython (without their Python-level calls)."""
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def _shuffled(items: Iterable[str], seed: int, draws: int) -> tuple[str, ...]:
    """The items in random.Random.shuffle's order for this seed and draw (the same Fisher-Yates draws, inline)."""
    out = list(items)
    bits = _rng(seed, draws).getrandbits
    # random.shuffle swaps out[i] with out[below(i + 1)] for every i from the last index down to 1. below(n) draws
    # k = n.bit_length() bits, the same k for every n from low = 2 ** (k - 1) to 2 * low - 1: a run of i each.
    top = len(out) - 1
    k = len(out).bit_length()
    while k > 1:
        low = 1 << (k - 1)
        for i in range(top, low - 2, -1):
            j = bits(k)
            while j > i:
                j = bits(k)
            out[i], out[j] = out[j], out[i]
        top = low - 2
        k -= 1
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
    if config.first is FirstStoryteller.RANDOM and not practice:
        draws = fold(events).rng_draws
        events.append(StorytellerChosen(_rng(seed, draws).randrange(len(names))))
    return events


def new_game(
    config: GameConfig, names: Sequence[str], cards: Sequence[Card], seed: int, host: int = 0
) -> tuple[GameState, list[Event]]:
    events = start(config, names, cards, seed, host)
    return fold(events), events


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
            state = own = _copy(state)
        _apply_into(state, event)
    if state is None:
        raise ValueError("a game needs a GameStarted event first")
    return state


# --- decide ----------------------------------------------------------------------------------------------------


class _Draft:
    """The events of one command as they are decided, each folded at once into a private copy of the state (the
    rules look at the state between events: is every card in, has everyone voted). Its state is the command's
    outcome, equal to folding its events into the state the command was decided on."""

    __slots__ = ("events", "state")

    def __init__(self, state: GameState, events: list[Event]) -> None:
        """A draft whose state is `state`, a private copy that `events` are already folded into."""
        self.state = state
        self.events = events

    @classmethod
    def start(cls, state: GameState, first: Event) -> _Draft:
        """The draft of a command whose first event is `first` (every command causes at least one)."""
        after = _copy(state)
        _apply_into(after, first)
        return cls(after, [first])

    @property
    def outcome(self) -> tuple[list[Event], GameState]:
        return self.events, self.state

    def emit(self, event: Event) -> None:
        self.events.append(event)
        _apply_into(self.state, event)


def decide(state: GameState, command: Command) -> list[Event]:
    """Check `command` and return the events it causes (possibly a whole end of turn). Raises RuleError."""
    return step(state, command)[0]


def step(state: GameState, command: Command) -> tuple[list[Event], GameState]:
    """`decide` and `fold` in one go: the events `command` causes and the state after them, which equals
    `fold(events, state)` (made once, not folded twice). Raises RuleError, and changes nothing, if the rules
    refuse the command."""
    if state.phase is OVER and type(command) is not PassHost:  # the host of a game over may still change
        raise GameOver("The game is over.")
    active = state._active  # state.active_tuple(): the seats still in, remembered
    if active is None:
        active = state.active_tuple()
    if command.seat not in active:
        raise NotYourTurn("You are not playing at this table.")
    rule = _DECIDE.get(type(command))
    if rule is None:
        raise RuleError(f"Unknown command {command!r}.")  # pragma: no cover
    return rule(state, command)


def _decide_clue(state: GameState, cmd: GiveClue) -> tuple[list[Event], GameState]:
    if state.phase is not CLUE:
        raise WrongPhase("The clue has already been given this turn.")
    teller = state.turn.storyteller
    if teller is not None and cmd.seat != teller:
        raise NotYourTurn(f"Only the storyteller ({state.names[teller]}) gives the clue.")
    text = " ".join(cmd.text.split())
    if not text:
        raise BadClue("A clue cannot be empty: a word, a sound, a line of a song, anything.")
    if len(text) > CLUE_MAX_LEN:
        raise BadClue(f"A clue can be at most {CLUE_MAX_LEN} characters.")
    if state.config.mode is PARTY:
        if cmd.card is not None:
            raise BadCard("In party mode the clue refers to no card: give the clue alone.")
    else:
        if cmd.card is None:
            raise BadCard("Choose one card from your hand to go with your clue.")
        if cmd.card not in state.hands[cmd.seat]:
            raise BadCard("That card is not in your hand.")
        if cmd.card == state.turn.voided_card:
            raise BadCard("This turn was voided: choose a different card for your new clue.")
    event = ClueGiven(cmd.seat, text, cmd.card)
    after = _copy(state)
    _apply_into(after, event)
    waiting = after._waiting  # after.waiting_for(), read straight from the state when the fold left it
    if waiting is None:
        waiting = after.waiting_for()
    if waiting:  # the cards to give (team mode may need none)
        return [event], after
    return _lay_board(_Draft(after, [event]))


def _decide_submit(state: GameState, cmd: Submit) -> tuple[list[Event], GameState]:
    if state.phase is not SUBMIT:
        raise WrongPhase("This is not the time to give cards.")
    seat, cards = cmd.seat, cmd.cards
    waiting = state._waiting  # the seats that may submit (GameState.may_submit), remembered: state.waiting_for()
    if waiting is None:
        waiting = state.waiting_for()
    if seat not in waiting:
        raise NotYourTurn(_why_no_submit(state, seat))
    want = 1 if state.config.mode is not STANDARD else state.rules.submit_count
    if type(cards) is not tuple:
        cards = tuple(cards)
    if len(cards) != want:
        raise BadCard(f"Give exactly {want} card{'s' if want > 1 else ''}.")
    if want > 1 and len(set(cards)) != len(cards):
        raise BadCard("Give two different cards.")
    hand = state.hands[seat]
    for card in cards:
        if card not in hand:
            raise BadCard("That card is not in your hand.")
    event = CardsSubmitted(seat, cards)
    after = _copy(state)
    _fold_submission(after, after.__dict__, event)
    waiting = after._waiting  # after.waiting_for(), read straight from the state when the fold left it
    if waiting is None:
        waiting = after.waiting_for()
    if waiting:  # still in the submit phase: some cards are still to come
        return [event], after
    return _lay_board(_Draft(after, [event]))


def _lay_board(draft: _Draft) -> tuple[list[Event], GameState]:
    """Every card is in: shuffle them into numbered slots."""
    after = draft.state
    turn = after.turn
    teller, clue_card, submissions = turn.storyteller, turn.clue_card, turn.submissions
    given: list[str] = []  # every seat's given_by, in seat order
    for seat in range(len(after.names)):
        if seat == teller and clue_card is not None:
            given.append(clue_card)
        cards = submissions.get(seat)
        if cards:
            given.extend(cards)
    draft.emit(BoardLaidOut(_shuffled(given, after.seed, after.rng_draws)))
    return draft.events, after


def _why_no_submit(state: GameState, seat: int) -> str:
    if seat in state.turn.submissions:
        return "You have already given your card; it is final."
    if seat == state.turn.storyteller:
        return "You are the storyteller: your card is already in."
    if state.config.mode is TEAM:
        if state.team_submitter(seat) is not None:
            return "Your teammate has given your team's card; you vote this turn."
        if state.partner(seat) is None:
            return "Your team has one player left, who votes."
        teller = state.turn.storyteller
        if teller is not None and seat in state.teammates(teller):
            return "Your team is telling this turn."
    return "You do not give a card this turn."


def _decide_vote(state: GameState, cmd: Vote) -> tuple[list[Event], GameState]:
    if state.phase is not VOTE:
        raise WrongPhase("Voting has not started yet.")
    seat, slots, red, turn = cmd.seat, cmd.slots, cmd.red, state.turn
    voters = state._voters  # state.voter_tuple(), without the call when remembered
    if voters is None:
        voters = state.voter_tuple()
    if seat not in voters:
        if seat == turn.storyteller:
            raise NotYourTurn("The storyteller does not vote.")
        raise NotYourTurn("You do not vote this turn.")
    if type(slots) is not tuple:
        slots = tuple(slots)
    allowed = state.rules.votes_allowed
    count = len(slots)
    if not 1 <= count <= allowed:
        raise BadVote("Vote for one card." if allowed == 1 else "Vote for one or two cards.")
    if count > 1 and len(set(slots)) != count:
        raise BadVote("Your two votes must be on different cards.")
    size = len(turn.board)
    for slot in slots if red is None else (*slots, red):
        if not 1 <= slot <= size:
            raise BadVote(f"There is no card {slot}: the board has cards 1 to {size}.")
    remembered = state._forbidden  # state.forbidden_slots(seat), without the call when remembered
    forbidden = state.forbidden_slots(seat) if remembered is None else remembered.get(seat, ())
    if forbidden:
        for slot in slots:
            if slot in forbidden:
                raise BadVote(
                    "You cannot vote for your own card."
                    if state.config.mode is not TEAM
                    else "You cannot vote for your team's card."
                )
    if state.config.mode is PARTY and seat == turn.storyteller:
        if red is None:
            raise BadVote("As storyteller, place your red marker too.")
    elif red is not None:
        raise BadVote("Only the party storyteller places the red marker.")
    event = VoteCast(seat, slots, red)
    after = _copy(state)
    _fold_vote(after, after.__dict__, event)
    waiting = after._waiting  # after.waiting_for(), read straight from the state when the fold left it
    if waiting is None:
        waiting = after.waiting_for()
    if waiting:
        return [event], after
    draft = _Draft(after, [event])
    _end_turn(draft)
    return draft.events, after


def _decide_void(state: GameState, cmd: VoidTurn) -> tuple[list[Event], GameState]:
    if cmd.seat != state.host:
        raise NotHost("Only the table's host can void the turn.")
    if state.phase is CLUE:
        raise WrongPhase("Nothing to void yet: no clue has been given this turn.")
    return _Draft.start(state, TurnVoided(state.turn.number)).outcome


def _decide_remove(state: GameState, cmd: RemovePlayer) -> tuple[list[Event], GameState]:
    target = cmd.target
    if cmd.seat != state.host and cmd.seat != target:
        raise NotHost("Only the table's host can remove another player.")
    if not (0 <= target < len(state.names)) or not state.active[target]:
        raise NotYourTurn("That seat has no player.")
    draft: _Draft | None = None
    before = state
    if state.phase in (SUBMIT, VOTE):
        draft = _Draft.start(state, TurnVoided(state.turn.number))
        before = draft.state
    still = [s for s in before.active_seats() if s != target]
    host = before.host if before.host != target else before.next_active(target)
    teller = before.turn.storyteller
    if teller == target:
        teller = before.next_active(target)
    removed = PlayerRemoved(target, host, teller)
    if draft is None:
        draft = _Draft.start(state, removed)
    else:
        draft.emit(removed)
    after = draft.state
    if _too_few(after) or _game_finished(after):  # e.g. the one who had not told yet has left
        # Nothing the practice turn scores counts: a game that ends during it has no winner.
        draft.emit(GameEnded(() if after.practice else _leaders(after, still)))
    return draft.outcome


def _decide_pass_host(state: GameState, cmd: PassHost) -> tuple[list[Event], GameState]:
    if cmd.seat != state.host:
        raise NotHost("Only the table's host can pass the host's duties on.")
    if not (0 <= cmd.to < len(state.names)) or not state.active[cmd.to] or cmd.to == cmd.seat:
        raise NotYourTurn("The host's duties go to another player still in the game.")
    return _Draft.start(state, HostPassed(cmd.to)).outcome


_DECIDE: dict[type, Callable[[GameState, Any], tuple[list[Event], GameState]]] = {
    GiveClue: _decide_clue,
    Submit: _decide_submit,
    Vote: _decide_vote,
    VoidTurn: _decide_void,
    RemovePlayer: _decide_remove,
    PassHost: _decide_pass_host,
}


def _too_few(state: GameState) -> bool:
    if state.config.mode is TEAM:
        teams = {state.team_of(s) for s in state.active_seats()}
        return len(teams) < state.rules.min_players
    return len(state.active_seats()) < state.rules.min_players


def _leaders(state: GameState, seats: Sequence[int]) -> tuple[int, ...]:
    if not seats:
        return ()
    best = max(state.scores[s] for s in seats)
    return tuple(s for s in seats if state.scores[s] == best)


# --- end of a turn ---------------------------------------------------------------------------------------------


def _end_turn(draft: _Draft) -> None:
    """Score, then either end the game or discard, refill, (party) pass hands, and begin the next turn."""
    state = draft.state
    if state.practice:
        _end_practice(draft)
        return
    draft.emit(TurnScored(_score(state)))
    if _game_finished(state):
        draft.emit(GameEnded(_leaders(state, state.active_seats())))
        return
    _refill(draft)
    if state.config.mode is PARTY:
        draft.emit(HandsPassed())
    teller = state.turn.storyteller
    assert teller is not None
    draft.emit(TurnBegan(state.turn.number + 1, state.next_active(teller)))


def _end_practice(draft: _Draft) -> None:
    """The practice turn's reveal shows what each player would have scored (their scores do not change); then a
    fresh shuffle of every card is dealt again, and turn 1 begins (with a random storyteller if the table asked)."""
    after = draft.state
    reveal = _score(after)
    points = tuple(replace(p, score=after.scores[p.seat]) for p in reveal.points)
    draft.emit(TurnScored(replace(reveal, points=points)))
    draft.emit(PracticeEnded(_shuffled(after.cards, after.seed, after.rng_draws)))
    if after.config.first is FirstStoryteller.RANDOM:
        seats = after.active_seats()
        draft.emit(StorytellerChosen(seats[_rng(after.seed, after.rng_draws).randrange(len(seats))]))


def _game_finished(state: GameState) -> bool:
    seats, config = state.active_tuple(), state.config
    if config.mode is STANDARD:
        scores, target = state.scores, config.target
        if len(seats) == len(scores):  # everyone is still in
            return max(scores) >= target
        return any([scores[seat] >= target for seat in seats])
    told, storytells = state.told, config.storytells
    return all(told[s] >= storytells for s in seats)


def _refill(draft: _Draft) -> None:
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
        draft.emit(DrawPileReshuffled(_shuffled((*state.draw_pile, *state.discard), state.seed, state.rng_draws)))
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
        f.update(_FORGOTTEN)


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


# --- apply -----------------------------------------------------------------------------------------------------


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
    new = _copy(state)
    _apply_into(new, event)
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
    state.__dict__.update(_UNKNOWN)
    return state


# Each `_on_...` folds one event into `s`, a copy of the state that nobody else holds yet (`fold`, `apply` and
# `step` make it), by replacing entries of its field dict `f` (= s.__dict__). They read the state only through `s`
# and `f`, as it is before the event, and never change an object the old state shares (tuples, turns, mappings).
Fields = dict[str, Any]


def _on_storyteller_chosen(s: GameState, f: Fields, e: StorytellerChosen) -> None:
    f["turn"] = _evolve(s.turn, storyteller=e.seat)
    f["rng_draws"] = s.rng_draws + 1


def _fold_clue(s: GameState, f: Fields, e: ClueGiven) -> None:
    """Fold a ClueGiven in, with the version and the remembered answers (see _apply_into): outside team mode the
    seats that give a card next are known at once (every seat still in but the storyteller; in party mode, every
    seat)."""
    seat, card = e.seat, e.card
    if card is not None:
        f["hands"] = _with_hand(s.hands, seat, _without(s.hands[seat], (card,)))
    f["phase"] = SUBMIT
    turn = s.turn
    f["turn"] = _evolve(turn, storyteller=seat, clue=e.text, clue_card=card)
    f["version"] += 1
    f.update(_FORGOTTEN)
    mode = s.config.mode
    if mode is not TEAM and not turn.submissions:  # GameState._waiting_for, for a turn with no card in yet
        active = s.active_tuple()
        f["_waiting"] = active if mode is PARTY else tuple([other for other in active if other != seat])


def _fold_submission(s: GameState, f: Fields, e: CardsSubmitted) -> None:
    """Fold a CardsSubmitted in, with the version and the remembered answers (see _apply_into): the one event
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
    fields_ = turn.__dict__.copy()  # _evolve(turn, submissions=...), inlined: it runs for every card given
    submissions = turn.submissions.copy()  # type: ignore[attr-defined]  # the proxy copies its dict
    submissions[seat] = cards
    fields_["submissions"] = MappingProxyType(submissions)
    new = _new(Turn)
    _set_turn_fields(new, fields_)
    f["turn"] = new
    f["version"] += 1
    waiting = f.get("_waiting")
    f.update(_FORGOTTEN)
    if waiting is None or s.phase is not SUBMIT or s.config.mode is TEAM:
        return
    if seat in waiting:  # outside team mode the seats that may submit are those that could before, but this one
        i = waiting.index(seat)
        waiting = waiting[:i] + waiting[i + 1 :]
    f["_waiting"] = waiting


def _on_board_laid_out(s: GameState, f: Fields, e: BoardLaidOut) -> None:
    f["phase"] = VOTE
    f["turn"] = _evolve(s.turn, board=e.order)
    f["rng_draws"] = s.rng_draws + 1


def _fold_vote(s: GameState, f: Fields, e: VoteCast) -> None:
    """Fold a VoteCast in, with the version and the remembered answers (see _apply_into): a vote changes neither
    who votes nor the forbidden slots, so only the answers `_waiting` and `_public` are forgotten."""
    turn, seat = s.turn, e.seat
    fields_ = turn.__dict__.copy()  # _evolve(turn, votes=..., red=...), inlined: it runs for every vote
    votes = turn.votes.copy()  # type: ignore[attr-defined]  # the proxy copies its dict
    votes[seat] = e.slots
    fields_["votes"] = MappingProxyType(votes)
    if e.red is not None:
        fields_["red"] = e.red
    new = _new(Turn)
    _set_turn_fields(new, fields_)
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
    f["turn"] = _evolve(s.turn, storyteller=e.storyteller)


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
        last_reveal=None,
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
    CardsSubmitted: _fold_submission,
    VoteCast: _fold_vote,
}


def _apply_into(s: GameState, e: Event) -> None:
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
    f.update(_FORGOTTEN)  # the answers remembered about the state before the event
