"""State messages say what the seat may do now (the engine's legal moves): can_clue, clue_needs_card, clue_cards,
voided_card, can_vote and vote_slots, additions to protocol v1; a bot reads them instead of the rules tables."""

from __future__ import annotations

import random
from typing import Any

import pytest
from jsonschema import ValidationError

from dixit_tui.bots.strategy import ClueAction, RandomStrategy, decide
from dixit_tui.bots.view import BotView
from dixit_tui.protocol.messages import no_game
from dixit_tui.protocol.schema import validate_message
from tests.protocol.clients import Game

NEW_FIELDS = ("can_clue", "clue_needs_card", "clue_cards", "voided_card", "can_vote", "vote_slots")


def hand_of(state: dict[str, Any]) -> list[str]:
    return [c["card"] for c in state["hand"]]


async def test_states_carry_the_seats_legal_moves() -> None:
    async with Game(seed=3) as g:
        ana, ben, cy, sam = [await g.connect(n) for n in ("ana", "ben", "cy", "sam")]
        assert not any(f in ana.state for f in NEW_FIELDS)  # the lobby: no game, no moves
        await g.create(ana, [ben, cy], mode="standard", profile="refresh", target=10, seed=7)
        await g.send(sam, {"cmd": "watch", "table": ana.state["table"]})
        await g.send(ana, {"cmd": "start"})

        # the open first clue: everyone may tell, with any card of their hand
        for c in (ana, ben, cy):
            s = c.state
            assert s["can_clue"] and s["clue_needs_card"] and s["clue_cards"] == hand_of(s)
            assert s["voided_card"] is None and not s["can_vote"] and s["vote_slots"] == []
        assert not sam.state["can_clue"] and sam.state["clue_cards"] == [] and sam.state["vote_slots"] == []

        # cy tells, the host voids: only cy learns the card its new clue may not use
        first = cy.state["hand"][0]["card"]
        await g.send(cy, {"cmd": "clue", "text": "a quiet storm", "card": first})
        assert not any(c.state["can_clue"] for c in (ana, ben, cy)) and ben.state["submit_count"] == 2
        await g.send(ana, {"cmd": "void"})
        assert cy.state["can_clue"] and cy.state["voided_card"] == first
        assert first in hand_of(cy.state) and first not in cy.state["clue_cards"]
        assert set(cy.state["clue_cards"]) == set(hand_of(cy.state)) - {first}
        for c in (ana, ben, sam):
            assert c.state["voided_card"] is None and c.state["clue_cards"] == [] and not c.state["can_clue"]
        await g.error(cy, {"cmd": "clue", "text": "again", "card": first}, "bad_card")

        # a bot reading the state never picks the voided card, without remembering the void itself
        view = BotView.from_protocol(cy.state)
        for seed in range(40):
            action = decide(view, RandomStrategy(), random.Random(seed))
            assert isinstance(action, ClueAction) and action.card != first
        await g.send(cy, {"cmd": "clue", "text": "again", "card": cy.state["clue_cards"][0]})

        # the vote: the slots each voter may choose, the board but its own cards
        await g.play(until=lambda: ben.state["phase"] == "vote")
        for c in (ana, ben):
            s = c.state
            board = [b["slot"] for b in s["board"]]
            assert s["can_vote"] and s["vote_slots"] == [b for b in board if b not in s["forbidden_slots"]]
            assert len(s["vote_slots"]) == 3  # five cards, two of them its own
        assert not cy.state["can_vote"] and cy.state["vote_slots"] == []  # the storyteller
        assert not sam.state["can_vote"] and sam.state["vote_slots"] == []
        await g.play()
        g.check()  # every line validates against the schema


async def test_party_states_say_the_storyteller_tells_blind_and_places_red() -> None:
    async with Game(seed=5) as g:
        players = [await g.connect(n) for n in ("ana", "ben", "cy", "dan", "eve", "fay")]
        await g.create(players[0], players[1:], mode="party", first="random", seed=2)
        await g.send(players[0], {"cmd": "start"})
        teller = players[players[0].state["storyteller"]]
        assert teller.state["can_clue"] and not teller.state["clue_needs_card"] and teller.state["clue_cards"] == []
        await g.send(teller, {"cmd": "clue", "text": "far away"})
        await g.play(until=lambda: teller.state["phase"] == "vote")
        for c in players:
            s = c.state
            assert s["can_vote"] and s["vote_slots"] == [1, 2, 3, 4, 5, 6]  # party: even your own card
            assert s["places_red"] is (c is teller)
        g.check()


def test_the_new_fields_are_checked_by_the_schema() -> None:
    player = {"seat": 0, "name": "ana", "score": 0, "team": None, "connected": True, "bot": False, "removed": False}
    base: dict[str, Any] = {
        "type": "state",
        "table": "K7QF",
        "mode": "standard",
        "profile": "refresh",
        **no_game(None, 0),
        "phase": "clue",
        "turn": 1,
        "players": [player],
        "waiting_for": [0],
        "chat_paused": False,
        "reconnect_code": None,
        "start_problem": None,
        "deadline": None,
        "decks": ["base"],
    }
    validate_message(base)  # older servers: the fields are optional
    validate_message({**base, "can_clue": False, "clue_cards": [], "voided_card": None, "vote_slots": []})
    bad: list[dict[str, Any]] = [
        {"can_clue": True},  # a spectator never acts
        {"clue_cards": ["base-001"]},
        {"vote_slots": [1]},
        {"voided_card": "base-001"},
        {"you": 0, "vote_slots": [1]},  # no vote outside the vote phase
        {"you": 0, "phase": "vote", "clue_cards": ["base-001"]},  # no clue card outside the clue phase
        {"you": 0, "vote_slots": [0]},
    ]
    for extra in bad:
        with pytest.raises(ValidationError):
            validate_message({**base, **extra})
