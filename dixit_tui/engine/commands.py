"""Commands: what a seat asks the game to do. `decide` checks each one and turns it into events."""

from __future__ import annotations

from dataclasses import dataclass

from dixit_tui.engine.frozen import quick_init


@quick_init
@dataclass(frozen=True, slots=True)
class GiveClue:
    seat: int
    text: str
    card: str | None = None  # None in party mode (the clue refers to no card)


@quick_init
@dataclass(frozen=True, slots=True)
class Submit:
    seat: int
    cards: tuple[str, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class Vote:
    seat: int
    slots: tuple[int, ...]  # 1-based board slots; two where the profile allows
    red: int | None = None  # party storyteller only, required there


@quick_init
@dataclass(frozen=True, slots=True)
class VoidTurn:
    seat: int  # must be the host


@quick_init
@dataclass(frozen=True, slots=True)
class RemovePlayer:
    seat: int  # the host, or the player leaving for good
    target: int


@quick_init
@dataclass(frozen=True, slots=True)
class PassHost:
    seat: int  # the host (the coordinator passes the duty on for a host who left or dropped)
    to: int  # a player still in the game


Command = GiveClue | Submit | Vote | VoidTurn | RemovePlayer | PassHost
