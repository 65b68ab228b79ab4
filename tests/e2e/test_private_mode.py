"""A private server (`serve --allow-keys FILE --invite-code CODE`): keys in the file get in; a stranger's key is refused
with a clear message; people without a key are asked for the invite code, and a wrong one is refused."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import asyncssh
import pytest

from tests.e2e.harness import HOST
from tests.e2e.serve_process import run, serve_process

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90), pytest.mark.same_on_two_workers]


class Invited(asyncssh.SSHClient):
    """A client without a key that answers the server's one prompt with `code`."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.prompts: list[str] = []

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(
        self, name: str, instructions: str, lang: str, prompts: Sequence[tuple[str, bool]]
    ) -> list[str] | None:
        self.prompts += [prompt for prompt, _ in prompts]
        return [self.code] * len(prompts)


async def keyless(port: int, code: str) -> tuple[int, str, list[str]]:
    client = Invited(code)
    conn = await asyncssh.connect(
        HOST,
        port,
        username="guest",
        known_hosts=None,
        client_factory=lambda: client,
        client_keys=None,
        agent_path=None,
        password=None,
        config=None,
    )
    try:
        result = await asyncio.wait_for(conn.run("tables", check=False), 20)
    finally:
        conn.close()
    return int(result.exit_status or 0), f"{result.stdout!s}{result.stderr!s}", client.prompts


async def test_only_allowed_keys_and_the_invite_code_get_in(tmp_path: Path) -> None:
    friend, stranger = asyncssh.generate_private_key("ssh-ed25519"), asyncssh.generate_private_key("ssh-ed25519")
    allowed = tmp_path / "allowed_keys"
    allowed.write_text("# the team\n" + friend.export_public_key().decode())
    async with serve_process(tmp_path / "data", "--allow-keys", str(allowed), "--invite-code", "quiet sea") as port:
        status, text = await run(port, "friend", "tables", key=friend)
        assert (status, text) == (0, "No tables yet. Connect with a terminal to create one.\n")

        status, text = await run(port, "stranger", "tables", key=stranger)
        assert status == 1
        assert "This server is private: only invited players get in." in text
        assert stranger.get_fingerprint("sha256") in text  # the key to hand the host

        status, text, prompts = await keyless(port, "quiet sea")
        assert prompts == ["Invite code: "] and status == 0, text

        status, text, _ = await keyless(port, "loud sea")
        assert status == 1 and "That invite code is not right" in text
