"""`dixit-tui serve`'s settings from a TOML file and from `DIXIT_TUI_*` environment variables, under its flags (a flag
wins over the environment, which wins over the file; repeatable options add up). The rules, with examples, are in
docs/operations.md ("One data folder, and the settings"). An unknown name or a wrong value is a usage error.
"""

from __future__ import annotations

import argparse
import os
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dixit_tui.usage import UsageError

PREFIX = "DIXIT_TUI_"
CONFIG_ENV = PREFIX + "CONFIG"
LIMIT_ENV = PREFIX + "LIMIT_"
ALIASES = {PREFIX + "DATA": "data_dir"}  # the short name the docs use, besides DIXIT_TUI_DATA_DIR
TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off"}


def configure(parser: argparse.ArgumentParser, argv: Sequence[str], environ: Mapping[str, str] | None = None) -> None:
    """Set `parser`'s defaults from the config file (named by `--config` in `argv` or by DIXIT_TUI_CONFIG) and from
    the environment, so that parsing `argv` then lets its flags win. Raises UsageError for a bad file or value."""
    env = os.environ if environ is None else environ
    options = _settable(parser)
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--config", type=Path)
    path: Path | None = pre.parse_known_args(list(argv))[0].config
    if path is None and env.get(CONFIG_ENV):
        path = Path(env[CONFIG_ENV])
    values: dict[str, Any] = {}
    if path is not None:
        values.update(_from_file(path, options))
    for dest, value in _from_env(env, options).items():
        action = options[dest]
        if isinstance(action, argparse._AppendAction):
            values[dest] = [*values.get(dest, []), *value]
        else:
            values[dest] = value
    values["config"] = path
    parser.set_defaults(**values)


def _settable(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {
        action.dest: action
        for action in parser._actions
        if action.option_strings and action.help != argparse.SUPPRESS and action.dest not in ("help", "config")
    }


def _from_file(path: Path, options: dict[str, argparse.Action]) -> dict[str, Any]:
    try:
        with path.open("rb") as file:
            data = tomllib.load(file)
    except OSError as err:
        raise UsageError(f"cannot read the config file {path}: {err.strerror}") from err
    except tomllib.TOMLDecodeError as err:
        raise UsageError(f"{path} is not valid TOML: {err}") from err
    base = path.resolve().parent
    values: dict[str, Any] = {}
    for key, raw in data.items():
        where = f"{path}: {key}"
        if key in ("limits", "limit") and isinstance(raw, dict):
            items = [f"{name}={_plain(value, where)}" for name, value in raw.items()]
            values["limit"] = [*values.get("limit", []), *items]
            continue
        dest = key.replace("-", "_")
        if dest not in options:
            known = ", ".join(sorted(o.replace("_", "-") for o in options))
            raise UsageError(f"{path}: unknown setting {key!r}; settings: {known}, and a [limits] table")
        action = options[dest]
        if isinstance(action, argparse._AppendAction):
            items = raw if isinstance(raw, list) else [raw]
            values[dest] = [_convert(action, item, where, base) for item in items]
        elif isinstance(action, argparse._StoreTrueAction):
            if not isinstance(raw, bool):
                raise UsageError(f"{where} takes true or false, not {raw!r}")
            values[dest] = raw
        else:
            values[dest] = _convert(action, raw, where, base)
    return values


def _from_env(env: Mapping[str, str], options: dict[str, argparse.Action]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    names = {PREFIX + dest.upper(): dest for dest in options if dest != "limit"}
    for name, dest in [*ALIASES.items(), *names.items()]:  # DIXIT_TUI_DATA_DIR wins over DIXIT_TUI_DATA
        raw = env.get(name)
        if raw is None or raw == "" or dest not in options:
            continue
        action = options[dest]
        if isinstance(action, argparse._AppendAction):
            values[dest] = [_convert(action, item, name, None) for item in raw.split(os.pathsep) if item]
        elif isinstance(action, argparse._StoreTrueAction):
            if raw.lower() not in TRUE | FALSE:
                raise UsageError(f"{name} takes 1 or 0 (yes/no, true/false), not {raw!r}")
            values[dest] = raw.lower() in TRUE
        else:
            values[dest] = _convert(action, raw, name, None)
    if "limit" in options:
        limits = [
            f"{name[len(LIMIT_ENV) :].lower()}={raw}" for name, raw in sorted(env.items()) if name.startswith(LIMIT_ENV)
        ]
        if limits:
            values["limit"] = limits
    return values


def _plain(value: Any, where: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise UsageError(f'{where}: a limit is a number (or a size like "300x100"), not {value!r}')
    return str(value)


def _convert(action: argparse.Action, raw: Any, where: str, base: Path | None) -> Any:
    """A value from the file or the environment, converted and checked as argparse does a flag's."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
        raise UsageError(f"{where}: expected a value like {action.metavar or action.dest.upper()}, not {raw!r}")
    kind = action.type
    try:
        value: Any = str(raw) if kind is None else Path(str(raw)) if kind is Path else kind(str(raw))  # type: ignore[operator]
    except (TypeError, ValueError, argparse.ArgumentTypeError) as err:
        raise UsageError(f"{where}: invalid value {raw!r} ({err})") from err
    if isinstance(value, Path) and base is not None:
        value = base / value.expanduser()
    if action.choices is not None and value not in action.choices:
        choices = ", ".join(map(str, action.choices))
        raise UsageError(f"{where}: invalid choice {raw!r} (choose from {choices})")
    return value
