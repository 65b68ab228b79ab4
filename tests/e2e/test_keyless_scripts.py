"""Scripts over plain OpenSSH, as docs/protocol.md tells them ("Scripts without a terminal"): keyless with
keyboard-interactive and no BatchMode; under BatchMode=yes only with a key (any key: a throwaway one); and
`tables --json` answers one JSON object whose entries are the lobby's table summaries."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from dixit_tui.protocol.schema import load_schema
from tests.e2e.harness import HOST
from tests.e2e.json_client import table_of
from tests.e2e.openssh import SSH, ssh_options
from tests.e2e.servers import dixit_server

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.timeout(90),
    pytest.mark.skipif(SSH is None, reason="needs the OpenSSH client (ssh)"),
]

KEYLESS = ["-o", "PreferredAuthentications=keyboard-interactive"]  # as docs/protocol.md says


def script_ssh(port: int, *args: str) -> list[str]:
    """`ssh` as a script runs it: our options without BatchMode (a test would otherwise set it), then `args`."""
    assert SSH is not None
    return [SSH, *(o for o in ssh_options(port) if not o.startswith("-oBatchMode")), *args]


async def run_detached(argv: list[str]) -> tuple[int, str, str]:
    """A command with no terminal at all (its own session, input from /dev/null), as under cron or systemd."""
    done = await asyncio.to_thread(
        subprocess.run, argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30,
        start_new_session=True,
    )  # fmt: skip
    return done.returncode, done.stdout, done.stderr


async def test_keyless_openssh_scripts_and_tables_json(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, _):
        players, code = await table_of(server.port, ["ana", "ben"], {"mode": "party"})
        try:
            status, out, err = await run_detached(script_ssh(server.port, *KEYLESS, f"cy@{HOST}", "tables", "--json"))
            assert status == 0, err
            assert out.count("\n") == 1, "one line"
            listed = json.loads(out)["tables"]
            schema = load_schema()
            summary = Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/tableSummary"})
            for row in listed:
                summary.validate(row)
            assert [(t["table"], t["mode"], t["players"], t["host"]) for t in listed] == [(code, "party", 2, "ana")]

            status, _, err = await run_detached(script_ssh(server.port, "-o", "BatchMode=yes", f"cy@{HOST}", "version"))
            assert status == 255 and "Permission denied" in err, "BatchMode=yes does not try keyboard-interactive"

            key = tmp_path / "script_key"
            made = await run_detached(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)])
            assert made[0] == 0, made
            status, out, err = await run_detached(
                script_ssh(server.port, "-o", "BatchMode=yes", "-i", str(key), f"cy@{HOST}", "version")
            )
            assert status == 0 and out.startswith("dixit-tui "), err
        finally:
            for player in players:
                await player.close()
