"""A game as plain text, built from a view: clues, every card with who gave it and who voted for it, points.

Everything in it is public once a turn is revealed, so the same text serves the table at the end of a game (to
copy) and `dixit-tui replay`.
"""

from __future__ import annotations

from dixit_tui.engine import Mode, PlayerView

OUTCOMES = {
    "some": "some found the storyteller's card",
    "all": "everyone found it: the storyteller scores 0, the others 2",
    "none": "nobody found it: the storyteller scores 0, the others 2",
    "party": "party scoring",
}


def transcript_of(view: PlayerView) -> list[str]:
    who = [p.name for p in view.players]
    label = view.mode if view.mode != Mode.STANDARD else view.profile
    lines = [f"{label} game, players: {', '.join(who)}"]
    for r in view.history:
        lines.append("")
        lines.append(f"Turn {r.turn}: {who[r.storyteller]} told: {r.clue}")
        for slot in r.slots:
            votes = f"votes: {', '.join(who[v] for v in slot.votes)}" if slot.votes else "no votes"
            mark = " [red marker]" if slot.red else ""
            teller = " (storyteller)" if slot.owner == r.storyteller else ""
            lines.append(f"  {slot.slot}. {slot.text or slot.card}")
            lines.append(f"     given by {who[slot.owner]}{teller}{mark}; {votes}")
        lines.append(f"  {OUTCOMES.get(r.outcome, r.outcome)}")
        lines.append("  points: " + ", ".join(f"{who[p.seat]} +{p.delta} = {p.score}" for p in r.points))
    if view.winners:
        lines.append("")
        plural = "s" if len(view.winners) > 1 else ""
        lines.append(f"Winner{plural}: " + ", ".join(who[w] for w in view.winners))
    return lines
