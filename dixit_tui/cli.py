"""The `dixit-tui` command line: each subcommand lives in the module that owns it and is imported lazily."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# subcommand -> (module, function taking the parsed args and returning an exit status, help)
_COMMANDS: dict[str, tuple[str, str, str]] = {
    "serve": ("dixit_tui.ssh.serve", "run", "run the SSH game server"),
    "simulate": ("dixit_tui.engine.simulate", "run", "play random legal games through the engine"),
}


def _add_arguments(name: str, parser: argparse.ArgumentParser) -> None:
    module, _, _ = _COMMANDS[name]
    add = getattr(importlib.import_module(module), "add_arguments", None)
    if add is not None:
        add(parser)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dixit-tui", description="Dixit, played in the terminal over SSH.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, _, help_text) in _COMMANDS.items():
        _add_arguments(name, sub.add_parser(name, help=help_text, description=help_text))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        from dixit_tui import __version__

        print(f"dixit-tui {__version__}")
        return 0
    if not args.command:
        parser.print_help()
        return 2
    module, function, _ = _COMMANDS[args.command]
    result = getattr(importlib.import_module(module), function)(args)
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
