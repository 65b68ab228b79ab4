"""A usage error: a command given options it cannot run with (an unknown limit, a missing deck file, `--workers 2`
without `--redis`). `dixit-tui` prints it as argparse prints its own errors (the usage line, then the reason) and
exits with status 2, without a traceback or a log line."""

from __future__ import annotations


class UsageError(Exception):
    """Raised by a command's `run(args)` for options that cannot work together or name what does not exist."""
