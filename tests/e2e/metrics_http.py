"""The server's metrics and health over HTTP, read as a scraper would."""

from __future__ import annotations

import asyncio

from prometheus_client.parser import text_string_to_metric_families


async def http_get(port: int, path: str) -> tuple[int, str]:
    """GET http://127.0.0.1:port/path (HTTP/1.1, the server closes): (status, body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    raw = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head, _, body = raw.decode().partition("\r\n\r\n")
    return int(head.split(" ", 2)[1]), body


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }
