"""The headless protocol over real SSH: `ssh -p PORT NAME@127.0.0.1 json` without a PTY, against the real server.

The server is the one `dixit-tui serve` runs (the lobby app factory and the command handler on one coordinator that
allows seeded tables), on 127.0.0.1 with a port the OS picks. Every wait is bounded.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dixit_tui import __version__
from tests.e2e import headless_games
from tests.e2e.json_client import JsonClient, run_command
from tests.e2e.servers import dixit_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


# --- a whole game -----------------------------------------------------------------------------------------------


async def test_three_json_clients_play_a_whole_refresh_game(tmp_path: Path) -> None:
    await headless_games.three_json_clients_play_a_whole_refresh_game(tmp_path)


# --- plain commands ---------------------------------------------------------------------------------------------


async def test_plain_commands_answer_text_and_exit_statuses(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, _):
        port = server.port
        status, text = await run_command(port, "tables")
        assert status == 0 and "No tables yet" in text
        status, text = await run_command(port, "help")
        assert status == 0 and "json" in text and "tables" in text and "version" in text
        status, text = await run_command(port, "version")
        assert status == 0 and text == f"dixit-tui {__version__} (protocol 1)\n"
        status, text = await run_command(port, "fly away")
        assert status == 2 and "Unknown command 'fly away'" in text
        status, text = await run_command(port, None)  # no command and no terminal
        assert status == 2 and "needs a terminal" in text

        bot = await JsonClient.open(port, "wisp", command="json bot")  # a headless bot, shown as one
        bot.send({"cmd": "create", "mode": "standard"})
        seat = (await bot.wait_for(lambda m: m["type"] == "state" and m["table"] is not None))["players"][0]
        assert seat["name"] == "wisp" and seat["bot"] is True
        assert await bot.close() == 0

        host = await JsonClient.open(port, "ana")
        host.send({"cmd": "create", "mode": "party"})
        code = (await host.wait_for(lambda m: m["type"] == "state" and m["table"] is not None))["table"]
        status, text = await run_command(port, "tables")
        assert status == 0
        assert re.search(rf"^{code}\s+party\s+lobby\s+1/12\s+base\s+-\s+ana$", text, flags=re.MULTILINE), text
        assert await host.close() == 0


# --- garbage in -------------------------------------------------------------------------------------------------


async def test_random_bytes_and_json_get_only_errors_and_leave_the_game_alone(tmp_path: Path) -> None:
    await headless_games.random_bytes_and_json_get_only_errors_and_leave_the_game_alone(tmp_path)


# --- a spectator sees no hand -----------------------------------------------------------------------------------


async def test_a_spectator_never_receives_a_hand(tmp_path: Path) -> None:
    await headless_games.a_spectator_never_receives_a_hand(tmp_path)


# --- the client example of docs/protocol.md ---------------------------------------------------------------------


async def test_the_docs_example_bot_plays_a_whole_game(tmp_path: Path) -> None:
    await headless_games.the_docs_example_bot_plays_a_whole_game(tmp_path)


# --- bugs found while writing these tests (strict: each fails until the implementation is fixed) ----------------


async def test_deeply_nested_json_gets_an_error_and_the_session_lives_on(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, _):
        client = await JsonClient.open(server.port, "ana")
        client.send(b"[" * 5000 + b"\n")
        client.send({"cmd": "fly", "ref": "after"})
        await client.wait_for(lambda m: m.get("ref") == "after")
        assert [m["code"] for m in client.of_type("error")] == ["bad_json", "unknown_command"]


async def test_nan_is_refused_and_never_echoed(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, _):
        client = await JsonClient.open(server.port, "ana")
        client.send(b'{"cmd":"fly","ref":NaN}\n')
        client.send({"cmd": "fly", "ref": "after"})
        await client.wait_for(lambda m: m.get("ref") == "after")  # a line with NaN fails strict_json first


async def test_an_unknown_mode_or_profile_is_a_bad_option(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, _):
        client = await JsonClient.open(server.port, "ana")
        client.send({"cmd": "create", "mode": "chess", "ref": 1})
        client.send({"cmd": "create", "mode": "standard", "profile": "classic", "seats": 3, "ref": 2})
        await client.wait_for(lambda m: m.get("ref") == 2)
        assert [m["code"] for m in client.of_type("error")] == ["bad_option", "bad_option"]


async def test_a_zero_target_is_refused(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coordinator):
        client = await JsonClient.open(server.port, "ana")
        client.send({"cmd": "create", "mode": "standard", "target": 0, "ref": 1})
        await client.wait_for(lambda m: m.get("ref") == 1 or (m["type"] == "state" and m["table"] is not None))
        assert coordinator.tables == {}


async def test_create_with_more_bots_than_seats_changes_nothing(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coordinator):
        client = await JsonClient.open(server.port, "ana")
        client.send({"cmd": "create", "mode": "standard", "seats": 3, "bots": 5, "ref": 1})
        assert (await client.wait_for(lambda m: m.get("ref") == 1))["code"] == "bad_option"
        assert coordinator.tables == {} and client.state["table"] is None
