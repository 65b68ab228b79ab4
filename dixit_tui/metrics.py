"""`serve --metrics-port PORT`: the server's metrics in Prometheus' text format at /metrics, and /health, on a port of
their own (bound to 127.0.0.1 unless `--metrics-host` says otherwise).

Needs the prometheus-client package (`pip install 'dixit-tui[metrics]'`). What is measured now (connections, sessions,
tables) is read from the server when scraped; what is counted (actions, refusals, update latency, Redis round trips)
is kept by `dixit_tui.counts` whether metrics are served or not. The HTTP side is a few lines on the server's own
event loop, so a scrape reads the server's state between two of its steps, never in the middle of one."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Callable, Iterator

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, ProcessCollector, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

from dixit_tui.coordinator import Coordinator
from dixit_tui.coordinator.models import TableStatus
from dixit_tui.counts import COUNTS, UPDATE_BUCKETS, Counts
from dixit_tui.health import health
from dixit_tui.ssh import screen_cast

log = logging.getLogger(__name__)

REQUEST_TIMEOUT = 5.0
MAX_REQUEST = 8192


class ServerCollector(Collector):
    """The game server's metrics, read at each scrape."""

    def __init__(
        self, coordinator: Coordinator, connections: Callable[[], int], sessions: Callable[[], dict[str, int]]
    ) -> None:
        self.coordinator = coordinator
        self.connections = connections
        self.sessions = sessions
        self.counts: Counts = COUNTS

    def collect(self) -> Iterator[Metric]:
        yield GaugeMetricFamily("dixit_connections", "SSH connections open now", value=self.connections())
        sessions = GaugeMetricFamily("dixit_sessions", "Sessions running now, by kind", labels=["kind"])
        kinds = Counter({"terminal": 0, "json": 0, "command": 0, **self.sessions()})
        kinds["builtin_bot"] = sum(s.builtin_bot for s in self.coordinator.sessions)
        for kind, count in sorted(kinds.items()):
            sessions.add_metric([kind], count)
        yield sessions
        tables = GaugeMetricFamily("dixit_tables", "Open tables, by status", labels=["status"])
        statuses = Counter({str(status): 0 for status in TableStatus})
        statuses.update(str(table.status) for table in self.coordinator.tables.values())
        for status, count in sorted(statuses.items()):
            tables.add_metric([status], count)
        yield tables
        yield GaugeMetricFamily(
            "dixit_sessions_following",
            "Terminal sessions showing another session's drawing now (spectators of a table and size sharing one)",
            value=screen_cast.following(),
        )
        actions = CounterMetricFamily("dixit_actions", "Changes committed to tables, by action", labels=["action"])
        for action, count in sorted(self.counts.actions.items()):
            actions.add_metric([action], count)
        yield actions
        refusals = CounterMetricFamily(
            "dixit_refusals", "Refused commands (by error code) and refused connections (by why)", labels=["reason"]
        )
        for reason, count in sorted(self.counts.refusals.items()):
            refusals.add_metric([reason], count)
        yield refusals
        cumulative, buckets = 0, []
        for bound, count in zip([*map(str, UPDATE_BUCKETS), "+Inf"], self.counts.update_buckets, strict=True):
            cumulative += count
            buckets.append((bound, cumulative))
        yield HistogramMetricFamily(
            "dixit_update_seconds",
            "Time from a change at a table to every view of it handed on (commit included)",
            buckets=buckets,
            sum_value=self.counts.update_sum,
        )
        yield CounterMetricFamily(
            "dixit_redis_round_trips", "Commands (or pipelines) sent to Redis", value=self.counts.redis_round_trips
        )


def make_registry(
    coordinator: Coordinator, connections: Callable[[], int], sessions: Callable[[], dict[str, int]]
) -> CollectorRegistry:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(ServerCollector(coordinator, connections, sessions))
    ProcessCollector(registry=registry)  # memory, CPU time, open files of this process
    return registry


async def start_metrics_server(
    host: str,
    port: int,
    coordinator: Coordinator,
    connections: Callable[[], int],
    sessions: Callable[[], dict[str, int]],
) -> asyncio.Server:
    """Serve GET /metrics and GET /health on host:port (0: any free port; see the server's sockets)."""
    registry = make_registry(coordinator, connections, sessions)

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), REQUEST_TIMEOUT)
            method, path, *_ = [*head.split(b"\r\n", 1)[0].decode("latin-1").split(" "), "", ""]
            path = path.split("?", 1)[0]
            if method not in ("GET", "HEAD"):
                status, body, kind = "405 Method Not Allowed", b"GET only\n", "text/plain"
            elif path == "/metrics":
                status, body, kind = "200 OK", generate_latest(registry), CONTENT_TYPE_LATEST
            elif path == "/health":
                well, line = await health(coordinator)
                status, body, kind = ("200 OK" if well else "503 Service Unavailable"), line.encode(), "text/plain"
            else:
                status, body, kind = "404 Not Found", b"try /metrics or /health\n", "text/plain"
            writer.write(
                f"HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n".encode()
                + (body if method != "HEAD" else b"")
            )
            await writer.drain()
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ConnectionError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    return await asyncio.start_server(answer, host, port, limit=MAX_REQUEST)
