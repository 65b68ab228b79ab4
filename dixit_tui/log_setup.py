"""The server's logging: plain text lines (the default) or JSON lines for log shippers (`serve --log-format json`).

A JSON line holds the time, level, logger and message, and every field a log call added (`extra=`): the table
events of `coordinator.story` carry `table` and `event` this way."""

from __future__ import annotations

import logging
import sys

FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure_logging(level: str = "INFO", log_format: str = "text") -> None:
    """Log to stderr at `level` (DEBUG, INFO, WARNING, ERROR, CRITICAL), as text or JSON lines. Replaces the
    handlers set before."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(json_formatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    # asyncssh logs several INFO lines per connection; keep its warnings and errors only.
    logging.getLogger("asyncssh").setLevel(max(logging.WARNING, root.level))


def json_formatter() -> logging.Formatter:
    """One JSON object per line (python-json-logger): time, level, logger, message, and the record's extra fields."""
    from pythonjsonlogger.json import JsonFormatter

    return JsonFormatter(
        "{asctime}{levelname}{name}{message}",
        style="{",
        rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
        datefmt="%Y-%m-%dT%H:%M:%S%z",
    )
