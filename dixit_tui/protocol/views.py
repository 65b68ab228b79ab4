"""The engine's per-player view in protocol v1's words: the game fields of a `state` message.

The engine does not know the wire; this module alone turns a PlayerView into JSON-ready fields (the coordinator's
table facts are added by protocol/messages.py).
"""

from __future__ import annotations

from typing import Any

from dixit_tui.engine.view import PlayerView


def game_fields(view: PlayerView) -> dict[str, Any]:
    """The fields of a `state` message that come from the game, for the seat the view was made for."""
    return {
        "mode": view.mode,
        "profile": view.profile,
        "phase": view.phase,
        "turn": view.turn,
        "you": view.you,
        "host": view.host,
        "players": [
            {"seat": p.seat, "name": p.name, "score": p.score, "team": p.team, "removed": not p.active}
            for p in view.players
        ],
        "storyteller": view.storyteller,
        "clue": view.clue,
        "hand": [{"card": c.card, "text": c.text} for c in view.hand],
        "board": [{"slot": s.slot, "card": s.card, "text": s.text} for s in view.board],
        "votes_allowed": view.votes_allowed,
        "forbidden_slots": list(view.forbidden_slots),
        "your_cards": list(view.your_cards),
        "your_votes": list(view.your_votes),
        "your_red": view.your_red,
        "waiting_for": list(view.waiting_for),
        # additions to protocol v1: what a client needs to act without knowing the rules tables (engine/legal.py)
        "submit_count": view.submit_count,
        "places_red": view.places_red,
        "target": view.target,
        "storytells": view.storytells,
        "practice": view.practice,
        "can_clue": view.can_clue,
        "clue_needs_card": view.clue_needs_card,
        "clue_cards": list(view.clue_cards),
        "voided_card": view.voided_card,
        "can_vote": view.can_vote,
        "vote_slots": list(view.vote_slots),
    }
