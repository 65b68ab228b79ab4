"""What the crash test knows of a table: the seats taken, then the game (the engine folded over the same seed
and the same commands), and the options and seed of each table it creates."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from dixit_tui.engine import Card, FirstStoryteller, GameConfig, GameState, Mode, Profile


@dataclass(frozen=True)
class Model:
    """One table as the harness knows it: the seats taken (lobby), then the game (the engine's state)."""

    seated: tuple[str, ...] = ()
    state: GameState | None = None


@functools.cache
def base_cards() -> tuple[Card, ...]:
    """The cards of the built-in "base" deck, as the server resolves `decks: ["base"]`."""
    from dixit_tui.decks import load_builtin

    return tuple(load_builtin("base").cards)


class GameRun:
    """One table (one code) of a group of `seats` players: its options, its seed and its model."""

    def __init__(self, seats: int, profile: str, target: int, first: str, seed: int) -> None:
        self.seats = seats
        self.profile = profile
        self.target = target
        self.first = first
        self.seed = seed
        self.code: str | None = None
        self.model = Model()

    def create_command(self) -> dict[str, Any]:
        return {
            "cmd": "create",
            "mode": "standard",
            "profile": self.profile,
            "decks": ["base"],
            "seats": self.seats,
            "target": self.target,
            "first": self.first,
            "seed": self.seed,
        }

    def config(self) -> GameConfig:
        return GameConfig(Mode.STANDARD, Profile(self.profile), self.target, 1, FirstStoryteller(self.first))

    def __repr__(self) -> str:
        return f"table {self.code or '(not created)'}"
