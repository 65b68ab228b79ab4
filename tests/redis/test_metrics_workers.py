"""`serve --redis URL --workers 2 --metrics-port P`: each worker serves its own metrics (worker K on P+K-1), says where,
and counts its own connections; /health at each answers for the shared Redis."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.harness import connect
from tests.e2e.metrics_http import http_get, samples
from tests.e2e.serve_process import serve_saying
from tests.redis_server import RedisServer, free_port

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


async def test_each_worker_serves_its_own_metrics(redis_server: RedisServer, tmp_path: Path) -> None:
    metrics_port = free_port()
    options = ("--redis", redis_server.url, "--workers", "2", "--keys-dir", str(tmp_path / "keys"))
    async with serve_saying(None, *options, "--metrics-port", str(metrics_port)) as served:
        ports = sorted(
            int(m.group(1)) for line in served.said if (m := re.search(r"metrics on http://127\.0\.0\.1:(\d+)/", line))
        )
        assert ports == [metrics_port, metrics_port + 1], served.said
        port = served.port

        conn = await connect(port, "ana")
        connections = 0.0
        for metrics in ports:
            status, text = await http_get(metrics, "/metrics")
            assert status == 200
            connections += samples(text)[("dixit_connections", ())]
            assert await http_get(metrics, "/health") == (200, "ok: 0 tables, 0 clients in the game\n")
        assert connections == 1  # the kernel gave ana's connection to one of the two
        conn.close()
