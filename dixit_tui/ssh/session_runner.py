"""One SSH session: a Textual App for a PTY session, a command handler (or a short answer) otherwise.

The public types the game plugs into live here: SessionIdentity, AppFactory and CommandHandler.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import asyncssh
from rich.console import Console
from textual.driver import Driver

from dixit_tui.ssh.driver import SSHDriver
from dixit_tui.ssh.guard import LOG_RATE, SessionLimits
from dixit_tui.ssh.no_color import WithoutColor
from dixit_tui.ssh.terminal import TerminalInfo, build_terminal_info
from dixit_tui.textual_host.patches import install_textual_patches
from dixit_tui.textual_host.session_app import use_terminal_colours

if TYPE_CHECKING:
    from textual.app import App

logger = logging.getLogger(__name__)
logger.addFilter(LOG_RATE)


@dataclass(frozen=True)
class SessionIdentity:
    """Who is on the other end, bound once SSH authentication completed: `username` (the wanted nickname, untrusted),
    `key_fingerprint` (of the key the client PROVED it holds; None without one), `connection_id` (unique per run)."""

    username: str
    key_fingerprint: str | None
    peer_ip: str
    connection_id: int = 0
    invite: str | None = None
    """What a keyless client typed when asked for an invite code (a private server asks), else None."""


AppFactory: TypeAlias = Callable[[SessionIdentity, TerminalInfo], "App[Any] | Awaitable[App[Any]]"]
"""Builds the App for one PTY session. Called in the session's own task; may be async."""

CommandHandler: TypeAlias = Callable[
    [SessionIdentity, "str | None", asyncssh.SSHReader[bytes], asyncssh.SSHWriter[bytes]],
    "int | Awaitable[int]",
]
"""Serves a session without a PTY: (identity, command or None for a shell, stdin, stdout) -> exit status."""

AppSetup: TypeAlias = Callable[[], None]
"""Work done before each PTY session's app runs, the same for every app of the process (so idempotent): what the
composition root (`serve.py`) hands the server, e.g. the tui's `share_per_process_work`."""

INTERNAL_ERROR = "dixit-tui: internal error, sorry. Please reconnect.\r\n"


async def run_pty_session(
    process: asyncssh.SSHServerProcess[bytes],
    identity: SessionIdentity,
    app_factory: AppFactory,
    limits: SessionLimits,
    setup: Sequence[AppSetup] = (),
) -> int:
    """Run the app for one PTY session until it exits or the client leaves; returns the exit status. Each of `setup`
    runs before the app does (after the process-wide Textual patches)."""
    size = (process.term_size[0], process.term_size[1])
    terminal = build_terminal_info(process.term_type or "", size, process.env, process.command, limits.max_size)
    try:
        made = app_factory(identity, terminal)
        app = await made if inspect.isawaitable(made) else made
    except Exception:
        logger.exception("app factory failed for %r", identity)
        _send(process, INTERNAL_ERROR)
        return 1

    report = _prepare_app(app, process, terminal, limits, setup)
    try:
        await app.run_async(mouse=True)
    except Exception:
        logger.exception("app crashed for %r", identity)
        _send(process, INTERNAL_ERROR)
        return 1
    status = app.return_code or 0
    output = report.getvalue().strip()
    if status != 0:
        if output:
            logger.error("app for %r exited with status %d:\n%s", identity, status, output)
        _send(process, INTERNAL_ERROR)
    elif output:  # a message given to App.exit(message=...) is meant for the user
        _send(process, output.replace("\r\n", "\n").replace("\n", "\r\n") + "\r\n")
    return status


async def run_command_session(
    process: asyncssh.SSHServerProcess[bytes],
    identity: SessionIdentity,
    command_handler: CommandHandler | None,
    *,
    hint: str,
) -> int:
    """Serve a session without a PTY; without a handler, explain how to connect and return 2."""
    if command_handler is None:
        process.stderr.write(f"dixit-tui needs a terminal: run {hint}\n".encode())
        return 2
    result = command_handler(identity, process.command, process.stdin, process.stdout)
    status = await result if inspect.isawaitable(result) else result
    return int(status)


def connect_hint(username: str, host: str, port: int) -> str:
    """The command line that gets a terminal session, e.g. `ssh -t -p 2222 alice@example.org`."""
    name = "".join(char for char in username if char.isprintable() and not char.isspace())[:32] or "NAME"
    port_option = "" if port == 22 else f"-p {port} "
    return f"ssh -t {port_option}{name}@{host}"


def _prepare_app(
    app: App[Any],
    process: asyncssh.SSHServerProcess[bytes],
    terminal: TerminalInfo,
    limits: SessionLimits,
    setup: Sequence[AppSetup],
) -> io.StringIO:
    """Attach the SSH driver, take colours from this session's terminal; returns the buffer that collects what
    Textual would have printed on the server's stderr at exit."""
    install_textual_patches()
    for step in setup:
        step()
    driver = partial(SSHDriver, process=process, terminal=terminal, limits=limits)
    app.driver_class = cast(type[Driver], driver)
    # Rich picked the colour system from the SERVER's environment; this session's terminal decides.
    use_terminal_colours(app, terminal.color_system, WithoutColor() if terminal.no_color else None)
    report = io.StringIO()
    app.error_console = Console(
        file=report, width=terminal.width, color_system=None, markup=False, highlight=False, emoji=False
    )
    return report


def _send(process: asyncssh.SSHServerProcess[bytes], text: str) -> None:
    with contextlib.suppress(OSError):  # the client is gone
        process.stdout.write(text.encode("utf-8", "replace"))
