"""The crash test's failure: what it found wrong, and where."""

from __future__ import annotations


class KillTestFailure(Exception):
    """A loss, a differing view, a server crash or a wait that timed out. The message says which and where."""
