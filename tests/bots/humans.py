"""A person at the table in the bots' tests: records updates and plays random legal moves when asked."""

from __future__ import annotations

import asyncio
import random

from dixit_tui.bots.strategy import (
    ClueAction,
    SubmitAction,
    VoteAction,
    random_action,
)
from dixit_tui.bots.view import BotView
from dixit_tui.coordinator import (
    Coordinator,
    Identity,
    OverUpdate,
    PlayerSession,
    StateUpdate,
    TableView,
    Update,
)
from dixit_tui.engine import RuleError


class Human:
    """A test client: records updates and, when asked, plays random legal moves like a person clicking."""

    def __init__(self, name: str, *, plays: bool = True) -> None:
        self.name = name
        self.plays = plays
        self.updates: list[Update] = []
        self.view: TableView | None = None
        self.session: PlayerSession | None = None
        self.changed = asyncio.Event()
        self.over = asyncio.Event()
        self.rng = random.Random(name)
        self.moves = 0

    def sink(self, update: Update) -> None:
        self.updates.append(update)
        if isinstance(update, StateUpdate):
            self.view = update.view
        if isinstance(update, OverUpdate):
            self.over.set()
        self.changed.set()

    async def connect(self, coordinator: Coordinator) -> PlayerSession:
        self.session = await coordinator.connect(Identity(self.name, f"SHA256:{self.name}"), self.sink)
        return self.session

    async def play(self) -> None:
        while not self.over.is_set():
            await self.changed.wait()
            self.changed.clear()
            if not self.plays or self.view is None or self.view.game is None or self.session is None:
                continue
            action = random_action(BotView.from_player_view(self.view.game), self.rng)
            if action is None:
                continue
            await asyncio.sleep(0)
            try:
                if isinstance(action, ClueAction):
                    await self.session.clue(action.text, action.card)
                elif isinstance(action, SubmitAction):
                    await self.session.submit(action.cards)
                elif isinstance(action, VoteAction):
                    await self.session.vote(action.slots, action.red)
                self.moves += 1
            except RuleError:
                self.changed.set()  # lost a race for the first clue: look again
