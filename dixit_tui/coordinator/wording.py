"""Words the coordinator's messages share."""

from __future__ import annotations

NO_BOTS = "This server has no built-in bots: invite people to play instead."


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def and_list(items: list[str]) -> str:
    """`ana`, `ana and ben`, `ana, ben and cy`."""
    return " and ".join([", ".join(items[:-1]), items[-1]] if len(items) > 1 else items)


def duration(seconds: float) -> str:
    """`seconds` in words: "10 minutes", "90 seconds"."""
    if seconds >= 60 and seconds % 60 == 0:
        return plural(int(seconds // 60), "minute")
    return plural(max(1, round(seconds)), "second")
