"""A storm of window changes is coalesced (the last size wins, a few relayouts a second), and a session's input is
weighed by the screen updates it causes, so hostile sessions cannot slow everyone else down."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.app import App

from dixit_tui.ssh.placeholder import placeholder_app_factory
from dixit_tui.ssh.session import SessionIdentity
from dixit_tui.ssh.terminal import TerminalInfo
from tests.e2e.harness import PtyClient, running_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]

STORM = 200


class ResizeCounter:
    """An app factory (the placeholder app) that counts the Resize events each app is given, by user name."""

    def __init__(self) -> None:
        self.resizes: dict[str, list[tuple[int, int]]] = {}

    def __call__(self, identity: SessionIdentity, terminal: TerminalInfo) -> App[Any]:
        app = placeholder_app_factory(identity, terminal)
        assert isinstance(app, App)
        seen = self.resizes.setdefault(identity.username, [])
        post = app.post_message

        def counting_post(message: Any) -> bool:
            if isinstance(message, events.Resize):
                seen.append((message.size.width, message.size.height))
            return post(message)

        app.post_message = counting_post  # type: ignore[method-assign]
        return app


async def test_a_resize_storm_is_coalesced_and_the_last_size_wins(tmp_path: Path) -> None:
    counter = ResizeCounter()
    async with running_server(tmp_path, counter) as server:
        client = await PtyClient.connect(server.port, "storm")
        await client.wait_for_text("terminal 100x30")
        before = len(counter.resizes["storm"])
        for n in range(STORM):
            client.resize(80 + n % 40, 24 + n % 20)
            if n % 20 == 19:
                await asyncio.sleep(0.01)
        client.resize(111, 33)
        await client.wait_for_text("terminal 111x33", timeout=10)
        await asyncio.sleep(0.5)
        delivered = counter.resizes["storm"][before:]
        await client.close()
    print(f"\nresize storm: {STORM + 1} window changes, {len(delivered)} handed to the app")
    assert delivered[-1] == (111, 33)
    assert len(delivered) <= 12, delivered


async def test_hostile_resizing_sessions_leave_the_server_responsive(tmp_path: Path) -> None:
    """4 sessions send window changes as fast as they can for 2 s; another player logs in meanwhile. Figures only
    (CPU share, the newcomer's first paint); the counts of relayouts are asserted."""
    counter = ResizeCounter()
    async with running_server(tmp_path, counter) as server:
        hostile = [await PtyClient.connect(server.port, f"hostile{n}") for n in range(4)]
        for client in hostile:
            await client.wait_for_text("terminal 100x30")
        stop = asyncio.Event()
        sent = 0

        async def storm(client: PtyClient) -> None:
            nonlocal sent
            n = 0
            while not stop.is_set():
                client.resize(80 + n % 60, 24 + n % 30)
                n += 1
                sent += 1
                await asyncio.sleep(0.005)

        cpu0, wall0 = time.process_time(), time.perf_counter()
        storms = [asyncio.create_task(storm(client)) for client in hostile]
        await asyncio.sleep(0.5)
        started = time.perf_counter()
        newcomer = await PtyClient.connect(server.port, "newcomer", timeout=30)
        await newcomer.wait_for_text("Welcome, newcomer", timeout=30)
        first_paint = time.perf_counter() - started
        await asyncio.sleep(1.5)
        stop.set()
        await asyncio.gather(*storms)
        duration = time.perf_counter() - wall0
        cpu = (time.process_time() - cpu0) / duration
        relayouts = sum(len(counter.resizes[f"hostile{n}"]) for n in range(4))
        await newcomer.close()
        for client in hostile:
            await client.close()
    print(
        f"\n4 resizing sessions: {sent} window changes, {relayouts} relayouts; test process CPU {cpu:.0%} of a core "
        f"(server and clients); a newcomer's first paint took {first_paint * 1000:.0f} ms"
    )
    # at most one per resize_interval (0.25 s) per session while the storm lasted, plus the first size (a slower
    # machine only raises the bound; without coalescing it is every window change)
    assert relayouts <= 4 * (2 + duration / 0.25) < sent / 2
