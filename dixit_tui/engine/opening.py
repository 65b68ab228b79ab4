"""The events that open a game: the deal and, if the table asked, a random first storyteller."""

from __future__ import annotations

from collections.abc import Sequence

from dixit_tui.engine.cards import Card
from dixit_tui.engine.config import FirstStoryteller, GameConfig, rules_for
from dixit_tui.engine.errors import ConfigError
from dixit_tui.engine.events import Event, GameStarted, StorytellerChosen
from dixit_tui.engine.folding import fold
from dixit_tui.engine.rng import rng_for, shuffled
from dixit_tui.engine.state import GameState


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
    order = shuffled(ids, seed, 0)
    events: list[Event] = [GameStarted(config, tuple(names), tuple(cards), seed, order, host, practice)]
    if config.first is FirstStoryteller.RANDOM and not practice:
        draws = fold(events).rng_draws
        events.append(StorytellerChosen(rng_for(seed, draws).randrange(len(names))))
    return events


def new_game(
    config: GameConfig, names: Sequence[str], cards: Sequence[Card], seed: int, host: int = 0
) -> tuple[GameState, list[Event]]:
    events = start(config, names, cards, seed, host)
    return fold(events), events
