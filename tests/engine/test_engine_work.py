"""The engine's work per command, counted (never timed): the Python-level calls a command makes, and the shortcuts
that save them giving exactly what the plain ways give (the seeded generator and shuffle, the frozen constructors,
scoring by seat)."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dixit_tui.engine import GameState, Phase, Submit, Turn, Vote, step
from dixit_tui.engine.events import CardsSubmitted, HandsPassed, VoteCast
from dixit_tui.engine.random_play import random_command
from dixit_tui.engine.reveal import Points
from dixit_tui.engine.rng import rng_for, shuffled
from dixit_tui.engine.scoring import score_seats, score_units
from tests.engine.helpers import make_game
from tests.work_counters import PythonCalls


def python_calls(run: Callable[[], Any]) -> int:
    """How many Python functions `run` calls (C functions not counted)."""
    with PythonCalls() as counted:
        run()
    return counted.calls - 1  # `run` itself


def test_an_eight_player_turn_costs_few_python_calls() -> None:
    """Every command of a game, as `simulate` plays it: an 8-player turn (a clue, seven cards, seven votes and the
    end of the turn) made 333 Python calls in step before the events were folded with their own bookkeeping and
    the frozen events built without a call per field; now about 160."""
    calls = turns = 0
    by_kind: dict[str, list[int]] = {"vote": [], "submit": []}
    for seed in range(3):
        game = make_game(8, seed=seed)
        rng = random.Random(seed)
        state = game.state
        while state.phase is not Phase.OVER:
            command = random_command(state, rng)
            assert command is not None
            before = state
            out: list[tuple[list[Any], GameState]] = []
            n = python_calls(lambda: out.append(step(before, command)))  # noqa: B023  # called at once
            events, state = out[0]
            calls += n
            if len(events) == 1 and type(command) in (Vote, Submit):
                by_kind["vote" if type(command) is Vote else "submit"].append(n)
        turns += state.turn.number
    assert calls / turns <= 200, calls / turns
    # a vote or a card that does not end the phase: the rule, the answers it asks, one copy, one event, one fold
    assert max(by_kind["vote"]) <= 8, by_kind["vote"]
    assert max(by_kind["submit"]) <= 9, by_kind["submit"]


@pytest.mark.parametrize("seed", [0, 7, 123456789, -5])
def test_the_seeded_generator_and_shuffle_are_those_of_random(seed: int) -> None:
    for draws in (0, 1, 17):
        ours, theirs = rng_for(seed, draws), random.Random(f"dixit:{seed}:{draws}")
        assert ours.getstate() == theirs.getstate()
        assert ours.randrange(8) == theirs.randrange(8)
    for n in (0, 1, 2, 3, 7, 8, 9, 63, 64, 65, 84, 200):
        items = [f"c{i}" for i in range(n)]
        expected = list(items)
        random.Random(f"dixit:{seed}:{n}").shuffle(expected)
        assert shuffled(items, seed, n) == tuple(expected)


def test_the_quick_constructors_build_what_the_dataclasses_would() -> None:
    points = Points(2, 3, score=9)
    assert (points.seat, points.pass1, points.bonus, points.score) == (2, 3, 0, 9)
    assert points == Points(seat=2, pass1=3, score=9) and hash(points) == hash(Points(2, 3, score=9))
    assert dataclasses.replace(points, seat=4) == Points(4, 3, score=9)
    with pytest.raises(dataclasses.FrozenInstanceError):
        points.seat = 5  # type: ignore[misc]
    turn = Turn(1, None)
    assert turn.submissions == {} and turn.votes == {} and turn.board == () and turn.red is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        turn.clue = "x"  # type: ignore[misc]
    assert VoteCast(1, (2,)) == VoteCast(seat=1, slots=(2,), red=None) and HandsPassed() == HandsPassed()
    assert CardsSubmitted(1, ("a",)) != VoteCast(1, (2,))
    assert str(inspect.signature(Turn)).count("<factory>") == 2
    with pytest.raises(TypeError):
        Points()  # type: ignore[call-arg]


def test_scoring_by_seat_matches_scoring_by_unit() -> None:
    rng = random.Random(3)
    for _ in range(300):
        n = rng.randint(3, 12)
        teller = rng.randrange(n)
        board = list(range(n))  # one card per seat; slot s + 1 holds seat s's card
        rng.shuffle(board)
        owners = {slot: seat for slot, seat in enumerate(board, start=1)}
        votes = {
            v: tuple(rng.sample([s for s in owners if owners[s] != v], rng.choice((1, 2))))
            for v in range(n)
            if v != teller
        }
        teller_slot = board.index(teller) + 1
        extra = rng.random() < 0.5
        outcome, pass1, raw, extras = score_seats(n, range(n), teller, teller_slot, board, votes, extra, first_slot=1)
        by_unit = score_units(
            seats=range(n),
            storyteller=teller,
            teller_slot=teller_slot,
            owners=owners,
            votes=votes,
            bonus_cap=None,
            single_vote_extra=extra,
            unit_of=lambda s: s,  # the unit path, one seat per unit
        )
        assert by_unit == (outcome, {s: (pass1[s], raw[s], raw[s], extras[s]) for s in range(n)})


def test_the_random_player_makes_few_python_calls_per_command() -> None:
    """The random player's draws are written out (no call to `below` per draw) and it reads the remembered seats
    awaited: a vote usually costs random_command, _command, vote_slots, forbidden_slots and Vote.__init__ (the
    turn's first vote also works out who votes and the forbidden slots): about six on average; a card four calls.
    Before, a vote made about fourteen (waiting_for, three draws, places_red, ...)."""
    calls: dict[str, list[int]] = {"vote": [], "submit": []}
    for seed in range(3):
        game = make_game(8, seed=seed)
        rng = random.Random(seed)
        state = game.state
        while state.phase is not Phase.OVER:
            out: list[Any] = []
            n = python_calls(lambda: out.append(random_command(state, rng)))  # noqa: B023  # called at once
            command = out[0]
            if type(command) in (Vote, Submit):
                calls["vote" if type(command) is Vote else "submit"].append(n)
            state = step(state, command)[1]
    assert sum(calls["vote"]) / len(calls["vote"]) <= 7, calls["vote"]
    assert max(calls["submit"]) <= 4, calls["submit"]


def test_the_rules_read_phases_and_modes_from_module_globals() -> None:
    """On Python 3.11 reading an enum member through its class (Phase.VOTE) goes through EnumType.__getattr__'s
    slot hook, about ten times the cost of a global; the modules every command runs through use the globals
    (engine.state.VOTE, engine.config.PARTY, ...)."""
    from dixit_tui.engine import draft, folding, legal, opening, random_play, rules, state, state_copy, turn_end, view

    for module in (rules, draft, folding, opening, turn_end, state_copy, legal, random_play, state, view):
        assert module.__file__ is not None
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        # the globals themselves (CLUE, SUBMIT, VOTE, OVER = Phase.CLUE, ...) are module-level assignments
        defining = {id(node) for top in tree.body if isinstance(top, ast.Assign) for node in ast.walk(top.value)}
        reads = [
            f"{module.__name__}:{node.lineno}: {ast.unparse(node)}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("Phase", "Mode")
            and id(node) not in defining
        ]
        assert reads == [], reads
