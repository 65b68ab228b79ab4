"""The crash test's server: `dixit-tui serve` on its data dir (or on Redis), started again after each kill."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

from dixit_tui.bench import server
from dixit_tui.bench.killtest_failure import KillTestFailure
from dixit_tui.bench.server import serve_argv


class KillTestServer(server.ServerProcess):
    """`dixit-tui serve` on `data_dir` (or on Redis), started again after each kill; a start that fails raises
    KillTestFailure."""

    def __init__(
        self,
        keys_dir: Path,
        data_dir: Path,
        *,
        python: str = sys.executable,
        cwd: Path | None = None,
        snapshot_every: int | None = None,
        env: Mapping[str, str] | None = None,
        redis: str | None = None,
        workers: int | None = None,
    ) -> None:
        self.keys_dir = keys_dir
        self.data_dir = data_dir

        def argv() -> list[str]:
            return serve_argv(
                keys_dir, data_dir, python=python, snapshot_every=snapshot_every, redis=redis, workers=workers
            )

        super().__init__(argv, cwd=cwd, env=env)

    async def start(self, timeout: float = 30.0) -> float:
        try:
            return await super().start(timeout)
        except server.ServerStartError as err:
            raise KillTestFailure(str(err)) from None
