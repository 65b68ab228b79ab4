"""The benchmark's progress lines, on stderr (the report or its JSON goes to stdout)."""

from __future__ import annotations

import sys


def progress(text: str) -> None:
    print(f"[bench] {text}", file=sys.stderr, flush=True)
