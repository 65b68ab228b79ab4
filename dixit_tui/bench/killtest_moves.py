"""The crash test's play: the groups of clients that play game after game, the actions they send (each with the
model before and after it), and the choice of the next one, a simple legal move."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from typing import Any

from dixit_tui.bench.killtest_client import Client
from dixit_tui.bench.killtest_config import KillConfig
from dixit_tui.bench.killtest_model import GameRun, Model, base_cards
from dixit_tui.engine import Command, GiveClue, Phase, Submit, VoidTurn, Vote, decide, fold
from dixit_tui.engine import start as start_game


@dataclass
class Action:
    number: int
    kind: str  # create, join, start, clue, submit, vote, revote, void
    actor: Client
    cmd: dict[str, Any]
    game: GameRun
    before: Model
    after: Model

    def __str__(self) -> str:
        return f"#{self.number} {self.kind} by {self.actor} at {self.game}: {json.dumps(self.cmd)}"


class Group:
    """Clients that play game after game together (a new table each time one ends)."""

    def __init__(self, index: int, clients: list[Client]) -> None:
        self.index = index
        self.clients = clients
        self.game: GameRun | None = None
        self.games = 0


class Moves:
    """The next action of a group, numbered in the order they are chosen; `rng` is the run's own (one seed)."""

    def __init__(self, rng: random.Random, cfg: KillConfig) -> None:
        self.rng = rng
        self.cfg = cfg
        self.numbers = 0

    def new_action(self, kind: str, actor: Client, cmd: dict[str, Any], game: GameRun, after: Model) -> Action:
        self.numbers += 1
        return Action(self.numbers, kind, actor, cmd, game, game.model, after)

    def next_action(self, group: Group) -> Action:
        game = group.game
        if game is None or (game.model.state is not None and game.model.state.phase is Phase.OVER):
            game = group.game = self._new_game(group)
        host = group.clients[0]
        if game.code is None:
            return self.new_action("create", host, game.create_command(), game, Model((host.name,)))
        for client in group.clients:
            if client.game is not game:
                seated = game.model.seated
                after = game.model if client.name in seated else replace(game.model, seated=(*seated, client.name))
                assert after.seated.index(client.name) == client.seat, (after.seated, client)
                return self.new_action("join", client, {"cmd": "join", "table": game.code}, game, after)
        if game.model.state is None:
            events = start_game(game.config(), game.model.seated, base_cards(), game.seed, host=0)
            return self.new_action("start", host, {"cmd": "start"}, game, replace(game.model, state=fold(events)))
        return self._game_action(group, game)

    def _new_game(self, group: Group) -> GameRun:
        group.games += 1
        profile = "refresh" if group.index % 2 == 0 else "odyssey"
        first = "first_clue" if group.games % 2 else "random"
        target = self.rng.randint(*self.cfg.targets)
        return GameRun(len(group.clients), profile, target, first, self.rng.randrange(2**31))

    def _game_action(self, group: Group, game: GameRun) -> Action:
        """A simple legal move, chosen from the state messages the clients hold (equal to the model by now)."""
        state = game.model.state
        assert state is not None
        rng, cfg = self.rng, self.cfg
        waiting = list(group.clients[0].last_state["waiting_for"])  # type: ignore[index]
        command: Command
        kind = state.phase.value
        if state.phase in (Phase.SUBMIT, Phase.VOTE) and rng.random() < cfg.void:
            kind, seat = "void", state.host
            cmd: dict[str, Any] = {"cmd": "void"}
            command = VoidTurn(seat)
        elif state.phase is Phase.CLUE:
            seat = state.turn.storyteller if state.turn.storyteller is not None else rng.choice(waiting)
            hand = [c["card"] for c in self._view(group, seat)["hand"] if c["card"] != state.turn.voided_card]
            card, text = rng.choice(hand), f"clue {self.numbers + 1}"
            cmd = {"cmd": "clue", "text": text, "card": card}
            command = GiveClue(seat, text, card)
        elif state.phase is Phase.SUBMIT:
            seat = rng.choice(waiting)
            hand = [c["card"] for c in self._view(group, seat)["hand"]]
            cards = rng.sample(hand, state.rules.submit_count)
            cmd = {"cmd": "submit", "cards": cards}
            command = Submit(seat, tuple(cards))
        else:
            seat = rng.choice(waiting)
            current: tuple[int, ...] = ()
            voted = sorted(state.turn.votes)
            if voted and rng.random() < cfg.revote:
                seat, kind = rng.choice(voted), "revote"
                current = state.turn.votes[seat]
            view = self._view(group, seat)
            slots = [b["slot"] for b in view["board"] if b["slot"] not in view["forbidden_slots"]]
            slots = [s for s in slots if (s,) != tuple(current)] or slots
            slot = rng.choice(slots)
            cmd = {"cmd": "vote", "slots": [slot]}
            command = Vote(seat, (slot,))
        after = fold(decide(state, command), state)
        return self.new_action(kind, group.clients[seat], cmd, game, replace(game.model, state=after))

    def _view(self, group: Group, seat: int) -> dict[str, Any]:
        view = group.clients[seat].last_state
        assert view is not None
        return view
