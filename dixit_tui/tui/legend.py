"""A legend's items packed into dim lines of a given width (the seats panel and the score track share it)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import cell_len
from textual.content import Content


def pack_legend(items: Iterable[str], width: int, separator: str) -> list[Content]:
    """`items` in order, joined by `separator` into as few lines of `width` cells as fit (an item is never split)."""
    out: list[Content] = []
    current = ""
    for item in items:
        if current and cell_len(current) + cell_len(separator) + cell_len(item) > width:
            out.append(Content.styled(current, "dim"))
            current = item
        else:
            current = f"{current}{separator}{item}" if current else item
    if current:
        out.append(Content.styled(current, "dim"))
    return out
