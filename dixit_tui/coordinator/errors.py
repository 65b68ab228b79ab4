"""Errors the coordinator raises for table-level requests; like the engine's, each has a code and a message."""

from __future__ import annotations

from dixit_tui.engine import ErrorCode, RuleError


class TableError(RuleError):
    """A request about tables, seats or chat that cannot be done. Nothing changed. Its code says which."""

    def __init__(self, message: str, code: ErrorCode) -> None:
        super().__init__(message, code)
