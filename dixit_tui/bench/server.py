"""A dixit-tui server as a subprocess, for the operator tools (the load benchmark, the crash test): its command line,
and the process started, its port read from its `listening on` line, killed with SIGKILL (a crash), stopped with
SIGTERM, started again."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from dixit_tui.bench.stopping import send, terminated

HOST = "127.0.0.1"


def serve_argv(
    keys_dir: Path,
    data_dir: Path,
    *,
    port: int = 0,
    python: str = sys.executable,
    server: Sequence[str] = ("dixit_tui", "serve"),
    seeded: bool = True,
    snapshot_every: int | None = None,
    redis: str | None = None,
    workers: int | None = None,
    limits: Mapping[str, int] | None = None,
    screen_cast: bool = True,
) -> list[str]:
    """The command line of a server on the loopback address, logging warnings and worse: `dixit-tui serve` (or a
    module that takes its options, `server`: the benchmark's floor), seeded tables allowed unless not `seeded`;
    `--snapshot-every` when given (the server's default is 100 records), its tables in `redis` and its `workers`
    when given, its `limits` (`--limit NAME=VALUE`), and `--no-screen-cast` unless `screen_cast`."""
    args = ["--host", HOST, "--port", str(port), "--keys-dir", str(keys_dir), "--data-dir", str(data_dir)]
    args += ["--log-level", "WARNING"]
    if redis:
        args += ["--redis", redis]
    if workers is not None:
        args += ["--workers", str(workers)]
    if seeded:
        args.append("--allow-seeded-tables")
    if snapshot_every is not None:
        args += ["--snapshot-every", str(snapshot_every)]
    for name, value in (limits or {}).items():
        args += ["--limit", f"{name}={value}"]
    if not screen_cast:
        args.append("--no-screen-cast")
    return [python, "-m", *server, *args]


class ServerStartError(RuntimeError):
    """The server exited, or did not say `listening on`, in time. The message quotes what it printed."""


class ServerProcess:
    """`argv` is the whole command line (a callable is asked again at each start). Its stdout and stderr are kept
    per run (`lines`, each prefixed `[RUN]`, the last `keep` of them)."""

    def __init__(
        self,
        argv: Sequence[str] | Callable[[], Sequence[str]],
        *,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
        keep: int = 2000,
        new_session: bool = False,
    ) -> None:
        self._argv = argv
        self.cwd = cwd
        self.env = dict(env) if env is not None else None
        self.keep = keep
        self.new_session = new_session  # its own process group (a ^C at the terminal reaches the tool, not it)
        self.proc: asyncio.subprocess.Process | None = None
        self.port = 0
        self.starts = 0
        self.lines: list[str] = []
        self._drains: list[asyncio.Task[None]] = []

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def argv(self) -> list[str]:
        return list(self._argv() if callable(self._argv) else self._argv)

    async def start(self, timeout: float = 60.0) -> float:
        """Spawn the server; return the seconds until it printed `listening on HOST:PORT`. ServerStartError if it
        exits or stays silent for `timeout` seconds (it is killed then)."""
        assert not self.running
        self.starts += 1
        run = self.starts
        began = time.perf_counter()
        proc = self.proc = await asyncio.create_subprocess_exec(
            *self.argv(),
            cwd=self.cwd,
            env=self.env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=self.new_session,
        )
        assert proc.stdout is not None and proc.stderr is not None
        self._drains.append(asyncio.create_task(self._drain(proc.stderr, run)))
        seen: list[str] = []
        try:
            async with asyncio.timeout(timeout):
                while True:
                    raw = await proc.stdout.readline()
                    if not raw:
                        await proc.wait()
                        await asyncio.sleep(0.05)  # let the stderr drain catch the last lines
                        raise ServerStartError(
                            f"the server (start #{run}) exited with status {proc.returncode} before listening; "
                            f"stdout: {seen!r}; stderr: {self.tail(run)}"
                        )
                    line = raw.decode(errors="replace").strip()
                    seen.append(line)
                    self._add(run, line)
                    if line.startswith("listening on "):
                        self.port = int(line.rsplit(":", 1)[1])
                        break
        except TimeoutError:
            await self.kill()
            raise ServerStartError(
                f"the server (start #{run}) did not print `listening on` within {timeout}s; stdout: {seen!r}; "
                f"stderr: {self.tail(run)}"
            ) from None
        self._drains.append(asyncio.create_task(self._drain(proc.stdout, run)))
        return time.perf_counter() - began

    def _add(self, run: int, line: str) -> None:
        self.lines.append(f"[{run}] {line}")
        if len(self.lines) > self.keep:
            del self.lines[: -self.keep]

    async def _drain(self, stream: asyncio.StreamReader, run: int) -> None:
        with contextlib.suppress(Exception):
            while raw := await stream.readline():
                self._add(run, raw.decode(errors="replace").rstrip())

    def tail(self, run: int | None = None, lines: int = 20) -> str:
        """The last lines the server printed (of one run, or of every run)."""
        picked = [s for s in self.lines if run is None or s.startswith(f"[{run}] ")]
        return "\n".join(picked[-lines:]) or "(empty)"

    async def kill(self) -> None:
        """SIGKILL: no shutdown code runs, exactly like a crash or an OOM kill."""
        proc = self.proc
        if proc is None:
            return
        send(proc, signal.SIGKILL)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(proc.wait(), 10)
        await self._finish_drains()

    async def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM, a clean shutdown; SIGKILL if it takes longer than `timeout` seconds."""
        proc = self.proc
        if proc is None:
            return
        if not await terminated(proc, timeout):
            await self.kill()
            return
        await self._finish_drains()

    async def _finish_drains(self) -> None:
        drains, self._drains = self._drains, []
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*drains, return_exceptions=True), 5)
