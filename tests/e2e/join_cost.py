"""What joining costs the server: CPU from an SSH session's start to its first screen, time to the table screen when
many join at once, memory per terminal session. A measuring script (not a test: tests never time things).

    .venv/bin/python -m tests.e2e.join_cost lobby -k 20       # K sequential connections to the lobby's first screen
    .venv/bin/python -m tests.e2e.join_cost join -k 20        # K sequential `join CODE` to the table screen
    .venv/bin/python -m tests.e2e.join_cost watch -k 20       # K sequential `watch CODE`
    .venv/bin/python -m tests.e2e.join_cost burst -k 20       # K `join CODE` at once: time to every table screen
    .venv/bin/python -m tests.e2e.join_cost ssh -k 20         # K sequential SSH logins, no session: the SSH part
    .venv/bin/python -m tests.e2e.join_cost ssh-burst -k 20   # K SSH logins at once (no session): time to each
    .venv/bin/python -m tests.e2e.join_cost memory -k 50      # K sessions open at a table: RSS per session
    .venv/bin/python -m tests.e2e.join_cost profile           # cProfile of one join, server in this process
    .venv/bin/python -m tests.e2e.join_cost join -k 20 --floor  # the same against the floor's one-line app

With --floor the server is the benchmark's floor (`python -m dixit_tui.bench.floor`: the same SSH server and driver,
a one-line Textual app per session): what any Textual app costs per session on this SSH path (join/watch/lobby/burst).

The server runs as `dixit-tui serve` in a subprocess (its CPU read from /proc), except for `profile`. Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import itertools
import os
import pstats
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from unittest import mock

import asyncssh

from tests.e2e import harness
from tests.e2e.harness import PtyClient, connect
from tests.e2e.json_client import JsonClient
from tests.e2e.servers import dixit_server

TIMEOUT = 60.0
_TICK = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")


def cpu_seconds(pid: int) -> float:
    """CPU time of a process (its threads included), from /proc: the scheduler's nanoseconds where the kernel keeps
    them (schedstat), else user + system in clock ticks."""
    total = 0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(FileNotFoundError):  # a thread that just ended
                total += int((task / "schedstat").read_text().split()[0])
    except (FileNotFoundError, ValueError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICK
    return total / 1e9


def rss_bytes(pid: int) -> int:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * _PAGE


@contextlib.asynccontextmanager
async def server_process(workdir: Path) -> AsyncIterator[tuple[int, int]]:
    """`dixit-tui serve` on 127.0.0.1, any port: yields (pid, port). With JOIN_COST_PROFILE=FILE in the environment
    the server runs under cProfile and saves its stats there when it stops; with JOIN_COST_FLOOR=1, the floor server
    (`dixit_tui.bench.floor`) runs instead."""
    out = os.environ.get("JOIN_COST_PROFILE")
    profile = ["-m", "cProfile", "-o", out] if out else []
    server = ["dixit_tui.bench.floor"] if os.environ.get("JOIN_COST_FLOOR") else ["dixit_tui", "serve"]
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        *profile,
        "-m",
        *server,
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--keys-dir",
        str(workdir / "keys"),
        "--data-dir",
        str(workdir / "data"),
        "--log-level",
        "WARNING",
        "--limit",
        "max_connections_per_ip=1000",
        "--limit",
        "max_unauthenticated_per_ip=200",
        "--limit",
        "max_unauthenticated_per_prefix=200",
        "--limit",
        "max_tables_per_ip=200",
        stdout=subprocess.PIPE,
    )
    assert proc.stdout is not None
    port = 0
    while not port:
        line = (await asyncio.wait_for(proc.stdout.readline(), TIMEOUT)).decode()
        if not line:
            raise RuntimeError("the server ended before listening")
        if match := re.search(r"listening on .*:(\d+)", line):
            port = int(match.group(1))
    try:
        yield proc.pid, port
    finally:
        proc.terminate()
        await proc.wait()


async def wait_text(client: PtyClient, text: str) -> None:
    await client.wait_until(lambda: text in client.screen_text(), TIMEOUT, repr(text))


async def idle(pid: int, quiet: float = 0.05, longest: float = 5.0) -> None:
    """Until the server uses no CPU for a while (the previous session's teardown is over)."""
    deadline = time.monotonic() + longest
    before = cpu_seconds(pid)
    while time.monotonic() < deadline:
        await asyncio.sleep(quiet)
        now = cpu_seconds(pid)
        if now == before:
            return
        before = now


def _floor() -> bool:
    return bool(os.environ.get("JOIN_COST_FLOOR"))


def table_text(code: str = "") -> str:
    """What a table screen shows once drawn (the floor's line `table CODE · update N`)."""
    return f"table {code}" if _floor() else f"Dixit · table {code}"


def lobby_text(name: str = "") -> str:
    return "dixit-tui floor: lobby" if _floor() else (f"Welcome, {name}!" if name else "Welcome, ")


class _FloorTable:
    async def close(self) -> None:
        pass


_floor_codes = itertools.count(1)


async def new_table(port: int, host: str = "host") -> tuple[Any, str]:
    if _floor():  # (the floor's terminal sessions show any code's line: nothing to create)
        return _FloorTable(), f"F{next(_floor_codes)}"
    headless = await JsonClient.open(port, host)
    code = await headless.create(mode="standard", seats=8)
    return headless, code


async def sequential(mode: str, k: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with server_process(Path(tmp)) as (pid, port):
            headless, code = await new_table(port)
            # Warm-up: the first session of a process pays for imports.
            for name in ("warm1", "warm2"):
                client = await PtyClient.connect(port, name, command=None if mode == "lobby" else f"{mode} {code}")
                await wait_text(client, lobby_text() if mode == "lobby" else table_text(code))
                await client.close()
            costs: list[float] = []
            for number in range(k):
                await idle(pid)
                command = None if mode == "lobby" else f"{mode} {code}"
                want = lobby_text(f"p{number}") if mode == "lobby" else table_text(code)
                before = cpu_seconds(pid)
                client = await PtyClient.connect(port, f"p{number}", command=command)
                await wait_text(client, want)
                await idle(pid, quiet=0.02)  # the first screen's last frames
                costs.append(cpu_seconds(pid) - before)
                await client.close()
            await headless.close()
    total = sum(costs)
    print(
        f"{mode}: {k} sequential sessions, server CPU from connect to first screen (SSH handshake included): "
        f"mean {1000 * total / k:.1f} ms, median {1000 * statistics.median(costs):.1f} ms"
    )


async def burst(k: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with server_process(Path(tmp)) as (pid, port):
            tables = [await new_table(port, f"host{i}") for i in range((k + 6) // 7)]
            warm = await PtyClient.connect(port, "warm", command=f"watch {tables[0][1]}")
            await wait_text(warm, table_text())
            await warm.close()
            await idle(pid)
            start = time.perf_counter()
            before = cpu_seconds(pid)
            clients_before = time.process_time()
            logged_in: list[float] = []  # when each SSH login was done (the session not yet asked for)

            async def timed_connect(*args: Any, **kwargs: Any) -> asyncssh.SSHClientConnection:
                conn = await connect(*args, **kwargs)
                logged_in.append(time.perf_counter() - start)
                return conn

            async def one(number: int) -> float:
                code = tables[number // 7][1]
                client = await PtyClient.connect(port, f"p{number}", command=f"join {code}")
                await wait_text(client, table_text(code))
                seen = time.perf_counter() - start
                return seen

            with mock.patch.object(harness, "connect", timed_connect):
                times = sorted(await asyncio.gather(*(one(n) for n in range(k))))
            cpu = cpu_seconds(pid) - before
            clients = time.process_time() - clients_before
    logged_in.sort()
    print(
        f"burst: {k} `join CODE` at once: to the table screen p50 {1000 * statistics.median(times):.0f} ms, "
        f"p95 {1000 * _p95(times):.0f} ms, max {1000 * times[-1]:.0f} ms; SSH logins done p50 "
        f"{1000 * statistics.median(logged_in):.0f} ms, p95 {1000 * _p95(logged_in):.0f} ms; "
        f"server CPU {1000 * cpu:.0f} ms ({1000 * cpu / k:.1f} ms per session); the clients' CPU (this process: "
        f"SSH and terminal emulation) {1000 * clients:.0f} ms"
    )


def _p95(times: list[float]) -> float:
    return times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]


async def ssh_only(k: int, at_once: bool) -> None:
    """SSH logins with no session opened: what the handshake (key exchange, host key, authentication) costs the server
    of a join, and how long K logins at once take to be authenticated."""
    with tempfile.TemporaryDirectory() as tmp:
        async with server_process(Path(tmp)) as (pid, port):
            warm = await connect(port, "warm")
            warm.close()
            await warm.wait_closed()
            await idle(pid)
            costs: list[float] = []
            times: list[float] = []
            if at_once:
                start = time.perf_counter()
                before = cpu_seconds(pid)

                async def one(number: int) -> float:
                    conn = await connect(port, f"p{number}", timeout=TIMEOUT)
                    seen = time.perf_counter() - start
                    conn.close()
                    return seen

                times = sorted(await asyncio.gather(*(one(n) for n in range(k))))
                cpu = cpu_seconds(pid) - before
                p95 = _p95(times)
                print(
                    f"ssh-burst: {k} SSH logins at once (no session): authenticated p50 "
                    f"{1000 * statistics.median(times):.0f} ms, p95 {1000 * p95:.0f} ms, "
                    f"max {1000 * times[-1]:.0f} ms; "
                    f"server CPU {1000 * cpu:.0f} ms ({1000 * cpu / k:.1f} ms per login, closing included)"
                )
                return
            for number in range(k):
                await idle(pid)
                before = cpu_seconds(pid)
                conn = await connect(port, f"p{number}", timeout=TIMEOUT)
                await idle(pid, quiet=0.02)
                costs.append(cpu_seconds(pid) - before)
                conn.close()
                await conn.wait_closed()
    print(
        f"ssh: {k} sequential SSH logins (no session): server CPU mean {1000 * sum(costs) / k:.1f} ms, "
        f"median {1000 * statistics.median(costs):.1f} ms"
    )


async def lobby_burst(k: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with server_process(Path(tmp)) as (pid, port):
            warm = await PtyClient.connect(port, "warm")
            await wait_text(warm, lobby_text())
            await warm.close()
            await idle(pid)
            start = time.perf_counter()

            async def one(number: int) -> float:
                client = await PtyClient.connect(port, f"p{number}")
                await wait_text(client, lobby_text(f"p{number}"))
                return time.perf_counter() - start

            times = sorted(await asyncio.gather(*(one(n) for n in range(k))))
    print(
        f"lobby-burst: {k} open the lobby at once: first screen p50 {1000 * statistics.median(times):.0f} ms, "
        f"max {1000 * times[-1]:.0f} ms"
    )


async def memory(k: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with server_process(Path(tmp)) as (pid, port):
            tables = [await new_table(port, f"host{i}") for i in range((k + 6) // 7)]
            warm = await PtyClient.connect(port, "warm", command=f"watch {tables[0][1]}")
            await wait_text(warm, table_text())
            await warm.close()
            await idle(pid)
            base = rss_bytes(pid)
            clients = []
            for number in range(k):
                code = tables[number // 7][1]
                client = await PtyClient.connect(port, f"p{number}", command=f"join {code}")
                await wait_text(client, table_text(code))
                clients.append(client)
            await idle(pid, quiet=0.2)
            grown = rss_bytes(pid) - base
            for client in clients:
                await client.close()
    print(f"memory: {k} terminal sessions at tables: RSS +{grown / 1e6:.1f} MB, {grown / k / 1e6:.2f} MB per session")


@contextlib.asynccontextmanager
async def profiled_server(workdir: Path) -> AsyncIterator[Any]:
    """The server in this process: the game's, or with --floor the floor's (its one-line app)."""
    if not _floor():
        async with dixit_server(workdir) as (server, _coord):
            yield server
        return
    from dixit_tui.bench.floor import Broadcaster, build

    factory, handler = build(Broadcaster())
    async with harness.running_server(workdir, factory, command_handler=handler) as acceptor:
        yield acceptor


async def profile(out: Path | None, lobby: bool = False, k: int = 1) -> None:
    """cProfile of K joins (or lobbies) one after the other, after two warm-up sessions; the garbage collector set up
    as `dixit-tui serve` sets it (startup objects frozen, its young threshold)."""
    from dixit_tui.ssh.server import freeze_startup_objects

    freeze_startup_objects()
    with tempfile.TemporaryDirectory() as tmp:
        async with profiled_server(Path(tmp)) as server:
            headless, code = await new_table(server.port)
            for name in ("warm1", "warm2"):
                client = await PtyClient.connect(server.port, name, command=f"join {code}")
                await wait_text(client, table_text(code))
                await client.close()
            await asyncio.sleep(0.5)  # (a measuring script, not a test: the warm-up sessions' teardown, unprofiled)
            import gc

            gc_time = [0.0, 0.0, 0.0]
            gc_started = [0.0]

            def gc_watch(phase: str, info: dict[str, int]) -> None:
                if phase == "start":
                    gc_started[0] = time.perf_counter()
                else:
                    gc_time[info["generation"]] += time.perf_counter() - gc_started[0]

            gc.callbacks.append(gc_watch)
            profiler = cProfile.Profile()
            cpu = 0.0
            for number in range(k):
                started = time.process_time()
                profiler.enable()
                command = None if lobby else f"join {code}"
                client = await PtyClient.connect(server.port, f"prof{number}", command=command)
                await wait_text(client, lobby_text(f"prof{number}") if lobby else table_text(code))
                await asyncio.sleep(0.3)  # (the first screen's follow-up frames, profiled with it)
                profiler.disable()
                cpu += 1000 * (time.process_time() - started)
                await client.close()
                await asyncio.sleep(0.2)  # (its teardown, out of the next one's figures)
            gc.callbacks.remove(gc_watch)
            print("gc ms by generation:", [round(1000 * t, 1) for t in gc_time], "objects", len(gc.get_objects()))
            print(
                f"profile: {k} {'lobby' if lobby else 'join'}(s), server and client in this process: "
                f"{cpu / k:.0f} ms each"
            )
            await headless.close()
    stats = pstats.Stats(profiler)
    if out is not None:
        stats.dump_stats(out)
    stats.sort_stats("cumulative").print_stats("textual|dixit_tui", 60)
    stats.sort_stats("tottime").print_stats(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "mode",
        choices=[
            "lobby",
            "join",
            "watch",
            "burst",
            "lobby-burst",
            "ssh",
            "ssh-burst",
            "memory",
            "profile",
            "profile-lobby",
        ],
    )
    parser.add_argument("-k", type=int, default=20)
    parser.add_argument("--out", type=Path, default=None, help="profile: also save the stats here")
    parser.add_argument("--floor", action="store_true", help="serve the benchmark's floor app")
    args = parser.parse_args()
    if args.floor:
        os.environ["JOIN_COST_FLOOR"] = "1"
    if args.mode in ("lobby", "join", "watch"):
        asyncio.run(sequential(args.mode, args.k))
    elif args.mode == "burst":
        asyncio.run(burst(args.k))
    elif args.mode in ("ssh", "ssh-burst"):
        asyncio.run(ssh_only(args.k, at_once=args.mode == "ssh-burst"))
    elif args.mode == "lobby-burst":
        asyncio.run(lobby_burst(args.k))
    elif args.mode == "memory":
        asyncio.run(memory(args.k))
    else:
        asyncio.run(profile(args.out, lobby=args.mode == "profile-lobby", k=args.k))


if __name__ == "__main__":
    main()
