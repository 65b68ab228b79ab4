"""What the server refuses, over real SSH on loopback: agent and X11 forwarding, TCP and Unix-socket forwarding
in both directions, every subsystem (sftp included), and unauthenticated connections beyond the total cap.

Each refusal is read from the server's side: its answer on the wire (a failed request, a refused channel) and,
where a session runs, what the server-side session was actually given. The last test runs the same probes
against a server made permissive on purpose, so a probe that could not see forwarding would fail there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from dixit_tui.ssh.server import DixitAcceptor, DixitSSHServer, Limits
from dixit_tui.ssh.session_runner import SessionIdentity
from tests.e2e.harness import HOST, connect, running_server, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60), pytest.mark.same_on_two_workers]

SERVER_LOGGER = "dixit_tui.ssh.server"
# An ssh-agent "list your keys" request (SSH_AGENTC_REQUEST_IDENTITIES), as a server process would send it.
AGENT_REQUEST_IDENTITIES = b"\x00\x00\x00\x01\x0b"


async def _connect(port: int, *, local_ip: str | None = None, **options: Any) -> asyncssh.SSHClientConnection:
    """A keyless probe client, optionally from another loopback source address."""
    return await connect(port, "probe", local_ip=local_ip, **options)


@dataclass
class Granted:
    """What the server gave one session, seen from inside it."""

    agent_path: str | None
    x11_display: str | None
    peer_ip: str


@dataclass
class Probe:
    """A command handler recording what each session was granted. Command "wait" first waits for a line on stdin.

    Given a forwarded agent, it uses it, as a hostile process on the server could.
    """

    sessions: list[Granted] = field(default_factory=list)

    async def __call__(
        self,
        identity: SessionIdentity,
        command: str | None,
        stdin: asyncssh.SSHReader[bytes],
        stdout: asyncssh.SSHWriter[bytes],
    ) -> int:
        if command == "wait":
            await asyncio.wait_for(stdin.readline(), 10)
        channel = stdout.channel
        assert isinstance(channel, asyncssh.SSHServerChannel)
        granted = Granted(channel.get_agent_path(), channel.get_x11_display(), identity.peer_ip)
        self.sessions.append(granted)
        if granted.agent_path is not None:
            with contextlib.suppress(OSError, TimeoutError):
                reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(granted.agent_path), 5)
                writer.write(AGENT_REQUEST_IDENTITIES)
                await asyncio.wait_for(reader.read(5), 5)
                writer.close()
        stdout.write(f"agent={granted.agent_path} x11={granted.x11_display} ip={granted.peer_ip}\n".encode())
        return 0


@asynccontextmanager
async def counting_server(unix_path: Path | None = None) -> AsyncIterator[tuple[list[int], int]]:
    """A listener that answers every connection with b"pong": ([connections], TCP port on 127.0.0.1).

    With `unix_path`, it listens there instead (port 0); as a fake ssh-agent, its answer is "no keys".
    """
    accepted = [0]

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted[0] += 1
        with contextlib.suppress(OSError, TimeoutError):
            await asyncio.wait_for(reader.read(100), 5)
            writer.write(b"\x00\x00\x00\x05\x0c\x00\x00\x00\x00" if unix_path else b"pong")
            await writer.drain()
        writer.close()

    if unix_path is not None:
        server = await asyncio.start_unix_server(handle, str(unix_path))
        port = 0
    else:
        server = await asyncio.start_server(handle, HOST, 0)
        port = server.sockets[0].getsockname()[1]
    try:
        yield accepted, port
    finally:
        server.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(server.wait_closed(), 5)


async def _closed_without_answer(reader: asyncio.StreamReader, timeout: float = 5.0) -> bytes:
    """Everything a socket receives until it is closed (a reset counts as closed); fails after `timeout`."""
    try:
        return await asyncio.wait_for(reader.read(), timeout)
    except ConnectionResetError:
        return b""
    except TimeoutError:
        raise AssertionError(f"the socket was still open after {timeout}s") from None


# ---- agent forwarding ---------------------------------------------------------------------------------------


@dataclass
class AgentProbe:
    reply: bool | None  # the server's answer to an "auth-agent-req" sent with want-reply
    granted: list[Granted]
    agent_connections: int  # connections that reached the client's agent socket through the server
    output: str


async def _probe_agent(tmp_path: Path) -> AgentProbe:
    probe = Probe()
    async with (
        counting_server(tmp_path / "agent.sock") as (agent_connections, _),
        running_server(tmp_path, command_handler=probe) as server,
    ):
        # A path (not True): with agent_path=None, agent_forwarding=True would send no request at all.
        conn = await _connect(server.port, agent_forwarding=str(tmp_path / "agent.sock"))
        try:
            # The session asks for the agent as OpenSSH's -A does (auth-agent-req, no reply wanted) ...
            process = await asyncio.wait_for(conn.create_process("wait", encoding=None), 5)
            # ... and once more on the same channel, wanting the server's answer.
            reply = await asyncio.wait_for(process.channel._make_request(b"auth-agent-req@openssh.com"), 5)
            process.stdin.write(b"go\n")
            result = await asyncio.wait_for(process.wait(), 10)
            assert result.exit_status == 0, result.stderr
        finally:
            conn.close()
        output = result.stdout
        assert isinstance(output, bytes)
        return AgentProbe(reply, probe.sessions, agent_connections[0], output.decode())


async def test_agent_forwarding_is_refused(tmp_path: Path) -> None:
    seen = await _probe_agent(tmp_path)
    assert seen.reply is False, "the server accepted auth-agent-req"
    assert [granted.agent_path for granted in seen.granted] == [None], "the session was given an agent socket"
    assert seen.output.startswith("agent=None ")
    assert seen.agent_connections == 0


# ---- X11 forwarding -----------------------------------------------------------------------------------------


@dataclass
class X11Probe:
    error: asyncssh.ChannelOpenError | None  # from a session that insists on X11
    granted: list[Granted]  # from a session that carries on without it
    output: str


async def _probe_x11(tmp_path: Path) -> X11Probe:
    # Any display will do on the client side (the client only connects to it for a forwarded X11 channel);
    # a missing Xauthority file makes asyncssh use a random cookie.
    x11: dict[str, Any] = {"x11_display": "127.0.0.1:0", "x11_auth_path": str(tmp_path / "client.Xauthority")}
    probe = Probe()
    error: asyncssh.ChannelOpenError | None = None
    async with running_server(tmp_path, command_handler=probe) as server:
        strict = await _connect(server.port)
        try:
            chan, _ = await asyncio.wait_for(
                strict.create_session(asyncssh.SSHClientSession, "probe", x11_forwarding=True, **x11), 5
            )
            chan.close()
        except asyncssh.ChannelOpenError as exc:
            error = exc
        finally:
            strict.close()
        lenient = await _connect(server.port)
        try:
            result = await asyncio.wait_for(lenient.run("probe", x11_forwarding="ignore_failure", **x11), 10)
        finally:
            lenient.close()
    assert result.exit_status == 0, result.stderr
    return X11Probe(error, probe.sessions, str(result.stdout))


async def test_x11_forwarding_is_refused_and_the_session_works_without_it(tmp_path: Path) -> None:
    seen = await _probe_x11(tmp_path)
    assert seen.error is not None, "the server accepted x11-req"
    assert seen.error.code == asyncssh.OPEN_REQUEST_X11_FORWARDING_FAILED
    # the server's failure reply, not a client-side problem such as a missing display
    assert seen.error.reason == "X11 forwarding request failed"
    assert [granted.x11_display for granted in seen.granted] == [None]
    assert "x11=None" in seen.output


# ---- TCP / Unix-socket forwarding ---------------------------------------------------------------------------


@dataclass
class ForwardProbe:
    direct_error: Exception | None  # direct-tcpip channel (ssh -W / open_connection) to the target
    local_forward_answer: bytes  # what a connection to a client-side -L listener got back
    remote_error: Exception | None  # tcpip-forward (ssh -R)
    remote_answer: bytes  # through the server's -R listener, when there is one
    target_connections: int


async def _probe_tcp_forwarding(tmp_path: Path, probe: Probe) -> ForwardProbe:
    async with (
        counting_server() as (target_connections, target_port),
        running_server(tmp_path, command_handler=probe) as server,
    ):
        conn = await _connect(server.port)
        try:
            direct_error: Exception | None = None
            try:
                _, channel_writer = await asyncio.wait_for(conn.open_connection(HOST, target_port), 5)
                channel_writer.close()
            except asyncssh.ChannelOpenError as exc:
                direct_error = exc

            # ssh -L: the listener is the client's own; each connection to it asks the server for a channel
            local = await asyncio.wait_for(conn.forward_local_port(HOST, 0, HOST, target_port), 5)
            try:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, local.get_port()), 5)
                writer.write(b"ping")
                local_answer = await _closed_without_answer(reader)
                writer.close()
            finally:
                local.close()

            remote_error: Exception | None = None
            remote_answer = b""
            try:
                remote = await asyncio.wait_for(conn.forward_remote_port(HOST, 0, HOST, target_port), 5)
            except asyncssh.ChannelListenError as exc:
                remote_error = exc
            else:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, remote.get_port()), 5)
                writer.write(b"ping")
                remote_answer = await _closed_without_answer(reader)
                writer.close()
                remote.close()

            # the connection survived all of it: its one session still runs
            result = await asyncio.wait_for(conn.run("probe"), 10)
            assert result.exit_status == 0, result.stderr
        finally:
            conn.close()
        return ForwardProbe(direct_error, local_answer, remote_error, remote_answer, target_connections[0])


async def test_tcp_forwarding_is_refused_both_ways(tmp_path: Path) -> None:
    probe = Probe()
    seen = await _probe_tcp_forwarding(tmp_path, probe)
    assert isinstance(seen.direct_error, asyncssh.ChannelOpenError), "the server opened a direct-tcpip channel"
    assert seen.direct_error.code == asyncssh.OPEN_CONNECT_FAILED
    assert seen.local_forward_answer == b"", "a -L forward reached the target"
    assert isinstance(seen.remote_error, asyncssh.ChannelListenError), "the server listened for a -R forward"
    assert seen.target_connections == 0
    assert len(probe.sessions) == 1  # the session after the refusals


async def test_unix_socket_forwarding_is_refused_both_ways(tmp_path: Path) -> None:
    async with (
        counting_server(tmp_path / "target.sock") as (target_connections, _),
        running_server(tmp_path, command_handler=Probe()) as server,
    ):
        conn = await _connect(server.port)
        try:
            with pytest.raises(asyncssh.ChannelOpenError):
                await asyncio.wait_for(conn.open_unix_connection(str(tmp_path / "target.sock")), 5)
            with pytest.raises(asyncssh.ChannelListenError):
                await asyncio.wait_for(
                    conn.forward_remote_path(str(tmp_path / "remote.sock"), str(tmp_path / "target.sock")), 5
                )
            assert not (tmp_path / "remote.sock").exists()
            assert target_connections[0] == 0
            assert (await asyncio.wait_for(conn.run("probe"), 10)).exit_status == 0
        finally:
            conn.close()


# ---- subsystems ---------------------------------------------------------------------------------------------


async def test_sftp_is_refused(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=SERVER_LOGGER)
    probe = Probe()
    async with running_server(tmp_path, command_handler=probe) as server:
        conn = await _connect(server.port)
        try:
            with pytest.raises(asyncssh.ChannelOpenError) as refused:
                await asyncio.wait_for(conn.start_sftp_client(), 5)
            assert refused.value.code == asyncssh.OPEN_REQUEST_SESSION_FAILED
            assert server.session_count == 0
        finally:
            conn.close()
    assert probe.sessions == []
    assert "refused subsystem 'sftp'" in caplog.text


@pytest.mark.parametrize("subsystem", ["netconf", "scp", "dixit", "x" * 200], ids=["netconf", "scp", "dixit", "long"])
async def test_any_other_subsystem_is_refused(tmp_path: Path, caplog: pytest.LogCaptureFixture, subsystem: str) -> None:
    caplog.set_level(logging.INFO, logger=SERVER_LOGGER)
    probe = Probe()
    async with running_server(tmp_path, command_handler=probe) as server:
        conn = await _connect(server.port)
        try:
            with pytest.raises(asyncssh.ChannelOpenError) as refused:
                await asyncio.wait_for(conn.create_session(asyncssh.SSHClientSession, subsystem=subsystem), 5)
            assert refused.value.code == asyncssh.OPEN_REQUEST_SESSION_FAILED
            assert server.session_count == 0
        finally:
            conn.close()
    assert probe.sessions == []
    assert f"refused subsystem {subsystem[:40]!r}" in caplog.text


# ---- the total cap on unauthenticated connections -----------------------------------------------------------


async def _open_idle(port: int, source_ip: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port, local_addr=(source_ip, 0)), 5)
    assert writer.get_extra_info("sockname")[0] == source_ip
    return reader, writer


async def _wait_admitted(server: DixitAcceptor, count: int) -> None:
    await wait_for(lambda: server.connection_count == count, what=f"{count} connections admitted")


async def test_the_total_unauthenticated_cap_holds_across_addresses(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=SERVER_LOGGER)
    limits = Limits(max_unauthenticated=6, max_unauthenticated_per_ip=3, login_timeout=30.0)
    probe = Probe()
    async with running_server(tmp_path, command_handler=probe, limits=limits) as server:
        idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        try:
            # one from each of six addresses (an address holding more would give one up to make room)
            for number in range(1, 7):
                idle.append(await _open_idle(server.port, f"127.0.0.{10 + number}"))
                await _wait_admitted(server, number)
            for reader, writer in idle:  # the version lines, and then nothing: they never authenticate
                assert (await asyncio.wait_for(reader.readline(), 5)).startswith(b"SSH-2.0-dixit-tui")
                writer.write(b"SSH-2.0-idle\r\n")  # (one without it would be dropped to make room)
            await wait_for(
                lambda: sum(c.sent_version() for c in server._state.logging_in) >= 6, 10, "the version lines read"
            )
            assert "refused" not in caplog.text

            # a fresh address, far below its own cap: refused only because six are logging in, in all
            # (closed by the refusal, not by the login timeout: the wait is far shorter than that)
            started = time.perf_counter()
            reader, writer = await _open_idle(server.port, "127.0.0.4")
            await _closed_without_answer(reader, timeout=limits.login_timeout / 3)
            closed_after = time.perf_counter() - started  # a figure, printed below
            writer.close()
            with pytest.raises((asyncssh.Error, OSError)):
                await _connect(server.port, local_ip="127.0.0.4")
            assert server.connection_count == 6
            refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
            assert refusals and all(
                message.startswith("refused (too many logins in all): 127.0.0.4") for message in refusals
            ), refusals
        finally:
            for _, idle_writer in idle:
                idle_writer.close()

        await wait_for(lambda: server.connection_count == 0, what="the idle sockets released")
        conn = await _connect(server.port, local_ip="127.0.0.5")
        try:
            result = await asyncio.wait_for(conn.run("probe"), 10)
        finally:
            conn.close()
        assert result.exit_status == 0, result.stderr
        assert [granted.peer_ip for granted in probe.sessions] == ["127.0.0.5"]
        print(
            f"total cap: 6 idle sockets from 6 addresses; one more from a 7th address "
            f"was closed in {closed_after * 1000:.0f} ms"
        )


# ---- the probes can fail ------------------------------------------------------------------------------------


async def test_the_probes_see_forwarding_on_a_server_that_allows_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same probes against the server with forwarding switched on must report it (no vacuous passes)."""
    create_server = asyncssh.create_server

    async def permissive_create_server(*args: Any, **kwargs: Any) -> asyncssh.SSHAcceptor:
        kwargs.update(agent_forwarding=True, x11_forwarding=True, x11_auth_path=str(tmp_path / "server.Xauthority"))
        return await create_server(*args, **kwargs)

    monkeypatch.setattr(asyncssh, "create_server", permissive_create_server)
    monkeypatch.setattr(DixitSSHServer, "connection_requested", lambda self, *args: True, raising=False)
    monkeypatch.setattr(DixitSSHServer, "server_requested", lambda self, *args: True, raising=False)
    for name in ("agent", "x11", "tcp"):
        (tmp_path / name).mkdir()

    agent = await _probe_agent(tmp_path / "agent")
    assert agent.reply is True
    assert agent.granted[0].agent_path is not None
    assert agent.agent_connections == 1

    x11 = await _probe_x11(tmp_path / "x11")
    assert x11.error is None
    assert x11.granted[0].x11_display is not None

    tcp = await _probe_tcp_forwarding(tmp_path / "tcp", Probe())
    assert tcp.direct_error is None
    assert tcp.local_forward_answer == b"pong"
    assert tcp.remote_error is None
    assert tcp.remote_answer == b"pong"
    assert tcp.target_connections == 3
