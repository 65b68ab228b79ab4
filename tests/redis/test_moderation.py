"""Moderation across workers: two `dixit-tui serve` processes on one redis-server (each a worker of the same server).
An admin bans a key and an address at one; the other refuses them at once and ends the banned key's session already
running there, and lets them in again once unbanned. The
message of the day set at one greets players at the other; a table closed at one closes for its players at the
other; only admins may use admin commands."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from pathlib import Path

import asyncssh
import pytest

from tests.e2e.json_client import JsonClient
from tests.e2e.serve_process import run, serve_process
from tests.redis_server import RedisServer

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


async def test_a_ban_at_one_worker_takes_effect_at_the_other(redis_server: RedisServer, tmp_path: Path) -> None:
    admin, eve = asyncssh.generate_private_key("ssh-ed25519"), asyncssh.generate_private_key("ssh-ed25519")
    admin_fp, eve_fp = admin.get_fingerprint("sha256"), eve.get_fingerprint("sha256")
    shared = ["--redis", redis_server.url, "--workers", "1", "--keys-dir", str(tmp_path / "keys")]
    shared += ["--limit", "moderation_refresh=0.2"]  # (how often the second reads the bans: sooner for the test)
    async with AsyncExitStack() as stack:
        first = await stack.enter_async_context(serve_process(tmp_path / "a", *shared, "--admin-key", admin_fp))
        second = await stack.enter_async_context(serve_process(tmp_path / "b", *shared, "--admin-key", admin_fp))

        assert (await run(second, "eve", "tables", key=eve))[0] == 0
        playing = await JsonClient.open(second, "eve", client_key=eve)  # a session of eve's, running at the second
        status, text = await run(first, "eve", "admin ban " + admin_fp, key=eve)
        assert status == 1 and "Only the server's admins" in text  # eve is no admin

        status, text = await run(first, "root", f"admin ban {eve_fp}", key=admin)
        assert status == 0 and f"Banned {eve_fp}" in text, text
        status, text = await run(second, "eve", "tables", key=eve)
        assert status == 1 and "This key is banned from this server." in text
        for _ in range(500):  # (bounded: the second worker reads the bans every 0.2 s)
            if not playing.alive:
                break
            await asyncio.sleep(0.02)
        assert not playing.alive, "the banned key's running session was not ended"
        status, text = await run(second, "root", "admin bans", key=admin)
        assert status == 0 and eve_fp in text and f"by {admin_fp}" in text

        status, text = await run(first, "root", "admin ban 127.0.0.3", key=admin)
        assert status == 0 and "Banned 127.0.0.3/32" in text, text
        status, text = await run(second, "bob", "tables", local_ip="127.0.0.3")
        assert status == 1 and "Your address is banned from this server." in text
        assert (await run(second, "bob", "tables", local_ip="127.0.0.4"))[0] == 0  # the next address is not

        assert (await run(second, "root", f"admin unban {eve_fp}", key=admin))[0] == 0
        assert (await run(first, "eve", "tables", key=eve))[0] == 0

        status, text = await run(first, "root", "admin motd Tournament at 8pm, table K7QF!", key=admin)
        assert status == 0, text
        zoe = await JsonClient.open(second, "zoe")
        assert zoe.of_type("hello")[0]["motd"] == "Tournament at 8pm, table K7QF!"
        await zoe.close()

        host = await JsonClient.open(second, "ana")
        code = await host.create()
        status, text = await run(first, "root", f"admin close {code}", key=admin)
        assert (status, text) == (0, f"Table {code} closed.\n")
        notice = await host.wait_for("notice")  # (said by the worker the table's player is at, as at the admin's)
        assert notice["text"] == f"An admin closed table {code}." and notice["reason"] == "closed"
        await host.close()
