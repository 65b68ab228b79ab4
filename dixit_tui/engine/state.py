"""The game state (a fold of events) and the role questions every other part asks of it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from dixit_tui.engine.cards import Card
from dixit_tui.engine.config import GameConfig, Mode, Rules
from dixit_tui.engine.reveal import Reveal

_EMPTY: Mapping[int, tuple] = MappingProxyType({})


class Phase(StrEnum):
    CLUE = "clue"
    SUBMIT = "submit"
    VOTE = "vote"
    OVER = "over"


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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

    # --- seats and teams -------------------------------------------------------------------------------------

    @property
    def seats(self) -> range:
        return range(len(self.names))

    def active_seats(self) -> list[int]:
        return [s for s in self.seats if self.active[s]]

    def next_active(self, seat: int) -> int:
        n = len(self.names)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if self.active[candidate]:
                return candidate
        return seat

    def team_of(self, seat: int) -> int | None:
        if self.config.mode is not Mode.TEAM:
            return None
        return seat % (len(self.names) // 2)

    def partner(self, seat: int) -> int | None:
        """The teammate sitting opposite, if any and still in the game."""
        if self.config.mode is not Mode.TEAM:
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
        if self.config.mode is Mode.PARTY or not self.turn.board:
            return ()
        mine = {c for s in self.teammates(seat) for c in self.given_by(s)}
        return tuple(i + 1 for i, card in enumerate(self.turn.board) if card in mine)

    # --- who acts ---------------------------------------------------------------------------------------------

    def team_submitter(self, seat: int) -> int | None:
        """Team mode: the member of this seat's team who has submitted this turn, if one has."""
        return next((s for s in self.teammates(seat) if s in self.turn.submissions), None)

    def may_submit(self, seat: int) -> bool:
        if self.phase is not Phase.SUBMIT or not self.active[seat] or seat in self.turn.submissions:
            return False
        teller = self.turn.storyteller
        if self.config.mode is Mode.PARTY:
            return True
        if seat == teller:
            return False
        if self.config.mode is Mode.TEAM:
            assert teller is not None
            if seat == self.partner(teller):
                return True
            # another team: a full team sends one submitter; a lone member only votes
            return self.partner(seat) is not None and self.team_submitter(seat) is None
        return True

    def voters(self) -> list[int]:
        teller = self.turn.storyteller
        if self.config.mode is Mode.PARTY:
            return self.active_seats()
        if self.config.mode is Mode.TEAM:
            assert teller is not None
            own = set(self.teammates(teller))
            return [s for s in self.active_seats() if s not in own and s not in self.turn.submissions]
        return [s for s in self.active_seats() if s != teller]

    def submission_complete(self) -> bool:
        return not any(self.may_submit(s) for s in self.active_seats())

    def waiting_for(self) -> tuple[int, ...]:
        if self.phase is Phase.CLUE:
            teller = self.turn.storyteller
            return tuple(self.active_seats()) if teller is None else (teller,)
        if self.phase is Phase.SUBMIT:
            return tuple(s for s in self.active_seats() if self.may_submit(s))
        if self.phase is Phase.VOTE:
            return tuple(s for s in self.voters() if s not in self.turn.votes)
        return ()
