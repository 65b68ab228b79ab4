"""Only modern key exchange, ciphers and MACs: a client offering only legacy ones is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import asyncssh
import pytest

from dixit_tui.ssh.server import ENCRYPTION_ALGS, KEX_ALGS, MAC_ALGS
from tests.e2e.harness import connect, running_server

pytestmark = [pytest.mark.e2e, pytest.mark.same_on_two_workers]


@pytest.mark.parametrize(
    "legacy",
    [
        {"kex_algs": ["diffie-hellman-group1-sha1", "diffie-hellman-group14-sha1"]},
        {"encryption_algs": ["aes128-cbc", "3des-cbc"]},
        # MACs only matter with a non-AEAD cipher: offer one the server allows, with legacy MACs only
        {"encryption_algs": ["aes128-ctr"], "mac_algs": ["hmac-sha1", "hmac-md5"]},
    ],
    ids=["kex", "cipher", "mac"],
)
async def test_legacy_algorithms_are_refused(tmp_path: Path, legacy: dict[str, Any]) -> None:
    async with running_server(tmp_path) as server:
        with pytest.raises((asyncssh.KeyExchangeFailed, asyncssh.Error)):
            await connect(server.port, "ana", **legacy)
        conn = await connect(server.port, "ana")  # the same client with modern defaults gets in
        conn.close()


def test_the_server_lists_only_modern_algorithms() -> None:
    assert not any("sha1" in a or "group1-" in a for a in KEX_ALGS)
    assert not any(a.endswith("-cbc") or a.startswith(("3des", "arcfour")) for a in ENCRYPTION_ALGS)
    assert not any(a in ("hmac-sha1", "hmac-md5") or "sha1" in a for a in MAC_ALGS)
