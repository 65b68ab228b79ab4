"""The SSH/Textual layer end to end: real sockets on 127.0.0.1, asyncssh clients, pyte screens."""

from __future__ import annotations

import asyncio
import gc
import io
import random
import re
import sys
import time
import weakref
from collections.abc import Collection
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from rich.text import Text
from textual import events
from textual._xterm_parser import XTermParser
from textual.app import App, ComposeResult
from textual.widgets import Static

from dixit_tui.ssh.driver import SSHDriver
from dixit_tui.ssh.server import Limits
from dixit_tui.ssh.session_runner import SessionIdentity
from dixit_tui.ssh.terminal import TerminalInfo
from dixit_tui.textual_host.parser import SessionParser
from tests.e2e.harness import HOST, PtyClient, connect, running_server, wait_for
from tests.e2e.leaks import holders
from tests.e2e.placeholder_app import placeholder_app_factory

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60), pytest.mark.same_on_two_workers]


class Recorder:
    """An app factory that builds the placeholder and remembers what it was given."""

    def __init__(self) -> None:
        self.identities: list[SessionIdentity] = []
        self.terminals: list[TerminalInfo] = []
        self.apps: list[App[Any]] = []

    def __call__(self, identity: SessionIdentity, terminal: TerminalInfo) -> App[Any]:
        app = placeholder_app_factory(identity, terminal)
        self.identities.append(identity)
        self.terminals.append(terminal)
        self.apps.append(app)
        return app


def welcome_column(client: PtyClient) -> int:
    for line in client.screen.display:
        if "Welcome," in line:
            return line.index("Welcome,")
    raise AssertionError(client.screen_text())


async def test_connect_shows_placeholder_and_q_exits_0(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        client = await PtyClient.connect(server.port, "alice")
        await client.wait_for_text("Welcome, alice")
        await client.wait_for_text("terminal 100x30")
        await client.wait_for_text("Quit")  # the footer, on the last row
        assert "Quit" in client.screen.display[29]
        client.send("q")
        assert await client.wait_closed() == 0
        await client.close()
        await wait_for(lambda: server.connection_count == 0 and server.session_count == 0)


async def test_a_second_session_paints_its_own_lobby(tmp_path: Path) -> None:
    """A second connection gets its own app and its own first screen (how quick that is, `dixit-tui bench` measures:
    a wall-clock limit here would fail on a busy machine and prove nothing)."""
    async with running_server(tmp_path) as server:
        warm = await PtyClient.connect(server.port, "warm")  # first App in the process pays for imports
        await warm.wait_for_text("Welcome, warm")
        start = time.perf_counter()
        client = await PtyClient.connect(server.port, "fast")
        await client.wait_for_text("Welcome, fast")
        elapsed = time.perf_counter() - start
        print(f"connect (SSH handshake included) to first paint: {elapsed * 1000:.0f} ms")
        assert "Welcome, fast" not in warm.screen_text() and "Welcome, warm" not in client.screen_text()
        for each in (warm, client):
            each.send("q")
            assert await each.wait_closed() == 0


async def test_resize_relays_out(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        client = await PtyClient.connect(server.port, "alice")
        await client.wait_for_text("terminal 100x30")
        before = welcome_column(client)
        client.resize(120, 40)
        await client.wait_for_text("terminal 120x40")
        await client.wait_until(lambda: "Quit" in client.screen.display[39], what="footer on row 40")
        assert welcome_column(client) == before + 10  # the centred card moved by half the growth
        client.resize(60, 20)
        await client.wait_for_text("terminal 60x20")
        client.send("q")
        assert await client.wait_closed() == 0


async def test_lone_escape_is_a_key_and_later_keys_still_work(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        client = await PtyClient.connect(server.port, "alice")
        await client.wait_for_text("Esc pressed 0 times")
        client.send("\x1b")
        await client.wait_for_text("Esc pressed 1 times")
        client.send("\x1b")
        await client.wait_for_text("Esc pressed 2 times")
        client.send("q")
        assert await client.wait_closed() == 0


async def test_invalid_utf8_input_does_not_kill_the_session(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        client = await PtyClient.connect(server.port, "alice")
        await client.wait_for_text("Esc pressed 0 times")
        client.send(b"\xff\xfe\xc3(\xed\xa0\x80")
        client.send("\x1b")
        await client.wait_for_text("Esc pressed 1 times")
        client.send("q")
        assert await client.wait_closed() == 0


async def test_exec_command_reaches_the_app_factory(tmp_path: Path) -> None:
    recorder = Recorder()
    async with running_server(tmp_path, recorder) as server:
        client = await PtyClient.connect(server.port, "alice", command="join K7QF")
        await client.wait_for_text("command: join K7QF")
        assert recorder.terminals[0].command == "join K7QF"
        assert recorder.terminals[0].term_type == "xterm-256color"
        client.send("q")
        assert await client.wait_closed() == 0


async def test_session_without_pty_gets_a_plain_answer(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        conn = await connect(server.port, "bob")
        result = await asyncio.wait_for(conn.run("join K7QF"), 5)
        assert result.exit_status == 2
        assert f"dixit-tui needs a terminal: run ssh -t -p {server.port} bob@{HOST}" in str(result.stderr)
        conn.close()
        await asyncio.wait_for(conn.wait_closed(), 5)


async def test_session_without_pty_goes_to_the_command_handler(tmp_path: Path) -> None:
    async def handler(
        identity: SessionIdentity,
        command: str | None,
        stdin: asyncssh.SSHReader[bytes],
        stdout: asyncssh.SSHWriter[bytes],
    ) -> int:
        stdout.write(f"{identity.username} asked {command!r}\n".encode())
        return 3

    async with running_server(tmp_path, command_handler=handler) as server:
        conn = await connect(server.port, "bob")
        result = await asyncio.wait_for(conn.run("watch K7QF"), 5)
        assert result.exit_status == 3
        assert result.stdout == "bob asked 'watch K7QF'\n"
        conn.close()


async def test_second_channel_on_one_connection_is_refused(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        client = await PtyClient.connect(server.port, "alice")
        await client.wait_for_text("Welcome, alice")
        with pytest.raises(asyncssh.ChannelOpenError):
            await asyncio.wait_for(
                client.conn.create_session(asyncssh.SSHClientSession, term_type="xterm", term_size=(80, 24)),
                5,
            )
        with pytest.raises(asyncssh.ChannelOpenError):
            await asyncio.wait_for(client.conn.run("anything"), 5)
        assert server.session_count == 1
        client.send("q")  # the first session is unharmed
        assert await client.wait_closed() == 0


async def test_zero_size_pty_falls_back_to_80x24(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        client = await PtyClient.connect(server.port, "alice", size=(0, 0))
        await client.wait_for_text("terminal 80x24")
        client.send("q")
        assert await client.wait_closed() == 0


async def test_huge_pty_is_clamped(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        client = await PtyClient.connect(server.port, "alice", size=(2000, 1000))
        await client.wait_for_text("terminal 300x100")
        client.resize(5000, 5000)
        client.resize(310, 90)
        await client.wait_for_text("terminal 300x90")
        client.send("q")
        assert await client.wait_closed() == 0


async def test_identity_has_the_proven_key_or_none(tmp_path: Path) -> None:
    recorder = Recorder()
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with running_server(tmp_path, recorder) as server:
        with_key = await PtyClient.connect(server.port, "Zoë", client_key=key)
        await with_key.wait_for_text("Welcome, Zoë")
        await with_key.wait_for_text(key.get_fingerprint("sha256"))
        guest = await PtyClient.connect(server.port, "guest")
        await guest.wait_for_text("key: none (guest)")
        for client in (with_key, guest):
            client.send("q")
            assert await client.wait_closed() == 0
    first, second = recorder.identities
    assert (first.username, first.key_fingerprint, first.peer_ip) == ("Zoë", key.get_fingerprint("sha256"), HOST)
    assert (second.username, second.key_fingerprint) == ("guest", None)
    assert first.connection_id != second.connection_id


def colour_modes(raw: str) -> set[str]:
    """Which colour encodings the SGR sequences in `raw` use: "16", "256" and/or "truecolor"."""
    modes: set[str] = set()
    for params in re.findall(r"\x1b\[([0-9;]*)m", raw):
        codes = [int(code) for code in params.split(";") if code]
        index = 0
        while index < len(codes):
            code = codes[index]
            if code in (38, 48) and index + 1 < len(codes):
                extended = codes[index + 1]
                modes.add("256" if extended == 5 else "truecolor")
                index += 3 if extended == 5 else 5
                continue
            if 30 <= code <= 37 or 40 <= code <= 47 or 90 <= code <= 97 or 100 <= code <= 107:
                modes.add("16")
            index += 1
    return modes


async def test_colour_system_follows_each_client_terminal(tmp_path: Path) -> None:
    cases = [
        ("xterm-direct", {}, {"truecolor"}),
        ("xterm-256color", {}, {"256"}),
        ("xterm", {}, {"16"}),
        ("xterm", {"COLORTERM": "truecolor"}, {"truecolor"}),
        ("screen-256color", {}, {"256"}),
    ]
    async with running_server(tmp_path) as server:
        # One after another in one process: a session must not inherit the previous one's colours.
        for term_type, env, expected in cases:
            client = await PtyClient.connect(server.port, "alice", term_type=term_type, env=env)
            await client.wait_for_text("Quit")
            assert colour_modes(client.raw_text()) == expected, (term_type, env)
            client.send("q")
            assert await client.wait_closed() == 0


async def test_no_color_from_the_client_makes_that_session_monochrome(tmp_path: Path) -> None:
    recorder = Recorder()
    async with running_server(tmp_path, recorder) as server:
        plain = await PtyClient.connect(server.port, "mono", env={"NO_COLOR": "1"})
        colour = await PtyClient.connect(server.port, "colour")
        await plain.wait_for_text("Welcome, mono")
        await colour.wait_for_text("Welcome, colour")
        assert [app.no_color for app in recorder.apps] == [True, False]
        for client in (plain, colour):
            client.send("q")
            assert await client.wait_closed() == 0


async def test_apps_never_redirect_the_process_stdout(tmp_path: Path) -> None:
    stdout, stderr = sys.stdout, sys.stderr
    async with running_server(tmp_path) as server:
        first = await PtyClient.connect(server.port, "one")
        await first.wait_for_text("Welcome, one")
        second = await PtyClient.connect(server.port, "two")
        await second.wait_for_text("Welcome, two")
        assert (sys.stdout, sys.stderr) == (stdout, stderr)
        first.send("q")
        assert await first.wait_closed() == 0
        assert (sys.stdout, sys.stderr) == (stdout, stderr)
        second.drop()
        await wait_for(lambda: server.session_count == 0)
    assert (sys.stdout, sys.stderr) == (stdout, stderr)


async def test_open_url_and_file_delivery_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url, *args, **kwargs: opened.append(url))
    recorder = Recorder()
    async with running_server(tmp_path, recorder) as server:
        client = await PtyClient.connect(server.port, "alice")
        await client.wait_for_text("Welcome, alice")
        app = recorder.apps[0]
        assert isinstance(app._driver, SSHDriver)
        told: list[object] = []  # what the app is told of the delivery (a server's driver saves in a thread)
        post = app.post_message

        def telling(message: Any) -> bool:
            if isinstance(message, events.DeliveryComplete | events.DeliveryFailed):
                told.append(message)
            return post(message)

        app.post_message = telling  # type: ignore[method-assign]
        (tmp_path / "out").mkdir()  # (a directory it could be saved in)
        app.open_url("https://example.org/")
        app.deliver_text(io.StringIO("secret"), save_directory=tmp_path / "out", save_filename="x.txt")
        await wait_for(lambda: bool(told), what="the app to be told of the delivery")
        assert [type(m) for m in told] == [events.DeliveryFailed]
        client.send("q")
        assert await client.wait_closed() == 0
    assert opened == []
    assert not (tmp_path / "out" / "x.txt").exists()


async def test_connection_caps_for_unauthenticated_clients(tmp_path: Path) -> None:
    # (a connection over the cap waits `handshake_wait` for a slot before it is refused: 0.2 s here, not 5)
    limits = Limits(max_unauthenticated_per_ip=2, handshake_wait=0.2)
    async with running_server(tmp_path, limits=limits) as server:
        idle = [await asyncio.open_connection(HOST, server.port) for _ in range(2)]
        for reader, _ in idle:  # admitted: the server sends its version line
            assert (await asyncio.wait_for(reader.readline(), 5)).startswith(b"SSH-2.0-dixit-tui")
        with pytest.raises((asyncssh.Error, OSError)):
            await connect(server.port, "third", timeout=5)
        for _, writer in idle:
            writer.close()
        await wait_for(lambda: server.connection_count == 0)
        client = await PtyClient.connect(server.port, "fourth")  # room again
        await client.wait_for_text("Welcome, fourth")
        client.send("q")
        assert await client.wait_closed() == 0


class FloodApp(App[None]):
    """Repaints the whole screen with fresh text as fast as it can."""

    def compose(self) -> ComposeResult:
        yield Static(id="noise")

    def on_mount(self) -> None:
        self.set_interval(0.01, self._repaint)

    def _repaint(self) -> None:
        letters = "".join(random.choices("abcdefghijklmnopqrstuvwxyz", k=100 * 30))
        self.query_one("#noise", Static).update(Text(letters, style=f"color({random.randrange(256)})"))


async def test_a_client_that_stops_reading_is_disconnected(tmp_path: Path) -> None:
    limits = Limits(max_write_buffer=64 * 1024)
    async with running_server(tmp_path, lambda identity, terminal: FloodApp(), limits=limits) as server:
        client = await PtyClient.connect(server.port, "frozen", window=64 * 1024)
        await client.wait_until(lambda: len(client.raw) > 0, what="first output")
        client.pause_reading()
        await asyncio.wait_for(client.conn.wait_closed(), 15)
        await wait_for(lambda: server.connection_count == 0 and server.session_count == 0)


def live_counts(*kinds: type, but: Collection[object] = ()) -> tuple[int, ...]:
    """How many objects of each of `kinds` are alive, in one scan of the heap (`but`: not counting these)."""
    counts = dict.fromkeys(kinds, 0)
    for item in gc.get_objects():
        for kind in kinds:
            if isinstance(item, kind) and item not in but:
                counts[kind] += 1
    return tuple(counts.values())


async def test_connect_leave_cycles_leave_no_apps_or_tasks_behind(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:

        async def cycle(number: int) -> None:
            client = await PtyClient.connect(server.port, f"p{number}")
            await client.wait_for_text(f"Welcome, p{number}")
            client.send("x\x1b[97;5u")  # typing, including a Kitty-protocol key
            if number % 2 == 0:
                client.send("q")
                assert await client.wait_closed() == 0
                await client.close()
            else:
                client.drop()
                await asyncio.wait_for(client.conn.wait_closed(), 5)
            await wait_for(lambda: server.connection_count == 0 and server.session_count == 0)

        # what was alive before the cycles (held by an earlier test, or by the warm-up's first use of the
        # process-wide caches) is not counted: only what the cycles leave is
        kept: weakref.WeakSet[object] = weakref.WeakSet()

        async def settle(tasks_before: int | None = None, wait: float = 20.0) -> tuple[int, int, int, int]:
            """The counts once the closed sessions' objects are gone: a closed session's app may take a moment
            to go on a busy machine (a cancelled timer keeps its context until its time comes); a leak never gets
            there and is reported as it stands after the bounded wait."""
            counts: tuple[int, int, int, int] = (0, 0, 0, 0)
            deadline = asyncio.get_running_loop().time() + wait  # (each step scans the whole heap: bound the time)
            while True:
                await asyncio.sleep(0.05)  # (polled)
                gc.collect()
                apps, drivers, parsers = live_counts(App, SSHDriver, SessionParser, but=kept)
                counts = (apps, drivers, parsers, len(asyncio.all_tasks()))
                if counts[:3] == (0, 0, 0) and (tasks_before is None or counts[3] <= tasks_before):
                    break
                if asyncio.get_running_loop().time() > deadline:
                    break
            return counts

        await cycle(0)  # warm-up: imports, caches, asyncssh's first connection
        baseline = await settle(wait=5.0)
        if baseline[0]:
            print("alive before the cycles (not counted):\n" + "\n".join(holders(App)))
        kept.update(item for item in gc.get_objects() if isinstance(item, App | SSHDriver | SessionParser))
        for number in range(1, 31):
            await cycle(number)
        after = await settle(tasks_before=baseline[3])
        print(f"leak check (apps, drivers, parsers, tasks): before {baseline}, after 30 cycles {after}")
        if after[0]:
            print("\n".join(holders(App)))
        assert after[:3] == (0, 0, 0)
        assert after[3] <= baseline[3]
        assert XTermParser._parse_extended_key.cache_info().currsize == 0  # Textual's leaky cache unused


async def test_login_timeout_reclaims_idle_unauthenticated_sockets(tmp_path: Path) -> None:
    async with running_server(tmp_path, limits=Limits(login_timeout=0.5)) as server:
        reader, writer = await asyncio.open_connection(HOST, server.port)
        assert (await asyncio.wait_for(reader.readline(), 5)).startswith(b"SSH-2.0-")
        await wait_for(lambda: server.connection_count == 1)
        await asyncio.wait_for(reader.read(), 5)  # EOF: the server gave up on us
        await wait_for(lambda: server.connection_count == 0)
        writer.close()


async def test_an_authenticated_connection_without_a_session_is_closed(tmp_path: Path) -> None:
    async with running_server(tmp_path, limits=Limits(session_open_timeout=0.3)) as server:
        conn = await connect(server.port, "lurker")
        await asyncio.wait_for(conn.wait_closed(), 5)
        await wait_for(lambda: server.connection_count == 0)


async def test_a_frozen_client_is_reaped_by_keepalive(tmp_path: Path) -> None:
    limits = Limits(keepalive_interval=0.2, keepalive_count_max=2)
    async with running_server(tmp_path, limits=limits) as server:
        client = await PtyClient.connect(server.port, "frozen")
        await client.wait_for_text("Welcome, frozen")
        transport = client.conn._transport
        assert transport is not None
        transport.pause_reading()  # the client process hangs: nothing is read or answered
        await wait_for(lambda: server.connection_count == 0 and server.session_count == 0, timeout=5)
        client.drop()


async def test_sftp_forwarding_and_unstarted_sessions_are_refused(tmp_path: Path) -> None:
    async with running_server(tmp_path, limits=Limits(session_open_timeout=1.0)) as server:
        conn = await connect(server.port, "sneaky")
        with pytest.raises(asyncssh.ChannelOpenError):
            await asyncio.wait_for(conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", 22), 5)
        with pytest.raises((asyncssh.Error, OSError)):
            await asyncio.wait_for(conn.start_sftp_client(), 5)
        # the connection used up its one session on the refused subsystem and is closed soon after
        await asyncio.wait_for(conn.wait_closed(), 5)
        await wait_for(lambda: server.connection_count == 0)


class CrashingApp(App[None]):
    def on_mount(self) -> None:
        hidden_hand = "SECRET-CARD-42"
        raise RuntimeError(f"boom {len(hidden_hand)}")


def crashing_factory(identity: SessionIdentity, terminal: TerminalInfo) -> App[Any]:
    if identity.username == "factory":
        raise RuntimeError("factory failed")
    return CrashingApp()


@pytest.mark.parametrize("username", ["factory", "app"])
async def test_a_crash_ends_the_session_with_status_1_and_no_traceback_for_the_client(
    tmp_path: Path, username: str, caplog: pytest.LogCaptureFixture
) -> None:
    async with running_server(tmp_path, crashing_factory) as server:
        client = await PtyClient.connect(server.port, username)
        assert await client.wait_closed() == 1
        await wait_for(lambda: "internal error" in client.raw_text())
        assert "SECRET-CARD-42" not in client.raw_text()
        assert "Traceback" not in client.raw_text()
    assert "failed" in caplog.text or "SECRET-CARD-42" in caplog.text  # the server log has the details


async def test_an_endless_paste_or_an_input_flood_disconnects(tmp_path: Path) -> None:
    limits = Limits(max_paste=1000, input_rate=4000, input_burst=8000)
    async with running_server(tmp_path, limits=limits) as server:
        normal = await PtyClient.connect(server.port, "normal")
        await normal.wait_for_text("Esc pressed 0 times")
        normal.send("\x1b[200~a short paste\x1b[201~")
        normal.send("\x1b")
        await normal.wait_for_text("Esc pressed 1 times")

        paster = await PtyClient.connect(server.port, "paster")
        await paster.wait_for_text("Welcome, paster")
        paster.send("\x1b[200~" + "a" * 2000)
        await asyncio.wait_for(paster.conn.wait_closed(), 5)

        flooder = await PtyClient.connect(server.port, "flooder")
        await flooder.wait_for_text("Welcome, flooder")
        flooder.send("x" * 20000)
        await asyncio.wait_for(flooder.conn.wait_closed(), 5)

        normal.send("q")  # the others were not disturbed
        assert await normal.wait_closed() == 0
