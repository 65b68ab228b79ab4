"""A session's input is weighed by the work it causes: its screen updates are charged against its input rate."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Static

from dixit_tui.ssh.driver import SSHDriver
from dixit_tui.ssh.input import EventPacer
from dixit_tui.ssh.session import SessionIdentity
from dixit_tui.ssh.terminal import TerminalInfo
from tests.e2e.harness import PtyClient, running_server, wait_for


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_work_charged_makes_later_input_wait_at_most_one_burst() -> None:
    clock = Clock()
    pacer = EventPacer(rate=100, burst=50, clock=clock)
    pacer.charge(10)
    assert pacer.take(40) == 0  # within the burst: no wait
    pacer.charge(1000)  # a huge repaint: charged, but the debt is at most one burst
    assert pacer.take(0) == pytest.approx(0.5)
    clock.now += 0.5
    assert pacer.take(0) == 0


class Repaint(App[None]):
    """`x` repaints the whole screen with new text; any other key changes nothing."""

    def __init__(self) -> None:
        super().__init__()
        self.counter = itertools.count()
        self.xs = 0

    def compose(self) -> ComposeResult:
        yield Static(Text("ready"), id="board")

    def on_key(self, event: Any) -> None:
        if event.key == "x":
            self.xs += 1
            n = next(self.counter)
            line = "".join(chr(0x41 + (n + i) % 26) for i in range(95))
            self.query_one("#board", Static).update(Text("\n".join(f"{n:04d} {line}" for _ in range(28))))


@pytest.mark.e2e
@pytest.mark.timeout(60)
async def test_keys_that_repaint_are_charged_and_keys_that_do_nothing_are_not(tmp_path: Path) -> None:
    apps: list[Repaint] = []

    def factory(identity: SessionIdentity, terminal: TerminalInfo) -> App[Any]:
        apps.append(Repaint())
        return apps[-1]

    async with running_server(tmp_path, factory) as server:
        client = await PtyClient.connect(server.port, "ana")
        await client.wait_for_text("ready")
        await asyncio.sleep(0.3)
        driver = apps[0]._driver
        assert isinstance(driver, SSHDriver)
        start = driver.output_charged
        client.send("z" * 100)
        await asyncio.sleep(1.0)
        after_noop = driver.output_charged - start
        client.send("x" * 100)
        await wait_for(lambda: apps[0].xs == 100, timeout=30, what="100 repaints")
        after_repaints = driver.output_charged - start - after_noop
        await client.close()
    print(f"\n100 no-op keys charged {after_noop} events of output; 100 repainting keys charged {after_repaints}")
    assert after_noop <= 2
    # Textual draws a frame at most 60 times a second, so 100 quick repaints are a few frames: charged by their size
    assert after_repaints >= 5
