"""A player's view as the crash test compares it: the state message the model says a seat must have received,
the part of a state message compared, and how two of them differ."""

from __future__ import annotations

from typing import Any

from dixit_tui.bench.killtest_model import Model
from dixit_tui.engine import Phase, view_for
from dixit_tui.protocol.messages import no_game
from dixit_tui.protocol.views import game_fields


def model_message(code: str | None, model: Model, seat: int) -> dict[str, Any]:
    """The state message `seat` must have received, as far as `project` looks."""
    if model.state is None:
        players = [{"seat": i, "name": n, "score": 0, "removed": False} for i, n in enumerate(model.seated)]
        return {"table": code, **no_game(seat, 0), "players": players}
    return {"table": code, **game_fields(view_for(model.state, seat))}


def project(msg: dict[str, Any] | None) -> dict[str, Any] | None:
    """The compared part of a state message: what a player sees of the game (not who is connected). The host of a
    finished game is not compared: it passes to whoever is still there as players leave for their next table."""
    if msg is None:
        return None
    return {
        "table": msg.get("table"),
        "phase": msg.get("phase"),
        "turn": msg.get("turn"),
        "you": msg.get("you"),
        "host": None if msg.get("phase") == Phase.OVER else msg.get("host"),
        "players": tuple(
            (p["seat"], p["name"], p["score"], bool(p.get("removed", False))) for p in msg.get("players", ())
        ),
        "storyteller": msg.get("storyteller"),
        "clue": msg.get("clue"),
        "hand": tuple(sorted(c["card"] for c in msg.get("hand", ()))),  # a set: order is presentation
        "board": tuple((b["slot"], b["card"]) for b in msg.get("board", ())),
        "votes_allowed": msg.get("votes_allowed"),
        "forbidden_slots": tuple(msg.get("forbidden_slots", ())),
        "your_cards": tuple(msg.get("your_cards", ())),
        "your_votes": tuple(msg.get("your_votes", ())),
        "your_red": msg.get("your_red"),
        "waiting_for": tuple(msg.get("waiting_for", ())),
    }


def diff(got: dict[str, Any] | None, want: dict[str, Any] | None) -> str:
    if got is None or want is None:
        return f"got {got!r}, want {want!r}"
    parts = [f"{k}: got {got.get(k)!r}, want {want.get(k)!r}" for k in want if got.get(k) != want.get(k)]
    return "; ".join(parts) or "equal"
