"""The asyncssh server: authentication, connection caps, one session per connection.

Usage (the game plugs in through `app_factory` and, for sessions without a PTY, `command_handler`):

    acceptor = await start_server("0.0.0.0", 2222, Path("keys"), app_factory)
    print(acceptor.port)
    ...
    await acceptor.shutdown()
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh

from dixit_tui import __version__
from dixit_tui.ssh.guard import SessionLimits
from dixit_tui.ssh.keys import ensure_host_key, fingerprint
from dixit_tui.ssh.session import (
    AppFactory,
    CommandHandler,
    SessionIdentity,
    connect_hint,
    run_command_session,
    run_pty_session,
)
from dixit_tui.ssh.terminal import TerminalInfo

__all__ = [
    "AppFactory",
    "CommandHandler",
    "DixitAcceptor",
    "DixitSSHServer",
    "Limits",
    "SessionIdentity",
    "TerminalInfo",
    "start_server",
]

logger = logging.getLogger(__name__)

# Modern algorithms only (OpenSSH >= 7.x clients all have them). The client's order decides which key exchange is
# used (OpenSSH still gets mlkem768x25519); curve25519 comes first because a client that sends a guessed first
# key-exchange packet (Dropbear's dbclient) guesses the server's first one, and asyncssh drops a wrong guess.
KEX_ALGS = ["curve25519-sha256", "curve25519-sha256@libssh.org", "mlkem768x25519-sha256"]
ENCRYPTION_ALGS = [
    "chacha20-poly1305@openssh.com",
    "aes256-gcm@openssh.com",
    "aes128-gcm@openssh.com",
    "aes256-ctr",
    "aes128-ctr",
]
# Client signatures accepted (no SHA-1 ssh-rsa, no DSA).
SIGNATURE_ALGS = [
    "ssh-ed25519",
    "sk-ssh-ed25519@openssh.com",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "sk-ecdsa-sha2-nistp256@openssh.com",
    "rsa-sha2-512",
    "rsa-sha2-256",
]
MAC_ALGS = ["hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com", "umac-128-etm@openssh.com"]


@dataclass(frozen=True)
class Limits:
    """Resource limits of the SSH server (all per server unless named per IP)."""

    login_timeout: float = 30.0
    """Seconds a client has to authenticate."""
    keepalive_interval: float = 15.0
    """Seconds between keepalive requests; a client that misses `keepalive_count_max` in a row is dropped."""
    keepalive_count_max: int = 4
    max_unauthenticated_per_ip: int = 10
    max_unauthenticated: int = 200
    max_connections_per_ip: int = 50
    max_connections: int = 1000
    max_write_buffer: int = 1 << 20
    """Bytes of output queued for one client before it is considered frozen and disconnected."""
    max_size: tuple[int, int] = (300, 100)
    """Largest terminal (columns, rows) rendered; bigger PTYs are clamped."""
    input_rate: float = 64 * 1024
    """Sustained input per session, bytes per second; more disconnects the client."""
    input_burst: int = 256 * 1024
    max_paste: int = 64 * 1024
    """Characters in one bracketed paste; more disconnects the client."""
    event_rate: float = 400.0
    """Input events (keys, mouse reports, pastes) per session handed to its app per second; beyond it input waits."""
    event_burst: int = 200
    max_backlog: int = 16 * 1024
    """Characters of typed input waiting to be handed on; more disconnects the client."""
    session_open_timeout: float = 30.0
    """Seconds an authenticated connection may stay open without opening its session."""
    linger_after_session: float = 5.0
    """Seconds the connection may stay open after its session ended (the client normally closes first)."""

    def session_limits(self) -> SessionLimits:
        return SessionLimits(
            max_size=self.max_size,
            max_write_buffer=self.max_write_buffer,
            input_rate=self.input_rate,
            input_burst=self.input_burst,
            max_paste=self.max_paste,
            event_rate=self.event_rate,
            event_burst=self.event_burst,
            max_backlog=self.max_backlog,
        )


DEFAULT_LIMITS = Limits()


class _ServerState:
    """Bookkeeping shared by every connection of one server."""

    def __init__(self, limits: Limits, host_key_fingerprint: str) -> None:
        self.limits = limits
        self.host_key_fingerprint = host_key_fingerprint
        self.unauthenticated: Counter[str] = Counter()
        self.connections: Counter[str] = Counter()
        self.live: set[asyncssh.SSHServerConnection] = set()
        self.sessions: set[asyncio.Task[Any]] = set()
        self.ids = itertools.count(1)

    def admit(self, ip: str) -> str | None:
        """Count a new connection from `ip`, or return why it is refused (and count nothing)."""
        limits = self.limits
        if self.connections.total() >= limits.max_connections:
            return "too many connections"
        if self.connections[ip] >= limits.max_connections_per_ip:
            return "too many connections from this address"
        if self.unauthenticated.total() >= limits.max_unauthenticated:
            return "too many unauthenticated connections"
        if self.unauthenticated[ip] >= limits.max_unauthenticated_per_ip:
            return "too many unauthenticated connections from this address"
        self.connections[ip] += 1
        self.unauthenticated[ip] += 1
        return None

    def authenticated(self, ip: str) -> None:
        _decrement(self.unauthenticated, ip)

    def release(self, ip: str, *, authenticated: bool) -> None:
        _decrement(self.connections, ip)
        if not authenticated:
            _decrement(self.unauthenticated, ip)


def _decrement(counter: Counter[str], key: str) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


class _SessionProcess(asyncssh.SSHServerProcess[bytes]):
    """The one session of a connection. Subsystems (sftp included) are refused."""

    def subsystem_requested(self, subsystem: str) -> bool:
        logger.info("refused subsystem %r", subsystem[:40])
        return False


class DixitSSHServer(asyncssh.SSHServer):
    """One instance per connection: authentication, identity, the single session."""

    def __init__(self, state: _ServerState, app_factory: AppFactory, command_handler: CommandHandler | None) -> None:
        self._state = state
        self._app_factory = app_factory
        self._command_handler = command_handler
        self._conn: asyncssh.SSHServerConnection | None = None
        self._peer_ip = "?"
        self._admitted = False
        self._authenticated = False
        self._candidate_key: asyncssh.SSHKey | None = None
        self._session_requested = False
        self._timer: asyncio.TimerHandle | None = None
        self.identity: SessionIdentity | None = None
        self.connection_id = next(state.ids)

    # ---- connection lifecycle -----------------------------------------------------------------------

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername")
        self._peer_ip = str(peer[0]) if peer else "?"
        refusal = self._state.admit(self._peer_ip)
        if refusal is not None:
            logger.warning("refusing connection from %s: %s", self._peer_ip, refusal)
            # After connection_made returns (asyncssh still sends its version string).
            asyncio.get_running_loop().call_soon(conn.abort)
            return
        self._admitted = True
        self._state.live.add(conn)
        logger.debug("connection #%d from %s", self.connection_id, self._peer_ip)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timer()
        if self._admitted:
            self._admitted = False
            self._state.release(self._peer_ip, authenticated=self._authenticated)
            if self._conn is not None:
                self._state.live.discard(self._conn)
        logger.debug("connection #%d closed: %s", self.connection_id, exc or "normally")
        self._candidate_key = None

    # ---- authentication: any name; a key if the client proves one, else keyless --------------------

    def begin_auth(self, username: str) -> bool:
        return True  # always run authentication (the "none" method must not succeed)

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # Also called when a client merely ASKS whether a key would do, without proving it holds it: only
        # remember it. If asyncssh then verifies a signature, it reports success (auth_completed) before
        # handling anything else, so the key remembered at that moment is the key actually proven.
        self._candidate_key = key
        return True

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> tuple[str, str, str, list[Any]]:
        self._candidate_key = None
        return ("", "", "", [])  # zero prompts: keyless players get in (OpenSSH handles this)

    def validate_kbdint_response(self, username: str, responses: Sequence[str]) -> bool:
        self._candidate_key = None
        return True

    def auth_completed(self) -> None:
        conn = self._conn
        assert conn is not None
        key = self._candidate_key
        self._candidate_key = None
        self._authenticated = True
        self._state.authenticated(self._peer_ip)
        self.identity = SessionIdentity(
            username=str(conn.get_extra_info("username") or ""),
            key_fingerprint=fingerprint(key) if key is not None else None,
            peer_ip=self._peer_ip,
            connection_id=self.connection_id,
        )
        logger.info(
            "connection #%d authenticated: user=%r key=%s ip=%s",
            self.connection_id,
            self.identity.username[:64],
            self.identity.key_fingerprint or "none",
            self._peer_ip,
        )
        self._set_timer(self._state.limits.session_open_timeout)

    # ---- sessions -----------------------------------------------------------------------------------

    def session_requested(self) -> asyncssh.SSHServerSession[bytes] | bool:
        if self.identity is None or self._session_requested:
            logger.info("connection #%d: refused an extra session", self.connection_id)
            return False
        self._session_requested = True  # the session_open_timeout keeps running until the session starts
        return _SessionProcess(self._run_session, None, 0, False)

    async def _run_session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        identity = self.identity
        assert identity is not None
        limits = self._state.limits
        self._cancel_timer()
        task = asyncio.current_task()
        if task is not None:
            self._state.sessions.add(task)
        status = 1
        try:
            if process.term_type is None:
                status = await run_command_session(process, identity, self._command_handler, hint=self._hint(identity))
            else:
                status = await run_pty_session(process, identity, self._app_factory, limits.session_limits())
            logger.info("connection #%d: session ended with status %d", self.connection_id, status)
        except Exception:
            logger.exception("session of connection #%d failed", self.connection_id)
        finally:
            if task is not None:
                self._state.sessions.discard(task)
            with contextlib.suppress(OSError):
                process.exit(status)
            self._set_timer(limits.linger_after_session)

    def _hint(self, identity: SessionIdentity) -> str:
        assert self._conn is not None
        sockname = self._conn.get_extra_info("sockname") or ("HOST", 22)
        return connect_hint(identity.username, str(sockname[0]), int(sockname[1]))

    # ---- timers -------------------------------------------------------------------------------------

    def _set_timer(self, delay: float) -> None:
        self._cancel_timer()
        if self._conn is not None:
            self._timer = asyncio.get_running_loop().call_later(delay, self._conn.close)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class DixitAcceptor(asyncssh.SSHAcceptor):
    """asyncssh's acceptor plus the bound port, live counts and a shutdown that ends every session."""

    def __init__(self, acceptor: asyncssh.SSHAcceptor, state: _ServerState) -> None:
        super().__init__(acceptor._server, acceptor._options)
        self._state = state

    @property
    def port(self) -> int:
        return self.get_port()

    @property
    def host_key_fingerprint(self) -> str:
        return self._state.host_key_fingerprint

    @property
    def connection_count(self) -> int:
        return len(self._state.live)

    @property
    def session_count(self) -> int:
        return len(self._state.sessions)

    async def shutdown(self, timeout: float = 5.0) -> None:
        """Stop listening, disconnect every client and wait (at most `timeout`) for the sessions to end."""
        self.close()
        for conn in list(self._state.live):
            conn.close()
        sessions = list(self._state.sessions)
        if sessions:
            await asyncio.wait(sessions, timeout=timeout)
        try:
            await asyncio.wait_for(self.wait_closed(), timeout=timeout)
        except TimeoutError:
            logger.warning("listener did not close within %.1fs", timeout)


async def start_server(
    host: str,
    port: int,
    keys_dir: Path,
    app_factory: AppFactory,
    *,
    command_handler: CommandHandler | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> DixitAcceptor:
    """Listen for SSH clients on host:port (port 0 picks a free port: see `.port`).

    Every PTY session runs `app_factory(identity, terminal_info)`'s App through SSHDriver. Sessions without a
    PTY go to `command_handler(identity, command, stdin, stdout) -> exit status`, or get a short answer
    and exit status 2 when there is none.
    """
    host_key = ensure_host_key(Path(keys_dir))
    state = _ServerState(limits, fingerprint(host_key))

    def server_factory() -> DixitSSHServer:
        return DixitSSHServer(state, app_factory, command_handler)

    acceptor = await asyncssh.create_server(
        server_factory,
        host,
        port,
        server_host_keys=[host_key],
        server_version=f"dixit-tui_{__version__}",
        kex_algs=KEX_ALGS,
        encryption_algs=ENCRYPTION_ALGS,
        mac_algs=MAC_ALGS,
        signature_algs=SIGNATURE_ALGS,
        compression_algs=["none"],
        public_key_auth=True,
        kbdint_auth=True,
        password_auth=False,
        host_based_auth=False,
        gss_host=None,
        gss_kex=False,
        gss_auth=False,
        allow_pty=True,
        line_editor=False,
        encoding=None,
        agent_forwarding=False,
        x11_forwarding=False,
        allow_scp=False,
        login_timeout=limits.login_timeout,
        keepalive_interval=limits.keepalive_interval,
        keepalive_count_max=limits.keepalive_count_max,
    )
    return DixitAcceptor(acceptor, state)
