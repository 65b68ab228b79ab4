"""`Game`: a state plus its event log, the convenient handle for callers that keep a game in memory."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dixit_tui.engine.cards import Card
from dixit_tui.engine.commands import Command
from dixit_tui.engine.config import GameConfig
from dixit_tui.engine.events import Event
from dixit_tui.engine.folding import fold
from dixit_tui.engine.opening import start
from dixit_tui.engine.rules import step
from dixit_tui.engine.state import GameState
from dixit_tui.engine.view import PlayerView, view_for


class Game:
    def __init__(self, events: Iterable[Event]) -> None:
        self.events: list[Event] = list(events)
        self.state: GameState = fold(self.events)

    @classmethod
    def new(
        cls,
        config: GameConfig,
        names: Sequence[str],
        cards: Sequence[Card],
        seed: int,
        host: int = 0,
        *,
        practice: bool = False,
    ) -> Game:
        return cls(start(config, names, cards, seed, host, practice=practice))

    def execute(self, command: Command) -> list[Event]:
        """Check and carry out a command; raises RuleError (and changes nothing) if the rules refuse it."""
        events, self.state = step(self.state, command)
        self.events.extend(events)
        return events

    def view(self, seat: int | None) -> PlayerView:
        return view_for(self.state, seat)
