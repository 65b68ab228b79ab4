"""`dixit-tui bot` end to end: bots over real SSH on 127.0.0.1 play a whole game at a headless client's table."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest

from dixit_tui.bots.brain import Brain
from dixit_tui.bots.cli import ProtocolBot, bot_names, command_message
from dixit_tui.bots.strategy import RandomStrategy
from dixit_tui.bots.view import BotView
from dixit_tui.serve import build_command_handler, build_coordinator
from dixit_tui.ssh.keys import ensure_host_key
from dixit_tui.store import SqliteStore
from tests.e2e.harness import HOST, running_server
from tests.e2e.json_client import JsonClient

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60)]


def server_args() -> argparse.Namespace:
    return argparse.Namespace(deck=[], allow_seeded_tables=True)


@contextlib.asynccontextmanager
async def bot_cli(*args: str, env: dict[str, str] | None = None) -> AsyncIterator[asyncio.subprocess.Process]:
    """`dixit-tui bot ARGS` as a real process (python -m dixit_tui.bots.cli), killed if a test fails; `env` is added
    to its environment (by default its seats file goes to a directory of its own, not the user's)."""
    if env is None:
        env = {"XDG_STATE_HOME": tempfile.mkdtemp(prefix="dixit-bot-state-")}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "dixit_tui.bots.cli",
        *args,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, **env},
    )
    try:
        yield process
    finally:
        if process.returncode is None:
            process.kill()
            await process.communicate()


async def test_three_bots_over_ssh_play_a_whole_game(tmp_path: Path) -> None:
    args = server_args()
    coordinator = build_coordinator(args)
    async with running_server(tmp_path, command_handler=build_command_handler(args, coordinator)) as server:
        host = await JsonClient.open(server.port, "ana")
        code = await host.create(mode="standard", target=12, seed=21)
        async with bot_cli(
            "--host", HOST, "--port", str(server.port), "--table", code, "--count", "3",
            "--insecure", "--delay", "0", "0.01", "--seed", "4", "--games", "1",
        ) as bots:  # fmt: skip
            await host.wait_for(lambda m: m["type"] == "state" and len(m["players"]) == 4)
            names = [p["name"] for p in host.state["players"]]
            assert names[0] == "ana" and sorted(names[1:]) == sorted(bot_names(3, None))  # in any order
            seats = {p["name"]: p["seat"] for p in host.state["players"]}
            host.send({"cmd": "start"})
            await play_until_over(host)
            out, err = await asyncio.wait_for(bots.communicate(), 15)
        assert bots.returncode == 0, err.decode()
        text = out.decode()
        for name in bot_names(3, None):
            assert f"{name} sat down at table {code} (seat {seats[name] + 1})" in text and f"{name}: " in text
        over = host.of_type("over")[0]
        assert max(s["score"] for s in over["scores"]) >= 12
        assert [m for m in host.of_type("error") if m.get("ref") != "me"] == []
        assert len(host.of_type("reveal")) >= 2
        assert await host.close() == 0


async def test_bots_follow_the_rematch_of_their_table_and_play_on(tmp_path: Path) -> None:
    """Found playtesting: the bot process left when its game ended, so at the host's rematch its seat stayed away
    ("Oneiros2 is not here") and a stand-in played it. Now each bot is moved to its seat at the new table and plays
    the rematch; with --games 2 it leaves after that one."""
    args = server_args()
    coordinator = build_coordinator(args)
    async with running_server(tmp_path, command_handler=build_command_handler(args, coordinator)) as server:
        host = await JsonClient.open(server.port, "ana")
        code = await host.create(mode="standard", target=10, seed=21)
        async with bot_cli(
            "--host", HOST, "--port", str(server.port), "--table", code, "--count", "2",
            "--insecure", "--delay", "0", "0.01", "--seed", "4", "--games", "2",
        ) as bots:  # fmt: skip
            await host.wait_for(lambda m: m["type"] == "state" and len(m["players"]) == 3)
            host.send({"cmd": "start"})
            await play_until_over(host)
            start = len(host.messages)
            host.send({"cmd": "rematch", "ref": "again"})
            fresh = await host.wait_for(lambda m: m["type"] == "state" and m["table"] != code, start=start)
            rematch = fresh["table"]
            seated = await host.wait_for(  # both bots back, connected, in their seats
                lambda m: (
                    m["type"] == "state"
                    and m["table"] == rematch
                    and all(p["connected"] for p in m["players"] if p["bot"])
                ),
                start=start,
            )
            assert sorted(p["name"] for p in seated["players"] if p["bot"]) == sorted(bot_names(2, None))
            seats = {p["name"]: p["seat"] for p in seated["players"]}  # (0-based; people read them from 1, as shown)
            host.send({"cmd": "start"})
            await play_until_over(host, games=2)
            out, err = await asyncio.wait_for(bots.communicate(), 15)
        assert bots.returncode == 0, err.decode()
        text = out.decode()
        for name in bot_names(2, None):
            assert f"{name} followed the rematch to table {rematch} (seat {seats[name] + 1})" in text
        assert f"Game 1, table {code}:" in text and f"Game 2, table {rematch}:" in text
        assert [m for m in host.of_type("error") if m.get("ref") != "me"] == []
        assert not any("not here" in str(m.get("text")) for m in host.messages)  # no stand-in played a bot's seat
        assert await host.close() == 0


async def test_a_bot_leaves_when_no_rematch_comes_in_time(tmp_path: Path) -> None:
    """The wait for a rematch ends: the bot leaves the finished table by itself (the wait is short here)."""
    args = server_args()
    coordinator = build_coordinator(args)
    async with running_server(tmp_path, command_handler=build_command_handler(args, coordinator)) as server:
        host = await JsonClient.open(server.port, "ana")
        code = await host.create(mode="standard", target=10, seed=21)
        bots = [
            ProtocolBot(name, code, RandomStrategy(), random.Random(i), (0.0, 0.01), rematch_wait=0.2)
            for i, name in enumerate(bot_names(2, None))
        ]
        for bot in bots:
            bot.announce = False
        playing = [asyncio.ensure_future(b.play(HOST, server.port, None, 15)) for b in bots]
        await host.wait_for(lambda m: m["type"] == "state" and len(m["players"]) == 3)
        host.send({"cmd": "start"})
        await play_until_over(host)
        await asyncio.wait_for(asyncio.gather(*playing), 15)  # they left by themselves, without a rematch
        assert all(b.done.is_set() and len(b.results) == 1 and b.results[0].table == code for b in bots)
        assert await host.close() == 0


async def play_until_over(client: JsonClient, games: int = 1) -> None:
    """The host's own moves: random and legal, decided from each state like a bot's, until `games` games ended."""
    brain = Brain(RandomStrategy(), random.Random(1))
    table = client.state["table"]
    while len(client.of_type("over")) < games:
        if client.state["table"] != table:  # a rematch: a new game, nothing owed from the last one
            brain, table = Brain(RandomStrategy(), random.Random(1)), client.state["table"]
        seen = len(client.messages)
        if client.state["phase"] not in ("lobby", "over"):
            decided = brain.next_action(BotView.from_protocol(client.state))
            if decided is not None:
                key, action = decided
                client.send({**command_message(action), "ref": "me"})
                brain.accepted(key)
        await client.wait_for(lambda m: True, start=seen)  # the next message


async def test_an_unknown_host_key_is_a_clear_error_and_a_known_one_is_accepted(tmp_path: Path) -> None:
    args = server_args()
    coordinator = build_coordinator(args)
    async with running_server(tmp_path, command_handler=build_command_handler(args, coordinator)) as server:
        empty = tmp_path / "known_hosts_empty"
        empty.write_text("")
        async with bot_cli(
            "--host", HOST, "--port", str(server.port), "--table", "ABCD", "--known-hosts", str(empty),
        ) as bot:  # fmt: skip
            _, err = await asyncio.wait_for(bot.communicate(), 20)
        assert bot.returncode == 1
        message = err.decode()
        assert "host key" in message and "--insecure" in message and message.count("\n") == 1

        known = tmp_path / "known_hosts"
        public = ensure_host_key(tmp_path / "keys").export_public_key().decode().strip()
        known.write_text(f"[{HOST}]:{server.port} {public}\n")
        async with bot_cli(
            "--host", HOST, "--port", str(server.port), "--table", "ABCD", "--known-hosts", str(known),
            "--name", "solo",
        ) as bot:  # fmt: skip
            _, err = await asyncio.wait_for(bot.communicate(), 20)
        assert bot.returncode == 1  # past the host key check: the table does not exist
        assert "solo could not join table ABCD" in err.decode() and "host key" not in err.decode()


async def test_the_same_bot_command_gets_its_seats_back_after_a_server_restart(tmp_path: Path) -> None:
    """Found playing: after a server restart (its games resumed), the bot command run again could not take back its
    bots' seats ("The game has already started"): each bot connects without a key, so its seat goes back only with
    its reconnect code, which the old process had and the new one did not. Now each bot keeps its seat's code in a
    file ($XDG_STATE_HOME/dixit-tui/bot-seats.json by default) and the same command run again returns with it."""
    args = server_args()
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    command = ("--table", "{code}", "--count", "2", "--insecure", "--delay", "0", "0.01", "--seed", "4", "--games", "1")
    ana = asyncssh.generate_private_key("ssh-ed25519")  # the host takes her seat back with her key

    store = await SqliteStore.open(tmp_path / "data")
    coordinator = build_coordinator(args, store=store)
    async with running_server(tmp_path, command_handler=build_command_handler(args, coordinator)) as server:
        host = await JsonClient.open(server.port, "ana", client_key=ana)
        code = await host.create(mode="standard", target=12, seed=21)
        bot_args = [a.format(code=code) for a in command]
        async with bot_cli("--host", HOST, "--port", str(server.port), *bot_args, env=env) as bots:
            await host.wait_for(lambda m: m["type"] == "state" and len(m["players"]) == 3)
            host.send({"cmd": "start"})
            await host.wait_for(lambda m: m["type"] == "state" and m["phase"] == "clue")
            bots.kill()  # the bot process stops in the middle of the game
            await bots.communicate()
        await host.close()
    await store.close()  # the server stops

    store = await SqliteStore.open(tmp_path / "data")
    coordinator = build_coordinator(args, store=store)
    assert await coordinator.restore() == 1
    async with running_server(tmp_path, command_handler=build_command_handler(args, coordinator)) as server:
        host = await JsonClient.open(server.port, "ana", client_key=ana)
        host.send({"cmd": "join", "table": code, "ref": "back"})
        await host.wait_for(lambda m: m["type"] == "state" and m["table"] == code)
        async with bot_cli("--host", HOST, "--port", str(server.port), *bot_args, env=env) as bots:
            back = await host.wait_for(  # both bots back in their seats, connected (no third player)
                lambda m: m["type"] == "state" and m["table"] == code and all(p["connected"] for p in m["players"])
            )
            assert len(back["players"]) == 3 and back["phase"] != "lobby"
            assert sorted(p["name"] for p in back["players"][1:]) == sorted(bot_names(2, None))
            await play_until_over(host)  # they play on to the end of the game
            out, err = await asyncio.wait_for(bots.communicate(), 15)
        assert bots.returncode == 0, err.decode()
        for name in bot_names(2, None):
            assert f"{name} sat down at table {code}" in out.decode()
        assert [m for m in host.of_type("error") if m.get("ref") != "me"] == []
        assert await host.close() == 0
    await store.close()
