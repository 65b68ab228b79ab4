"""Every protocol v1 line, in both directions, against the JSON Schema in dixit_tui/protocol/schema/.

Whole in-process games in every mode (serve_json over in-memory streams, as in test_json_session.py) record each
line every client sends and receives: all of it must validate, errors included, and every illegal command must get
exactly one `error` and change nothing. The examples of docs/protocol.md must validate as well, and its transcript
must be what `transcript()` below produces today. To regenerate it after a protocol change:

    .venv/bin/python -m tests.protocol.test_schema      # prints the transcript block of docs/protocol.md
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator, ValidationError

from dixit_tui.plain_commands import tables_json
from dixit_tui.protocol.commands import HANDLERS
from dixit_tui.protocol.json_stream import MAX_LINE
from dixit_tui.protocol.schema import load_schema, validate_message
from tests.protocol.clients import Game
from tests.protocol.moves import Message

DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
SERVER_TYPES = {"hello", "state", "reveal", "voided", "over", "chat", "notice", "error", "queue", "leaderboard"}


# --- the games ------------------------------------------------------------------------------------------------


async def test_refresh_three_players_with_errors_chat_spectator_and_a_void() -> None:
    async with Game(seed=3) as g:
        ana, ben, cy, sam = [await g.connect(n) for n in ("ana", "ben", "cy", "sam")]
        lobby = ben.state
        assert lobby["table"] is None and lobby["phase"] == "lobby" and lobby["tables"] == []
        await g.error(ben, {"cmd": "start"}, "no_table")
        await g.error(ben, {"cmd": "join", "table": "ZZZZ"}, "no_table")
        code = await g.create(ana, [], mode="standard", profile="refresh", target=10, seed=7, ref="new table")
        assert ben.state["tables"][0]["table"] == code  # the lobby listing follows
        await g.error(ben, {"cmd": "join", "table": code, "name": "ANA"}, "name_taken")
        await g.send(ben, {"cmd": "join", "table": code.lower()})  # codes are case-insensitive
        await g.send(cy, {"cmd": "join", "table": f" {code[:2]}-{code[2:]} "})
        await g.send(sam, {"cmd": "watch", "table": code})
        assert sam.state["you"] is None and sam.state["reconnect_code"] is None
        assert ana.state["start_problem"] is None and ana.state["phase"] == "lobby"
        await g.error(ben, {"cmd": "start"}, "not_host")
        await g.error(sam, {"cmd": "start"}, "spectator")
        await g.send(ben, {"cmd": "chat", "text": "hello all"})
        await g.send(sam, {"cmd": "chat", "text": "good luck"})
        assert [(m["seat"], m["text"]) for m in ana.of_type("chat")] == [(1, "hello all"), (None, "good luck")]
        await g.send(ana, {"cmd": "start"})
        assert {c.state["phase"] for c in (ana, ben, cy, sam)} == {"clue"}
        assert ana.state["waiting_for"] == [0, 1, 2] and ana.state["storyteller"] is None

        # junk and wrong shapes: an error each, nothing else
        await g.error(ben, b"not json\n", "bad_json")
        await g.error(ben, b"[1, 2]\n", "bad_json")
        await g.error(ben, b"\xff\xfe{\n", "bad_json")
        await g.error(ben, b"x" * (MAX_LINE + 10) + b"\n", "line_too_long")
        await g.error(ben, {"cmd": "fly"}, "unknown_command", valid=False)
        await g.error(ben, {"cmd": "vote", "slots": "1"}, "bad_command", valid=False)
        await g.error(ben, {"cmd": "submit", "cards": [17]}, "bad_command", valid=False)
        await g.error(ben, {"cmd": "remove"}, "bad_command", valid=False)
        await g.error(ben, {"cmd": "vote", "slots": [1]}, "wrong_phase")
        await g.error(sam, {"cmd": "vote", "slots": [1]}, "spectator")
        await g.error(ana, {"cmd": "void"}, "wrong_phase")
        await g.error(ben, {"cmd": "clue", "text": "no card"}, "bad_card")
        await g.error(ben, {"cmd": "clue", "text": "   ", "card": ben.state["hand"][0]["card"]}, "bad_clue")
        await g.error(ben, {"cmd": "clue", "text": "x", "card": cy.state["hand"][0]["card"]}, "bad_card")

        # turn 1: cy tells; during the submit phase chat is paused
        first = cy.state["hand"][0]["card"]
        await g.send(cy, {"cmd": "clue", "text": "a quiet storm", "card": first})
        assert ana.state["storyteller"] == 2 and ana.state["clue"] == "a quiet storm" and ana.state["chat_paused"]
        assert cy.state["your_cards"] == [first]
        await g.error(ben, {"cmd": "chat", "text": "psst, it is the boat"}, "chat_paused")
        await g.error(ben, {"cmd": "submit", "cards": ["base-900", "base-901"]}, "bad_card")
        await g.error(ben, {"cmd": "submit", "cards": [ben.state["hand"][0]["card"]]}, "bad_card")  # 3 players: 2
        await g.error(ben, {"cmd": "clue", "text": "me too", "card": ben.state["hand"][0]["card"]}, "wrong_phase")
        await g.error(cy, {"cmd": "submit", "cards": [c["card"] for c in cy.state["hand"][:2]]}, "not_your_turn")
        await g.error(ben, {"cmd": "void"}, "not_host")
        await g.send(ben, {"cmd": "submit", "cards": [c["card"] for c in ben.state["hand"][:2]]})
        await g.error(ben, {"cmd": "submit", "cards": [c["card"] for c in ben.state["hand"][:2]]}, "not_your_turn")

        # the host voids the turn: cards go back, same storyteller, same turn number
        got = await g.send(ana, {"cmd": "void"})
        assert [m["type"] for m in got] == ["voided", "state"] and got[0] == {"type": "voided", "turn": 1}
        assert all(c.of_type("voided") == [{"type": "voided", "turn": 1}] for c in (ben, cy, sam))
        assert ana.state["phase"] == "clue" and ana.state["turn"] == 1 and ana.state["storyteller"] == 2
        assert len(ben.state["hand"]) == 7 and first in [c["card"] for c in cy.state["hand"]]
        await g.error(cy, {"cmd": "clue", "text": "again", "card": first}, "bad_card")

        # play on; in the first vote where ben may vote, try illegal votes first
        await g.play(until=lambda: ben.state["phase"] == "vote" and 1 in ben.state["waiting_for"])
        view = ben.state
        await g.error(ben, {"cmd": "vote", "slots": [view["forbidden_slots"][0]]}, "bad_vote")
        await g.error(ben, {"cmd": "vote", "slots": [99]}, "bad_vote", valid=False)  # no slot 99
        free = [b["slot"] for b in view["board"] if b["slot"] not in view["forbidden_slots"]]
        await g.error(ben, {"cmd": "vote", "slots": free[:2]}, "bad_vote")  # refresh: one vote
        await g.error(ben, {"cmd": "vote", "slots": free[:1], "red": 1}, "bad_vote")  # red: party storytellers
        assert sam.state["hand"] == [] and len(sam.state["board"]) == 5 and sam.state["forbidden_slots"] == []
        await g.play()

        await g.error(ben, {"cmd": "vote", "slots": [1]}, "game_over")
        dan = await g.connect("dan")
        await g.error(dan, {"cmd": "join", "table": code}, "started")
        await g.send(dan, {"cmd": "watch", "table": code})
        assert dan.state["phase"] == "over"
        await g.send(sam, {"cmd": "leave"})
        assert sam.state["table"] is None
        await g.error(sam, {"cmd": "leave"}, "no_table")
        g.check()
        assert ana.of_type("over") and ana.of_type("reveal")
        assert len(sam.of_type("reveal")) == len(ana.of_type("reveal"))


async def test_refresh_four_players_lobby_remove_reconnect_notice_and_remove_in_game() -> None:
    async with Game(seed=4) as g:
        ana, cy, dan = [await g.connect(n) for n in ("ana", "cy", "dan")]
        ben = await g.connect("ben", keyless=True)  # the reconnect code is for players without a key
        code = await g.create(ana, [ben, cy, dan], mode="standard", target=10, seed=5, first="random")
        assert ana.state["reconnect_code"] is None  # ana's seat is bound to her key: no code to show
        await g.error(ben, {"cmd": "remove", "seat": 3}, "not_host")
        await g.error(ana, {"cmd": "remove", "seat": 9}, "no_seat")
        await g.send(ana, {"cmd": "remove", "seat": 3})
        notice = dan.of_type("notice")
        assert notice and notice[-1]["text"] and dan.state["table"] is None
        assert [p["name"] for p in ana.state["players"]] == ["ana", "ben", "cy"]
        await g.error(dan, {"cmd": "join", "table": code}, "removed")  # the host removed dan: kept out
        eve = await g.connect("eve")
        await g.send(eve, {"cmd": "join", "table": code})
        assert eve.state["you"] == 3

        # the same seat from another terminal: with the reconnect code; the old session is told and sent away
        ben2 = await g.connect("ben-laptop", keyless=True)
        await g.error(ben2, {"cmd": "reconnect", "code": "ZZZ-ZZZ"}, "bad_code")
        await g.send(ben2, {"cmd": "reconnect", "code": ben.state["reconnect_code"].lower()})
        assert ben2.state["you"] == 1 and ben.state["table"] is None and ben.of_type("notice")
        await g.send(ana, {"cmd": "start"})
        assert ana.state["storyteller"] is not None  # first: random

        # leave during the game keeps the seat; join under the same name asks for the code, which returns it
        code_ben = ben2.state["reconnect_code"]
        await g.send(ben2, {"cmd": "leave"})
        assert ana.state["players"][1]["connected"] is False
        await g.error(ben2, {"cmd": "join", "table": code}, "reconnect_needed")
        await g.send(ben2, {"cmd": "reconnect", "code": code_ben})
        assert ana.state["players"][1]["connected"] is True

        # turn 2, vote phase: the host removes cy; the turn is voided and the game goes on with three
        await g.play(until=lambda: ana.state["turn"] == 2 and ana.state["phase"] == "vote")
        got = await g.send(ana, {"cmd": "remove", "seat": 2})
        assert [m["type"] for m in got] == ["voided", "state"]
        assert ana.state["players"][2]["removed"] is True and 2 not in ana.state["waiting_for"]
        await g.error(ana, {"cmd": "remove", "seat": 2}, "not_your_turn")
        await g.error(cy, {"cmd": "vote", "slots": [1]}, "no_table")  # cy was told, and is in the lobby
        await g.play()
        over = ana.of_type("over")[-1]
        assert 2 not in [s["seat"] for s in over["scores"]]
        g.check()


async def test_lock_and_invite_keep_a_table_to_its_code_and_to_those_invited() -> None:
    async with Game(seed=5) as g:
        ana, ben, cy, lurker = [await g.connect(n) for n in ("ana", "ben", "cy", "lurker")]
        code = await g.create(ana, [ben], mode="standard")
        assert ana.state["lock"] == "open" and [t["table"] for t in lurker.state["tables"]] == [code]
        await g.error(ben, {"cmd": "lock"}, "not_host")
        await g.error(ana, {"cmd": "lock", "to": "closed"}, "bad_command", valid=False)
        await g.send(ana, {"cmd": "lock"})  # to its code: no longer listed
        g.coord.flush_lobby()  # (lobby listings are gathered per `lobby_interval`)
        await g.settle()
        assert ana.state["lock"] == "code" and ben.state["lock"] == "code" and lurker.state["tables"] == []
        await g.send(ana, {"cmd": "lock", "to": "invited", "ref": 1})
        await g.error(ben, {"cmd": "invite", "name": "cy"}, "not_host")
        await g.send(ana, {"cmd": "invite", "name": "Cy"})
        assert ana.state["invited"] == ["Cy"] and ben.state["invited"] == []
        await g.error(lurker, {"cmd": "join", "table": code}, "locked")
        await g.send(cy, {"cmd": "join", "table": code})
        assert cy.state["you"] == 2
        await g.send(ana, {"cmd": "remove", "seat": 2})
        await g.error(cy, {"cmd": "join", "table": code}, "removed")
        g.check()


async def test_the_host_changes_the_options_before_the_start() -> None:
    """Issue 22 item 5 over the protocol: `options` (the fields of `create`), host only, before the start."""
    async with Game(seed=5) as g:
        ana, ben, cy, lurker = [await g.connect(n) for n in ("ana", "ben", "cy", "lurker")]
        code = await g.create(ana, [ben, cy], mode="standard")
        await g.error(ben, {"cmd": "options", "mode": "party"}, "not_host")
        await g.error(ana, {"cmd": "options", "mode": "standard", "seats": 2}, "bad_option")
        await g.send(ana, {"cmd": "options", "mode": "team", "turn_seconds": 90, "seed": 5})
        assert ben.state["mode"] == "team" and ana.state["mode"] == "team"
        assert [(t["table"], t["mode"], t["turn_seconds"]) for t in lurker.state["tables"]] == [(code, "team", 90)]
        await g.send(ana, {"cmd": "options", "mode": "standard", "seed": 5})
        await g.send(ana, {"cmd": "start"})
        await g.error(ana, {"cmd": "options", "mode": "party"}, "started")
        g.check()


async def test_odyssey_eight_players_two_votes_and_a_changed_vote() -> None:
    async with Game(seed=8) as g:
        names = ["ana", "ben", "cy", "dan", "eve", "fay", "gus", "hal"]
        clients = [await g.connect(n) for n in names]
        await g.create(clients[0], clients[1:], mode="standard", profile="odyssey", target=10, seed=8)
        await g.send(clients[0], {"cmd": "start"})
        assert clients[3].state["votes_allowed"] == 2 and clients[3].state["profile"] == "odyssey"
        await g.play(until=lambda: clients[0].state["phase"] == "vote")
        view = clients[0].state
        voter = next(c for c in clients if c.state["you"] in view["waiting_for"])
        free = [b["slot"] for b in voter.state["board"] if b["slot"] not in voter.state["forbidden_slots"]]
        await g.error(voter, {"cmd": "vote", "slots": [free[0], free[0]]}, "bad_vote", valid=False)
        await g.error(voter, {"cmd": "vote", "slots": free[:3]}, "bad_vote", valid=False)
        await g.send(voter, {"cmd": "vote", "slots": free[:1]})
        assert voter.state["your_votes"] == free[:1]
        await g.send(voter, {"cmd": "vote", "slots": free[1:3]})  # changed until the reveal
        assert voter.state["your_votes"] == free[1:3]
        await g.play()
        reveals = clients[0].of_type("reveal")
        doubled = [
            seat
            for r in reveals
            for seat in {v for s in r["slots"] for v in s["votes"]}
            if sum(seat in s["votes"] for s in r["slots"]) == 2
        ]
        assert doubled, "nobody used two votes"
        g.check()


async def test_party_six_players() -> None:
    async with Game(seed=6) as g:
        clients = [await g.connect(n) for n in ("ana", "ben", "cy", "dan", "eve", "fay")]
        await g.create(clients[0], clients[1:], mode="party", profile="refresh", storytells=1, seed=6)
        assert clients[0].state["profile"] == "odyssey"  # party is an odyssey mode whatever create said
        await g.send(clients[0], {"cmd": "start"})
        assert all(c.state["hand"] == [] for c in clients)  # turn 1: everyone may tell, blind
        await g.error(clients[1], {"cmd": "clue", "text": "x", "card": "base-001"}, "bad_card")
        await g.send(clients[1], {"cmd": "clue", "text": "unheard music"})
        assert len(clients[1].state["hand"]) == 5 and 1 in clients[1].state["waiting_for"]  # tellers submit too
        await g.play(until=lambda: clients[0].state["phase"] == "vote")
        teller = clients[1]
        await g.error(teller, {"cmd": "vote", "slots": [1]}, "bad_vote")  # the red marker is missing
        other = next(c for c in clients if c is not teller)
        await g.error(other, {"cmd": "vote", "slots": [1], "red": 2}, "bad_vote")
        assert teller.state["forbidden_slots"] == []
        await g.send(teller, {"cmd": "vote", "slots": [1], "red": 1})
        assert teller.state["your_red"] == 1
        await g.play()
        for reveal in clients[2].of_type("reveal"):
            assert sum(s["red"] for s in reveal["slots"]) == 1
        assert len(clients[2].of_type("reveal")) == 6  # everyone told once
        g.check()


async def test_team_six_players() -> None:
    async with Game(seed=9) as g:
        clients = [await g.connect(n) for n in ("ana", "ben", "cy", "dan", "eve", "fay")]
        await g.create(clients[0], clients[1:], mode="team", storytells=1, seed=9)
        assert all(p["team"] is None for p in clients[0].state["players"])
        await g.error(clients[1], {"cmd": "chat", "text": "hi team", "to": "team"}, "no_team")
        await g.send(clients[0], {"cmd": "start"})
        assert [p["team"] for p in clients[0].state["players"]] == [0, 1, 2, 0, 1, 2]
        await g.send(clients[0], {"cmd": "clue", "text": "two of us", "card": clients[0].state["hand"][0]["card"]})
        # team chat (addition): while the table's chat is paused, a line only the sender's team gets
        await g.error(clients[1], {"cmd": "chat", "text": "mine?"}, "chat_paused")
        await g.send(clients[1], {"cmd": "chat", "text": "mine?", "to": "team"})
        team_line = {"type": "chat", "seat": 1, "name": "ben", "text": "mine?", "team": True}
        assert [c.of_type("chat") for c in clients] == [[], [team_line], [], [], [team_line], []]
        await g.error(clients[1], {"cmd": "chat", "text": "mine?", "to": "all"}, "bad_command", valid=False)
        waiting = clients[0].state["waiting_for"]
        assert 3 in waiting and 0 not in waiting  # the teller's teammate submits; both members of other teams
        await g.send(clients[1], {"cmd": "submit", "cards": [clients[1].state["hand"][0]["card"]]})
        await g.error(clients[4], {"cmd": "submit", "cards": [clients[4].state["hand"][0]["card"]]}, "not_your_turn")
        await g.play()
        over = clients[0].of_type("over")[-1]
        teams = {w % 3 for w in over["winners"]}
        assert {w for w in range(6) if w % 3 in teams} == set(over["winners"])  # both members of each winning team
        g.check()


async def test_a_turn_timer_lets_a_stand_in_play() -> None:
    async with Game(seed=12) as g:
        ana, ben, cy = [await g.connect(n) for n in ("ana", "ben", "cy")]
        await g.create(ana, [ben, cy], mode="standard", target=10, seed=12, turn_seconds=1)
        assert ana.state["deadline"] is None
        sent = time.time()
        await g.send(ana, {"cmd": "start"})
        deadline = ana.state["deadline"]
        assert isinstance(deadline, float) and sent + 1 <= deadline <= time.time() + 1  # a second after the start
        for _ in range(300):  # nobody gives the first clue: a second later a stand-in does
            if ana.state["phase"] != "clue":
                break
            await asyncio.sleep(0.01)
        await g.settle()
        assert ana.state["phase"] == "submit" and ana.state["deadline"] > deadline
        await g.play()
        assert ana.state["deadline"] is None
        g.check()


async def test_the_phase_deadline_stays_the_phases_when_a_player_drops() -> None:
    """`phase_deadline` (an addition) is in every table state: null before the start and without a limit, else when
    the phase's own time runs out. cy drops 40 s into a 120 s phase (60 s of grace): `deadline` moves to her
    stand-in's time, `phase_deadline` does not. On a clock the test drives."""
    async with Game(seed=12) as g:
        now = [1000.0]
        g.coord.clock = g.coord.timers.clock = lambda: now[0]
        g.coord.timers.disconnect_grace = 60
        ana, ben, cy = [await g.connect(n) for n in ("ana", "ben", "cy")]
        await g.create(ana, [ben, cy], mode="standard", target=10, seed=12, turn_seconds=120)
        assert "phase_deadline" in ana.state and ana.state["phase_deadline"] is None
        await g.send(ana, {"cmd": "start"})
        card = ana.state["hand"][0]["card"]
        await g.send(ana, {"cmd": "clue", "text": "tide", "card": card})  # the cards' phase, ben's and cy's
        assert ana.state["phase"] == "submit"
        assert ana.state["phase_deadline"] == ana.state["deadline"] == 1120
        now[0] += 40
        cy.inbox.put_nowait(b"")  # cy's input ends: she is gone
        await g.settle()
        assert ana.state["stand_ins"] == [{"seat": 2, "at": 1100}]
        assert ana.state["deadline"] == 1100 and ana.state["phase_deadline"] == 1120
        g.check()


async def test_bots_added_by_the_host_then_removed_end_the_game() -> None:
    async with Game(seed=13) as g:
        ana, ben = [await g.connect(n) for n in ("ana", "ben")]
        code = await g.create(ana, [], mode="standard", target=10, seed=13, bots=1)
        await g.send(ben, {"cmd": "join", "table": code})
        await g.error(ben, {"cmd": "add_bots", "count": 1}, "not_host")
        await g.error(ana, {"cmd": "add_bots", "count": 0}, "bad_option", valid=False)
        await g.error(ana, {"cmd": "add_bots", "count": "two"}, "bad_command", valid=False)
        await g.send(ana, {"cmd": "add_bots"})  # one more
        assert [p["bot"] for p in ana.state["players"]] == [False, True, False, True]
        await g.send(ana, {"cmd": "start"})
        await g.error(ana, {"cmd": "add_bots"}, "started")
        await g.play(until=lambda: bool(ana.of_type("reveal")), patience=30)  # bots think 0.2-1 s a move
        await g.send(ana, {"cmd": "remove", "seat": 3})
        assert ana.state["phase"] != "over" and ana.state["players"][3]["removed"]
        await g.send(ana, {"cmd": "remove", "seat": 1})  # two players left: the game ends at once
        assert ana.of_type("over") and ana.state["phase"] == "over" and ben.state["phase"] == "over"
        g.check()


async def test_a_table_of_bots_only_says_so_in_the_listings() -> None:
    """JSON clients could not tell a table left to bots: its `host` is a bot's name. `bots_only` says it, in the lobby
    state's `tables` and in `tables --json` (the text listings say "bots only")."""
    async with Game(seed=14) as g:
        ana, lurker = [await g.connect(n) for n in ("ana", "lurker")]
        wisp = await g.connect("wisp", bot=True)  # an agent (`json bot`): the table stays when its people go
        code = await g.create(ana, [wisp], mode="standard", target=10, bots=1)
        assert [(t["table"], t["host"], t["bots_only"]) for t in lurker.state["tables"]] == [(code, "ana", False)]
        await g.send(ana, {"cmd": "leave"})  # the host goes: bots only are left, one of them its host now
        ((listed, bots_only),) = [(t["table"], t["bots_only"]) for t in lurker.state["tables"]]
        assert (listed, bots_only) == (code, True) and lurker.state["tables"][0]["host"] != "ana"
        (row,) = json.loads(tables_json(g.coord))["tables"]
        assert row["table"] == code and row["bots_only"] is True
        validate_message(lurker.state)
        g.check()


async def test_lobby_and_create_errors() -> None:
    async with Game(seed=10, allow_seeded_tables=False) as g:
        ana, ben, cy, dan = [await g.connect(n) for n in ("ana", "ben", "cy", "dan")]
        await g.error(ana, {"cmd": "create", "mode": "standard", "seed": 3}, "seed_refused")
        await g.error(ana, {"cmd": "create", "mode": "standard", "target": 5}, "bad_option", valid=False)
        await g.error(ana, {"cmd": "create", "mode": "standard", "seats": 9}, "bad_option", valid=False)
        await g.error(ana, {"cmd": "create", "mode": "standard", "bots": 8}, "bad_option")  # refresh: 8 seats
        await g.error(ana, {"cmd": "create", "mode": "standard", "decks": []}, "bad_option", valid=False)
        await g.error(ana, {"cmd": "create", "mode": "standard", "decks": ["nope"]}, "bad_deck")
        await g.error(ana, {"cmd": "create", "mode": "standard", "first": "last"}, "bad_command", valid=False)
        await g.error(ana, {"cmd": "clue", "text": "x", "card": "base-001"}, "no_table")
        code = await g.create(ana, [ben], mode="standard", seats=3)
        await g.error(ana, {"cmd": "start"}, "cannot_start")
        assert ana.state["start_problem"]
        await g.error(ana, {"cmd": "clue", "text": "x", "card": "base-001"}, "not_started")
        await g.error(cy, {"cmd": "join", "table": code, "name": "\x1b[31m"}, "bad_name")
        await g.send(cy, {"cmd": "join", "table": code})
        await g.error(dan, {"cmd": "join", "table": code}, "table_full")
        await g.error(ana, {"cmd": "chat", "text": "   "}, "empty")
        for i in range(5):
            await g.send(ana, {"cmd": "chat", "text": f"line {i}"})
        await g.error(ana, {"cmd": "chat", "text": "one more"}, "rate_limited")
        await g.send(ben, {"cmd": "remove", "seat": 1})  # before the start anyone may remove themselves
        assert ben.state["table"] is None and len(ana.state["players"]) == 2
        g.check()
        assert {"seed_refused", "bad_option", "bad_deck", "no_table", "cannot_start", "table_full"} <= set(g.errors)


# --- the schema itself ----------------------------------------------------------------------------------------


def test_the_schema_is_a_valid_2020_12_schema_covering_every_message_and_command() -> None:
    schema = load_schema()
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert set(schema["$defs"]["ServerMessage"]["properties"]["type"]["enum"]) == SERVER_TYPES
    assert set(schema["$defs"]["ClientCommand"]["properties"]["cmd"]["enum"]) == set(HANDLERS)


VALID_COMMANDS: list[Message] = [
    {"cmd": "create", "mode": "standard"},
    {
        "cmd": "create",
        "mode": "standard",
        "profile": "odyssey",
        "decks": ["base"],
        "seats": 12,
        "target": 30,
        "storytells": 1,
        "first": "random",
        "seed": 123,
        "turn_seconds": 90,
        "ref": {"any": ["json"]},
    },
    {"cmd": "join", "table": "K7QF", "name": "ana"},
    {"cmd": "watch", "table": "k7qf"},
    {"cmd": "reconnect", "code": "ABC-DEF"},
    {"cmd": "start", "ref": None},
    {"cmd": "clue", "text": "a quiet storm", "card": "base-017"},
    {"cmd": "clue", "text": "unheard music"},
    {"cmd": "submit", "cards": ["base-003", "base-004"]},
    {"cmd": "vote", "slots": [4, 7]},
    {"cmd": "vote", "slots": [4], "red": 6},
    {"cmd": "chat", "text": "hi"},
    {"cmd": "void"},
    {"cmd": "remove", "seat": 3, "ref": 1},
    {"cmd": "leave"},
    {"cmd": "add_bots"},
    {"cmd": "add_bots", "count": 3},
    {"cmd": "create", "mode": "party", "bots": 5},
    {"cmd": "create", "mode": "standard", "reveal_seconds": 0},
    {"cmd": "create", "mode": "team", "reveal_seconds": 15},
    {"cmd": "queue"},
    {"cmd": "queue", "mode": "standard", "profile": "refresh", "players": [4, 6], "fill_with_bots_after": 30},
    {"cmd": "queue", "mode": "team", "players": 6, "fill_with_bots_after": None, "ref": 2},
    {"cmd": "unqueue"},
    {"cmd": "leaderboard"},
    {"cmd": "leaderboard", "limit": 10, "ref": "lb"},
]

INVALID_COMMANDS: list[Any] = [
    {"cmd": "fly"},
    {"command": "start"},
    ["start"],
    "start",
    {"cmd": "create"},  # mode is the one required option
    {"cmd": "create", "mode": "chess"},
    {"cmd": "create", "mode": "standard", "profile": "classic"},
    {"cmd": "create", "mode": "standard", "seats": 9},  # refresh: at most 8
    {"cmd": "create", "mode": "standard", "target": 5},
    {"cmd": "create", "mode": "standard", "storytells": 6},
    {"cmd": "create", "mode": "standard", "first": "last"},
    {"cmd": "create", "mode": "standard", "decks": []},
    {"cmd": "create", "mode": "standard", "seed": "123"},
    {"cmd": "create", "mode": "standard", "turn_seconds": 0},
    {"cmd": "create", "mode": "standard", "reveal_seconds": 61},
    {"cmd": "create", "mode": "standard", "color": "blue"},
    {"cmd": "join"},
    {"cmd": "join", "table": 7},
    {"cmd": "start", "now": True},
    {"cmd": "clue", "card": "base-017"},
    {"cmd": "clue", "text": ""},
    {"cmd": "submit", "cards": "base-003"},
    {"cmd": "submit", "cards": ["base-003", "base-003"]},
    {"cmd": "submit", "cards": []},
    {"cmd": "vote", "slots": 4},
    {"cmd": "vote", "slots": [0]},
    {"cmd": "vote", "slots": [1, 2, 3]},
    {"cmd": "vote", "slots": [True]},
    {"cmd": "vote", "slot": [4]},
    {"cmd": "remove"},
    {"cmd": "remove", "seat": -1},
    {"cmd": "chat", "text": 5},
    {"cmd": "add_bots", "count": 0},
    {"cmd": "add_bots", "bots": 2},
    {"cmd": "create", "mode": "standard", "bots": -1},
    {"cmd": "queue", "players": [4]},
    {"cmd": "queue", "players": [2, 6]},
    {"cmd": "queue", "fill_with_bots_after": -1},
    {"cmd": "queue", "fill_with_bots_after": "soon"},
    {"cmd": "queue", "size": 4},
    {"cmd": "unqueue", "now": True},
    {"cmd": "leaderboard", "limit": 0},
    {"cmd": "leaderboard", "top": 5},
]


@pytest.mark.parametrize("command", VALID_COMMANDS, ids=lambda c: str(c.get("cmd")))
def test_valid_commands_pass(command: Message) -> None:
    validate_message(command)


@pytest.mark.parametrize("command", INVALID_COMMANDS, ids=repr)
def test_invalid_commands_are_rejected(command: Any) -> None:
    with pytest.raises(ValidationError):
        validate_message(command)


async def test_reconnect_codes_old_and_new_both_pass_the_schema() -> None:
    """Codes grew from `ABC-DEF` to `ABC-DEF-GHJ-KMN`: the schema takes both (old saved tables keep their codes)."""
    async with Game(seed=3) as g:
        ana = await g.connect("ana", keyless=True)
        ben, cy = [await g.connect(n) for n in ("ben", "cy")]
        await g.create(ana, [ben, cy], mode="standard", target=10, seed=3)
        state = ana.state
        assert re.fullmatch(r"[A-Z2-9]{3}(-[A-Z2-9]{3}){3}", state["reconnect_code"])
        validate_message(state)
        for code in ("ABC-DEF", "ABC-DEF-GHJ", "ABC-DEF-GHJ-KMN-PQR-STU"):
            validate_message({**state, "reconnect_code": code})
        for code in ("ABC", "ABCDEF", "abc-def", "ABC-DEF-", "AB0-DEF-GHJ-KMN", "ABC-DEF-GHJ-KMN-PQR-STU-VWX"):
            with pytest.raises(ValidationError):
                validate_message({**state, "reconnect_code": code})


async def test_real_messages_fail_once_mutated() -> None:
    """The schema can fail: a real message of each kind, validated, then broken in one field."""
    async with Game(seed=2) as g:
        ana, ben, cy = [await g.connect(n) for n in ("ana", "ben", "cy")]
        await g.create(ana, [ben, cy], mode="standard", target=10, seed=2)
        await g.send(ana, {"cmd": "chat", "text": "hi"})
        await g.send(ana, {"cmd": "start"})
        await g.play()
        g.check()
        first = {m["type"]: m for m in reversed(ana.received)}
        lobby = ana.received[1]
        assert lobby["table"] is None
        playing = next(m for m in ana.received if m["type"] == "state" and m["phase"] == "vote")
        mutations: list[tuple[Message, Callable[[Message], None]]] = [
            (first["hello"], lambda m: m.update(protocol=2)),
            (lobby, lambda m: m.update(mode="standard")),
            (lobby, lambda m: m.pop("tables")),
            (playing, lambda m: m.update(phase="playing")),
            (playing, lambda m: m.update(mode="classic")),
            (playing, lambda m: m.update(profile=None)),
            (playing, lambda m: m.update(votes_allowed=3)),
            (playing, lambda m: m.update(you="0")),
            (playing, lambda m: m["players"][0].pop("connected")),
            (playing, lambda m: m["hand"][0].update(text=None)),
            (playing, lambda m: m["board"][0].update(slot=0)),
            (playing, lambda m: m.pop("waiting_for")),
            (playing, lambda m: m.update(table="k7qf")),
            (playing, lambda m: m.update(deadline="soon")),
            (playing, lambda m: m.pop("reconnect_code")),
            (first["reveal"], lambda m: m["slots"][0].pop("owner")),
            (first["reveal"], lambda m: m["points"][0].update(delta="4")),
            (first["over"], lambda m: m.update(winners=None)),
            (first["chat"], lambda m: m.update(text="")),
            ({"type": "voided", "turn": 1}, lambda m: m.update(turn=-1)),
            ({"type": "notice", "text": "hi"}, lambda m: m.pop("text")),
            ({"type": "error", "code": "bad_vote", "message": "No.", "ref": None}, lambda m: m.pop("ref")),
            ({"type": "error", "code": "bad_vote", "message": "No.", "ref": None}, lambda m: m.update(code="Bad Vote")),
            ({"type": "party", "turn": 1}, lambda m: None),
        ]
        for original, mutate in mutations:
            if original["type"] != "party":
                validate_message(original)
            broken = json.loads(json.dumps(original))
            mutate(broken)
            with pytest.raises(ValidationError):
                validate_message(broken)
        # fields may be added to server messages
        validate_message({**playing, "new_field": [1, 2, 3]})


# --- docs/protocol.md -----------------------------------------------------------------------------------------


def doc_blocks(lang: str) -> list[str]:
    text = DOCS.read_text(encoding="utf-8")
    return re.findall(rf"^```{lang}\n(.*?)^```$", text, flags=re.DOTALL | re.MULTILINE)


def doc_lines() -> list[tuple[str | None, Message]]:
    """Every example line of the jsonl blocks: (direction marker or None, message). `#` lines are comments."""
    out: list[tuple[str | None, Message]] = []
    for block in doc_blocks("jsonl"):
        for line in block.splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            marker = line[:2] if line[:3] in ("-> ", "<- ") else None
            out.append((marker, json.loads(line[3:] if marker else line)))
    return out


def test_every_example_in_the_docs_validates() -> None:
    lines = doc_lines()
    assert len(lines) > 50
    for marker, message in lines:
        validate_message(message)
        if marker == "->":
            assert "cmd" in message
        elif marker == "<-":
            assert "type" in message
    commands = {m["cmd"] for _, m in lines if "cmd" in m}
    types = {m["type"] for _, m in lines if "type" in m}
    assert commands == set(HANDLERS), set(HANDLERS) - commands
    assert types == SERVER_TYPES, SERVER_TYPES - types


def test_the_docs_python_examples_compile() -> None:
    blocks = doc_blocks("python")
    for code in blocks:
        compile(code, "docs/protocol.md", "exec")
    assert any("asyncssh.connect" in code and '"json"' in code for code in blocks)


# --- the transcript -------------------------------------------------------------------------------------------

TRANSCRIPT_START = "<!-- transcript: generated by `python -m tests.protocol.test_schema`, do not edit -->"
TRANSCRIPT_END = "<!-- end of transcript -->"


async def transcript() -> str:
    """A seeded 3-player refresh game played in-process; ana's sent and received lines, lobby states trimmed."""
    async with Game(seed=1) as g:
        ana, ben, cy = [await g.connect(n) for n in ("ana", "ben", "cy")]
        await g.send(ana, {"cmd": "create", "mode": "standard", "profile": "refresh", "target": 10, "seed": 2024})
        code = ana.state["table"]
        for client in (ben, cy):
            await g.send(client, {"cmd": "join", "table": code})
        await g.send(ben, {"cmd": "chat", "text": "hi! ready when you are"})
        await g.send(ana, {"cmd": "start", "ref": "go"})
        await g.play(until=lambda: ana.state["phase"] == "vote" and 0 in ana.state["waiting_for"])
        await g.error(ana, {"cmd": "vote", "slots": ana.state["forbidden_slots"][:1], "ref": 1}, "bad_vote")
        await g.play()
        g.check()
        lines = list(ana.lines)  # before the sessions end (closing is not part of the game)
    out: list[str] = []
    lobby = [i for i, (d, line) in enumerate(lines) if d == "<-" and _is_table_lobby_state(line)]
    trimmed = set(lobby[1:-1])
    for i, (direction, line) in enumerate(lines):
        if i in trimmed:
            if i == lobby[1]:
                out.append(f"# ... {len(trimmed)} more lobby state(s) like the one above, as ben and cy sit down ...")
            continue
        out.append(f"{direction} {line}")
    return "\n".join(out)


def _is_table_lobby_state(line: str) -> bool:
    message = json.loads(line)
    return message["type"] == "state" and message["table"] is not None and message["phase"] == "lobby"


async def test_the_docs_transcript_is_what_the_server_says_today() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert TRANSCRIPT_START in text and TRANSCRIPT_END in text
    block = text.split(TRANSCRIPT_START, 1)[1].split(TRANSCRIPT_END, 1)[0]
    documented = block.split("```jsonl\n", 1)[1].rsplit("```", 1)[0].strip()
    assert documented == await transcript(), "docs/protocol.md is stale: run `python -m tests.protocol.test_schema`"


if __name__ == "__main__":
    print(TRANSCRIPT_START)
    print()
    print("```jsonl")
    print(asyncio.run(transcript()))
    print("```")
    print()
    print(TRANSCRIPT_END)
