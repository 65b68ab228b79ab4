"""A Strip's seven small caches made when first used, not when the strip is made.

Textual gives every `Strip` (one line of a widget or of a frame) seven `FIFOCache`s at construction (crop, divide,
style, filter, line length, crop-extend, offsets): fourteen objects for the garbage collector to track per line, and
seven Python calls. Most strips are never cropped, divided or styled: a joining session's first screen made about 900
such caches that stayed empty (the largest kind of object it added), and each update made more. Here a new strip holds
none of them; the first read of one (`Strip.__getattr__`, called by Python only for an attribute not set yet) makes
it, with the size Textual gives it, so every user of a cache (Textual's methods, `textual_host/strip_filter.py`) works
as before.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.segment import Segment
from textual.cache import FIFOCache
from textual.strip import Strip

SIZES = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}
"""Each cache of a Strip and its size, as `Strip.__init__` makes them (textual 8.2.8)."""

made = 0
"""Caches made (first used) since the process started: for tests."""

_installed = False


def make_strip_caches_lazily() -> None:
    """Idempotent. Every Strip of the process made from now on."""
    global _installed
    if _installed:
        return

    def lazy_init(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
        self._segments = list(segments)
        self._cell_length = cell_length
        self._render_cache = None
        self._link_ids = None
        self._cell_count = None

    def make_cache(self: Strip, name: str) -> FIFOCache[object, object]:
        global made
        size = SIZES.get(name)
        if size is None:
            raise AttributeError(f"'Strip' object has no attribute {name!r}")
        made += 1
        cache: FIFOCache[object, object] = FIFOCache(size)
        setattr(self, name, cache)
        return cache

    Strip.__init__ = lazy_init  # type: ignore[method-assign]
    Strip.__getattr__ = make_cache  # type: ignore[attr-defined]
    _installed = True
