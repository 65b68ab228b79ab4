"""The `dixit-tui` command line: argparse sub-commands, each living in the module that owns it and imported only when
it runs (or when its help is asked for).

    dixit-tui serve --port 2222      dixit-tui serve --help      dixit-tui help serve      dixit-tui -h serve

A command's module has `run(args) -> int` and may have `add_arguments(parser)`. A `UsageError` raised by `run` is
printed like argparse's own errors (the usage line, then the reason) with exit status 2.

Tab completion of commands and options, with the [completion] extra (argcomplete):
`eval "$(register-python-argcomplete dixit-tui)"` (docs/operations.md).
"""

from __future__ import annotations

import argparse
import importlib
import os
import shlex
import sys
from collections.abc import Sequence

from dixit_tui.usage import UsageError

# subcommand -> (module, help).
COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("dixit_tui.serve", "run the SSH game server"),
    "simulate": ("dixit_tui.simulate", "play random legal games through the engine and print statistics"),
    "replay": ("dixit_tui.replay", "print the transcript of a saved game"),
    "prune": ("dixit_tui.prune", "delete the saved games past their retention (finished and abandoned games)"),
    "league": ("dixit_tui.league_cli", "play many games between bot strategies in this process and rate them"),
    "ratings": ("dixit_tui.ratings_cli", "rebuild the ratings from the saved game results and print the leaderboard"),
    "bot": ("dixit_tui.bots.cli", "seat bots at a table of a dixit-tui server, over SSH"),
    "bench": ("dixit_tui.bench.cli", "load-test a server over SSH (bots + terminals): latency, memory, CPU"),
    "killtest": (
        "dixit_tui.bench.killtest",
        "kill a real server at random moments during bot games; check nothing acknowledged is lost",
    ),
}
HELP = ("-h", "--help")


def _parsers(
    chosen: str | None, rest: Sequence[str]
) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The top parser and one sub-parser per command; only the `chosen` command's module is imported (to add its
    options, and their defaults from its `configure(parser, rest)` if it has one: a config file, the environment),
    so `dixit-tui help` and the top help stay quick."""
    top = argparse.ArgumentParser(prog="dixit-tui", description="Dixit, played in the terminal over SSH.")
    top.add_argument("--version", action="store_true", help="print the version and exit")
    sub = top.add_subparsers(dest="_command", title="commands", metavar="COMMAND")
    parsers: dict[str, argparse.ArgumentParser] = {}
    for name, (module_name, help_text) in COMMANDS.items():
        parser = sub.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            module = importlib.import_module(module_name)
            add = getattr(module, "add_arguments", None)
            if add is not None:
                add(parser)
            configure = getattr(module, "configure", None)
            if configure is not None:
                configure(parser, rest)
        parsers[name] = parser
    helper = sub.add_parser("help", help="show the help of a command, e.g. `dixit-tui help serve`")
    helper.add_argument("topic", nargs="?", metavar="COMMAND", help="one of: " + ", ".join(COMMANDS))
    parsers["help"] = helper
    return top, parsers


def _normalise(args: list[str]) -> list[str]:
    """`help CMD` and `-h CMD` (help first, then a command) mean `CMD --help`."""
    if args[:1] == ["help"] and len(args) == 2 and args[1] in COMMANDS:
        return [args[1], "--help"]
    if args[:1] and args[0] in HELP and len(args) >= 2 and args[1] in COMMANDS:
        return [args[1], "--help"]
    return args


def parse(argv: Sequence[str]) -> tuple[argparse.Namespace, dict[str, argparse.ArgumentParser]]:
    """The parsed command line (with a command's defaults from its config file and environment) and the parsers.
    argparse's own errors exit with status 2; a bad config file or variable raises UsageError."""
    args = _normalise(list(argv))
    at = next((i for i, a in enumerate(args) if not a.startswith("-")), None)
    chosen = args[at] if at is not None and args[at] in COMMANDS else None
    top, parsers = _parsers(chosen, args[at + 1 :] if chosen is not None and at is not None else [])
    parsers[""] = top
    return top.parse_args(args), parsers


def _complete() -> None:
    """When the shell asks for completions (argcomplete's `_ARGCOMPLETE`, with the [completion] extra installed):
    answer them and exit. The command being completed is read from the line typed so far, so its options are
    offered too (only that command's module is imported)."""
    if "_ARGCOMPLETE" not in os.environ:
        return
    try:
        import argcomplete
    except ImportError:
        return
    point = os.environ.get("COMP_POINT", "")
    line = os.environ.get("COMP_LINE", "")
    line = line[: int(point)] if point.isdigit() else line
    try:
        words = shlex.split(line)[1:]
    except ValueError:  # an open quote: the word being typed
        words = line.split()[1:]
    at = next((i for i, a in enumerate(words) if not a.startswith("-")), None)
    chosen = (
        words[at] if at is not None and words[at] in COMMANDS and (at < len(words) - 1 or line[-1:] == " ") else None
    )
    try:
        top, _ = _parsers(chosen, [])
    except UsageError:  # a bad config file: complete without the command's options
        top, _ = _parsers(None, [])
    argcomplete.autocomplete(top)


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        _complete()
    try:
        parsed, parsers = parse(sys.argv[1:] if argv is None else argv)
    except UsageError as error:  # a bad config file or environment variable
        print(f"dixit-tui: error: {error}", file=sys.stderr)
        return 2
    top = parsers[""]
    if parsed.version:
        from dixit_tui import __version__

        print(f"dixit-tui {__version__}")
        return 0
    name = parsed._command
    if name == "help":
        if parsed.topic is None:
            top.print_help()
            return 0
        parsers["help"].error(f"unknown command {parsed.topic!r} (choose from {', '.join(COMMANDS)})")
    if name is None:
        top.print_help(sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name][0])
    try:
        return int(module.run(parsed) or 0)
    except UsageError as error:
        parsers[name].print_usage(sys.stderr)
        print(f"{parsers[name].prog}: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `dixit-tui simulate | head -1`
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
