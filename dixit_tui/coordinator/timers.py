"""Tables never stall: when a phase's time limit passes, or a disconnected player's grace runs out, a stand-in
plays for them. The stand-in decides from that player's own view only, like any client would."""

from __future__ import annotations

import random
from collections.abc import Callable

from dixit_tui.engine import Command, GiveClue, PlayerView, Submit, Vote

StandIn = Callable[[PlayerView, random.Random], Command | None]

STAND_IN_CLUES = ("a long way home", "almost", "quiet", "once upon a time", "the other side", "too late", "echo")


def random_stand_in(view: PlayerView, rng: random.Random) -> Command | None:
    """A legal move for `view.you` chosen at random from what its view shows."""
    seat = view.you
    if seat is None:
        return None
    if view.can_clue:
        card = rng.choice(view.clue_cards) if view.clue_needs_card and view.clue_cards else None
        return GiveClue(seat, rng.choice(STAND_IN_CLUES), card)
    if view.submit_count:
        return Submit(seat, tuple(c.card for c in rng.sample(view.hand, view.submit_count)))
    if view.can_vote and view.vote_slots:
        red = rng.choice(view.board).slot if view.places_red else None
        return Vote(seat, (rng.choice(view.vote_slots),), red)
    return None
