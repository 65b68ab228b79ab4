"""A probe, not a test: SIGSTOP a running server 20 s right after a clue with a 5 s turn limit, the two submits sent
while it is stopped; prints whether each player's own card was played (docs/operations.md, issue 24 item 9).

    python -m tests.e2e.stall_probe port SERVER_pid
"""

import asyncio
import os
import signal
import sys

from tests.e2e.json_client import JsonClient


async def main(port: int, pid: int) -> None:
    names = [f"{name}{os.getpid() % 1000}" for name in ("ana", "ben", "cy")]  # not the last run's owners
    clients = [await JsonClient.open(port, n) for n in names]
    code = await clients[0].create(mode="standard", turn_seconds=5)
    for c in clients[1:]:
        c.send({"cmd": "join", "table": code})
        await c.wait_for("state", table=code)
    clients[0].send({"cmd": "start"})
    st = await clients[0].wait_for(lambda m: m.get("type") == "state" and m.get("phase") == "clue")
    teller = (
        next(c for c in clients if c.state.get("you") == st["storyteller"])
        if st["storyteller"] is not None
        else clients[0]
    )
    s = teller.state
    start = len(teller.messages)
    teller.send(
        {"cmd": "clue", "text": "tide", "card": s["clue_cards"][0] if s.get("clue_cards") else s["hand"][0]["card"]}
    )
    await teller.wait_for(lambda m: m.get("type") == "state" and m.get("phase") == "submit", start=start)
    others = [c for c in clients if c is not teller]
    await asyncio.sleep(0.2)  # (a probe, not a test: a real server stopped in real time, just after the clue)
    os.kill(pid, signal.SIGSTOP)
    marks, cards = [], []
    for c in others:
        marks.append(len(c.messages))
        n = c.state.get("submit_count") or 1
        picked = [h["card"] for h in c.state["hand"][:n]]
        card = picked[0]
        cards.append(card)
        c.send({"cmd": "submit", "cards": picked, "ref": "mine"})
    await asyncio.sleep(20)  # (the stall probed: 20 s of real time, past the 5 s turn limit)
    os.kill(pid, signal.SIGCONT)
    await asyncio.sleep(4)  # (what the server does once it runs again, given real time to do it)
    for c, mark, card in zip(others, marks, cards, strict=True):
        new = c.messages[mark:]
        errors = [m.get("code") for m in new if m.get("type") == "error"]
        mine = any(card in (m.get("your_cards") or []) for m in new if m.get("type") == "state")
        print(c.name, "errors:", errors, "own card played:", mine)
    print("phase now:", others[0].state["phase"])
    for c in clients:
        c.process.stdin.write_eof()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
