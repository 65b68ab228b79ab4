"""`serve --metrics-port`: Prometheus metrics and a health check on their own loopback port, scraped over HTTP from a
real `dixit-tui serve` while a headless player plays; `ssh HOST health`; a clear refusal without prometheus-client."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import connect
from tests.e2e.json_client import JsonClient
from tests.e2e.metrics_http import http_get, samples
from tests.e2e.serve_process import serve_saying

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90), pytest.mark.same_on_two_workers]


async def test_metrics_scraped_over_http_count_what_the_server_does(tmp_path: Path) -> None:
    async with serve_saying(tmp_path, "--metrics-port", "0") as served:
        metrics_line = next(line for line in served.said if line.startswith("metrics on "))
        assert metrics_line.startswith("metrics on http://127.0.0.1:"), served.said
        metrics_port = int(metrics_line.rsplit(":", 1)[1].split("/")[0])
        port = served.port

        status, before = await http_get(metrics_port, "/metrics")
        assert status == 200
        assert samples(before)[("dixit_tables", (("status", "lobby"),))] == 0

        ana = await JsonClient.open(port, "ana")
        code = await ana.create()
        ana.send({"cmd": "vote", "slots": [1], "ref": "early"})  # refused: the game has not started
        await ana.wait_for(lambda m: m.get("ref") == "early" and m.get("type") == "error")

        status, text = await http_get(metrics_port, "/metrics")
        assert status == 200
        got = samples(text)
        assert got[("dixit_connections", ())] == 1
        assert got[("dixit_sessions", (("kind", "json"),))] == 1
        assert got[("dixit_sessions", (("kind", "terminal"),))] == 0
        assert got[("dixit_tables", (("status", "lobby"),))] == 1
        assert got[("dixit_sessions_following", ())] == 0  # (no spectator: nobody shares a drawing)
        assert got[("dixit_actions_total", (("action", "create"),))] == 1
        assert got[("dixit_actions_total", (("action", "join"),))] == 1
        assert got[("dixit_refusals_total", (("reason", "not_started"),))] == 1
        assert got[("dixit_update_seconds_count", ())] >= 1
        assert got[("dixit_redis_round_trips_total", ())] == 0  # (SQLite here)
        assert got[("process_resident_memory_bytes", ())] > 0

        status, body = await http_get(metrics_port, "/health")
        assert (status, body) == (200, "ok: 1 table, 1 client in the game\n")
        assert (await http_get(metrics_port, "/nothing"))[0] == 404

        conn = await connect(port, "ops")
        result = await conn.run("health", check=False)
        assert (result.exit_status, result.stdout) == (0, "ok: 1 table, 1 client in the game\n"), code
        conn.close()
        await ana.close()


def test_metrics_without_the_library_is_a_clear_usage_error() -> None:
    code = (
        "import sys; sys.modules['prometheus_client'] = None; from dixit_tui.cli import main; "
        "sys.exit(main(['serve', '--metrics-port', '9100']))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2, out.stderr
    assert "--metrics-port needs the prometheus-client package: pip install 'dixit-tui[metrics]'" in out.stderr
    assert "Traceback" not in out.stderr
