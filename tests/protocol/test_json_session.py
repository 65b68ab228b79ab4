"""The headless protocol's session logic over in-memory byte streams (the SSH transport is tested end to end)."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from dixit_tui.coordinator import Coordinator, Identity
from dixit_tui.protocol.json_stream import serve_json


class Pipe:
    """One client: lines we send become the session's input; what it writes is parsed back into messages."""

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[bytes] = asyncio.Queue()
        self.received: list[dict[str, Any]] = []
        self.new = asyncio.Event()

    async def readline(self) -> bytes:
        return await self.inbox.get()

    def write(self, data: bytes) -> None:
        for line in data.decode().splitlines():
            self.received.append(json.loads(line))
        self.new.set()

    async def drain(self) -> None:
        return None

    def send(self, message: Any) -> None:
        raw = message if isinstance(message, bytes) else (json.dumps(message) + "\n").encode()
        self.inbox.put_nowait(raw)

    async def wait_for(self, predicate: Any, timeout: float = 3.0) -> dict[str, Any]:
        async def scan() -> dict[str, Any]:
            seen = 0
            while True:
                for msg in self.received[seen:]:
                    if predicate(msg):
                        return msg
                seen = len(self.received)
                self.new.clear()
                await self.new.wait()

        return await asyncio.wait_for(scan(), timeout)

    def last_state(self) -> dict[str, Any]:
        return [m for m in self.received if m["type"] == "state"][-1]


async def open_client(coord: Coordinator, name: str, tasks: list[asyncio.Task[int]]) -> Pipe:
    pipe = Pipe()
    tasks.append(asyncio.create_task(serve_json(coord, Identity(name, f"SHA256:{name}"), pipe, pipe)))
    await pipe.wait_for(lambda m: m["type"] == "hello")
    return pipe


@pytest.fixture
async def tasks() -> Any:
    running: list[asyncio.Task[int]] = []
    yield running
    for task in running:
        task.cancel()
    await asyncio.gather(*running, return_exceptions=True)


async def test_hello_then_lobby_state(tasks: list[asyncio.Task[int]]) -> None:
    coord = Coordinator()
    pipe = await open_client(coord, "ana\x1b[31m", tasks)
    assert pipe.received[0] == {"type": "hello", "protocol": 1, "name": "ana"}
    state = await pipe.wait_for(lambda m: m["type"] == "state")
    assert state["table"] is None and state["phase"] == "lobby"


async def test_errors_echo_ref_and_change_nothing(tasks: list[asyncio.Task[int]]) -> None:
    coord = Coordinator()
    pipe = await open_client(coord, "ana", tasks)
    pipe.send(b"not json\n")
    assert (await pipe.wait_for(lambda m: m["type"] == "error"))["code"] == "bad_json"
    pipe.send({"cmd": "fly", "ref": 7})
    err = await pipe.wait_for(lambda m: m.get("ref") == 7)
    assert err["code"] == "unknown_command" and "create" in err["message"]
    pipe.send({"cmd": "vote", "slots": "4", "ref": "a"})
    assert (await pipe.wait_for(lambda m: m.get("ref") == "a"))["code"] == "bad_command"
    pipe.send({"cmd": "start", "ref": "b"})
    assert (await pipe.wait_for(lambda m: m.get("ref") == "b"))["code"] == "no_table"
    pipe.send({"cmd": "create", "seed": 3, "ref": "c"})
    assert (await pipe.wait_for(lambda m: m.get("ref") == "c"))["code"] == "seed_refused"
    assert coord.tables == {}


async def test_a_whole_game_headless(tasks: list[asyncio.Task[int]]) -> None:
    coord = Coordinator(rng=random.Random(2), allow_seeded_tables=True)
    pipes = [await open_client(coord, n, tasks) for n in ("ana", "ben", "cy")]
    pipes[0].send({"cmd": "create", "mode": "standard", "target": 10, "seed": 11})
    code = (await pipes[0].wait_for(lambda m: m["type"] == "state" and m["table"]))["table"]
    for p in pipes[1:]:
        p.send({"cmd": "join", "table": code})
        await p.wait_for(lambda m: m["type"] == "state" and m["table"] == code)
    pipes[0].send({"cmd": "start"})
    rng = random.Random(5)
    for _ in range(400):
        await asyncio.sleep(0)
        states = [p.last_state() for p in pipes]
        if states[0]["phase"] == "over":
            break
        for p, s in zip(pipes, states, strict=True):
            me = s["you"]
            if me not in s["waiting_for"] or s["phase"] == "lobby":
                continue
            if s["phase"] == "clue":
                p.send({"cmd": "clue", "text": "dream", "card": s["hand"][0]["card"]})
            elif s["phase"] == "submit":
                p.send({"cmd": "submit", "cards": [c["card"] for c in s["hand"][:2]]})
            elif s["phase"] == "vote":
                slots = [b["slot"] for b in s["board"] if b["slot"] not in s["forbidden_slots"]]
                p.send({"cmd": "vote", "slots": [rng.choice(slots)]})
            await p.wait_for(lambda m, v=s: m["type"] != "state" or m != v)
            break
    final = pipes[1].last_state()
    assert final["phase"] == "over"
    kinds = [m["type"] for m in pipes[1].received]
    assert "reveal" in kinds and "over" in kinds
    # the last reveal comes before "over", and a state with phase "over" follows
    assert kinds.index("over") > len(kinds) - 1 - kinds[::-1].index("reveal")
    over = next(m for m in pipes[1].received if m["type"] == "over")
    assert over["winners"] and all(p["connected"] for p in final["players"])
    assert not any(m["type"] == "error" for p in pipes for m in p.received)
