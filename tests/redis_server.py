"""A real `redis-server` on a loopback port with its own temporary folder, for the tests of the shared store.

The server runs with the settings docs/operations.md asks for (append-only file, fsync on every write), so a test
can kill it with SIGKILL and start it again on the same folder and port. Tests that need it skip, with the way to
install it, when the Debian package `redis-server` is missing (.ci/run installs it).
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from dixit_tui.bench.local_redis import free_port, redis_argv

REDIS_SERVER = shutil.which("redis-server")
needs_redis = pytest.mark.skipif(
    REDIS_SERVER is None, reason="redis-server is not installed: apt-get install redis-server"
)


class RedisServer:
    def __init__(self, folder: Path, port: int | None = None) -> None:
        self.folder = folder
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> None:
        assert REDIS_SERVER is not None
        self.folder.mkdir(parents=True, exist_ok=True)
        args = redis_argv(REDIS_SERVER, "127.0.0.1", self.port, self.folder)
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode}: see {self.folder}/redis.log")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1.0) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(64).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"redis-server did not answer on port {self.port} within {timeout} s")

    def kill(self) -> None:
        """SIGKILL: what a crash or a power cut does (the append-only file keeps what was acknowledged)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None
