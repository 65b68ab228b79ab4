"""The JSON Schema (draft 2020-12) of protocol v1, for tests and for anyone writing a client.

    from dixit_tui.protocol.schema import validate_message
    validate_message({"cmd": "vote", "slots": [4]})      # a command: checked strictly
    validate_message({"type": "voided", "turn": 3})     # a server message: may carry more fields

The schema file is `dixit_tui/protocol/schema/protocol-v1.schema.json` (package data); docs/protocol.md explains
every message. `jsonschema` is only needed to validate, not to run the server: `pip install 'dixit-tui[client]'`.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

SCHEMA_FILE = "protocol-v1.schema.json"


@cache
def _schema_text() -> str:
    return resources.files("dixit_tui.protocol").joinpath("schema", SCHEMA_FILE).read_text(encoding="utf-8")


def load_schema() -> dict[str, Any]:
    """The whole schema: a top-level oneOf of a server message (by "type") and a client command (by "cmd")."""
    schema: dict[str, Any] = json.loads(_schema_text())
    return schema


def _jsonschema() -> None:
    try:
        import jsonschema  # noqa: F401
    except ModuleNotFoundError as err:
        raise ModuleNotFoundError(
            "validate_message needs the jsonschema package: pip install 'dixit-tui[client]'", name="jsonschema"
        ) from err


@cache
def _validator(part: str | None) -> Any:
    _jsonschema()
    from jsonschema import Draft202012Validator

    schema = load_schema()
    if part is not None:  # the same $defs, with one direction at the top for sharper error messages
        schema = {key: value for key, value in schema.items() if key != "oneOf"}
        schema["$ref"] = f"#/$defs/{part}"
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def validate_message(msg: Any) -> None:
    """Raise jsonschema.ValidationError unless `msg` is a valid server message or client command.

    A dict with "type" is checked as a server message, one with "cmd" (and no "type") as a command, so the error
    raised names the field at fault rather than "is not valid under any of the given schemas"."""
    _jsonschema()
    from jsonschema.exceptions import best_match

    if isinstance(msg, dict) and "type" in msg and "cmd" not in msg:
        validator = _validator("ServerMessage")
    elif isinstance(msg, dict) and "cmd" in msg and "type" not in msg:
        validator = _validator("ClientCommand")
    else:
        validator = _validator(None)
    error = best_match(validator.iter_errors(msg))
    if error is not None:
        raise error
