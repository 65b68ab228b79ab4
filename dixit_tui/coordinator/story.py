"""The log lines that tell a table's story: created, started, over, closed, a player removed or gone, a new host.

Told from the records a change committed (`Coordinator.commit`), so a change that was rolled back is never told, and
each is told once across workers (by the worker that made it). Every line names the table's code; its facts are also
fields of the log record (`table`, `event`, ...), which `serve --log-format json` writes as keys of the line."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from dixit_tui.coordinator.models import mode_text
from dixit_tui.coordinator.table import Table
from dixit_tui.sanitize import log_text

log = logging.getLogger("dixit_tui.tables")


class Story:
    """One per coordinator: remembers each open table's host, to tell when the role passes on."""

    def __init__(self) -> None:
        self.hosts: dict[str, str] = {}

    def tell(self, table: Table[Any], records: Sequence[dict[str, Any]]) -> None:
        code = table.code
        for record in records:
            kind = record.get("t")
            if kind == "create":
                mode = mode_text(table.options.label())
                decks = "+".join(table.options.decks)
                _line(code, "created", f"table {code} created: {mode}, decks {decks}", mode=mode, decks=decks)
            elif kind == "unseat" and "name" in record:
                name, by = record["name"], record.get("by")
                if by is not None:
                    what = f"table {code}: {log_text(name)} removed by the {by} before the start"
                    _line(code, "removed", what, player=name, by=by)
                else:
                    _line(code, "left", f"table {code}: {log_text(name)} left the table before the start", player=name)
            elif kind == "events":
                self._events(table, record)
            elif kind == "closed":
                self.hosts.pop(code, None)
                _line(code, "closed", f"table {code} closed")
        if not any(r.get("t") == "closed" for r in records):
            self._host(table)

    def _events(self, table: Table[Any], record: dict[str, Any]) -> None:
        code = table.code
        for event in record.get("events", ()):
            kind = event.get("type")
            if kind == "GameStarted":
                names = list(event.get("names", ()))
                practice = " (with a practice turn)" if event.get("practice") else ""
                _line(
                    code, "started", f"table {code} started{practice}: {', '.join(map(log_text, names))}", players=names
                )
            elif kind == "PlayerRemoved" and table.game is not None:
                name = table.game.state.names[event["seat"]]
                _line(code, "removed", f"table {code}: {log_text(name)} removed from the game", player=name)
            elif kind == "GameEnded" and table.game is not None:
                state = table.game.state
                winners = [state.names[i] for i in event.get("winners", ())]
                scores = dict(zip(state.names, state.scores, strict=True))
                shown = ", ".join(f"{log_text(n)} {s}" for n, s in scores.items())
                _line(
                    code,
                    "over",
                    f"table {code} over: {' and '.join(map(log_text, winners)) or 'nobody'} won; scores {shown}",
                    winners=winners,
                    scores=scores,
                )

    def _host(self, table: Table[Any]) -> None:
        if not table.seats:
            return
        host = table.seats[table.host].name
        before = self.hosts.get(table.code)
        self.hosts[table.code] = host
        if before is not None and before != host:
            _line(
                table.code,
                "host",
                f"table {table.code}: {log_text(host)} is the host now (was {log_text(before)})",
                host=host,
            )


def _line(code: str, event: str, message: str, **fields: Any) -> None:
    log.info("%s", message, extra={"table": code, "event": event, **fields})
