"""Commands: what a seat asks the game to do. `decide` checks each one and turns it into events."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GiveClue:
    seat: int
    text: str
    card: str | None = None  # None in party mode (the clue refers to no card)


@dataclass(frozen=True, slots=True)
class Submit:
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Vote:
    seat: int
    slots: tuple[int, ...]  # 1-based board slots; two where the profile allows
    red: int | None = None  # party storyteller only, required there


@dataclass(frozen=True, slots=True)
class VoidTurn:
    seat: int  # must be the host


@dataclass(frozen=True, slots=True)
class RemovePlayer:
    seat: int  # the host, or the player leaving for good
    target: int


Command = GiveClue | Submit | Vote | VoidTurn | RemovePlayer
