"""One round trip to Redis for several commands: a pipeline, given back whatever happens."""

from __future__ import annotations

from typing import Any, cast


async def execute(pipe: Any) -> list[Any]:
    """`pipe.execute()`, then the pipeline gives its connection back also when checking its scripts with Redis
    failed or was cancelled (redis-py keeps the connection then, until the pipeline is collected)."""
    try:
        return cast(list[Any], await pipe.execute())
    finally:
        await pipe.reset()
