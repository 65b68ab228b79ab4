"""The asyncssh server: authentication, connection caps, one session per connection (`start_server`)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import inspect
import itertools
import logging
import socket
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias, cast

import asyncssh

from dixit_tui import __version__
from dixit_tui.addresses import address_of, plain_ip
from dixit_tui.addresses import network_of as _network_of
from dixit_tui.counts import COUNTS
from dixit_tui.sanitize import log_text
from dixit_tui.ssh import ignore_packets, receive_window, usernames
from dixit_tui.ssh.guard import DRAIN_LOW, LOG_RATE, InputGuard, SessionLimits
from dixit_tui.ssh.keys import ensure_host_key, fingerprint
from dixit_tui.ssh.session_runner import (
    AppFactory,
    AppSetup,
    CommandHandler,
    SessionIdentity,
    connect_hint,
    run_command_session,
    run_pty_session,
)
from dixit_tui.ssh.terminal import TerminalInfo
from dixit_tui.ssh.terminal_lines import TerminalLines, TerminalWriter
from dixit_tui.textual_host.work_share import check_work_measured

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
logger.addFilter(LOG_RATE)

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
class Limits(SessionLimits):
    """Resource limits of the SSH server (all per server unless named per IP; those of one session inherited)."""

    login_timeout: float = 30.0
    """Seconds a client has to authenticate."""
    keepalive_interval: float = 15.0
    """Seconds between keepalive requests; a client that misses `keepalive_count_max` in a row is dropped."""
    keepalive_count_max: int = 4
    max_unauthenticated_per_ip: int = 10
    """Connections from one address still logging in; more wait up to `handshake_wait` for a slot."""
    max_unauthenticated_per_prefix: int = 40
    """Connections still logging in from one network (IPv4 /24, IPv6 /64); more are refused."""
    max_unauthenticated: int = 200
    """Connections still logging in, in all; when full, the oldest one that has not sent its SSH version line is
    dropped to make room, or else the oldest from the address holding the most (if it holds more than one); with
    neither, the new one is refused."""
    banner_timeout: float = 5.0
    """Seconds a new connection has to send its SSH version line."""
    handshake_wait: float = 5.0
    """Seconds a connection over `max_unauthenticated_per_ip` waits (not read) for a slot before it is refused."""
    max_connections_per_ip: int = 50
    max_connections: int = 1000
    session_open_timeout: float = 30.0
    """Seconds an authenticated connection may stay open without opening its session."""
    moderation_refresh: float = 5.0
    """Seconds between two readings of the bans and the keys allowed in (kept in the store, shared by the workers):
    sessions they now refuse are ended (a ban made at this worker ends them at once)."""
    linger_after_session: float = 5.0
    """Seconds the connection may stay open after its session ended (the client normally closes first)."""
    json_idle_timeout: float = 300.0
    """Seconds a `json` session not seated at a table (in the lobby, or watching) may stay silent before it ends."""
    terminal_reserve: float = 0.2
    """Share of `max_connections` kept for terminal players: sessions without a terminal (`json`, `tables`...) may
    hold at most the rest."""
    input_window: int = 256 * 1024
    """Bytes of input a client may send ahead of what its session has read (the SSH receive window); a session
    holds at most about twice this much unread input."""


DEFAULT_LIMITS = Limits()


REFUSAL_LOG_INTERVAL = 10.0
"""Seconds between the summaries of refused and dropped connections (the first of a quiet period is logged at once)."""

# Readable reasons, sent to a refused client in its SSH disconnect message (OpenSSH prints them).
FULL = "The server is full right now; please try again in a few minutes."
BUSY_ADDRESS = "Too many connections from your address; close some and try again."
BUSY_LOGINS = "Too many logins from your address at once; please try again in a moment."
BUSY_NETWORK = "Too many logins from your network at once; please try again in a moment."
BUSY_SERVER = "Too many logins at once; please try again in a moment."
FULL_HEADLESS = (
    "The server is full for sessions without a terminal right now; please try again in a few minutes "
    "(with a terminal: ssh -t).\n"
)
_LOG_LABELS = {
    FULL: "the server is full",
    BUSY_ADDRESS: "too many connections from the address",
    BUSY_LOGINS: "too many logins from the address",
    BUSY_NETWORK: "too many logins from the network",
    BUSY_SERVER: "too many logins in all",
}


Gate: TypeAlias = Callable[[SessionIdentity], Awaitable[str | None]]
"""Why a session may not start (a ban, a private server), in words for the person; None: it may."""


def wants_lines(term_type: str, command: str | None) -> bool:
    """A terminal session for the plain line mode: a dumb terminal, or the `plain` command."""
    return term_type.strip().lower() == "dumb" or (command or "").split()[:1] == ["plain"]


def session_kind(command: str | None) -> str:
    """A session without a terminal: `json` (the headless protocol, a bot's too) or `command` (tables, help, ...)."""
    return "json" if (command or "").split()[:1] == ["json"] else "command"


def network_of(ip: str) -> str:
    """The network an address is counted in: its IPv4 /24 or IPv6 /64 (an IPv4-mapped IPv6 address as IPv4)."""
    return _network_of(ip) or ip


class _RefusalLog:
    """Refused and dropped connections, summarised: the first of a quiet period is logged at once, the others as one
    line per `REFUSAL_LOG_INTERVAL` (counts per reason, the busiest addresses), so a flood cannot flood the log."""

    def __init__(self) -> None:
        self.reasons: Counter[str] = Counter()
        self.addresses: Counter[str] = Counter()
        self.total = 0
        self._timer: asyncio.TimerHandle | None = None

    def add(self, ip: str, what: str) -> None:
        self.total += 1
        COUNTS.refused(what)
        if self._timer is None:
            logger.warning("%s: %s (more are summarised every %gs)", what, ip, REFUSAL_LOG_INTERVAL)
            self._timer = asyncio.get_running_loop().call_later(REFUSAL_LOG_INTERVAL, self._summarise)
            return
        self.reasons[what] += 1
        self.addresses[ip] += 1

    def _summarise(self) -> None:
        self._timer = None
        count = self.reasons.total()
        if not count:
            return
        reasons = "; ".join(f"{what}: {n}" for what, n in self.reasons.most_common())
        busiest = ", ".join(f"{ip} ({n})" for ip, n in self.addresses.most_common(3))
        more = len(self.addresses) - 3
        logger.warning(
            "in the last %gs, %s; from %s%s",
            REFUSAL_LOG_INTERVAL,
            reasons,
            busiest,
            f" and {more} more addresses" if more > 0 else "",
        )
        self.reasons.clear()
        self.addresses.clear()
        self._timer = asyncio.get_running_loop().call_later(REFUSAL_LOG_INTERVAL, self._summarise)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class _ServerState:
    """Bookkeeping shared by every connection of one server."""

    def __init__(self, limits: Limits, host_key_fingerprint: str) -> None:
        self.limits = limits
        self.host_key_fingerprint = host_key_fingerprint
        self.app_setup: tuple[AppSetup, ...] = ()  # before each PTY session's app (start_server's app_setup)
        self.unauthenticated: Counter[str] = Counter()
        self.unauthenticated_networks: Counter[str] = Counter()
        self.connections: Counter[str] = Counter()
        self.logging_in: dict[DixitSSHServer, None] = {}  # admitted, not yet authenticated: oldest first
        self.waiting: dict[str, deque[DixitSSHServer]] = {}  # per address, waiting for a login slot
        self.live: set[asyncssh.SSHServerConnection] = set()
        self.sessions: set[asyncio.Task[Any]] = set()
        self.ids = itertools.count(1)
        self.refusals = _RefusalLog()
        self.session_kinds: Counter[str] = Counter()  # sessions running now: terminal, json, command
        self.gate: Gate | None = None  # who may not come in (bans, the private mode), asked once per session
        self.signed_in: set[DixitSSHServer] = set()  # connections whose session the gate let in, still open
        self.ask_invite = False  # people without a key are asked for an invite code (the private mode's)
        self.headless = 0  # sessions without a terminal running now

    def admit(self, server: DixitSSHServer) -> str | None:
        """Count a new connection, or return why it is refused (and count nothing). A connection over the
        per-address login cap is counted as a connection and queued to wait for a login slot (`server.waiting`)."""
        limits = self.limits
        ip = server.address
        if self.connections.total() >= limits.max_connections:
            return FULL
        if self.connections[ip] >= limits.max_connections_per_ip:
            return BUSY_ADDRESS
        if self.unauthenticated[ip] >= limits.max_unauthenticated_per_ip:
            queue = self.waiting.setdefault(ip, deque())
            if limits.handshake_wait <= 0 or len(queue) >= limits.max_unauthenticated_per_ip:
                if not queue:
                    del self.waiting[ip]
                return BUSY_LOGINS
            self.connections[ip] += 1
            queue.append(server)
            server.waiting = True
            return None
        problem = self._login_slot(server)
        if problem is not None:
            return problem
        self.connections[ip] += 1
        return None

    def _login_slot(self, server: DixitSSHServer) -> str | None:
        """Count `server` as logging in (the per-address cap is checked by the caller), or say why not."""
        limits = self.limits
        if self.unauthenticated_networks[server.network] >= limits.max_unauthenticated_per_prefix:
            return BUSY_NETWORK
        if self.unauthenticated.total() >= limits.max_unauthenticated and not self._evict_one():
            return BUSY_SERVER
        self.unauthenticated[server.address] += 1
        self.unauthenticated_networks[server.network] += 1
        self.logging_in[server] = None
        return None

    def _evict_one(self) -> bool:
        """Make room in the full login slots: drop the oldest connection that has not sent its SSH version line, or
        else the oldest from the address holding the most slots (if it holds more than one)."""
        for candidate in self.logging_in:
            if not candidate.sent_version():
                self.refusals.add(candidate.peer_ip, "dropped to make room (no SSH version line yet)")
                candidate.drop()
                return True
        busiest, held = max(self.unauthenticated.items(), key=lambda item: item[1], default=("", 0))
        if held < 2:
            return False
        for candidate in self.logging_in:
            if candidate.address == busiest:
                self.refusals.add(candidate.peer_ip, "dropped to make room (the address with most logins)")
                candidate.drop()
                return True
        return False

    def waited(self, server: DixitSSHServer) -> str | None:
        """A waiting connection's turn came (or its wait ended): count it as logging in, or say why not."""
        self._unqueue(server)
        server.waiting = False
        if self.unauthenticated[server.address] >= self.limits.max_unauthenticated_per_ip:
            return BUSY_LOGINS
        return self._login_slot(server)

    def _unqueue(self, server: DixitSSHServer) -> None:
        queue = self.waiting.get(server.address)
        if queue is not None and server in queue:
            queue.remove(server)
            if not queue:
                del self.waiting[server.address]

    def authenticated(self, server: DixitSSHServer) -> None:
        self._leave_login(server)

    def release(self, server: DixitSSHServer) -> None:
        _decrement(self.connections, server.address)
        if server.waiting:
            server.waiting = False
            self._unqueue(server)
        elif server in self.logging_in:
            self._leave_login(server)

    def _leave_login(self, server: DixitSSHServer) -> None:
        if server not in self.logging_in:
            return
        del self.logging_in[server]
        _decrement(self.unauthenticated, server.address)
        _decrement(self.unauthenticated_networks, server.network)
        queue = self.waiting.get(server.address)
        if queue:  # a slot for this address: the first connection waiting for one takes it (once this call is over)
            asyncio.get_running_loop().call_soon(queue[0].wake)


def _decrement(counter: Counter[str], key: str) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


REFUSAL_LINGER = 1.0
"""Seconds a refused connection stays open, not read, after its disconnect message: closing at once would reset the
connection before the client read the reason (OpenSSH then says only "Broken pipe")."""
MAX_LINGERING = 100
"""Refused connections lingering at once; beyond it they are closed at once, without a reason."""
_lingering: dict[asyncio.Transport, asyncio.AbstractEventLoop] = {}
"""The refused connections' transports lingering now, with their loop. One that closed otherwise (the client left,
or its loop ended before the close came) no longer counts, so the cap cannot be used up by connections that are
gone."""


def _disconnect(conn: asyncssh.SSHServerConnection, reason: str) -> None:
    """Send an SSH disconnect message with `reason` (before key exchange it goes in clear, which SSH allows), stop
    reading, and close the connection shortly after."""
    transport = getattr(conn, "_transport", None)
    send = getattr(conn, "_send_disconnect", None)
    for gone in [t for t, loop in _lingering.items() if loop.is_closed() or t.is_closing()]:
        del _lingering[gone]
    if len(_lingering) >= MAX_LINGERING or not isinstance(transport, asyncio.Transport) or send is None:
        conn.abort()
        return
    try:
        send(asyncssh.DISC_TOO_MANY_CONNECTIONS, reason, "en-US")
        transport.pause_reading()
    except Exception:
        conn.abort()
        return
    loop = asyncio.get_running_loop()
    _lingering[transport] = loop

    def close() -> None:
        _lingering.pop(transport, None)
        conn.abort()

    loop.call_later(REFUSAL_LINGER, close)


PACKET_COST = 512
"""Bytes each data packet of a session without a terminal counts for, at least, against `input_rate`: a packet's
cost hardly depends on its size, so a flood of tiny packets is cut as early as one of full ones."""


class _SessionProcess(asyncssh.SSHServerProcess[bytes]):
    """The one session of a connection. Subsystems (sftp included) are refused. A session without a terminal has
    its input metered as it arrives (`input_guard`: a flood disconnects the client, as a terminal's does)."""

    input_guard: InputGuard | None = None

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        guard = self.input_guard
        if guard is not None and guard.check(max(len(data), PACKET_COST)) is not None:
            self.input_guard = None
            logger.warning("disconnecting a client: input flood (a session without a terminal)")
            conn = self.channel.get_connection()
            conn.abort()
            with contextlib.suppress(Exception):  # the packets already read are not decrypted one by one for nothing
                conn._inpbuf = b""
            return
        super().data_received(data, datatype)

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
        self.peer_ip = "?"
        self.address = "?"  # what per-address limits count: the IPv4 address, or the IPv6 address's /64
        self.network = "?"
        self.waiting = False
        self._admitted = False
        self._authenticated = False
        self._candidate_key: asyncssh.SSHKey | None = None
        self._session_requested = False
        self._timer: asyncio.TimerHandle | None = None
        self._watchdog: asyncio.TimerHandle | None = None
        self._stalled_since: float | None = None
        self.identity: SessionIdentity | None = None
        self.connection_id = next(state.ids)
        self._invite: str | None = None

    # ---- connection lifecycle -----------------------------------------------------------------------

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername")
        self.peer_ip = plain_ip(str(peer[0])) if peer else "?"
        self.address = address_of(self.peer_ip)
        self.network = network_of(self.peer_ip)
        refusal = self._state.admit(self)
        if refusal is not None:
            self._refuse(refusal)
            return
        self._admitted = True
        self._state.live.add(conn)
        if self.waiting:  # over the per-address login cap: not read until a slot frees or the wait ends
            self._pause(True)
            self._set_timer(self._state.limits.handshake_wait, self._wait_ended)
        else:
            self._set_timer(self._state.limits.banner_timeout, self._check_version)
        logger.debug("connection #%d from %s%s", self.connection_id, self.peer_ip, " (waiting)" if self.waiting else "")

    def connection_lost(self, exc: Exception | None) -> None:
        self._state.signed_in.discard(self)
        self._cancel_timer()
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        self._release()
        logger.debug("connection #%d closed: %s", self.connection_id, exc or "normally")
        self._candidate_key = None

    def _release(self) -> None:
        """Give back what this connection counted in the server's state (once)."""
        if self._admitted:
            self._admitted = False
            self._state.release(self)
            if self._conn is not None:
                self._state.live.discard(self._conn)

    def _refuse(self, reason: str) -> None:
        """Refuse with a reason the client can show (in the SSH disconnect message), logged in the summary."""
        self._state.refusals.add(self.peer_ip, f"refused ({_LOG_LABELS.get(reason, reason)})")
        conn = self._conn
        assert conn is not None
        # After connection_made returns (asyncssh then sends its version line, and the disconnect message after it).
        asyncio.get_running_loop().call_soon(_disconnect, conn, reason)

    def sent_version(self) -> bool:
        """The client has sent its SSH version line."""
        return self._conn is not None and self._conn.get_extra_info("client_version") is not None

    def drop(self) -> None:
        """Drop this connection now, its counts at once (the server needs the slot)."""
        self._cancel_timer()
        self._release()
        if self._conn is not None:
            self._conn.abort()

    def wake(self) -> None:
        """A login slot for this address freed while this connection waited (or its wait ended): it takes a slot now,
        or is refused."""
        if not self.waiting or not self._admitted:
            return
        self._cancel_timer()
        refusal = self._state.waited(self)
        if refusal is not None:
            self._leave(refusal)
            return
        self._pause(False)
        self._set_timer(self._state.limits.banner_timeout, self._check_version)

    def _wait_ended(self) -> None:
        self._timer = None
        self.wake()

    def _check_version(self) -> None:
        self._timer = None
        if not self._authenticated and not self.sent_version():
            self._state.refusals.add(self.peer_ip, "dropped (no SSH version line in time)")
            self.drop()

    def _leave(self, reason: str) -> None:
        """Refuse an admitted connection (its wait for a login slot ended without one)."""
        self._release()
        self._pause(False)
        self._refuse(reason)

    def _pause(self, paused: bool) -> None:
        transport = getattr(self._conn, "_transport", None)
        if isinstance(transport, asyncio.Transport):
            with contextlib.suppress(Exception):
                if paused:
                    transport.pause_reading()
                else:
                    transport.resume_reading()

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
        if self._state.ask_invite:  # a private server: the invite code (checked by the gate, which says if wrong)
            return ("dixit-tui", "This server is private.", "", [("Invite code: ", False)])
        return ("", "", "", [])  # zero prompts: keyless players get in (OpenSSH handles this)

    def validate_kbdint_response(self, username: str, responses: Sequence[str]) -> bool:
        self._candidate_key = None
        self._invite = str(responses[0])[:200] if responses else None
        return True

    def auth_completed(self) -> None:
        conn = self._conn
        assert conn is not None
        key = self._candidate_key
        self._candidate_key = None
        self._authenticated = True
        self._cancel_timer()
        self._state.authenticated(self)
        self.identity = SessionIdentity(
            username=str(conn.get_extra_info("username") or ""),
            key_fingerprint=fingerprint(key) if key is not None else None,
            peer_ip=self.peer_ip,
            connection_id=self.connection_id,
            invite=self._invite if key is None else None,
        )
        logger.info(
            "connection #%d authenticated: user=%r key=%s ip=%s",
            self.connection_id,
            log_text(self.identity.username[:64]),
            self.identity.key_fingerprint or "none",
            self.peer_ip,
        )
        self._set_timer(self._state.limits.session_open_timeout)
        self._watch_output()

    # ---- a client that stops reading its socket (any session: terminal or json) ------------------------

    def _watch_output(self) -> None:
        """Every second: drop the connection once its socket holds more than `max_write_buffer` bytes of output, or
        has held more than DRAIN_LOW for `drain_timeout` seconds (the terminal driver also checks at each frame)."""
        self._watchdog = None
        conn = self._conn
        if conn is None or not self._admitted:
            return
        limits = self._state.limits
        transport = getattr(conn, "_transport", None)
        if transport is None:
            return
        buffered = transport.get_write_buffer_size()
        now = asyncio.get_running_loop().time()
        problem = None
        if buffered > limits.max_write_buffer:
            problem = f"client not reading ({buffered} bytes waiting)"
        elif buffered <= DRAIN_LOW:
            self._stalled_since = None
        elif self._stalled_since is None:
            self._stalled_since = now
        elif now - self._stalled_since >= limits.drain_timeout:
            problem = f"client output not drained for {now - self._stalled_since:.0f}s"
        if problem is not None:
            logger.info("connection #%d: disconnecting: %s", self.connection_id, problem)
            conn.abort()
            return
        self._watchdog = asyncio.get_running_loop().call_later(min(1.0, limits.drain_timeout / 2), self._watch_output)

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
        kind = "terminal" if process.term_type is not None else session_kind(process.command)
        self._state.session_kinds[kind] += 1
        try:
            refusal = await self._state.gate(identity) if self._state.gate is not None else None
            if refusal is None:
                self._state.signed_in.add(self)  # (let in: a ban made later ends it, see `end_refused`)
            if refusal is not None:
                self._state.refusals.add(self.peer_ip, f"refused a session ({refusal})")
                logger.info("connection #%d: refused: %s", self.connection_id, refusal)
                with contextlib.suppress(OSError):
                    process.stderr.write(f"dixit-tui: {refusal}\r\n".encode())
            elif process.term_type is not None and wants_lines(process.term_type, process.command):
                status = await self._run_lines(process, identity)
            elif process.term_type is None:
                status = await self._run_headless(process, identity)
            else:
                status = await run_pty_session(process, identity, self._app_factory, limits, self._state.app_setup)
            logger.info("connection #%d: session ended with status %d", self.connection_id, status)
        except (asyncssh.DisconnectError, ConnectionError) as gone:  # the client left: not a failure of ours
            logger.info("connection #%d: session ended, client gone (%s)", self.connection_id, type(gone).__name__)
        except Exception:
            logger.exception("session of connection #%d failed", self.connection_id)
        finally:
            _decrement(self._state.session_kinds, kind)
            if task is not None:
                self._state.sessions.discard(task)
            with contextlib.suppress(OSError):
                process.exit(status)
            self._set_timer(limits.linger_after_session)

    async def _run_headless(self, process: asyncssh.SSHServerProcess[bytes], identity: SessionIdentity) -> int:
        """A session without a terminal: metered input, and at most the share of the server not kept for terminals."""
        state = self._state
        limits = state.limits
        if state.headless >= max(1, int(limits.max_connections * (1 - limits.terminal_reserve))):
            state.refusals.add(self.peer_ip, "refused a session without a terminal (their share is full)")
            with contextlib.suppress(OSError):
                process.stderr.write(FULL_HEADLESS.encode())
            return 1
        if isinstance(process, _SessionProcess):
            process.input_guard = InputGuard(limits)
        state.headless += 1
        try:
            return await run_command_session(process, identity, self._command_handler, hint=self._hint(identity))
        finally:
            state.headless -= 1

    async def _run_lines(self, process: asyncssh.SSHServerProcess[bytes], identity: SessionIdentity) -> int:
        """The plain line mode on a terminal (TERM=dumb, or `ssh -t HOST plain`): the command handler's `plain`, with
        the typing echoed and edited here (the client's terminal is in raw mode)."""
        command = (process.command or "").strip()
        if command.split()[:1] != ["plain"]:
            command = f"plain {command}".strip()
        lines, writer = TerminalLines(process.stdin, process.stdout), TerminalWriter(process.stdout)
        handler = self._command_handler
        if handler is None:
            return await run_command_session(process, identity, None, hint=self._hint(identity))
        result = handler(identity, command, cast(Any, lines), cast(Any, writer))
        return int(await result if inspect.isawaitable(result) else result)

    def _hint(self, identity: SessionIdentity) -> str:
        assert self._conn is not None
        sockname = self._conn.get_extra_info("sockname") or ("HOST", 22)
        return connect_hint(identity.username, str(sockname[0]), int(sockname[1]))

    # ---- timers -------------------------------------------------------------------------------------

    def _set_timer(self, delay: float, action: Callable[[], None] | None = None) -> None:
        """Run `action` (by default: close the connection) after `delay` seconds, replacing any earlier timer."""
        self._cancel_timer()
        if self._conn is not None:
            self._timer = asyncio.get_running_loop().call_later(delay, action or self._conn.close)

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

    @property
    def session_kinds(self) -> dict[str, int]:
        """Sessions running now, by kind: terminal (the app), json (headless), command (tables, help, ...)."""
        return dict(self._state.session_kinds)

    def end_refused(self, refusal: Callable[[SessionIdentity], str | None]) -> int:
        """End every connection whose identity `refusal` now refuses (a ban made since it came in), telling it why
        in the SSH disconnect message. Returns how many."""
        ended = 0
        for server in list(self._state.signed_in):
            reason = refusal(server.identity) if server.identity is not None else None
            if reason is not None and server._conn is not None:
                logger.info("connection #%d: ended: %s", server.connection_id, reason)
                server._conn.disconnect(asyncssh.DISC_BY_APPLICATION, reason)
                self._state.signed_in.discard(server)
                ended += 1
        return ended

    async def shutdown(self, timeout: float = 5.0) -> None:
        """Stop listening, disconnect every client and wait (at most `timeout`) for the sessions to end."""
        self.close()
        self._state.refusals.close()
        for conn in list(self._state.live):
            conn.close()
        sessions = list(self._state.sessions)
        if sessions:
            await asyncio.wait(sessions, timeout=timeout)
        try:
            await asyncio.wait_for(self.wait_closed(), timeout=timeout)
        except TimeoutError:
            logger.warning("listener did not close within %.1fs", timeout)


@functools.cache
def freeze_startup_objects() -> None:
    """For a server process, once it has imported what it runs: the objects alive now live as long as the process,
    so they are moved out of the collector's sight (each full collection walked them: tens of ms). Not for tests:
    what is frozen is never collected."""
    gc.collect()  # (garbage made so far is freed, not frozen)
    gc.freeze()
    # Textual makes and drops many small objects per frame (strips, segments, caches): with the default 700, a young
    # collection ran every few updates and took about a tenth of the server's CPU. Reference counting frees almost
    # all of them anyway; the collector is only for cycles, so it may wait for more.
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])


GC_YOUNG_THRESHOLD = 20_000


async def start_server(
    host: str,
    port: int,
    keys_dir: Path,
    app_factory: AppFactory,
    *,
    command_handler: CommandHandler | None = None,
    limits: Limits = DEFAULT_LIMITS,
    reuse_port: bool = False,  # one of several worker processes on this port (`serve --workers`)
    gate: Gate | None = None,
    ask_invite: bool = False,
    app_setup: Sequence[AppSetup] = (),
) -> DixitAcceptor:
    """Listen for SSH clients on host:port (0: a free port, see `.port`). A PTY session runs `app_factory`'s App
    (after each of `app_setup`); one without a PTY goes to `command_handler`, or gets a short answer (status 2)."""
    await check_work_measured()  # (only a warning in the log if the loop's work cannot be measured per session)
    host_key = ensure_host_key(Path(keys_dir))
    state = _ServerState(limits, fingerprint(host_key))
    state.gate, state.ask_invite = gate, ask_invite
    state.app_setup = tuple(app_setup)
    ignore_packets.install()  # (no empty MSG_IGNORE ahead of each packet: the ciphers allowed are not CBC)
    receive_window.install()  # (a session's window stays shut while its unread input is queued)
    usernames.install()  # (a user name SASLprep refuses, `ssh 🎲dice@host`, reaches the game instead of a disconnect)

    def server_factory() -> DixitSSHServer:
        return DixitSSHServer(state, app_factory, command_handler)

    # `::` listens on IPv6 and IPv4 both (one dual-stack socket: asyncio's own would be IPv6 only)
    where: dict[str, Any] = {"host": host, "port": port}
    if host == "::":
        where = {"sock": dual_stack_socket(port, reuse_port)}
    acceptor = await asyncssh.create_server(
        server_factory,
        **where,
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
        window=limits.input_window,
        reuse_port=None if host == "::" else reuse_port or None,
    )
    return DixitAcceptor(acceptor, state)


def dual_stack_socket(port: int, reuse_port: bool = False) -> socket.socket:
    """A TCP socket bound to port on `::` that takes IPv4 clients too (as ::ffff:a.b.c.d, counted as their IPv4
    address), whatever the system's default (net.ipv6.bindv6only)."""
    sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(("::", port))
    except OSError:
        sock.close()
        raise
    return sock
