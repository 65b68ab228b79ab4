"""Work the server does on behalf of a table, started outside the context of whoever triggered it.

asyncio tasks and callbacks copy the current `contextvars` context. Started from a player's session, they would
carry that session's app (Textual's `active_app`): the SSH layer would charge the table's timers and bots to that
player's share of the loop (see `dixit_tui.textual_host.work_share`), and the task would keep the player's app alive
after they left. These helpers start them in a fresh, empty context instead.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def spawn(coro: Coroutine[Any, Any, T], *, name: str | None = None) -> asyncio.Task[T]:
    """`asyncio.create_task`, run in a fresh context (not the one of the session that started it)."""
    return asyncio.get_running_loop().create_task(coro, name=name, context=contextvars.Context())


def call_later(delay: float, callback: Callable[[], object]) -> asyncio.TimerHandle:
    """`loop.call_later`, run in a fresh context (not the one of the session that set it)."""
    return asyncio.get_running_loop().call_later(delay, callback, context=contextvars.Context())


def call_soon(callback: Callable[[], object]) -> asyncio.Handle:
    """`loop.call_soon`, run in a fresh context (not the one of the session that asked for it)."""
    return asyncio.get_running_loop().call_soon(callback, context=contextvars.Context())


def stopping() -> bool:
    """Whether the running task was asked to stop: a loop of it checks this each round, because a cancel that
    reaches it inside a Redis read can come out as a connection error (caught and logged, and the loop went on
    renewing what a stopped or crashed worker held)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0
