"""The bot command's seats file (`bots/seat_codes.py`): shared by many bot commands at once (a league starts
several), it keeps every command's entry, and stays readable by its owner only."""

from __future__ import annotations

import multiprocessing
import stat
from pathlib import Path

from dixit_tui.bots.seat_codes import SeatCodes

WRITERS = 6
EACH = 25


def write_many(path: str, writer: int) -> None:
    codes = SeatCodes(Path(path))
    for n in range(EACH):
        codes.put("host", f"T{writer}", f"bot{n}", f"code-{writer}-{n}")


def test_bot_commands_writing_the_file_at_once_lose_no_entry(tmp_path: Path) -> None:
    path = tmp_path / "state" / "bot-seats.json"
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=write_many, args=(str(path), w)) for w in range(WRITERS)]
    for process in writers:
        process.start()
    for process in writers:
        process.join(60)
        assert process.exitcode == 0
    codes = SeatCodes(path)
    missing = [
        (w, n) for w in range(WRITERS) for n in range(EACH) if codes.get("host", f"T{w}", f"bot{n}") != f"code-{w}-{n}"
    ]
    assert not missing, f"{len(missing)} of {WRITERS * EACH} entries lost"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not list(path.parent.glob("*.part")), "a temporary file was left behind"
