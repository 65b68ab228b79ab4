"""A finished (or running) game as plain text, from public facts only: clues, reveals, voids, removals, the end."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dixit_tui.engine import Event
from dixit_tui.engine.events import GameEnded, GameStarted, PlayerRemoved, TurnScored, TurnVoided

OUTCOMES = {
    "some": "some found the storyteller's card",
    "all": "everyone found it: the storyteller scores 0, the others 2",
    "none": "nobody found it: the storyteller scores 0, the others 2",
    "party": "party scoring",
}


def transcript(events: Iterable[Event], names: Sequence[str] | None = None) -> list[str]:
    lines: list[str] = []
    texts: dict[str, str] = {}
    who = list(names or [])
    for event in events:
        match event:
            case GameStarted():
                texts = {c.id: c.text for c in event.cards}
                who = who or list(event.names)
                mode = event.config.normalized()
                lines.append(f"{mode.mode.value} game ({mode.profile.value}), players: {', '.join(who)}")
            case TurnScored(reveal=r):
                lines.append("")
                lines.append(f"Turn {r.turn}: {who[r.storyteller]} told: {r.clue}")
                for slot in r.slots:
                    voters = ", ".join(who[v] for v in slot.votes) or "no votes"
                    mark = " [red]" if slot.red else ""
                    teller = " (storyteller)" if slot.owner == r.storyteller else ""
                    lines.append(f"  {slot.slot}. {texts.get(slot.card, slot.card)}")
                    lines.append(f"     given by {who[slot.owner]}{teller}{mark}; votes: {voters}")
                lines.append(f"  {OUTCOMES.get(r.outcome, r.outcome)}")
                lines.append("  points: " + ", ".join(f"{who[p.seat]} +{p.delta} = {p.score}" for p in r.points))
            case TurnVoided(turn=turn):
                lines.append("")
                lines.append(f"Turn {turn} was voided: every card went back to its owner.")
            case PlayerRemoved(seat=seat):
                lines.append(f"{who[seat]} left the game for good.")
            case GameEnded(winners=winners):
                lines.append("")
                lines.append("Winner" + ("s" if len(winners) > 1 else "") + ": " + ", ".join(who[w] for w in winners))
    return lines
