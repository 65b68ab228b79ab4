"""What an attacker can make the server log: ordinary disconnects are INFO, refusals are summarised per interval."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from pathlib import Path
from typing import Any

import pytest

from dixit_tui.ssh import server as ssh_server
from dixit_tui.ssh.server import Limits
from tests.e2e.harness import HOST, TIMEOUT, connect, running_server, wait_for
from tests.e2e.servers import dixit_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60)]

FLOOD = 200


async def test_an_abrupt_json_disconnect_logs_no_error(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="dixit_tui")
    async with dixit_server(tmp_path) as (server, coord):
        for _ in range(3):
            conn = await connect(server.port, "ana")
            process = await conn.create_process("json", encoding=None)
            await asyncio.wait_for(process.stdout.readline(), 10)  # the hello
            process.stdin.write(b'{"cmd": "tables"}\n')
            conn.abort()  # the TCP connection drops with the session open
        # each session's end (and whatever it logs) is done once its connection, its task and its player are gone
        await wait_for(
            lambda: server.connection_count == server.session_count == len(coord.sessions) == 0,
            10,
            "the dropped sessions to end",
        )
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


@pytest.mark.same_on_two_workers
async def test_a_flood_of_refused_sockets_logs_a_bounded_number_of_lines(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The summaries' interval is over when the test says, as a table's time limit is (clock.run_out): with 0.5 s of
    # real time, a flood that took longer than 1.5 s on a loaded machine was summarised in more lines than allowed.
    monkeypatch.setattr(ssh_server, "REFUSAL_LOG_INTERVAL", 3600.0)
    caplog.set_level(logging.INFO, logger="dixit_tui")
    limits = Limits(max_unauthenticated_per_ip=2, handshake_wait=0.3)
    async with running_server(tmp_path, limits=limits) as server:
        sockets = []
        for _ in range(FLOOD):
            with contextlib.suppress(OSError, TimeoutError):
                sockets.append(await asyncio.wait_for(asyncio.open_connection(HOST, server.port), 5))
        log: Any = server._state.refusals
        await wait_for(lambda: log.total >= FLOOD - 2, TIMEOUT, "every refusal counted")
        # the refusals, then the summary of the flood, when the interval is over (its timer goes off now)
        assert log._timer is not None
        log._timer.cancel()
        log._summarise()
        await wait_for(lambda: counted(refusals(caplog)) >= FLOOD - 2, TIMEOUT, "the flood's summary")
        for _, writer in sockets:
            writer.close()
        conn = await connect(server.port, "real", local_ip="127.0.0.2")
        conn.close()
    lines = refusals(caplog)
    print(f"{FLOOD} sockets, {FLOOD - 2} refused: {len(lines)} log lines about refusals:", *lines, sep="\n")
    assert len(lines) == 2, lines  # the first refusal, then one summary for the interval
    assert counted(lines) == FLOOD - 2, lines


def refusals(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The server's log lines about refusals."""
    return [r.getMessage() for r in caplog.records if r.name == "dixit_tui.ssh.server" and "refus" in r.getMessage()]


def counted(lines: list[str]) -> int:
    """The refusals `lines` count: the first on its own line, the others in the summaries ("...: N; from ...")."""
    if not lines:
        return 0
    return 1 + sum(int(m) for line in lines[1:] for m in re.findall(r": (\d+)[;,]", line.split("; from")[0] + ";"))
