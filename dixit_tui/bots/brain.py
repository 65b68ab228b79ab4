"""`Brain`: a bot's small memory around its strategy, shared by the in-process and the SSH bots.

It decides at most once per decision (a turn's clue, submission or vote), remembers a command in flight until it is
accepted or refused, and retries a refused one with a random legal move (a few times at most). The card of a voided
turn, which the new clue may not use, comes with the view (`voided_card`); a clue card the server refuses is
avoided for the rest of the turn all the same.
"""

from __future__ import annotations

import logging
import random

from dixit_tui.bots.strategy import Action, ClueAction, Strategy, decide, random_action
from dixit_tui.bots.view import BotView
from dixit_tui.engine import ErrorCode, Phase

log = logging.getLogger(__name__)

MAX_TRIES = 3  # attempts at one decision (after the first, random legal ones) before waiting for the next change
FIRST_CLUE_PATIENCE = 4.0  # in the open race for the first clue, bots think this much longer: people tell first

Key = tuple[int, int, str]  # (turn, voids seen, what is owed)


class Brain:
    def __init__(self, strategy: Strategy, rng: random.Random) -> None:
        self.strategy = strategy
        self.rng = rng
        self.avoid: dict[int, set[str]] = {}  # turn -> cards its clue must not use
        self.voids = 0
        self.in_flight: Key | None = None
        self.tries: dict[Key, int] = {}

    def think_time(self, view: BotView, delay: tuple[float, float]) -> float:
        """Seconds to wait before acting on `view`: a random pause in `delay`, longer in the first-clue race."""
        low, high = delay
        if high <= 0:
            return 0.0
        pause = self.rng.uniform(low, high)
        return pause * FIRST_CLUE_PATIENCE if view.phase == Phase.CLUE and view.storyteller is None else pause

    def key(self, view: BotView) -> Key | None:
        need = view.needed()
        return None if need is None else (view.turn, self.voids, need)

    def prepare(self, view: BotView) -> BotView:
        """The view with what the brain remembers added (the cards a new clue must not use)."""
        avoid = self.avoid.get(view.turn)
        return view.avoiding(sorted(avoid)) if avoid else view

    def next_action(self, view: BotView) -> tuple[Key, Action] | None:
        """The action to send now, or None (nothing owed, one already in flight, or too many refusals)."""
        view = self.prepare(view)
        key = self.key(view)
        if key is None or key == self.in_flight:
            return None
        tries = self.tries.get(key, 0)
        if tries >= MAX_TRIES:
            return None
        action = decide(view, self.strategy, self.rng) if tries == 0 else random_action(view, self.rng)
        if action is None:
            return None
        self.tries[key] = tries + 1
        self.in_flight = key
        return key, action

    def accepted(self, key: Key) -> None:
        self.tries.pop(key, None)
        if self.in_flight == key:
            self.in_flight = None

    def refused(self, key: Key, action: Action, code: str) -> None:
        """The server said no: a race mostly (someone else gave the first clue); try again on the next look."""
        if self.in_flight == key:
            self.in_flight = None
        if isinstance(action, ClueAction) and action.card is not None and code == ErrorCode.BAD_CARD:
            self.avoid.setdefault(key[0], set()).add(action.card)

    def voided(self, turn: int) -> None:
        """Turn `turn` was voided: its storyteller tells again, with another card (the view says which not)."""
        self.voids += 1
        self.in_flight = None
