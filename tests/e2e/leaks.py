"""For the leak tests' reports: what keeps a leftover object alive."""

from __future__ import annotations

import gc


def holders(kind: type, depth: int = 8) -> list[str]:
    """For a leak report: for each object of this kind, a chain of what keeps it alive (each link the first
    referrer that is not a list or a frame), so that the report says where to look."""
    chains: list[str] = []
    for item in [obj for obj in gc.get_objects() if isinstance(obj, kind)]:
        links, current, seen = [type(item).__name__], item, {id(item)}
        for _ in range(depth):
            refs = [
                r for r in gc.get_referrers(current) if id(r) not in seen and type(r).__name__ not in ("list", "frame")
            ]
            if not refs:
                break
            current = refs[0]
            seen.add(id(current))
            links.append(f"{type(current).__name__} {current!r:.120}")
        chains.append(" <- ".join(links))
    return chains
