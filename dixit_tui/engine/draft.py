"""The events of one command as the rules decide them, each folded at once into a private state."""

from __future__ import annotations

from dixit_tui.engine.events import Event
from dixit_tui.engine.folding import apply_into
from dixit_tui.engine.state import GameState
from dixit_tui.engine.state_copy import copy_state


class Draft:
    """The events of one command as they are decided, each folded at once into a private copy of the state (the
    rules look at the state between events: is every card in, has everyone voted). Its state is the command's
    outcome, equal to folding its events into the state the command was decided on."""

    __slots__ = ("events", "state")

    def __init__(self, state: GameState, events: list[Event]) -> None:
        """A draft whose state is `state`, a private copy that `events` are already folded into."""
        self.state = state
        self.events = events

    @classmethod
    def start(cls, state: GameState, first: Event) -> Draft:
        """The draft of a command whose first event is `first` (every command causes at least one)."""
        after = copy_state(state)
        apply_into(after, first)
        return cls(after, [first])

    @property
    def outcome(self) -> tuple[list[Event], GameState]:
        return self.events, self.state

    def emit(self, event: Event) -> None:
        self.events.append(event)
        apply_into(self.state, event)
