"""Events: facts that happened. The game state is a fold of them; randomness is recorded as its outcome."""

from __future__ import annotations

from dataclasses import dataclass

from dixit_tui.engine.cards import Card
from dixit_tui.engine.config import GameConfig
from dixit_tui.engine.frozen import quick_init
from dixit_tui.engine.reveal import Reveal


@quick_init
@dataclass(frozen=True, slots=True)
class GameStarted:
    config: GameConfig
    names: tuple[str, ...]
    cards: tuple[Card, ...]
    seed: int
    order: tuple[str, ...]  # the shuffled deck; hands are dealt from its top in seat order
    host: int = 0
    practice: bool = False  # turn 0 is an unscored practice turn, told by the host; the game proper follows


@quick_init
@dataclass(frozen=True, slots=True)
class PracticeEnded:
    """The practice turn is over: every card is shuffled into a fresh deck and dealt again; turn 1 begins."""

    order: tuple[str, ...]  # the new deck: hands are dealt from its top in seat order, the rest is the draw pile


@quick_init
@dataclass(frozen=True, slots=True)
class StorytellerChosen:
    seat: int  # random first storyteller


@quick_init
@dataclass(frozen=True, slots=True)
class ClueGiven:
    seat: int
    text: str
    card: str | None


@quick_init
@dataclass(frozen=True, slots=True)
class CardsSubmitted:
    seat: int
    cards: tuple[str, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class BoardLaidOut:
    order: tuple[str, ...]  # card ids in slot order 1..N


@quick_init
@dataclass(frozen=True, slots=True)
class VoteCast:
    seat: int
    slots: tuple[int, ...]
    red: int | None = None


@quick_init
@dataclass(frozen=True, slots=True)
class TurnScored:
    reveal: Reveal


@quick_init
@dataclass(frozen=True, slots=True)
class DrawPileReshuffled:
    order: tuple[str, ...]  # the new draw pile: the old pile and the discard pile, shuffled


@quick_init
@dataclass(frozen=True, slots=True)
class CardsDrawn:
    seat: int
    cards: tuple[str, ...]  # taken from the top of the draw pile


@quick_init
@dataclass(frozen=True, slots=True)
class HandsPassed:
    """Party mode: every remaining player passes their whole hand to the next remaining seat."""


@quick_init
@dataclass(frozen=True, slots=True)
class TurnBegan:
    number: int
    storyteller: int


@quick_init
@dataclass(frozen=True, slots=True)
class TurnVoided:
    turn: int  # every given card goes back to its owner; same storyteller; scores unchanged


@quick_init
@dataclass(frozen=True, slots=True)
class PlayerRemoved:
    seat: int  # their hand goes to the discard pile
    host: int  # the host afterwards
    storyteller: int | None  # the storyteller afterwards


@quick_init
@dataclass(frozen=True, slots=True)
class HostPassed:
    host: int  # the host from now on (the one before left or dropped; possible once the game is over too)


@quick_init
@dataclass(frozen=True, slots=True)
class GameEnded:
    winners: tuple[int, ...]


Event = (
    GameStarted
    | StorytellerChosen
    | ClueGiven
    | CardsSubmitted
    | BoardLaidOut
    | VoteCast
    | TurnScored
    | DrawPileReshuffled
    | CardsDrawn
    | HandsPassed
    | TurnBegan
    | TurnVoided
    | PlayerRemoved
    | HostPassed
    | GameEnded
    | PracticeEnded
)

EVENT_TYPES: tuple[type, ...] = (
    GameStarted,
    StorytellerChosen,
    ClueGiven,
    CardsSubmitted,
    BoardLaidOut,
    VoteCast,
    TurnScored,
    DrawPileReshuffled,
    CardsDrawn,
    HandsPassed,
    TurnBegan,
    TurnVoided,
    PlayerRemoved,
    HostPassed,
    GameEnded,
    PracticeEnded,
)
