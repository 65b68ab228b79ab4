"""Counting work in tests (never timing it): Python calls made inside a block, and methods wrapped for the length of
a block so that counters can see them."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType, TracebackType
from typing import Any


class PythonCalls:
    """`with PythonCalls() as counted:` counts in `counted.calls` the Python functions called inside the block, in
    this thread (C functions not counted; awaited work of other tasks that runs meanwhile is counted too)."""

    def __init__(self) -> None:
        self.calls = 0

    def _profile(self, frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            self.calls += 1

    def __enter__(self) -> PythonCalls:
        sys.setprofile(self._profile)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        sys.setprofile(None)
        self.calls -= 1  # (this method itself)


@contextmanager
def wrapped_methods() -> Iterator[Callable[[type, str, Callable[[Any], Any]], None]]:
    """Inside the block, `wrap(cls, name, make)` replaces the method `name` of `cls` with `make(original)`; every
    method wrapped is put back, in reverse order, when the block ends."""
    saved: list[tuple[type, str, Any]] = []

    def wrap(cls: type, name: str, make: Callable[[Any], Any]) -> None:
        original = cls.__dict__[name]
        saved.append((cls, name, original))
        setattr(cls, name, make(original))

    try:
        yield wrap
    finally:
        for cls, name, original in reversed(saved):
            setattr(cls, name, original)


class Calls:
    """`Calls(obj, "name")` counts in `.count` the calls of the real object's method `name` from now on (the method
    still runs, with the same arguments and result): what a product module once counted for its tests, counted from
    the test's side. Only calls that look the method up on the object are seen (`obj.name(...)`), not a bound method
    kept from before."""

    def __init__(self, obj: object, name: str) -> None:
        self.count = 0
        real = getattr(obj, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return real(*args, **kwargs)

        setattr(obj, name, counted)
