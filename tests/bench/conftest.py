"""The bench tests' one real `dixit-tui bench` run, shared by the session (tests/bench/bench_run.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bench.bench_run import run_bench


@pytest.fixture(scope="session")
def bench_run() -> dict[str, Any]:
    pytest.importorskip("pyte")
    return run_bench()
