"""Events survive a round trip through JSON, and a replay of a game's events gives an equal state."""

from __future__ import annotations

import json
import random

import pytest

from dixit_tui.engine import event_from_dict, event_to_dict, fold
from dixit_tui.engine.random_play import random_command
from tests.engine.helpers import make_game


@pytest.mark.parametrize(
    ("players", "mode", "profile"),
    [(3, "standard", "refresh"), (8, "standard", "odyssey"), (7, "party", "odyssey"), (8, "team", "odyssey")],
)
def test_json_round_trip_and_replay(players: int, mode: str, profile: str) -> None:
    game = make_game(players, mode, profile, target=15)
    rng = random.Random(players)
    while (command := random_command(game.state, rng)) is not None:
        game.execute(command)
    wire = [json.loads(json.dumps(event_to_dict(e))) for e in game.events]
    events = [event_from_dict(d) for d in wire]
    assert events == game.events
    assert fold(events) == game.state


def test_unknown_event_type_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown event"):
        event_from_dict({"type": "Nope"})
