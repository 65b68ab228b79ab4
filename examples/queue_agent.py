"""An agent that queues for a game on a dixit-tui server and plays it to the end.

    python examples/queue_agent.py --host HOST --port 2222 --name ana [--players 4-6] [--bots-after 30] [--key FILE]

It connects over SSH as a bot (`json bot`), sends `queue` and waits: the server seats it at a new table as soon as
enough clients wait for one (with --bots-after, built-in bots fill the table after that many seconds), starts the
game, and the agent answers each `state` that waits for it with a legal move, read from the state itself
(`clue_cards`, `submit_count`, `vote_slots`). It prints the final scores and exits 0 when the game is over.

Point it at your own server (`dixit-tui serve`), or at any dixit-tui server: with `--key FILE` (an SSH private key) the
server knows the agent again, its games are rated and `ssh HOST leaderboard` ranks it; without one it plays as a guest.
Needs only asyncssh (`pip install asyncssh`). The protocol: docs/protocol.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from typing import Any

import asyncssh

CLUES = ("a dream", "elsewhere", "once upon a time", "hush", "the long way round")


class Guest(asyncssh.SSHClient):
    """Without a key: the server lets guests in through a keyboard-interactive step with no prompts."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(
        self, name: str, instructions: str, lang: str, prompts: list[tuple[str, bool]]
    ) -> list[str] | None:
        return [] if not prompts else None


def move(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A legal move for this seat now, or None when the table does not wait for it."""
    if state["table"] is None or state["you"] not in state["waiting_for"]:
        return None
    if state.get("can_clue"):
        clue: dict[str, Any] = {"cmd": "clue", "text": rng.choice(CLUES)}
        if state["clue_needs_card"]:  # a party clue names no card
            clue["card"] = rng.choice(state["clue_cards"])
        return clue
    if state.get("submit_count"):
        cards = [c["card"] for c in state["hand"]]
        return {"cmd": "submit", "cards": rng.sample(cards, state["submit_count"])}
    if state.get("can_vote") and state["vote_slots"]:
        vote: dict[str, Any] = {"cmd": "vote", "slots": [rng.choice(state["vote_slots"])]}
        if state["places_red"]:  # a party storyteller places the red marker too
            vote["red"] = rng.choice([b["slot"] for b in state["board"]])
        return vote
    return None


async def play(host: str, port: int, name: str, players: list[int], bots_after: float | None, key: str | None) -> int:
    keys = [asyncssh.read_private_key(key)] if key else []
    # known_hosts=None skips the host key check: compare the fingerprint the server prints instead
    options: dict[str, Any] = {"client_keys": keys, "agent_path": None, "password": None, "config": None}
    async with asyncssh.connect(host, port, username=name, known_hosts=None, client_factory=Guest, **options) as conn:
        proc = await conn.create_process("json bot")
        rng = random.Random(name)

        def send(command: dict[str, Any]) -> None:
            proc.stdin.write(json.dumps(command) + "\n")

        send({"cmd": "queue", "mode": "standard", "players": players, "fill_with_bots_after": bots_after})
        answered: tuple[int, str, int] | None = None
        voids = 0
        async for line in proc.stdout:
            message = json.loads(line)
            kind = message["type"]
            if kind == "queue":
                print(f"{name}: {message['text']}", flush=True)
            elif kind == "error":
                print(f"{name}: error {message['code']}: {message['message']}", file=sys.stderr, flush=True)
            elif kind == "notice":
                print(f"{name}: {message['text']}", flush=True)
            elif kind == "voided":
                voids += 1
            elif kind == "over":
                scores = ", ".join(f"seat {s['seat']}: {s['score']}" for s in message["scores"])
                print(f"{name}: game over. {scores}; winners {message['winners']}", flush=True)
                return 0
            elif kind == "state":
                key_now = (message["turn"], message["phase"], voids)
                if key_now == answered:
                    continue  # each phase is answered once
                chosen = move(message, rng)
                if chosen is not None:
                    answered = key_now
                    send(chosen)
    print(f"{name}: the server closed the session", file=sys.stderr)
    return 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="localhost")
    parser.add_argument("--port", type=int, default=2222)
    parser.add_argument("--name", default="agent")
    parser.add_argument("--players", default="4-6", help="a table size, or a range: 4-6")
    parser.add_argument("--bots-after", type=float, default=None, help="seconds before bots fill the table")
    parser.add_argument("--key", help="an SSH private key file: the agent is rated under it")
    args = parser.parse_args()
    low, _, high = args.players.partition("-")
    sizes = [int(low), int(high or low)]
    return asyncio.run(play(args.host, args.port, args.name, sizes, args.bots_after, args.key))


if __name__ == "__main__":
    sys.exit(main())
