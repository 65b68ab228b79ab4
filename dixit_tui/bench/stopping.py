"""Stopping the operator tools' child processes (the server, redis-server): the product's helpers (dixit_tui/
stopping.py, which `serve --workers` stops its workers with)."""

from __future__ import annotations

from dixit_tui.stopping import send, terminated

__all__ = ["send", "terminated"]
