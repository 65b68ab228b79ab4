"""`dixit-tui serve`: run the SSH game server until SIGINT/SIGTERM."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from pathlib import Path

from dixit_tui.ssh.keys import HostKeyError
from dixit_tui.ssh.server import start_server
from dixit_tui.ssh.session import AppFactory, CommandHandler

logger = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: %(default)s)")
    parser.add_argument("--port", type=int, default=2222, help="port to listen on, 0 for any (default: %(default)s)")
    parser.add_argument("--keys-dir", type=Path, default=Path("keys"), help="host key folder (default: %(default)s)")
    parser.add_argument("--data-dir", type=Path, default=Path("data"), help="saved games folder (default: %(default)s)")
    parser.add_argument("--deck", action="append", default=[], metavar="FILE", help="extra deck file (repeatable)")
    parser.add_argument("--log-level", default="INFO", help="logging level (default: %(default)s)")


def build_app_factory(args: argparse.Namespace) -> AppFactory:
    """The one place that decides which app each PTY session gets (the lobby replaces the placeholder)."""
    from dixit_tui.ssh.placeholder import placeholder_app_factory

    return placeholder_app_factory


def build_command_handler(args: argparse.Namespace) -> CommandHandler | None:
    """Handler for sessions without a terminal; None answers with how to connect."""
    return None


def run(
    args: argparse.Namespace,
    app_factory: AppFactory | None = None,
    command_handler: CommandHandler | None = None,
) -> int:
    _configure_logging(str(getattr(args, "log_level", "INFO")))
    factory = app_factory or build_app_factory(args)
    handler = command_handler or build_command_handler(args)
    try:
        return asyncio.run(_serve(args, factory, handler))
    except HostKeyError as error:
        logger.error("%s", error)
        return 1
    except OSError as error:  # e.g. the port is taken
        logger.error("cannot listen on %s:%s: %s", args.host, args.port, error)
        return 1


async def _serve(args: argparse.Namespace, app_factory: AppFactory, handler: CommandHandler | None) -> int:
    acceptor = await start_server(args.host, args.port, args.keys_dir, app_factory, command_handler=handler)
    print(f"host key fingerprint: {acceptor.host_key_fingerprint} (ED25519)", flush=True)
    print(f"listening on {args.host}:{acceptor.port}", flush=True)

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
        logger.info("shutting down")
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        await acceptor.shutdown(timeout=5.0)
    return 0


def _configure_logging(level: str) -> None:
    logging.basicConfig(
        level=level.upper(),
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # asyncssh logs several INFO lines per connection; keep its warnings and errors only.
    logging.getLogger("asyncssh").setLevel(max(logging.WARNING, logging.getLogger().level))
