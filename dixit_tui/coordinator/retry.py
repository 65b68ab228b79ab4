"""Changes made again when they lose a race: tables shared with other workers (`shared`) refuse a change decided
against a state another worker changed first (error code "conflict", rolled back, nothing partial). The change is
made again from the start, against the table's new state, up to `CONFLICT_TRIES` times in all; then the conflict is
the answer. One process alone never conflicts, so its changes run once."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from dixit_tui.coordinator.errors import TableError
from dixit_tui.engine import ErrorCode

CONFLICT_TRIES = 4
"""How many times in all a change is made before a conflict is the answer."""

_T = TypeVar("_T")
_Method = TypeVar("_Method", bound=Callable[..., Coroutine[Any, Any, Any]])


async def retrying(
    change: Callable[[], Awaitable[_T]],
    *,
    unless: Callable[[], bool] = lambda: False,
    between: Callable[[], Awaitable[None]] | None = None,
) -> _T:
    """Run `change` until it does not lose a race, `CONFLICT_TRIES` times at most. `unless`: a conflict is the answer
    at once when it says so (a move decided on a version the client named is not decided again for it). `between`:
    what to do before a try again (catch the table up, when the change runs under a lock already taken)."""
    for attempt in range(1, CONFLICT_TRIES + 1):
        try:
            return await change()
        except TableError as err:
            if err.code != ErrorCode.CONFLICT or attempt == CONFLICT_TRIES or unless():
                raise
        if between is not None:
            await between()
    raise AssertionError("unreachable")


def retry_on_conflict(method: _Method) -> _Method:
    """The method, made again from the start when it loses a race (`retrying`)."""

    @functools.wraps(method)
    async def retried(*args: Any, **kwargs: Any) -> Any:
        return await retrying(lambda: method(*args, **kwargs))

    return retried  # type: ignore[return-value]
