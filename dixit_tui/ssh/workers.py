"""`dixit-tui serve --redis URL --workers N`: N worker processes accept SSH on the same port (SO_REUSEPORT, the
kernel spreads the connections) and share every table through Redis (`coordinator.shared`).

This process only supervises: it makes the host key (so the workers do not race), picks the port, starts the
workers, restarts one that dies and stops them on SIGINT/SIGTERM; a worker dies with it (parent-death signal).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import signal
import socket
import sys
from collections.abc import Sequence
from pathlib import Path

from dixit_tui.ssh.keys import ensure_host_key, fingerprint
from dixit_tui.stopping import ended, send
from dixit_tui.textual_host.check import installed_internals

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1
RESTART_DELAY = 0.5


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def worker_argv(argv: Sequence[str], port: int, index: int = 0) -> list[str]:
    """The command line of one worker: this command's own, as one worker on the shared port (worker `index`, from 0:
    its metrics port is `--metrics-port` + index)."""
    return [
        *(sys.executable, "-m", "dixit_tui", *argv),
        *("--workers", "1", "--reuse-port", "--port", str(port), "--worker-index", str(index)),
    ]


def reserve_port(host: str, port: int) -> socket.socket:
    """A bound (not listening) SO_REUSEPORT socket on host:port, which picks the port when `port` is 0 and keeps it
    for the workers while the server runs."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    if host == "::":  # as the workers' sockets: IPv6 and IPv4 (server.dual_stack_socket)
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    sock.bind((host, port))
    return sock


class Supervisor:
    def __init__(self, argv: Sequence[str], host: str, port: int, count: int) -> None:
        self.argv = list(argv)
        self.host = host
        self.port = port
        self.count = count
        self.procs: list[asyncio.subprocess.Process | None] = [None] * count
        self._stopping = False

    async def _start(self, index: int, ready: asyncio.Future[None] | None) -> asyncio.subprocess.Process:
        proc = await asyncio.create_subprocess_exec(
            *worker_argv(self.argv, self.port, index),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            preexec_fn=_die_with_parent,
        )
        self.procs[index] = proc
        print(f"worker {index + 1} pid {proc.pid}", flush=True)

        async def read() -> None:
            assert proc.stdout is not None
            async for raw in proc.stdout:
                line = raw.decode(errors="replace").rstrip()
                if line.startswith("metrics on "):  # (`--metrics-port`: each worker's own port)
                    print(f"worker {index + 1} {line}", flush=True)
                if line.startswith("listening on"):
                    print(f"worker {index + 1} ready", flush=True)
                    if ready is not None and not ready.done():
                        ready.set_result(None)
            if ready is not None and not ready.done():
                ready.set_exception(RuntimeError(f"worker {index + 1} exited before listening"))

        asyncio.get_running_loop().create_task(read())
        return proc

    async def _watch(self, index: int) -> None:
        """Start the worker again whenever it dies (until the server stops)."""
        while not self._stopping:
            proc = self.procs[index]
            assert proc is not None
            code = await proc.wait()
            if self._stopping:
                return
            log.warning("worker %d (pid %d) exited with %s; starting it again", index + 1, proc.pid, code)
            await asyncio.sleep(RESTART_DELAY)
            if not self._stopping:
                await self._start(index, None)

    async def run(self, fingerprint_text: str) -> int:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        watchers: list[asyncio.Task[None]] = []
        try:
            readies = [loop.create_future() for _ in range(self.count)]
            for index in range(self.count):
                await self._start(index, readies[index])
            waiting = asyncio.ensure_future(asyncio.gather(*readies))
            stopped = asyncio.ensure_future(stop.wait())
            await asyncio.wait([waiting, stopped], return_when=asyncio.FIRST_COMPLETED)
            if not waiting.done():
                waiting.cancel()
                return 0
            stopped.cancel()
            if waiting.exception() is not None:
                log.error("%s", waiting.exception())
                return 1
            print(f"host key fingerprint: {fingerprint_text} (ED25519)", flush=True)
            print(installed_internals().summary(), flush=True)
            print(f"{self.count} workers share the tables in Redis", flush=True)
            print(f"listening on {self.host}:{self.port}", flush=True)
            watchers = [loop.create_task(self._watch(i)) for i in range(self.count)]
            await stop.wait()
            log.info("shutting down %d workers", self.count)
            return 0
        finally:
            self._stopping = True
            for task in watchers:
                task.cancel()
            procs = [proc for proc in self.procs if proc is not None]
            for proc in procs:
                send(proc, signal.SIGTERM)  # all at once, then each has its grace period
            for proc in procs:
                await ended(proc, 15)
            for signum in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(signum)


def supervise(argv: Sequence[str], host: str, port: int, keys_dir: Path, count: int) -> int:
    """Run `count` workers of `serve` (its command line `argv`, without the program) until SIGINT/SIGTERM."""
    key = ensure_host_key(keys_dir)
    reserved = reserve_port(host, port)
    try:
        chosen = int(reserved.getsockname()[1])
        return asyncio.run(Supervisor(argv, host, chosen, count).run(fingerprint(key)))
    finally:
        reserved.close()


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))
