"""The client side of the project's own SSH connections (bots, the benchmark, the tests): one way to connect.

dixit-tui lets keyless players in through a keyboard-interactive step without prompts; `KeylessClient` answers it.
The connection uses only the keys it is given: no agent, no ~/.ssh/config, no password, no GSS.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import asyncssh


class KeylessClient(asyncssh.SSHClient):
    """Answers the server's keyboard-interactive step, which has no prompts."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(
        self, name: str, instructions: str, lang: str, prompts: Sequence[tuple[str, bool]]
    ) -> list[str] | None:
        return [] if not prompts else None


async def connect(
    host: str,
    port: int,
    username: str,
    *,
    client_key: asyncssh.SSHKey | None = None,
    known_hosts: Any = None,
    timeout: float = 30.0,
    **options: Any,
) -> asyncssh.SSHClientConnection:
    """Connect as `username` with `client_key` (or no key); `known_hosts=None` skips the host key check (loopback
    tests and benchmarks only); `options` go to asyncssh (keepalive, algorithms, local_addr...)."""
    return await asyncio.wait_for(
        asyncssh.connect(
            host,
            port,
            username=username,
            known_hosts=known_hosts,
            client_factory=KeylessClient,
            client_keys=[client_key] if client_key is not None else None,
            agent_path=None,
            password=None,
            gss_host=None,
            config=None,
            **options,
        ),
        timeout,
    )
