"""A game as plain text, built from a view: clues, every card with who gave it and who voted for it, points.

Everything in it is public once a turn is revealed, so the same text serves the table at the end of a game (to
copy), `dixit-tui replay` and `ssh HOST replay CODE`. A move a stand-in made for a player (away, or out of time) is
marked as such, never shown as the player's own: the table's records say which (`stand_in_moves`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from dixit_tui.engine import Mode, PlayerView, event_from_dict, fold
from dixit_tui.engine.events import CardsSubmitted, ClueGiven, TurnVoided, VoteCast
from dixit_tui.engine.state import GameState

StandInMove = tuple[int, int, str]
"""A move a stand-in made: (turn number, seat, "clue" | "card" | "vote")."""

STAND_IN = " (stand-in)"
STAND_IN_NOTE = "(stand-in): a stand-in made that move for the player (who was away, or out of time)."

OUTCOMES = {
    "some": "some found the storyteller's card",
    "all": "everyone found it: the storyteller scores 0, the others 2",
    "none": "nobody found it: the storyteller scores 0, the others 2",
    "party": "party scoring",
}


def stand_in_moves(records: Iterable[Mapping[str, Any]]) -> frozenset[StandInMove]:
    """The moves stand-ins made, from a table's records (as the store keeps them: an "events" record a stand-in
    made carries "stand_in"). A voided turn's moves are forgotten (the turn is played again under its number)."""
    state: GameState | None = None
    out: set[StandInMove] = set()
    for rec in records:
        if rec.get("t") != "events":
            continue
        events = [event_from_dict(e) for e in rec["events"]]
        if state is not None:
            turn = state.turn.number
            for event in events:
                if isinstance(event, TurnVoided):
                    out = {m for m in out if m[0] != event.turn}
            if rec.get("stand_in"):
                for event in events:
                    if isinstance(event, ClueGiven):
                        out.add((turn, event.seat, "clue"))
                    elif isinstance(event, CardsSubmitted):
                        out.add((turn, event.seat, "card"))
                    elif isinstance(event, VoteCast):
                        out.add((turn, event.seat, "vote"))
        state = fold(events, state)
    return frozenset(out)


def transcript_of(view: PlayerView, stand_ins: Collection[StandInMove] = ()) -> list[str]:
    who = [p.name for p in view.players]
    label = view.mode if view.mode != Mode.STANDARD else view.profile
    lines = [f"{label} game, players: {', '.join(who)}"]
    marked = False
    for r in view.history:

        def by(seat: int, move: str, turn: int = r.turn) -> str:
            nonlocal marked
            if (turn, seat, move) in stand_ins:
                marked = True
                return who[seat] + STAND_IN
            return who[seat]

        lines.append("")
        lines.append(f"Turn {r.turn}: {by(r.storyteller, 'clue')} told: {r.clue}")
        for slot in r.slots:
            votes = f"votes: {', '.join(by(v, 'vote') for v in slot.votes)}" if slot.votes else "no votes"
            mark = " [red marker]" if slot.red else ""
            teller = " (storyteller)" if slot.owner == r.storyteller else ""
            giver = who[slot.owner] if slot.owner == r.storyteller else by(slot.owner, "card")
            lines.append(f"  {slot.slot}. {slot.text or slot.card}")
            lines.append(f"     given by {giver}{teller}{mark}; {votes}")
        lines.append(f"  {OUTCOMES.get(r.outcome, r.outcome)}")
        lines.append("  points: " + ", ".join(f"{who[p.seat]} +{p.delta} = {p.score}" for p in r.points))
    if view.winners:
        lines.append("")
        plural = "s" if len(view.winners) > 1 else ""
        lines.append(f"Winner{plural}: " + ", ".join(who[w] for w in view.winners))
    if marked:
        lines.append("")
        lines.append(STAND_IN_NOTE)
    return lines
