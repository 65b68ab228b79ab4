"""Who sits where in the load: the sessions split across the tables, and each table's bots and terminals."""

from __future__ import annotations


def composition(sessions: int, tables: int, terminals_share: float | None) -> list[tuple[int, int]]:
    """(bots, terminals) per table. By default 3 to 5 bots per table (3, 4, 5, 3, ...), the rest terminals; with a
    share, that share of each table's sessions are terminals (rounded, at least 1), the rest bots (at least 3)."""
    out = []
    for i, n in enumerate(split(sessions, tables)):
        share = terminals_share
        bots = min(3 + i % 3, n - 1) if share is None else n - max(1, min(n - 3, round(n * share)))
        out.append((bots, n - bots))
    return out


def split(total: int, parts: int) -> list[int]:
    base, extra = divmod(total, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]
