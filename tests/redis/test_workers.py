"""`dixit-tui serve --redis URL --workers 2`: two real worker processes on one port share a table through a real
redis-server. Players whose connections landed on different workers play a turn and chat; then one worker is
killed with SIGKILL mid-game: its players connect again (same command, same key), get their seats and hands back,
and the game goes on."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from dixit_tui.bench.server import ServerProcess, serve_argv
from dixit_tui.bench.workers import socket_owner, worker_pids
from tests.redis_server import RedisServer

pytestmark = [pytest.mark.e2e]


async def until(condition: Any, what: str, timeout: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


class Player:
    def __init__(self, name: str) -> None:
        self.name = name
        self.key = asyncssh.generate_private_key("ssh-ed25519")
        self.conn: asyncssh.SSHClientConnection | None = None
        self.proc: asyncssh.SSHClientProcess[str] | None = None
        self.messages: list[dict[str, Any]] = []
        self.worker: int | None = None

    async def connect(self, port: int, pids: list[int]) -> None:
        self.messages = []
        self.conn = await asyncssh.connect(
            "127.0.0.1",
            port,
            username=self.name,
            known_hosts=None,
            client_keys=[self.key],
            agent_path=None,
            config=None,
            password=None,
            gss_host=None,
            kbdint_auth=False,
        )
        self.worker = socket_owner(pids, int(self.conn.get_extra_info("sockname")[1]))
        self.proc = await self.conn.create_process("json", encoding="utf-8")
        asyncio.get_running_loop().create_task(self._read(self.proc))

    async def _read(self, proc: asyncssh.SSHClientProcess[str]) -> None:
        with contextlib.suppress(asyncssh.Error, OSError):
            while line := await proc.stdout.readline():
                self.messages.append(json.loads(line))

    def send(self, **cmd: Any) -> None:
        assert self.proc is not None
        self.proc.stdin.write(json.dumps(cmd) + "\n")

    def state(self) -> dict[str, Any]:
        return next((m for m in reversed(self.messages) if m.get("type") == "state"), {})

    def close(self) -> None:
        if self.conn is not None:
            self.conn.abort()


@pytest.mark.timeout(240)
async def test_two_workers_share_a_table_and_survive_a_worker_kill(redis_server: RedisServer, tmp_path: Path) -> None:
    argv = [*serve_argv(tmp_path / "keys", tmp_path / "data", redis=redis_server.url), "--workers", "2"]
    server = ServerProcess(argv)
    await server.start(timeout=90)
    try:
        pids = worker_pids(server.lines)
        assert len(pids) == 2, server.lines
        # connections land where the kernel puts them: take three players not all on one worker
        players: list[Player] = []
        spare: list[Player] = []
        for i in range(16):
            p = Player(f"p{i}")
            await p.connect(server.port, pids)
            assert p.worker in pids
            workers = {q.worker for q in players}
            if len(players) < 2 or (len(players) == 2 and (len(workers) == 2 or p.worker not in workers)):
                players.append(p)
            else:
                spare.append(p)
            if len(players) == 3:
                break
        for p in spare:
            p.close()
        assert len(players) == 3 and len({p.worker for p in players}) == 2
        host, *others = players
        await until(lambda: all(p.state() for p in players), "every lobby")
        host.send(cmd="create", mode="standard", profile="refresh", decks=["base"], seats=3, target=12, seed=11)
        await until(lambda: host.state().get("table") is not None, "the new table")
        code = host.state()["table"]
        for p in others:
            p.send(cmd="join", table=code)
        await until(lambda: len(host.state().get("players", [])) == 3, "the host to see both players sit")
        host.send(cmd="start")
        await until(lambda: all(p.state().get("phase") == "clue" for p in players), "the game on every worker")
        await until(lambda: all(all(x["connected"] for x in p.state()["players"]) for p in players), "presence")
        teller = next(p for p in players if p.state().get("can_clue"))
        teller.send(cmd="clue", text="far away", card=teller.state()["hand"][0]["card"])
        await until(lambda: all(p.state().get("phase") == "submit" for p in players), "everyone to see the clue")
        for p in players:
            s = p.state()
            if s.get("submit_count"):
                p.send(cmd="submit", cards=[h["card"] for h in s["hand"][: s["submit_count"]]])
        await until(lambda: all(p.state().get("phase") == "vote" for p in players), "everyone to see the board")
        # kill -9 the worker of a player who is not the teller, mid-vote
        victim = next(p for p in players if p is not teller)
        hand = victim.state()["hand"]
        assert victim.worker is not None
        os.kill(victim.worker, signal.SIGKILL)
        await until(lambda: sum(" pid " in line for line in server.lines) == 3, "the server to start a new worker")
        await until(lambda: len(worker_pids(server.lines, ready=True)) == 2, "the new worker to listen")
        pids = worker_pids(server.lines)
        gone = [p for p in players if p.worker == victim.worker]
        stayed = [p for p in players if p.worker != victim.worker]
        for p in gone:
            p.close()
        await until(
            lambda: all(sum(x["connected"] for x in p.state()["players"]) == len(stayed) for p in stayed),
            "the other worker to see the dead worker's players offline",
        )
        for p in gone:  # the same command again: wherever it lands, the key finds the seat
            await p.connect(server.port, pids)
            p.send(cmd="join", table=code)
        await until(lambda: all(p.state().get("table") == code for p in gone), "the players back at their table")
        assert victim.state()["hand"] == hand and victim.state()["phase"] == "vote"
        for p in players:
            s = p.state()
            if s.get("can_vote") and not s.get("your_votes"):
                slot = next(b["slot"] for b in s["board"] if b["slot"] not in s["forbidden_slots"])
                p.send(cmd="vote", slots=[slot])
        await until(lambda: all(p.state().get("turn") == 2 for p in players), "the table to go on to turn 2")
        victim.send(cmd="chat", text="back again")
        await until(
            lambda: all(any(m.get("text") == "back again" for m in p.messages) for p in players), "the chat line"
        )
        for p in players:
            p.close()
    finally:
        await server.kill()
