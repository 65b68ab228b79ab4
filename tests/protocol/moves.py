"""Moves and checks for headless protocol clients in tests: a legal move from a player's own `state` message, and the
protocol's order of messages."""

from __future__ import annotations

import random
from typing import Any

CLUES = ("a quiet storm", "home", "the long way round", "almost", "salt and honey", "tick")

Message = dict[str, Any]


def submit_count(state: Message) -> int:
    """Two cards in a standard game that started with 3 players (removed players stay in `players`), else one."""
    return 2 if state["mode"] == "standard" and len(state["players"]) == 3 else 1


def next_move(state: Message, rng: random.Random) -> Message | None:
    """A legal move for the player whose view this is, or None if the phase does not wait for them."""
    me = state["you"]
    if state["table"] is None or me is None or me not in state["waiting_for"]:
        return None
    hand = [c["card"] for c in state["hand"]]
    if state["phase"] == "clue":
        clue: Message = {"cmd": "clue", "text": rng.choice(CLUES)}
        if state["mode"] != "party":
            clue["card"] = hand[0]  # after a void the voided card is back at the end of the hand: never hand[0]
        return clue
    if state["phase"] == "submit":
        return {"cmd": "submit", "cards": rng.sample(hand, submit_count(state))}
    if state["phase"] == "vote":
        slots = [b["slot"] for b in state["board"]]
        free = [s for s in slots if s not in state["forbidden_slots"]]
        two = state["votes_allowed"] == 2 and len(free) > 1 and rng.random() < 0.5
        vote: Message = {"cmd": "vote", "slots": sorted(rng.sample(free, 2 if two else 1))}
        if state["mode"] == "party" and me == state["storyteller"]:
            vote["red"] = rng.choice(slots)
        return vote
    return None


def check_order(messages: list[Message]) -> None:
    """Protocol order: hello first; a turn's reveal before the next turn's first state; the last reveal, then over,
    then a state with phase over (for a client that saw the game being played, not one that came to watch later)."""
    assert messages[0]["type"] == "hello"
    revealed: set[int] = set()
    last_turn = None  # the turn of the last in-game state seen
    over_seen = False
    for i, m in enumerate(messages):
        if m["type"] == "reveal":
            assert not over_seen
            revealed.add(m["turn"])
        elif m["type"] == "over":
            over_seen = True
            following = next(s for s in messages[i + 1 :] if s["type"] == "state")
            assert following["phase"] == "over", following
        elif m["type"] == "state" and m["table"] is not None and m["phase"] != "lobby":
            if last_turn is not None and m["turn"] > last_turn:
                assert m["turn"] == last_turn + 1 and last_turn in revealed, f"turn {m['turn']} before its reveal"
            if m["phase"] == "over" and last_turn is not None:
                assert over_seen, "a state with phase over before the over message"
            if m["phase"] != "over":
                last_turn = m["turn"]
