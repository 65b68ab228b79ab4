"""Whole games and hostile input over the headless protocol, on a server `serve` starts (tests.e2e.servers.dixit_server
by default): run by tests/e2e/test_headless_ssh.py, and on two workers by tests/redis/test_contract.py."""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import ValidationError

from dixit_tui.protocol.commands import HANDLERS
from dixit_tui.protocol.json_stream import MAX_LINE
from dixit_tui.protocol.schema import validate_message
from tests.e2e.harness import HOST
from tests.e2e.json_client import JsonClient, everyone_over, play, table_of_three
from tests.e2e.servers import Serve, dixit_server
from tests.protocol.moves import check_order

DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


async def three_json_clients_play_a_whole_refresh_game(tmp_path: Path, serve: Serve = dixit_server) -> None:
    async with serve(tmp_path) as (server, _):
        players, code = await table_of_three(server.port)
        players[0].send({"cmd": "start"})
        await play(players, everyone_over(players), random.Random(1))
        for player in players:
            kinds = [m["type"] for m in player.messages]
            assert "reveal" in kinds and "error" not in kinds
            for message in player.messages:
                validate_message(message)
            check_order(player.messages)
            final = player.state
            assert final["table"] == code and final["phase"] == "over"
            assert max(p["score"] for p in final["players"]) >= 10
        over = players[1].of_type("over")[0]
        best = max(s["score"] for s in over["scores"])
        assert over["winners"] == [s["seat"] for s in over["scores"] if s["score"] == best]
        for player in players:
            assert await player.close() == 0


def random_json(rng: random.Random, depth: int = 0) -> Any:
    kinds = ["null", "bool", "int", "float", "str"] + (["list", "object"] * 2 if depth < 3 else [])
    kind = rng.choice(kinds)
    if kind == "null":
        return None
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "int":
        return rng.choice([0, -1, 1, 2**63, rng.randint(-(10**6), 10**6)])
    if kind == "float":
        return rng.uniform(-1e6, 1e6)
    if kind == "str":
        return "".join(
            chr(rng.choice([rng.randint(32, 126), rng.randint(0, 0x2FFF)])) for _ in range(rng.randint(0, 12))
        )
    if kind == "list":
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {random_json_key(rng): random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def random_json_key(rng: random.Random) -> str:
    return rng.choice(["cmd", "ref", "table", "slots", "cards", "text", "seat", "mode", "x", "", "\u00e9t\u00e9"])


# A real command with its required argument broken (never None where None means "use the default").
BROKEN_ARGUMENT = {
    "create": "mode",
    "join": "table",
    "watch": "table",
    "reconnect": "code",
    "clue": "text",
    "submit": "cards",
    "vote": "slots",
    "chat": "text",
    "remove": "seat",
}


def is_command(value: Any) -> bool:
    return isinstance(value, str) and value in HANDLERS


def junk_command(rng: random.Random) -> Any:
    """Random JSON that no server may accept: not an object, no known command, or a known one with a bad argument."""
    roll = rng.random()
    if roll < 0.3:
        junk = random_json(rng)
        if isinstance(junk, dict) and is_command(junk.get("cmd")):
            junk["cmd"] = "no-" + junk["cmd"]
        return junk
    if roll < 0.6:
        junk = {random_json_key(rng): random_json(rng, 1) for _ in range(rng.randint(0, 3))}
        cmd = random_json(rng, 2)
        junk["cmd"] = f"{cmd}!" if is_command(cmd) else cmd
        return junk
    cmd = rng.choice(sorted(BROKEN_ARGUMENT))
    key = BROKEN_ARGUMENT[cmd]
    bad = random_json(rng, 1)
    while (
        bad is None
        or (key in ("table", "code", "text", "mode") and isinstance(bad, str))
        or (key == "seat" and isinstance(bad, int) and not isinstance(bad, bool))
        or (key == "cards" and isinstance(bad, list) and all(isinstance(c, str) for c in bad))
        or (key == "slots" and isinstance(bad, list) and all(type(s) is int for s in bad))
    ):
        bad = random_json(rng, 1)
    return {"cmd": cmd, key: bad, "ref": random_json(rng, 2)}


def junk_bytes(rng: random.Random) -> bytes:
    """A random line that is not blank once decoded (blank lines are skipped without an answer)."""
    while True:
        line = rng.randbytes(rng.randint(1, 300)).replace(b"\n", b"\x00")
        if line.decode("utf-8", "replace").strip():
            return line + b"\n"


async def random_bytes_and_json_get_only_errors_and_leave_the_game_alone(
    tmp_path: Path, serve: Serve = dixit_server
) -> None:
    async with serve(tmp_path) as (server, coordinator):
        players, code = await table_of_three(server.port, seed=11)
        ana, ben, cy = players
        ana.send({"cmd": "start"})
        rng = random.Random(2024)
        # in the middle of turn 1: the clue is given, ben has submitted, cy (the fuzzer) has not
        await play(players[:2], lambda: ana.state["phase"] == "submit" and 1 not in ana.state["waiting_for"], rng)
        await cy.wait_for(lambda m: m["type"] == "state" and m["phase"] == "submit" and 1 not in m["waiting_for"])
        for player in players:
            await player.settle()
        before = {p.name: (len(p.messages), p.state) for p in players}
        game_version = coordinator.tables[code].game.state.version  # type: ignore[union-attr]

        lines: list[bytes] = []
        for i in range(200):
            if i % 2:
                lines.append(junk_bytes(rng))
            else:
                command = junk_command(rng)
                with pytest.raises(ValidationError):
                    validate_message(command)
                lines.append((json.dumps(command, allow_nan=False) + "\n").encode())
        lines += [b"{" * 3 + b"x" * MAX_LINE + b"\n", b"\xc3\x28\xa0\xa1\n", b"\x00\n", b"[]\n", b"null\n"]
        for line in lines:
            cy.send(line)
        cy.send({"cmd": "no-such-command", "ref": "end"})
        await cy.wait_for(lambda m: m.get("ref") == "end", timeout=30, start=before["cy"][0])
        for player in players:
            await player.settle()  # (anything the lines caused has come by now)

        answers = cy.messages[before["cy"][0] :]
        assert [m["type"] for m in answers] == ["error"] * (len(lines) + 1)
        assert {m["code"] for m in answers} <= {"bad_json", "unknown_command", "bad_command", "line_too_long"}
        for message in answers:
            validate_message(message)
        for player in (ana, ben):
            assert (len(player.messages), player.state) == before[player.name]
        assert coordinator.tables[code].game.state.version == game_version  # type: ignore[union-attr]

        # the game goes on, cy included
        await play(players, everyone_over(players), rng)
        assert not [m for p in (ana, ben) for m in p.of_type("error")]
        for player in players:
            assert await player.close() == 0


def needles(card: str, text: str) -> list[bytes]:
    """How a card would appear on the wire: its id, and its text as JSON encodes it."""
    return [card.encode(), json.dumps(text, ensure_ascii=False)[1:-1].encode()]


async def a_spectator_never_receives_a_hand(tmp_path: Path, serve: Serve = dixit_server) -> None:
    async with serve(tmp_path) as (server, _):
        players, code = await table_of_three(server.port, seed=5)
        sam = await JsonClient.open(server.port, "sam")
        sam.send({"cmd": "watch", "table": code})
        await sam.wait_for(lambda m: m["type"] == "state" and m["table"] == code)
        players[0].send({"cmd": "start"})
        for player in players:
            await player.wait_for(lambda m: m["type"] == "state" and m["phase"] == "clue")
        dealt = {c["card"]: c["text"] for p in players for c in p.state["hand"]}
        assert len(dealt) == 21

        await play(players, everyone_over(players), random.Random(3))
        await sam.wait_for(lambda m: m["type"] == "over")

        # before the first reveal: only the first board (once every card was in) may show any dealt card
        first_reveal = sam.raw.index(b'"type":"reveal"')
        board_1 = next(m for m in sam.messages if m["type"] == "state" and m["phase"] == "vote")["board"]
        shown_1 = {b["card"] for b in board_1}
        assert len(shown_1) == 5
        for card, text in dealt.items():
            if card not in shown_1:
                for needle in needles(card, text):
                    assert needle not in sam.raw[:first_reveal], f"{card} reached the spectator"

        # over the whole game: no card that was only ever in a hand
        held = {c["card"]: c["text"] for p in players for m in p.of_type("state") for c in m["hand"]}
        boards = {b["card"] for m in sam.of_type("state") for b in m["board"]}
        boards |= {s["card"] for m in sam.of_type("reveal") for s in m["slots"]}
        hidden = {card: text for card, text in held.items() if card not in boards}
        assert hidden, "some cards stay in hands at the end"
        for card, text in hidden.items():
            for needle in needles(card, text):
                assert needle not in sam.raw, f"{card} reached the spectator"
        for state in [m for m in sam.of_type("state") if m["table"] == code]:
            assert state["you"] is None and state["hand"] == [] and state["your_cards"] == []
            assert state["reconnect_code"] is None
            assert all(set(b) == {"slot", "card", "text"} for b in state["board"])
        for player in [*players, sam]:
            assert await player.close() == 0


async def the_docs_example_bot_plays_a_whole_game(tmp_path: Path, serve: Serve = dixit_server) -> None:
    blocks = re.findall(r"^```python\n(.*?)^```$", DOCS.read_text(encoding="utf-8"), re.DOTALL | re.MULTILINE)
    (code_text,) = [block for block in blocks if "async def play(" in block]
    example: dict[str, Any] = {"__name__": "protocol_example"}
    exec(compile(code_text, "docs/protocol.md", "exec"), example)
    async with serve(tmp_path) as (server, coordinator):
        host = asyncio.create_task(example["play"](HOST, server.port, "ana"))
        for _ in range(500):
            if coordinator.tables or host.done():
                break
            await asyncio.sleep(0.01)
        (code,) = coordinator.tables
        guests = [asyncio.create_task(example["play"](HOST, server.port, name, code)) for name in ("ben", "cy")]
        results = await asyncio.wait_for(asyncio.gather(host, *guests), 60)
        assert all(r["type"] == "over" and r["winners"] for r in results)
        assert results[0] == results[1] == results[2] and max(s["score"] for s in results[0]["scores"]) >= 10
