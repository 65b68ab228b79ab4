"""A Textual driver that runs one App over one SSH channel, inside the server's event loop.

It never touches the server's stdin/stdout, termios or signals: input and output are the channel's, the size comes
from the PTY request and window changes. See /work/shared/design/NOTES.md ("The driver").
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import contextvars
import itertools
import logging
import threading
import time
from collections import deque
from collections.abc import Hashable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, TextIO

import asyncssh
from textual import constants, events
from textual.geometry import Size
from textual.message import Message

from dixit_tui.ssh import screen_cast
from dixit_tui.ssh.glyph_forms import in_glyphs
from dixit_tui.ssh.guard import DRAIN_LOW, LOG_RATE, InputGuard, SessionLimits, WorkBudget, output_backlog
from dixit_tui.ssh.input import EventPacer, Pasted, PasteSplitter, PasteTooLarge, Typed
from dixit_tui.ssh.terminal import TerminalInfo, clamp_size
from dixit_tui.ssh.terminal_input import TerminalInput
from dixit_tui.textual_host.compat import KITTY_KEY_FLAGS
from dixit_tui.textual_host.hosted import CastApp, HostedDriver
from dixit_tui.textual_host.input_filter import ESC

if TYPE_CHECKING:
    from textual.app import App

logger = logging.getLogger(__name__)
logger.addFilter(LOG_RATE)

_READ_SIZE = 4096
_FOCUS_REPORTS = (b"\x1b[I", b"\x1b[O")  # the terminal gained or lost the focus (turned on at start: ?1004h)
# Settle held input a little after the escape delay, so a lone ESC is reported as the Esc key.
_TICK_DELAY = constants.ESCAPE_DELAY + 0.01
# Characters parsed and handed on before the reader yields the shared loop.
_CHUNK = 32
# Characters that cost as much as one event to parse (for input that makes no event, e.g. ignored sequences).
_CHARS_PER_EVENT = 8
# What a queued paste counts in the backlog (a flood of small pastes is a flood).
_PASTE_COST = 16
# How long after a session's input is handed on its app's work counts as caused by that input (`cpu_share`).
_INPUT_WORK_WINDOW = 0.5
_HUMAN_EVENTS = 30
"""Input events in the last second below which a session is a person at the keyboard, whose input never waits for
`cpu_share` (floods are hundreds a second)."""
# How long input typed before an EOF may take to be handed on before the session ends.
_EOF_DRAIN = 5.0

DEFAULT_SESSION_LIMITS = SessionLimits()


def _cost(piece: Typed | Pasted) -> int:
    """What a queued piece counts in the backlog (`max_backlog`): typed input by its characters (each may be an
    event), a whole paste as one event (its size is capped by `max_paste`, and the byte rate keeps big ones few)."""
    return _PASTE_COST if isinstance(piece, Pasted) else len(piece.text)


class SSHDriver(HostedDriver):
    """Drives one Textual App over one SSH session (an asyncssh SSHServerProcess with encoding=None)."""

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
        process: asyncssh.SSHServerProcess[bytes],
        terminal: TerminalInfo,
        limits: SessionLimits = DEFAULT_SESSION_LIMITS,
    ) -> None:
        super().__init__(app, debug=False, mouse=mouse, size=size)
        self._process = process
        self._channel = process.channel
        self._terminal = terminal
        self._limits = limits
        self._size = size or clamp_size(terminal.width, terminal.height, limits.max_size)
        self._pending: list[str] = []
        self._flush_handle: asyncio.Handle | None = None
        self._tick_handle: asyncio.TimerHandle | None = None
        self._reader: asyncio.Task[None] | None = None
        self._input: TerminalInput | None = None
        self._splitter = PasteSplitter(limits.max_paste)
        self._pacer = EventPacer(limits.event_rate, limits.event_burst)
        self._backlog: deque[Typed | Pasted] = deque()
        self._backlog_size = 0
        self._drainer: asyncio.Task[None] | None = None
        self._input_disabled = False
        self._output_closed = False
        self._loop_thread = threading.get_ident()
        self._resize_handle: asyncio.TimerHandle | None = None
        self._drain_handle: asyncio.TimerHandle | None = None
        self._stalled_since: float | None = None
        self._resize_wanted: tuple[int, int] | None = None
        self._resized_at = -limits.resize_interval
        self.resizes_asked = 0
        """Window sizes the client asked for (window-change requests and in-band reports)."""
        self.resizes_posted = 0
        """Sizes handed to the app (each a relayout)."""
        self.output_charged = 0
        """Input events' worth of output charged against the input rate."""
        self.work = 0.0
        """Seconds of the event loop's time spent in this session's app (its callbacks and tasks), see `_measured`."""
        self.input_work = 0.0
        """The part of `work` done within `_INPUT_WORK_WINDOW` of this session's own input being handed on: what its
        input costs (the rest is the app following its table, e.g. other players' moves). It counts for `cpu_share`."""
        self.input_until = 0.0
        """Until when (perf_counter) this app's work counts as caused by its input."""
        self.held_until = 0.0
        """Until when (monotonic) this session is over its `cpu_share`: its app's work then runs after other work."""
        self.work_deferred = 0
        """Times a step of this app's work was put behind other sessions' work because it was over its share."""
        self.input_waited = 0.0
        """Seconds of waits imposed on this session's input because its app was over its `cpu_share`."""
        self._budget = WorkBudget(limits.cpu_share, limits.cpu_burst)
        self._recent_input: deque[float] = deque(maxlen=4 * _HUMAN_EVENTS)
        """When (monotonic) the latest input events were handed on or window changes asked for."""
        self._deferred_steps: list[tuple[int, asyncio.Handle]] = []
        """Steps of this app's work put back in the loop's ready queue and not yet run, as (ticket, handle): a heap,
        the earliest scheduled first (see `_measure_session_work`)."""
        self.writes = 0
        self._cast: screen_cast.ScreenCast | None = None
        self.cast_sent = 0
        """Bytes of this session's frames written to the channels of the sessions following it (`join_cast`)."""
        self.cast_received = 0
        """Bytes of another session's frames written to this session's channel while it followed."""
        self.writes_while_following = 0
        """Writes of this session's own app dropped while it followed (an app that follows draws nothing: at most a
        frame it had to draw already as it joined)."""

    # ---- frames -------------------------------------------------------------------------------------

    WATCHER_FRAME_INTERVAL = 0.05
    """Seconds between two takes of the coordinator's updates by a session that is watching (no input of its own for
    `_INPUT_WORK_WINDOW`): a burst of changes (moves in quick succession) is drawn as one frame. A session's own input
    and what it causes are drawn at once (see `dixit_tui.tui.update_pacing`)."""

    def watcher_interval(self) -> float:
        """0 right after this session's own input (its echo and its consequences are never delayed), else
        `WATCHER_FRAME_INTERVAL` (the first update after a quiet spell is still taken at once)."""
        if time.perf_counter() < self.input_until:
            return 0.0
        return self.WATCHER_FRAME_INTERVAL

    # ---- messages -----------------------------------------------------------------------------------

    def send_message(self, message: Message) -> None:
        """Post to the app directly: the driver runs in the app's own loop (a thread hop only if needed)."""
        if threading.get_ident() == self._loop_thread:
            self._app.post_message(message)
        else:
            self._loop.call_soon_threadsafe(self._app.post_message, message)

    # ---- application mode ---------------------------------------------------------------------------

    def start_application_mode(self) -> None:
        width, height = self._size or (self._terminal.width, self._terminal.height)
        self._post_resize(width, height)
        write = self.write
        write("\x1b[?1049h")  # alt screen
        self._enable_mouse_support()
        write("\x1b[?25l")  # hide cursor
        write("\x1b[?1004h")  # focus in/out events
        if KITTY_KEY_FLAGS is not None:
            write(f"\x1b[>{KITTY_KEY_FLAGS}u")  # the Kitty keyboard protocol, as the installed Textual reads it
        if self._terminal.env.get("TERM_PROGRAM") != "Apple_Terminal":
            write("\x1b[?2026$p")  # ask whether synchronized output is supported
        write("\x1b[?2004h")  # bracketed paste
        write("\x1b[?7l")  # no line wrap
        self.flush()
        self._reader = asyncio.create_task(self._read_input(), name="dixit-ssh-input")

    def disable_input(self) -> None:
        if self._input_disabled:
            return
        self._input_disabled = True
        self._disable_mouse_support()
        if self._reader is not None and not self._reader.done():
            self._reader.cancel()
        self._stop_input()

    def stop_application_mode(self) -> None:
        self.leave_cast()  # (before these: the others' terminals must never get this session's exit)
        write = self.write
        write("\x1b[?2004l")  # bracketed paste off
        write("\x1b[?7h")  # line wrap on
        self.disable_input()
        write("\x1b[<u")  # pop the Kitty keyboard mode (before leaving the alt screen)
        write("\x1b[?1049l")  # main screen
        write("\x1b[?25h")  # show cursor
        write("\x1b[?1004l")  # focus events off
        self.flush()

    def close(self) -> None:
        self.leave_cast()
        self.flush()
        self._cancel_tick()
        if self._drain_handle is not None:
            self._drain_handle.cancel()
            self._drain_handle = None
        self._output_closed = True
        self._pending.clear()

    def _enable_mouse_support(self) -> None:
        if self._mouse:
            self.write("\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h")

    def _disable_mouse_support(self) -> None:
        if self._mouse:
            self.write("\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l")

    # ---- output -------------------------------------------------------------------------------------

    def write(self, data: str) -> None:
        """Queue output; it is sent on `flush` (Textual flushes after each frame) or on the next loop turn."""
        if self._output_closed or not data:
            return
        if self._cast is not None and self._cast.members[0] is not self:
            self.writes_while_following += 1  # (its terminal shows another app's frames)
            return
        self.writes += 1
        self._pending.append(data)
        if self._flush_handle is None:
            self._flush_handle = self._loop.call_soon(self.flush)

    def flush(self) -> None:
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        if not self._pending:
            return
        text = "".join(self._pending)
        data = in_glyphs(text, self._terminal.glyphs).encode("utf-8", "replace")
        self._pending.clear()
        if self._output_closed:
            self.leave_cast()
            return
        try:
            self._write_channel(data)
        except OSError:  # channel closed (BrokenPipeError) or connection gone
            self._output_closed = True
            self.leave_cast()  # (its followers get a source that writes)
            return
        cost = len(data) // self._limits.output_per_event
        if cost:  # screen updates are the work this session's input causes: later input waits for them
            self._pacer.charge(cost)
            self.output_charged += cost
        if self._cast is not None:  # (only a source writes: a follower's app's output is dropped in `write`)
            self.cast_sent += self._cast.send(data)
        self._check_drain()

    def _write_channel(self, data: bytes) -> None:
        """Write a frame to the channel as one write to the socket (asyncssh wrote each packet on its own: several
        TCP segments a frame); the packets are gathered in order, encrypted as asyncssh made them."""
        if self._channel.is_closing():  # (closed under the app: its connection may be gone, as `write` would say)
            raise BrokenPipeError("the channel is closed")
        connection = self._channel.get_connection()
        send = getattr(type(connection), "_send", None)
        if send is None or "_send" in vars(connection):  # (not asyncssh's connection as known, or gathering already)
            self._channel.write(data)
            return
        packets: list[bytes] = []
        connection._send = packets.append  # type: ignore[method-assign, assignment]
        try:
            self._channel.write(data)
        finally:
            del connection._send
            if packets:
                send(connection, packets[0] if len(packets) == 1 else b"".join(packets))

    def _check_drain(self) -> None:
        """A client that stops reading (its channel or its socket) holds at most `max_write_buffer` bytes, and is
        dropped once its output has not drained for `drain_timeout` seconds."""
        self._drain_handle = None
        if self._output_closed:
            return
        buffered = output_backlog(self._channel)
        now = self._loop.time()
        problem = None
        if buffered > self._limits.max_write_buffer:
            problem = f"client not reading ({buffered} bytes waiting)"
        elif buffered <= DRAIN_LOW:
            self._stalled_since = None
        elif self._stalled_since is None:
            self._stalled_since = now
            # (in an empty context: cancelled when the session ends, a timer keeps its context until its time comes,
            # and the session's, which holds its app, would stay alive that long)
            self._drain_handle = self._loop.call_later(
                self._limits.drain_timeout, self._check_drain, context=contextvars.Context()
            )
        elif now - self._stalled_since >= self._limits.drain_timeout:
            problem = f"client output not drained for {now - self._stalled_since:.0f}s"
        if problem is not None:
            # Do not let a frozen client's backlog grow, nor keep it for the keepalive to find.
            logger.info("disconnecting a client: %s", problem)
            self._output_closed = True
            self._pending.clear()
            self.leave_cast()
            self._channel.get_connection().abort()

    # ---- a drawing shared with other sessions (`screen_cast`) -------------------------------------

    def join_cast(self, key: Hashable) -> None:
        """Join the cast of the sessions whose apps joined under `key` with the same terminal: its size, the
        characters it is sent (`TerminalInfo.glyphs`), its colours and its mouse reports (what this driver adds to
        the bytes of a frame): members always get the same bytes."""
        if self._cast is not None or self._output_closed or self._input_disabled:
            return
        if self._resize_wanted is not None:  # (a size not handed to the app yet: its drawing is not the terminal's)
            return
        self.flush()  # (what this session's app drew so far is its own)
        self._cast = screen_cast.join(self._full_cast_key(key), self)

    def rekey_cast(self, key: Hashable) -> None:
        """This session draws for its cast, and what it draws is now under `key` (the table moved its picture on, as
        every member's): the cast is filed under it (`screen_cast.rekey`; one filed there already and this one become
        one)."""
        cast = self._cast
        if cast is None or cast.members[0] is not self or self._output_closed or self._resize_wanted is not None:
            return
        screen_cast.rekey(cast, self._full_cast_key(key))

    def _full_cast_key(self, key: Hashable) -> Hashable:
        """The app's `key` with what this driver adds to the bytes of a frame (see `join_cast`)."""
        terminal = self._terminal
        return (key, self._size, terminal.glyphs, terminal.color_system, terminal.no_color, self._mouse)

    def leave_cast(self, *, everyone: bool = False) -> None:
        cast, self._cast = self._cast, None
        if cast is None:
            return
        if everyone:
            screen_cast.disband(cast)
        else:
            screen_cast.leave(cast, self)

    @property
    def in_cast(self) -> bool:
        return self._cast is not None

    @property
    def following(self) -> bool:
        return self._cast is not None and self._cast.members[0] is not self

    def receive_cast(self, data: bytes) -> None:
        """A frame of the source's, written to this session's channel as its own would be (a client that stops
        reading is dropped as always; a closed one leaves the cast)."""
        if not self._output_closed:
            try:
                self._write_channel(data)
            except OSError:
                self._output_closed = True
            else:
                self.cast_received += len(data)
                self._check_drain()
        if self._output_closed:
            self.leave_cast()

    def cast_role(self, role: screen_cast.CastRole) -> None:
        if role == "left":
            self._cast = None
        app = self._app
        if isinstance(app, CastApp):
            app.cast_role_changed(role)

    def cast_moved(self, cast: screen_cast.ScreenCast) -> None:
        self._cast = cast

    def _had_input(self) -> None:
        """Input of this session's own came (handed to its app later): it no longer follows another's frames."""
        self.last_input = time.monotonic()
        if self._cast is not None:
            self.leave_cast()

    # ---- input --------------------------------------------------------------------------------------
    # The reader guards input as it comes (a flood disconnects) and queues it; the drainer hands it to the app a few
    # events at a time, paced, so one client's flood neither stalls the loop nor grows a queue without bound.

    async def _read_input(self) -> None:
        self._input = terminal_input = TerminalInput()
        decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        guard = InputGuard(self._limits)
        splitter = self._splitter
        stdin = self._process.stdin
        try:
            while True:
                try:
                    data = await stdin.read(_READ_SIZE)
                except asyncssh.TerminalSizeChanged as change:
                    self._had_input()
                    self._post_resize(change.width, change.height)
                    continue
                except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                    continue
                except Exception as error:  # connection lost or channel closed
                    logger.debug("input ended: %r", error)
                    break
                if data and data.replace(_FOCUS_REPORTS[0], b"").replace(_FOCUS_REPORTS[1], b""):
                    self._had_input()  # (a focus report is the terminal's, not the person's: they pressed nothing)
                if not data:  # EOF: what was typed before it still counts
                    if self._drainer is not None:
                        with contextlib.suppress(asyncio.TimeoutError):
                            await asyncio.wait_for(asyncio.shield(self._drainer), _EOF_DRAIN)
                    break
                problem = guard.check(len(data))
                if problem is None:
                    try:
                        self._enqueue(terminal_input.split(splitter.feed(decode(data))))
                    except PasteTooLarge:
                        problem = "paste too large"
                if problem is None and self._backlog_size > self._limits.max_backlog:
                    problem = "input flood"
                if problem is not None:
                    logger.warning("disconnecting a client: %s", problem)
                    self._channel.get_connection().abort()
                    break
                self._after_input()
        finally:
            self._stop_input()
        # The client went away (EOF or connection loss): end the app; Textual then stops this driver.
        self._output_closed = True
        self.leave_cast()
        self._app.exit()

    def _enqueue(self, pieces: list[Typed | Pasted]) -> None:
        for piece in pieces:
            self._backlog.append(piece)
            self._backlog_size += _cost(piece)
        if self._backlog and self._drainer is None:
            self._cancel_tick()
            self._drainer = asyncio.create_task(self._drain(), name="dixit-ssh-input-drain")

    async def _drain(self) -> None:
        backlog = self._backlog
        try:
            while backlog and self._input is not None:
                piece = backlog.popleft()
                if isinstance(piece, Pasted):
                    self._backlog_size -= _cost(piece)
                    await self._hand_on([events.Paste(piece.text)], 1)
                    continue
                text = piece.text
                if text.startswith(ESC):
                    # Whole escape sequences (or Esc keys), the ones queued after it too, up to a chunk's worth: a
                    # run of mouse moves is handed on as its last one.
                    messages = self._input.parse(text)
                    size = len(text)
                    while size < _CHUNK and backlog and isinstance(backlog[0], Typed) and backlog[0].text[:1] == ESC:
                        following = backlog.popleft().text
                        size += len(following)
                        messages += self._input.parse(following)
                    self._backlog_size -= size
                    await self._hand_on(messages, max(len(messages), size // _CHARS_PER_EVENT))
                    continue
                for start in range(0, len(text), _CHUNK):
                    if self._input is None:
                        return
                    chunk = text[start : start + _CHUNK]
                    self._backlog_size -= len(chunk)
                    # Charged by events, and by characters too: input that makes no event still costs parsing.
                    messages = self._input.parse(chunk)
                    await self._hand_on(messages, max(len(messages), len(chunk) // _CHARS_PER_EVENT))
        except Exception:  # a bug here must not leave the session deaf, nor count input that is gone
            logger.exception("handing input to the app failed")
            backlog.clear()
            self._backlog_size = 0
        finally:
            self._drainer = None
        self._after_input()

    async def _hand_on(self, messages: list[Message], cost: int) -> None:
        """Give a few events to the app, then yield the loop (for longer when this session is over its rate, or its
        app over its share of the loop's time)."""
        wait = self._pacer.take(cost)
        over = self._over_share()
        if over > wait:
            self.input_waited += over - wait
            wait = over
        last = len(messages) - 1
        for index, message in enumerate(messages):
            # A run of mouse moves ends where the last one points: only that one is worth handling.
            if (
                index < last
                and isinstance(message, events.MouseMove)
                and isinstance(messages[index + 1], events.MouseMove)
            ):
                continue
            self._deliver(message)
        self._recent_input.extend(itertools.repeat(time.monotonic(), len(messages)))
        self.input_until = time.perf_counter() + _INPUT_WORK_WINDOW
        await asyncio.sleep(wait)

    def _over_share(self) -> float:
        """How long this session's input should wait because its app used more than its `cpu_share` (0 when within
        it, and always 0 at a person's pace: see `_HUMAN_EVENTS`); while it is over, its app's work runs after other
        work (`held_until`)."""
        now = time.monotonic()
        recent = self._recent_input
        while recent and recent[0] < now - 1.0:
            recent.popleft()
        if len(recent) < _HUMAN_EVENTS:
            return 0.0
        over = self._budget.wait(self.input_work)
        if over > 0:
            self.held_until = time.monotonic() + over
        return over

    def _deliver(self, message: Message) -> None:
        if isinstance(message, events.Resize):  # an in-band resize report: clamped like the PTY's own size
            self._post_resize(message.size.width, message.size.height)
            return
        self.process_message(message)

    def _after_input(self) -> None:
        """Once input is handed on: settle held input (a lone ESC is the Esc key) if nothing else comes soon."""
        if self._drainer is not None or self._input is None:
            return
        self._cancel_tick()
        self._tick_handle = self._loop.call_later(_TICK_DELAY, self._tick)

    def _cancel_tick(self) -> None:
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None

    def _tick(self) -> None:
        """The escape delay passed with no more input: whatever waited for more is what it is (Esc, Esc and [...)."""
        self._tick_handle = None
        terminal_input = self._input
        if terminal_input is None or self._drainer is not None:
            return
        # The start of a paste marker, and nothing more came: typed input. Then what the filter holds is settled.
        pieces = terminal_input.split(self._splitter.flush())
        pieces += terminal_input.settle()
        for piece in pieces:
            if isinstance(piece, Typed):  # (a paste is never held)
                for message in terminal_input.parse(piece.text):
                    self._deliver(message)

    def _stop_input(self) -> None:
        self._cancel_tick()
        if self._resize_handle is not None:
            self._resize_handle.cancel()
            self._resize_handle = None
        if self._drainer is not None:
            self._drainer.cancel()
            self._drainer = None
        self._backlog.clear()
        self._backlog_size = 0
        terminal_input, self._input = self._input, None
        if terminal_input is not None:
            terminal_input.close()

    def _post_resize(self, width: int, height: int) -> None:
        """A new window size: handed to the app at most once per `resize_interval` (each is a relayout of the whole
        screen); sizes asked for in between are coalesced, the last one wins."""
        self.resizes_asked += 1
        self._recent_input.append(time.monotonic())
        self._resize_wanted = clamp_size(width, height, self._limits.max_size)
        if self._resize_handle is not None:
            return
        wait = self._resized_at + self._limits.resize_interval - self._loop.time()
        if wait > 0:
            self._resize_handle = self._loop.call_later(wait, self._apply_resize)
        else:
            self._apply_resize()

    def _apply_resize(self) -> None:
        self._resize_handle = None
        wanted, self._resize_wanted = self._resize_wanted, None
        if wanted is None or self._input_disabled:
            return
        asked = self.resizes_posted > 0  # (the first size is the app's start, not something the client asked for)
        over = self._over_share() if asked else 0.0
        if over > 0:  # over its share of the loop: the relayout waits too (the last size asked for wins)
            self.input_waited += over
            self._resize_wanted = wanted
            self._resize_handle = self._loop.call_later(over, self._apply_resize)
            return
        self._resized_at = self._loop.time()
        self.resizes_posted += 1
        self._size = wanted
        size = Size(*wanted)
        if asked:  # the relayout is work this session asked for
            self.input_until = time.perf_counter() + _INPUT_WORK_WINDOW
        self._app.post_message(events.Resize(size, size))

    # ---- things a server must not do for a remote user ---------------------------------------------

    def open_url(self, url: str, new_tab: bool = True) -> None:
        """Refused: the base driver would open a browser on the SERVER."""
        logger.warning("refused open_url(%r) from an SSH session", url[:200])

    def deliver_binary(
        self,
        binary: BinaryIO | TextIO,
        *,
        delivery_key: str,
        save_path: Path,
        open_method: Literal["browser", "download"] = "download",
        encoding: str | None = None,
        mime_type: str | None = None,
        name: str | None = None,
    ) -> None:
        """Refused: the base driver would write a file on the SERVER. The app gets DeliveryFailed."""
        logger.warning("refused deliver_binary(%r) from an SSH session", str(save_path)[:200])
        with contextlib.suppress(Exception):
            binary.close()
        error = PermissionError("file delivery is not available over SSH")
        self._app.post_message(events.DeliveryFailed(key=delivery_key, exception=error, name=name))
