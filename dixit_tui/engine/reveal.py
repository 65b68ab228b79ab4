"""The public record of a scored turn: who gave which card, the votes, and every player's points by pass."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dixit_tui.engine.frozen import quick_init


class Outcome(StrEnum):
    """How a turn went for the storyteller."""

    SOME = "some"  # some but not all voters found the storyteller's card
    ALL = "all"
    NONE = "none"
    PARTY = "party"  # party mode: matching votes score, there is no card to find


@quick_init
@dataclass(frozen=True, slots=True)
class SlotResult:
    slot: int
    card: str
    owner: int
    votes: tuple[int, ...]  # seats whose (green) vote is on this slot
    red: bool = False  # party: the storyteller's red marker
    text: str = ""  # the card's text (public once revealed)


@quick_init
@dataclass(frozen=True, slots=True)
class Points:
    """One seat's points this turn. In team mode the figures are its team's (teammates share a score)."""

    seat: int
    pass1: int = 0  # storyteller found / not found
    bonus_raw: int = 0  # +1 per vote on own card(s), before any cap
    bonus: int = 0  # after the odyssey cap of 3
    extra: int = 0  # odyssey 7+: single vote on the storyteller's card
    party: int = 0  # party mode: the matching-vote score
    delta: int = 0  # this turn's total
    score: int = 0  # the total after this turn


@quick_init
@dataclass(frozen=True, slots=True)
class Reveal:
    turn: int
    storyteller: int
    clue: str
    outcome: str  # an Outcome's value
    slots: tuple[SlotResult, ...]
    points: tuple[Points, ...]  # one per seat still in the game
