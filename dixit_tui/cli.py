"""The `dixit-tui` command line: each subcommand lives in the module that owns it and is imported only when run."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# subcommand -> (module, help). The module has `run(args) -> int` and may have `add_arguments(parser)`.
COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("dixit_tui.ssh.serve", "run the SSH game server"),
    "simulate": ("dixit_tui.simulate", "play random legal games through the engine and print statistics"),
    "replay": ("dixit_tui.replay", "print the transcript of a saved game"),
    "bot": ("dixit_tui.bots.cli", "seat bots at a table of a dixit-tui server, over SSH"),
    "bench": ("dixit_tui.bench.load", "load-test a server over SSH (bots + terminals): latency, memory, CPU"),
    "killtest": (
        "dixit_tui.bench.killtest",
        "kill a real server at random moments during bot games; check nothing acknowledged is lost",
    ),
}


def _top_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dixit-tui",
        description="Dixit, played in the terminal over SSH.",
        epilog="commands:\n" + "\n".join(f"  {n:<10} {h}" for n, (_, h) in COMMANDS.items()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument("command", nargs="?", help="one of the commands below")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in COMMANDS:
        name = args[0]
        module_name, help_text = COMMANDS[name]
        module = importlib.import_module(module_name)
        parser = argparse.ArgumentParser(prog=f"dixit-tui {name}", description=help_text)
        add = getattr(module, "add_arguments", None)
        if add is not None:
            add(parser)
        try:
            return int(module.run(parser.parse_args(args[1:])) or 0)
        except BrokenPipeError:  # e.g. `dixit-tui simulate | head -1`
            sys.stderr.close()
            return 0
    top = _top_parser()
    parsed = top.parse_args(args)
    if parsed.version:
        from dixit_tui import __version__

        print(f"dixit-tui {__version__}")
        return 0
    if parsed.command:
        print(
            f"dixit-tui: unknown command {parsed.command!r}. Try one of: {', '.join(COMMANDS)}.",
            file=sys.stderr,
        )
    else:
        top.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
