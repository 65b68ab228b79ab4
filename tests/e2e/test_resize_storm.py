"""A storm of window changes is coalesced (the last size wins, a few relayouts a second), and a session's input is
weighed by the screen updates it causes, so hostile sessions cannot slow everyone else down."""

from __future__ import annotations

import asyncio
import gc
import sys
import time
import weakref
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.app import App

from dixit_tui.ssh.driver import SSHDriver
from dixit_tui.ssh.session_runner import SessionIdentity
from dixit_tui.ssh.terminal import TerminalInfo
from tests.e2e.harness import PtyClient, running_server, wait_for
from tests.e2e.placeholder_app import placeholder_app_factory
from tests.e2e.servers import dixit_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]

STORM = 200
INTERVAL = 0.25  # the server's resize_interval (its default)


class ResizeCounter:
    """An app factory (the placeholder app) that counts the Resize events each app is given, by user name."""

    def __init__(self) -> None:
        self.resizes: dict[str, list[tuple[int, int]]] = {}
        self.at: dict[str, list[float]] = {}  # when (the event loop's clock, the driver's) each was handed over

    def __call__(self, identity: SessionIdentity, terminal: TerminalInfo) -> App[Any]:
        app = placeholder_app_factory(identity, terminal)
        assert isinstance(app, App)
        seen = self.resizes.setdefault(identity.username, [])
        at = self.at.setdefault(identity.username, [])
        post = app.post_message

        def counting_post(message: Any) -> bool:
            if isinstance(message, events.Resize):
                seen.append((message.size.width, message.size.height))
                at.append(asyncio.get_running_loop().time())
            return post(message)

        app.post_message = counting_post  # type: ignore[method-assign]
        return app

    def one_per_interval(self, name: str) -> None:
        """No two relayouts of the session less than a resize_interval apart (on the driver's own clock, whatever
        the machine's speed; a little is allowed for the time between the driver's noting it and the app's post)."""
        at = self.at[name]
        gaps = [b - a for a, b in pairwise(at)]
        assert all(gap >= INTERVAL - 0.02 for gap in gaps), gaps


def driver_of(name: str) -> SSHDriver:
    return next(driver for driver in _drivers() if username_of(driver) == name)


def asked(name: str) -> int:
    """The window changes the server's driver for `name` was given (each one, before coalescing)."""
    return driver_of(name).resizes_asked


@pytest.mark.same_on_two_workers
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
        driver = driver_of("storm")
        # no size is left waiting to be handed over (one coalesced before the last would be)
        await wait_for(lambda: driver._resize_wanted is None, 10, "the driver to have no size waiting")
        delivered = counter.resizes["storm"][before:]
        changes = asked("storm")
        await client.close()
    print(f"\nresize storm: {changes} window changes, {len(delivered)} handed to the app")
    assert changes >= STORM + 1
    assert delivered[-1] == (111, 33)
    counter.one_per_interval("storm")
    assert len(delivered) < changes / 10, delivered  # coalesced: a burst of changes is one relayout


@pytest.mark.same_on_two_workers
async def test_hostile_resizing_sessions_leave_the_server_responsive(tmp_path: Path) -> None:
    """4 sessions send window changes as fast as they can for 2 s (or more); another player logs in meanwhile.
    Figures only (CPU share, the newcomer's first paint); the counts of relayouts are asserted."""
    counter = ResizeCounter()
    async with running_server(tmp_path, counter) as server:
        hostile = [await PtyClient.connect(server.port, f"hostile{n}") for n in range(4)]
        for client in hostile:
            await client.wait_for_text("terminal 100x30")
        stop = asyncio.Event()
        sent = 0

        async def storm(client: PtyClient) -> None:
            """Bursts of 10 window changes (the client's screen is not resized: only what the server gets counts),
            so that however rarely a loaded machine runs this loop, far more changes are sent than relayouts made."""
            nonlocal sent
            n = 0
            while not stop.is_set():
                for _ in range(10):
                    client.channel.change_terminal_size(80 + n % 60, 24 + n % 30)
                    n += 1
                sent += 10
                await asyncio.sleep(0.005)

        cpu0, wall0 = time.process_time(), time.perf_counter()
        storms = [asyncio.create_task(storm(client)) for client in hostile]
        names = [f"hostile{n}" for n in range(4)]
        await relayouts_of(counter, names, 1)  # the storm is on (counted: a slow machine takes longer, not fewer)
        started = time.perf_counter()
        newcomer = await PtyClient.connect(server.port, "newcomer", timeout=30)
        await newcomer.wait_for_text("Welcome, newcomer", timeout=30)
        first_paint = time.perf_counter() - started
        await relayouts_of(counter, names, 2)  # each session stormed through a few resize intervals more
        stop.set()
        await asyncio.gather(*storms)
        duration = time.perf_counter() - wall0
        cpu = (time.process_time() - cpu0) / duration
        relayouts = sum(len(counter.resizes[f"hostile{n}"]) for n in range(4))
        changes = sum(asked(f"hostile{n}") for n in range(4))
        await newcomer.close()
        for client in hostile:
            await client.close()
    print(
        f"\n4 resizing sessions: {sent} window changes, {relayouts} relayouts; test process CPU {cpu:.0%} of a core "
        f"(server and clients); a newcomer's first paint took {first_paint * 1000:.0f} ms"
    )
    # at most one relayout per resize_interval per session, on the driver's clock (a slower machine changes how many,
    # never this), and each burst of window changes is one relayout at most
    for n in range(4):
        counter.one_per_interval(f"hostile{n}")
    assert relayouts < changes


async def relayouts_of(counter: ResizeCounter, names: list[str], more: int) -> None:
    """Each of `names` is handed `more` sizes than now (one per resize_interval at most, whatever it sends)."""
    wanted = {name: len(counter.resizes[name]) + more for name in names}
    await wait_for(lambda: all(len(counter.resizes[n]) >= wanted[n] for n in names), 30, f"{more} relayouts each")


# --- arrow keys at the allowed rate, in the real lobby ------------------------------------------------------------

HOSTILE = 4
FLOOD_SCRIPT = """
import asyncio, sys
from tests.e2e.harness import PtyClient

async def main(port, count, seconds):
    clients = [await PtyClient.connect(port, f"flood{n}", timeout=30) for n in range(count)]
    for client in clients:
        await client.wait_for_text("Welcome, flood", timeout=60)
    print("flooding", flush=True)
    keys = ["\\x1b[B", "\\x1b[A", "\\t", "\\x1b[C"]
    loop = asyncio.get_running_loop()
    stop = loop.run_in_executor(None, sys.stdin.readline)  # until told (a line, or the test's end), at most `seconds`
    end = loop.time() + seconds
    while loop.time() < end and not stop.done():
        for client in clients:
            client.send("".join(keys))  # 4 events every 10 ms: 400 a second per session
        await asyncio.sleep(0.01)  # (the rate is what this floods at: a real client's pace)
    print("done", flush=True)
    for client in clients:
        await client.close()

asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])))
"""


_sent: weakref.WeakKeyDictionary[SSHDriver, int] = weakref.WeakKeyDictionary()
"""Bytes each session's driver has written to its channel (counted while `count_sent` is on)."""


def count_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    """Count the bytes each session's driver writes to its channel, from its first frame on."""
    write = SSHDriver._write_channel

    def counted(driver: SSHDriver, data: bytes) -> None:
        _sent[driver] = _sent.get(driver, 0) + len(data)
        write(driver, data)

    monkeypatch.setattr(SSHDriver, "_write_channel", counted)


async def caught_up(client: PtyClient, driver: SSHDriver) -> None:
    """Until the client has received everything the session has written so far (the rest of a frame included)."""
    await client.wait_until(lambda: len(client.raw) >= _sent.get(driver, 0), 30, "the rest of the output")


TYPIST_GAP = 0.1
"""Seconds between a fast typist's keys (10 a second)."""


async def _echo(client: PtyClient, driver: SSHDriver, key: str) -> float:
    """Seconds from sending a key until the screen changes."""
    before = len(client.raw)
    started = time.perf_counter()
    client.send(key)
    await client.wait_until(lambda: len(client.raw) > before, 30, f"an answer to {key!r}")
    took = time.perf_counter() - started
    await caught_up(client, driver)  # the rest of that frame
    # (a person's pace in real time: the budget runs on the real clock, and a typist at this pace must never wait)
    await asyncio.sleep(max(0.0, TYPIST_GAP - (time.perf_counter() - started)))
    return took


def _drivers() -> list[SSHDriver]:
    return [o for o in gc.get_objects() if isinstance(o, SSHDriver)]


def username_of(driver: SSHDriver) -> str:
    """The SSH user name of the driver's session, as its SSH process knows it."""
    return str(driver._process.get_extra_info("username") or "")


async def _player_figures(port: int, name: str) -> tuple[float, list[float], list[float], SSHDriver]:
    """A newcomer's first paint, then Tab presses and typing (a fast typist: 10 keys a second) in the code field."""
    started = time.perf_counter()
    client = await PtyClient.connect(port, name, timeout=30)
    await client.wait_for_text(f"Welcome, {name}!", timeout=30)
    first_paint = time.perf_counter() - started
    driver = driver_of(name)
    await caught_up(client, driver)  # the rest of the first screen
    tabs = [await _echo(client, driver, "\t") for _ in range(5)]
    await _echo(client, driver, "j")  # to the code field
    typed = [await _echo(client, driver, letter) for letter in "abcdefgh"]
    await client.close()
    return first_paint, tabs, typed, driver


def _ms(values: list[float]) -> str:
    return "/".join(f"{v * 1000:.0f}" for v in sorted(values))


async def test_sessions_sending_keys_at_the_allowed_rate_leave_the_lobby_responsive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """4 sessions (clients in another process) send arrow keys and Tab at 400 a second each to the real lobby; a
    newcomer logs in and presses keys meanwhile. Figures with -s; the budget's counters are asserted."""
    count_sent(monkeypatch)
    async with dixit_server(tmp_path) as (server, _coord):
        quiet = await _player_figures(server.port, "calm")
        flood = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            FLOOD_SCRIPT,
            str(server.port),
            str(HOSTILE),
            "60",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            cwd=str(Path(__file__).parents[2]),
        )
        try:
            assert flood.stdout is not None
            line = await asyncio.wait_for(flood.stdout.readline(), 90)
            assert line.strip() == b"flooding", line
            # held from now on: on a loaded machine the flood may be over (and its sessions gone) before the newcomer
            drivers = {username_of(d): d for d in _drivers() if username_of(d).startswith("flood")}
            assert len(drivers) == HOSTILE
            # each session's cpu_burst (0.3 s) is spent, at about twice its share: its input waits
            await wait_for(
                lambda: all(d.input_waited > 0 for d in drivers.values()), 60, "every flooding session to be held"
            )
            loaded = await _player_figures(server.port, "newcomer")
            assert flood.stdin is not None
            flood.stdin.write(b"stop\n")  # the flood ends once the newcomer's figures are taken
            await asyncio.wait_for(flood.wait(), 60)
        finally:
            if flood.returncode is None:
                flood.kill()
                await flood.wait()
    print(
        f"\nno load: first paint {quiet[0] * 1000:.0f} ms, Tab {_ms(quiet[1])} ms, typing {_ms(quiet[2])} ms"
        f"\n{HOSTILE} sessions at 400 keys/s: first paint {loaded[0] * 1000:.0f} ms, Tab {_ms(loaded[1])} ms, "
        f"typing {_ms(loaded[2])} ms"
        f"\nloop time of the flooding sessions: "
        + ", ".join(
            f"{drivers[f'flood{n}'].work:.2f} s (input waited {drivers[f'flood{n}'].input_waited:.1f} s, "
            f"deferred {drivers[f'flood{n}'].work_deferred})"
            for n in range(HOSTILE)
        )
    )
    # A person typing is never made to wait nor put behind others, under load or not; every flooding session is held
    # to its share: its input waits, and its app's work runs after the others'.
    for player in (quiet[3], loaded[3]):
        assert player.input_waited == 0 and player.work_deferred == 0
    for n in range(HOSTILE):
        assert drivers[f"flood{n}"].input_waited > 0 and drivers[f"flood{n}"].work_deferred > 0
