"""A finished game's result, as the table records it (a "result" record, committed with the game's last move) for the
ratings (`dixit_tui.ratings`) to fold: who played under which key, their score and team, and how many of their moves a
stand-in made."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from dixit_tui.coordinator.models import TableOptions
from dixit_tui.engine import GameState, Mode
from dixit_tui.engine.events import CardsSubmitted, ClueGiven, Event, VoteCast


class ResultSeat(Protocol):
    """What a result says of a seat (a `table.Seat`)."""

    name: str
    key: str | None
    bot: bool
    builtin: bool
    removed: bool


def count_moves(moves: dict[int, list[int]], events: Sequence[Event], stand_in: bool) -> None:
    """Add the seats' moves in `events` to `moves` (seat -> [moves, of them a stand-in's])."""
    for event in events:
        if isinstance(event, ClueGiven | CardsSubmitted | VoteCast):
            counts = moves.setdefault(event.seat, [0, 0])
            counts[0] += 1
            counts[1] += stand_in


def result_record(
    code: str, options: TableOptions, state: GameState, seats: Sequence[ResultSeat], moves: dict[int, list[int]]
) -> dict[str, Any]:
    """The "result" record of a table's game, which has just ended: `moves` as `count_moves` counted them."""
    players = []
    for index, seat in enumerate(seats):
        made, stood_in = moves.get(index, [0, 0])
        players.append(
            {
                "seat": index,
                "name": seat.name,
                "key": seat.key,
                "bot": seat.bot,
                "builtin": seat.builtin,
                "score": state.scores[index],
                "team": state.team_of(index) if state.config.mode is Mode.TEAM else None,
                "removed": seat.removed,
                "moves": made,
                "stand_ins": stood_in,
            }
        )
    return {
        "t": "result",
        "code": code,
        "mode": options.mode,
        "profile": options.profile,
        "turn": state.turn.number,
        "winners": list(state.winners),
        "players": players,
    }
