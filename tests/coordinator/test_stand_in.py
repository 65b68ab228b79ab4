"""The stand-ins (the coordinator's random one and the server's smart one) play only legal moves from a player's
view: after a void, never the voided card, which the engine would refuse (the stand-in's move is then lost)."""

from __future__ import annotations

import random

from dixit_tui.coordinator.timers import random_stand_in
from dixit_tui.engine import GiveClue, Phase, RuleError, VoidTurn, decide, view_for
from dixit_tui.engine.game import Game
from dixit_tui.engine.random_play import random_command
from dixit_tui.serve import smart_stand_in
from tests.engine.helpers import make_game


def voided_game(n: int = 4, mode: str = "standard", profile: str = "refresh") -> tuple[Game, int, str]:
    """A game whose storyteller must tell again after a void; returns it, the storyteller and the voided card."""
    game = make_game(n, mode, profile)
    card = game.state.hands[1][2]
    game.execute(GiveClue(1, "first try", card))
    game.execute(VoidTurn(game.state.host))
    assert game.state.phase is Phase.CLUE and game.state.turn.voided_card == card
    return game, 1, card


def test_the_random_stand_in_never_tells_with_the_voided_card() -> None:
    for mode, profile, n in [("standard", "refresh", 4), ("standard", "refresh", 3), ("team", "odyssey", 6)]:
        game, teller, card = voided_game(n, mode, profile)
        view = view_for(game.state, teller)
        for seed in range(60):
            command = random_stand_in(view, random.Random(seed))
            assert isinstance(command, GiveClue) and command.card != card, (mode, seed)
            decide(game.state, command)  # accepted


def test_the_smart_stand_in_never_tells_with_the_voided_card() -> None:
    game, teller, card = voided_game()
    view = view_for(game.state, teller)
    for seed in range(30):
        command = smart_stand_in(view, random.Random(seed))
        assert isinstance(command, GiveClue) and command.card != card, seed
        decide(game.state, command)


def test_stand_ins_play_legal_moves_in_every_phase_and_mode() -> None:
    for mode, profile, n in [
        ("standard", "refresh", 3),
        ("standard", "odyssey", 8),
        ("party", "odyssey", 6),
        ("team", "odyssey", 8),
    ]:
        game = make_game(n, mode, profile, target=12)
        rng = random.Random(n)
        voided: set[int] = set()
        for _ in range(300):
            state = game.state
            if state.phase is Phase.OVER:
                break
            if state.phase is Phase.SUBMIT and state.turn.number not in voided:
                voided.add(state.turn.number)
                game.execute(VoidTurn(state.host))
                continue
            for seat in state.waiting_for():
                for stand_in in (random_stand_in, smart_stand_in):
                    command = stand_in(view_for(state, seat), random.Random(seat))
                    assert command is not None, (mode, state.phase, seat)
                    try:
                        decide(state, command)
                    except RuleError as err:  # pragma: no cover - the failure message
                        raise AssertionError(f"{stand_in.__name__} {mode} {state.phase}: {command!r}: {err}") from err
            command = random_command(state, rng)
            assert command is not None
            game.execute(command)
