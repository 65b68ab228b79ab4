"""Every key a person types arrives, and no byte sequence deafens a session (over real SSH).

- Esc followed by a key after 0, 30 or 150 ms (within and past the escape delay), and Esc Esc: both keys arrive as
  typed, never merged into Alt+key nor lost (the driver once failed on a lone ESC with a zip() error).
- `ESC[1114112u`, `ESC[27;5;1114112~`, `ESC[999999999999999999999A` once raised inside Textual's parser and left
  it dead: now they are dropped and the next keys still work, with nothing logged at ERROR.
- The same through OpenSSH in tmux: `send-keys Escape`, then `c` 30 ms later.
"""

from __future__ import annotations

import asyncio
import logging
import shlex
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Static

from dixit_tui.ssh import driver as driver_module
from dixit_tui.ssh.session_runner import SessionIdentity
from dixit_tui.ssh.terminal import TerminalInfo
from tests.e2e.harness import HOST, PtyClient, running_server, wait_for
from tests.e2e.openssh import SSH, Tmux, needs_ssh, needs_tmux, ssh_options
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import lobby_client

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]

TIMEOUT = 10.0
BAD_SEQUENCES = ["\x1b[1114112u", "\x1b[27;5;1114112~", "\x1b[999999999999999999999A"]


class KeyEcho(App[None]):
    """Shows and records every key it gets; binds nothing (so Esc, q and c are plain keys here)."""

    ENABLE_COMMAND_PALETTE = False

    def __init__(self) -> None:
        super().__init__()
        self.keys: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static(Text("keys:"), id="keys")

    def on_key(self, event: events.Key) -> None:
        self.keys.append(event.key)
        self.query_one("#keys", Static).update(Text("keys: " + " ".join(self.keys)))


@asynccontextmanager
async def echo_server(tmp_path: Path) -> AsyncIterator[tuple[int, dict[str, KeyEcho]]]:
    """A server whose sessions run KeyEcho; yields its port and the apps by user name."""
    apps: dict[str, KeyEcho] = {}

    def factory(identity: SessionIdentity, terminal: TerminalInfo) -> App[Any]:
        apps[identity.username] = KeyEcho()
        return apps[identity.username]

    async with running_server(tmp_path, factory) as server:
        yield server.port, apps


async def echo_client(port: int, apps: dict[str, KeyEcho], name: str) -> tuple[PtyClient, KeyEcho]:
    client = await PtyClient.connect(port, name)
    await client.wait_for_text("keys:", TIMEOUT)
    return client, apps[name]


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("gap", [0.0, 0.03, 0.15])
@pytest.mark.parametrize(
    ("first", "then", "expected"), [("\x1b", "c", ["escape", "c"]), ("\x1b", "\x1b", ["escape"] * 2)]
)
@pytest.mark.same_on_two_workers
async def test_esc_then_a_key_are_both_keys_at_any_gap(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, gap: float, first: str, then: str, expected: list[str]
) -> None:
    caplog.set_level(logging.INFO)
    async with echo_server(tmp_path) as (port, apps):
        client, app = await echo_client(port, apps, "ana")
        client.send(first)
        if gap:
            await asyncio.sleep(gap)
        client.send(then)
        await wait_for(lambda: len(app.keys) >= len(expected), TIMEOUT, f"{expected}, got {app.keys}")
        client.send("x")  # and the keys after them still come, in order
        await wait_for(lambda: app.keys[-1:] == ["x"], TIMEOUT, f"x after {app.keys}")
        assert app.keys == [*expected, "x"]
        await client.close(timeout=3)
    assert errors(caplog) == []


@pytest.mark.same_on_two_workers
async def test_esc_then_a_key_in_one_packet_and_a_real_alt_combination(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ESC c in one write is Esc and c (no Alt bindings here); Alt+Backspace (ESC DEL) keeps its word-deleting key,
    and arrow keys, also split across packets, stay arrow keys (within the escape delay: made long here, so that a
    loaded machine's gap between the two packets never exceeds it; one CI run read ESC [ B)."""
    monkeypatch.setattr(driver_module, "_TICK_DELAY", 5.0)
    async with echo_server(tmp_path) as (port, apps):
        client, app = await echo_client(port, apps, "ana")
        client.send("\x1bc")
        client.send("\x1b\x7f")
        client.send("\x1b[A")
        client.send("\x1b[")
        await asyncio.sleep(0.03)
        client.send("B")
        client.send("x")
        await wait_for(lambda: app.keys[-1:] == ["x"], TIMEOUT, f"x after {app.keys}")
        assert app.keys == ["escape", "c", "ctrl+w", "up", "down", "x"]
        await client.close(timeout=3)


async def test_esc_then_c_in_the_lobby_opens_the_create_form(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    async with dixit_server(tmp_path) as (server, _):
        client = await lobby_client(server.port, server.apps, "sam")
        client.send("\x1b")
        await asyncio.sleep(0.03)
        client.send("c")
        await wait_for(lambda: type(server.apps["sam"].screen).__name__ != "LobbyScreen", TIMEOUT, "the create form")
        await client.close(timeout=3)
    assert errors(caplog) == []


@pytest.mark.same_on_two_workers
async def test_sequences_that_broke_the_parser_are_dropped_and_keys_still_work(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with echo_server(tmp_path) as (port, apps):
        client, app = await echo_client(port, apps, "ana")
        for sequence in BAD_SEQUENCES:
            client.send(sequence)
            client.send("x")
        await wait_for(lambda: len(app.keys) >= 3, TIMEOUT, f"three x, got {app.keys}")
        client.send("".join(BAD_SEQUENCES) + "y")  # all in one packet too
        await wait_for(lambda: app.keys[-1:] == ["y"], TIMEOUT, f"y after {app.keys}")
        assert app.keys == ["x", "x", "x", "y"]
        await client.close(timeout=3)
    assert errors(caplog) == []


async def test_after_the_bad_sequences_q_still_quits_the_lobby(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with dixit_server(tmp_path) as (server, _):
        client = await lobby_client(server.port, server.apps, "sam")
        for sequence in BAD_SEQUENCES:
            client.send(sequence)
            await asyncio.sleep(0.05)
        client.send("q")
        assert await client.wait_closed(TIMEOUT) == 0
    assert errors(caplog) == []


@pytest.mark.same_on_two_workers
async def test_a_parser_failure_is_dropped_once_with_a_warning_and_a_fresh_parser_reads_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The last line of defence, past the filter: input the parser raises on is dropped, a WARNING without a
    traceback says so once per session, and the next keys arrive."""
    caplog.set_level(logging.INFO)
    async with echo_server(tmp_path) as (port, apps):
        client, app = await echo_client(port, apps, "ana")
        driver: Any = app._driver
        terminal_input = driver._input
        for sequence in BAD_SEQUENCES:  # straight to the parser, past the filter
            assert terminal_input.parse(sequence) == []
        client.send("x")
        await wait_for(lambda: app.keys == ["x"], TIMEOUT, f"x, got {app.keys}")
        await client.close(timeout=3)
    warnings = [r for r in caplog.records if "parser could not read" in r.getMessage()]
    assert [(r.levelname, r.exc_info) for r in warnings] == [("WARNING", None)]
    assert errors(caplog) == []


@pytest.mark.same_on_two_workers
async def test_a_run_of_mouse_moves_is_handed_on_as_its_last_one(tmp_path: Path) -> None:
    async with echo_server(tmp_path) as (port, apps):
        client, app = await echo_client(port, apps, "ana")
        driver: Any = app._driver
        moves: list[tuple[int, int]] = []
        process = driver.process_message

        def counting(message: Any) -> None:
            if isinstance(message, events.MouseMove):
                moves.append((int(message.x), int(message.y)))
            process(message)

        driver.process_message = counting
        client.send("".join(f"\x1b[<35;{x};5M" for x in range(1, 31)) + "x")
        await wait_for(lambda: app.keys == ["x"], TIMEOUT, f"x, got {app.keys}")
        assert moves[-1] == (29, 4)
        assert len(moves) < 15, moves
        await client.close(timeout=3)


@pytest.mark.same_on_two_workers
@needs_ssh
@needs_tmux
async def test_openssh_in_tmux_esc_then_c_30ms_later(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    assert SSH is not None
    async with echo_server(tmp_path) as (port, apps), Tmux(tmp_path, "keys") as tmux:
        await tmux.start(shlex.join([SSH, "-tt", *ssh_options(port), "-o", "PubkeyAuthentication=no", f"tess@{HOST}"]))
        await wait_for(lambda: "tess" in apps, TIMEOUT, "tess's session")
        app = apps["tess"]
        await wait_for(lambda: app.is_running and app.screen.is_mounted, TIMEOUT, "tess's app")
        await tmux.keys("Escape")
        await asyncio.sleep(0.03)
        await tmux.keys("c")
        await wait_for(lambda: len(app.keys) >= 2, TIMEOUT, f"two keys, got {app.keys}")
        await tmux.keys("Escape", "Escape")  # double Esc, in one go
        await wait_for(lambda: len(app.keys) >= 4, TIMEOUT, f"four keys, got {app.keys}")
        await tmux.keys("x")
        await wait_for(lambda: app.keys[-1:] == ["x"], TIMEOUT, f"x after {app.keys}")
        assert app.keys == ["escape", "c", "escape", "escape", "x"]
    assert errors(caplog) == []
