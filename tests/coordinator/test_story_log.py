"""The log tells each table's story: created, a player gone before the start, a new host, started, a player removed,
over, closed; every line names the table's code, and its facts are fields of the record (for JSON logs)."""

from __future__ import annotations

import json
import logging
import subprocess
import sys

import pytest

from tests.tui.table_play import open_table, play_to_the_end, view_of


async def test_a_game_told_in_the_log_from_creation_to_close(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="dixit_tui.tables")
    ana, ben, cara, dev, eve, _fay = await open_table(["ana", "ben", "cara", "dev", "eve", "fay"], first="random")
    code = view_of(ana).code
    await ana.remove(5)  # fay, before the start
    await ana.leave()  # the host leaves: ben is the host now
    await ben.start()
    await ben.remove(view_of(eve).you or 0)  # eve, during the game (eve is taken to the lobby)
    players = [ben, cara, dev]
    await play_to_the_end(players)
    for session in players:
        await session.leave()

    records = [r for r in caplog.records if r.name == "dixit_tui.tables"]
    told = [(getattr(r, "event", None), r.getMessage()) for r in records]
    events = [event for event, _ in told]
    # once the game is over, each host who leaves hands over to one still there (ben to cara, cara to dev)
    story = ["created", "removed", "left", "host", "started", "removed", "over", "host", "host", "closed"]
    assert events == story, told
    assert all(getattr(r, "table", None) == code and code in r.getMessage() for r in records), told
    by_event = {getattr(r, "event", None): r for r in records}
    assert getattr(by_event["left"], "player", None) == "ana"
    hosts = [getattr(r, "host", None) for r in records if getattr(r, "event", None) == "host"]
    assert hosts == ["ben", "cara", "dev"]
    assert getattr(by_event["started"], "players", None) == ["ben", "cara", "dev", "eve"]
    removed = [
        (getattr(r, "player", None), getattr(r, "by", None)) for r in records if events[records.index(r)] == "removed"
    ]
    assert removed == [("fay", "host"), ("eve", None)]
    over = by_event["over"]
    assert set(getattr(over, "scores", {})) == {"ben", "cara", "dev", "eve"} and getattr(over, "winners", None)


def test_json_log_lines_carry_the_table_fields() -> None:
    """`serve --log-format json`: one JSON object a line, the record's fields as keys (what a log shipper reads)."""
    code = (
        "import logging; from dixit_tui.log_setup import configure_logging; configure_logging('info', 'json');"
        "logging.getLogger('dixit_tui.tables').info('%s', 'table ABCD started: a, b', "
        "extra={'table': 'ABCD', 'event': 'started', 'players': ['a', 'b']})"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    line = json.loads(out.stderr.strip())
    assert line["level"] == "INFO" and line["logger"] == "dixit_tui.tables" and line["time"]
    assert line["message"] == "table ABCD started: a, b"
    assert (line["table"], line["event"], line["players"]) == ("ABCD", "started", ["a", "b"])


def test_serve_takes_only_the_known_log_levels() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "dixit_tui", "serve", "--log-level", "LOUD"], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2 and "invalid choice: 'LOUD'" in out.stderr and "Traceback" not in out.stderr
