"""`ssh HOST admin ...` over real SSH: an admin removes a player from a table and closes a table (their players are
told), and sets the message of the day that the lobby shows."""

from __future__ import annotations

from pathlib import Path

import asyncssh
import pytest

from tests.e2e.harness import PtyClient
from tests.e2e.json_client import JsonClient
from tests.e2e.serve_process import run
from tests.e2e.servers import dixit_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]


async def test_an_admin_removes_a_player_closes_a_table_and_greets_the_lobby(tmp_path: Path) -> None:
    admin = asyncssh.generate_private_key("ssh-ed25519")
    async with dixit_server(tmp_path, admin_key=[admin.get_fingerprint("sha256")]) as (server, _):
        ana, ben = await JsonClient.open(server.port, "ana"), await JsonClient.open(server.port, "ben")
        code = await ana.create()
        ben.send({"cmd": "join", "table": code})
        await ana.wait_for(lambda m: m.get("type") == "state" and len(m.get("players", [])) == 2)

        status, text = await run(server.port, "root", f"admin remove {code} ben", key=admin)
        assert (status, text) == (0, f"ben removed from table {code}.\n")
        assert (await ben.wait_for("notice"))["text"] == f"An admin removed you from table {code}."
        await ana.wait_for(lambda m: m.get("type") == "state" and len(m.get("players", [])) == 1)
        status, text = await run(server.port, "root", f"admin remove {code} nobody", key=admin)
        assert (status, text) == (1, f"Nobody called 'nobody' plays at table {code}.\n")

        status, text = await run(server.port, "root", f"admin close {code}", key=admin)
        assert (status, text) == (0, f"Table {code} closed.\n")
        assert (await ana.wait_for("notice"))["text"] == f"An admin closed table {code}."
        status, _ = await run(server.port, "root", f"admin close {code}", key=admin)
        assert status == 1
        await ana.close()
        await ben.close()

        status, text = await run(server.port, "root", "admin motd Welcome to the Friday games!", key=admin)
        assert (status, text) == (0, "Message of the day: Welcome to the Friday games!\n")
        # (each new session reads it first, at either worker)
        async with await PtyClient.connect(server.port, "cara") as cara:
            await cara.wait_for_text("Notice: Welcome to the Friday games!")
        assert (await run(server.port, "root", "admin nonsense", key=admin))[0] == 2
