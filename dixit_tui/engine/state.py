"""The game state (a fold of events) and the role questions every other part asks of it."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, ClassVar

from dixit_tui.engine.cards import Card
from dixit_tui.engine.config import PARTY, STANDARD, TEAM, GameConfig, Rules
from dixit_tui.engine.frozen import quick_init
from dixit_tui.engine.reveal import Reveal

_EMPTY: Mapping[int, tuple] = MappingProxyType({})


class Phase(StrEnum):
    CLUE = "clue"
    SUBMIT = "submit"
    VOTE = "vote"
    OVER = "over"


# The phases as plain module globals, for the engine's hot paths (as config.STANDARD, PARTY and TEAM: reading
# `Phase.VOTE` costs a metaclass hook on Python 3.11).
CLUE, SUBMIT, VOTE, OVER = Phase.CLUE, Phase.SUBMIT, Phase.VOTE, Phase.OVER


# GameState and Turn keep their fields in a __dict__ (no slots) on purpose: the engine copies a state by copying
# that dict, about ten times cheaper than setting twenty slots one by one (see engine/state_copy.py, `copy_state`).


@quick_init
@dataclass(frozen=True)
class Turn:
    number: int
    storyteller: int | None  # None while the first clue of the game is open to everyone
    clue: str | None = None
    clue_card: str | None = None  # the storyteller's card (standard and team; None in party)
    submissions: Mapping[int, tuple[str, ...]] = field(default_factory=lambda: _EMPTY)
    board: tuple[str, ...] = ()  # card ids in slot order, empty until every card is in
    votes: Mapping[int, tuple[int, ...]] = field(default_factory=lambda: _EMPTY)
    red: int | None = None
    voided_card: str | None = None  # after a void the storyteller must choose another card


@quick_init
@dataclass(frozen=True)
class GameState:
    config: GameConfig
    rules: Rules
    names: tuple[str, ...]
    active: tuple[bool, ...]  # False once a player is removed for good
    host: int
    cards: Mapping[str, Card]
    hands: tuple[tuple[str, ...], ...]
    draw_pile: tuple[str, ...]  # index 0 is the top
    discard: tuple[str, ...]
    scores: tuple[int, ...]  # team mode: both teammates hold their team's score
    told: tuple[int, ...]  # how many scored turns each seat has told
    phase: Phase
    turn: Turn
    seed: int
    rng_draws: int  # how many random draws the game has made; part of the state so replays agree
    last_reveal: Reveal | None = None
    history: tuple[Reveal, ...] = ()  # every scored turn, in order (public once revealed)
    winners: tuple[int, ...] = ()
    version: int = 0  # number of events folded
    practice: bool = False  # the turn in progress is the practice turn (number 0): nothing it scores counts

    # Answers the rules and the views ask for many times per state (who is in, who acts) are remembered in the
    # state's __dict__ under the names in MEMO_KEYS, beside its fields: they are not fields (equality, repr and
    # replays ignore them), and the engine forgets them (sets them to None) whenever it folds an event into a copy
    # (engine/folding.py). The class attributes below are what a state without them in its __dict__ reads.
    _active: ClassVar[tuple[int, ...] | None] = None
    _voters: ClassVar[tuple[int, ...] | None] = None
    _waiting: ClassVar[tuple[int, ...] | None] = None
    _forbidden: ClassVar[dict[int, tuple[int, ...]] | None] = None  # seat -> forbidden_slots, for seats with any
    _public: ClassVar[Any] = None  # the view's public part (engine/view.py)

    # --- seats and teams -------------------------------------------------------------------------------------

    @property
    def seats(self) -> range:
        return range(len(self.names))

    def active_seats(self) -> list[int]:
        return list(self.active_tuple())

    def active_tuple(self) -> tuple[int, ...]:
        """The seats still in the game, in order (remembered)."""
        memo = self._active
        if memo is None:
            active = self.active
            memo = self.__dict__["_active"] = tuple(s for s in range(len(active)) if active[s])
        return memo

    def next_active(self, seat: int) -> int:
        n = len(self.names)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if self.active[candidate]:
                return candidate
        return seat

    def team_of(self, seat: int) -> int | None:
        if self.config.mode is not TEAM:
            return None
        return seat % (len(self.names) // 2)

    def partner(self, seat: int) -> int | None:
        """The teammate sitting opposite, if any and still in the game."""
        if self.config.mode is not TEAM:
            return None
        half = len(self.names) // 2
        mate = (seat + half) % len(self.names)
        return mate if self.active[mate] else None

    def teammates(self, seat: int) -> tuple[int, ...]:
        """The seats sharing this seat's score (itself included)."""
        mate = self.partner(seat)
        return (seat,) if mate is None else tuple(sorted((seat, mate)))

    # --- cards -----------------------------------------------------------------------------------------------

    def given_by(self, seat: int) -> tuple[str, ...]:
        """The cards this seat has put into the turn in progress (clue card and submissions)."""
        cards = self.turn.submissions.get(seat, ())
        if seat == self.turn.storyteller and self.turn.clue_card is not None:
            cards = (self.turn.clue_card, *cards)
        return cards

    def owner_of(self, card: str) -> int | None:
        if card == self.turn.clue_card:
            return self.turn.storyteller
        for seat, cards in self.turn.submissions.items():
            if card in cards:
                return seat
        return None

    def forbidden_slots(self, seat: int) -> tuple[int, ...]:
        """Slots this seat may not vote for: its own cards (team mode: its team's). None in party mode."""
        memo = self._forbidden
        if memo is None:
            memo = self.__dict__["_forbidden"] = self._all_forbidden()
        return memo.get(seat, ())

    def _all_forbidden(self) -> dict[int, tuple[int, ...]]:
        """forbidden_slots for every seat that has some, in one pass over the board (the voters all ask)."""
        mode, turn = self.config.mode, self.turn
        if mode is PARTY or not turn.board:
            return {}
        if mode is TEAM:
            return {seat: self._forbidden_slots(seat) for seat in self.seats}
        owner_of = {card: seat for seat, cards in turn.submissions.items() for card in cards}
        if turn.clue_card is not None:
            owner_of[turn.clue_card] = turn.storyteller  # type: ignore[assignment]  # set with the clue card
        slots: dict[int, tuple[int, ...]] = {}
        for slot, card in enumerate(turn.board, start=1):
            owner = owner_of.get(card)
            if owner is not None:
                slots[owner] = (*slots.get(owner, ()), slot)
        return slots

    def _forbidden_slots(self, seat: int) -> tuple[int, ...]:
        mode, board = self.config.mode, self.turn.board
        if mode is PARTY or not board:
            return ()
        if mode is STANDARD:
            mine: Collection[str] = self.given_by(seat)
        else:
            mine = {c for s in self.teammates(seat) for c in self.given_by(s)}
        return tuple(i for i, card in enumerate(board, start=1) if card in mine)

    # --- who acts ---------------------------------------------------------------------------------------------

    def team_submitter(self, seat: int) -> int | None:
        """Team mode: the member of this seat's team who has submitted this turn, if one has."""
        return next((s for s in self.teammates(seat) if s in self.turn.submissions), None)

    def may_submit(self, seat: int) -> bool:
        if self.phase is not SUBMIT or not self.active[seat] or seat in self.turn.submissions:
            return False
        teller = self.turn.storyteller
        if self.config.mode is PARTY:
            return True
        if seat == teller:
            return False
        if self.config.mode is TEAM:
            assert teller is not None
            if seat == self.partner(teller):
                return True
            # another team: a full team sends one submitter; a lone member only votes
            return self.partner(seat) is not None and self.team_submitter(seat) is None
        return True

    def voters(self) -> list[int]:
        return list(self.voter_tuple())

    def voter_tuple(self) -> tuple[int, ...]:
        """The seats that vote this turn (remembered)."""
        memo = self._voters
        if memo is None:
            memo = self.__dict__["_voters"] = self._compute_voters()
        return memo

    def _compute_voters(self) -> tuple[int, ...]:
        teller = self.turn.storyteller
        if self.config.mode is PARTY:
            return self.active_tuple()
        if self.config.mode is TEAM:
            assert teller is not None
            own = set(self.teammates(teller))
            return tuple([s for s in self.active_tuple() if s not in own and s not in self.turn.submissions])
        return tuple([s for s in self.active_tuple() if s != teller])

    def waiting_for(self) -> tuple[int, ...]:
        memo = self._waiting
        if memo is None:
            memo = self.__dict__["_waiting"] = self._waiting_for()
        return memo

    def _waiting_for(self) -> tuple[int, ...]:
        phase = self.phase
        if phase is CLUE:
            teller = self.turn.storyteller
            return self.active_tuple() if teller is None else (teller,)
        if phase is SUBMIT:
            mode, turn = self.config.mode, self.turn
            if mode is TEAM:
                return tuple(s for s in self.active_tuple() if self.may_submit(s))
            # may_submit, for every active seat at once: standard and party differ only in the storyteller
            teller = turn.storyteller if mode is STANDARD else None
            given = turn.submissions
            return tuple([s for s in self.active_tuple() if s != teller and s not in given])
        if phase is VOTE:
            votes = self.turn.votes
            return tuple([s for s in self.voter_tuple() if s not in votes])
        return ()


# What the engine forgets when it folds an event into a state: all but `_active`, which only PlayerRemoved changes
# (its rule forgets it); a vote changes neither `_voters` nor `_forbidden`, so VoteCast forgets only `_waiting` and
# `_public` (game._fold_vote).
MEMO_KEYS = ("_waiting", "_public", "_voters", "_forbidden")
