"""A move may carry the `version` of the state it was decided on: if the table changed since, it is refused (`stale`)
and changes nothing, like boardgame.io's stale stateID; without `version` nothing changes for old clients."""

from __future__ import annotations

from tests.protocol.clients import Game


async def test_a_move_decided_on_an_older_state_is_refused_and_changes_nothing() -> None:
    async with Game(seed=5) as g:
        ana, ben, cy = [await g.connect(n) for n in ("ana", "ben", "cy")]
        code = await g.create(ana, [ben, cy], mode="standard", profile="refresh", target=10, seed=3)
        assert isinstance(ana.state["version"], int)
        await g.send(ana, {"cmd": "start"})
        seen = ben.state  # ben decides on this state...
        clue_card = ana.state["hand"][0]["card"]
        await g.send(ana, {"cmd": "clue", "text": "tides", "card": clue_card, "version": ana.state["version"]})
        assert ana.state["phase"] == "submit" and ben.state["version"] > seen["version"]
        # ...and cy submits first, so the table moves on again before ben's move arrives
        await g.send(cy, {"cmd": "submit", "cards": [c["card"] for c in cy.state["hand"][:2]]})
        before = g.coord.tables[code].version
        hand = [c["card"] for c in ben.state["hand"][:2]]
        error = await g.error(ben, {"cmd": "submit", "cards": hand, "version": seen["version"]}, "stale")
        assert "moved on" in error["message"]
        assert g.coord.tables[code].version == before and ben.state["your_cards"] == []
        # the same move on the latest state works; without `version` it works as it always did
        await g.send(ben, {"cmd": "submit", "cards": hand, "version": ben.state["version"]})
        assert ben.state["phase"] == "vote"
        free = [b["slot"] for b in ben.state["board"] if b["slot"] not in ben.state["forbidden_slots"]]
        await g.send(ben, {"cmd": "vote", "slots": free[:1]})
        assert ben.state["your_votes"] == free[:1]
        await g.error(ben, {"cmd": "void", "version": "x"}, "bad_command", valid=False)
