"""The process-wide caches of drawn things (pictures, Content, the chat's rows, the styled lines), registered so
that `forget_shared` empties them all at once: tests count what is drawn from nothing. (Until issue 23 this was
line_cache.py, with `LineCached`, the text boxes' lines kept: 1.3% of a join's Python calls, tests/tui/patch_cost.py,
removed.)
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from textual.cache import LRUCache
from textual.strip import Strip


class _Clearable(Protocol):
    def clear(self) -> None: ...


_caches: list[_Clearable] = []

_Cache = TypeVar("_Cache", bound=_Clearable)


def shared_cache(maxsize: int) -> LRUCache[tuple[object, ...], list[Strip]]:
    """A process-wide cache of drawn lines (`forget_shared` empties it with the others)."""
    cache: LRUCache[tuple[object, ...], list[Strip]] = LRUCache(maxsize)
    _caches.append(cache)
    return cache


def forget_with_shared(cache: _Cache) -> _Cache:
    """`cache`, emptied by `forget_shared` with the others (a process-wide cache of other drawn things)."""
    _caches.append(cache)
    return cache


def forget_shared() -> None:
    """Empty every process-wide cache of drawn lines (tests count the lines drawn from nothing)."""
    for cache in _caches:
        cache.clear()
