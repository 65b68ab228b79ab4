"""`--profile FILE`: py-spy recording the server during play (`py-spy record --format raw`), and the hotspots of
what it wrote: each function's share of the samples, by itself and with what it calls."""

from __future__ import annotations

import asyncio
import re
import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import Any


def start_profiler(pid: int | None, path: str, duration: float, warnings: list[str]) -> asyncio.Task[Any] | None:
    """py-spy recording process `pid` into `path` for about `duration` seconds; None (and a warning) without it."""
    if pid is None:
        warnings.append("--profile needs the server's pid")
        return None
    exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(exe).exists():
        warnings.append("--profile: py-spy is not installed (pip install py-spy)")
        return None
    seconds = max(1, int(duration) - 1)
    cmd = [exe, "record", "--format", "raw", "-o", path, "--pid", str(pid)]
    cmd += ["--duration", str(seconds), "--rate", "100", "--nonblocking"]

    async def record() -> Any:
        proc = await asyncio.create_subprocess_exec(
            *cmd, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE
        )
        _, err = await proc.communicate()
        return proc.returncode, err.decode(errors="replace")

    return asyncio.create_task(record())


async def finish_profiler(task: asyncio.Task[Any] | None, path: str, warnings: list[str]) -> dict[str, Any] | None:
    """The hotspots of the recording, once py-spy is done; None (and a warning) if it failed."""
    if task is None:
        return None
    code, err = await task
    if code != 0:
        warnings.append(f"py-spy failed ({code}): {err.strip()[-300:]}")
        return None
    return hotspots(Path(path))


def hotspots(path: Path, top: int = 15) -> dict[str, Any]:
    """Self and inclusive shares of the functions in a py-spy raw (collapsed stacks) file (idle workers left out)."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    modules: Counter[str] = Counter()
    total = 0
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [f for f in stack.split(";") if f]
        if not frames or _IDLE.search(frames[-1]):
            continue
        total += count
        own[_short(frames[-1])] += count
        modules[_module(frames[-1])] += count
        for name in {_short(f) for f in frames}:
            if not _WRAPPER.search(name):
                inclusive[name] += count

    def share(counter: Counter[str]) -> list[list[Any]]:
        return [[name, round(n / total * 100.0, 1)] for name, n in counter.most_common(top)] if total else []

    return {"samples": total, "self": share(own), "inclusive": share(inclusive), "self_by_package": share(modules)}


# A thread-pool worker waiting for work (py-spy may count it as active).
_IDLE = re.compile(r"^_worker \(concurrent/futures/thread\.py:\d+\)$")

# Frames every sample goes through (the event loop, the entry point, Textual's callback plumbing): left out of the
# inclusive list, which would otherwise start with a dozen 90-100% lines that say nothing.
_WRAPPER = re.compile(
    r"\((asyncio/(base_events|events|runners)\.py|<frozen runpy>|dixit_tui/(__main__|cli)\.py|"
    r"dixit_tui/ssh/serve\.py|textual/_callback\.py|textual/message_pump\.py)\)"
)


def _short(frame: str) -> str:
    """`render (textual/widget.py:123)` -> `render (textual/widget.py)`; site-packages paths are cut."""
    frame = re.sub(r":\d+\)$", ")", frame.strip())
    return re.sub(r"\(.*?(?:site-packages|lib/python3\.\d+)/", "(", frame)


def _module(frame: str) -> str:
    match = re.search(r"\((.*?)\)", _short(frame))
    if not match:
        return frame
    path = match.group(1)
    parts = path.split("/")
    if parts[0] in ("asyncio", "selectors.py", "json", "re", "logging", "sqlite3", "threading.py"):
        return "stdlib:" + parts[0]
    return parts[0] if len(parts) > 1 else path
