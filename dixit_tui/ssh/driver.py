"""A Textual driver that runs one App over one SSH channel, inside the server's event loop.

Unlike LinuxDriver it never touches the server's own stdin/stdout, termios or signal handlers: input comes
from an asyncio reader task on the channel, output goes to the channel, the size comes from the PTY request
and window-change messages. See /work/shared/design/NOTES.md ("The driver").
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import contextvars
import heapq
import itertools
import logging
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, TextIO, cast

import asyncssh
from rich.color import ColorSystem
from rich.console import Console
from rich.style import Style
from textual import constants, events
from textual._xterm_parser import XTermParser
from textual.color import Color
from textual.driver import Driver
from textual.filter import ANSIToTruecolor, LineFilter
from textual.geometry import Size
from textual.message import Message
from textual.strip import SGR_STYLES, Strip

from dixit_tui.ssh.ascii_forms import ascii_forms
from dixit_tui.ssh.guard import DRAIN_LOW, LOG_RATE, InputGuard, SessionLimits, WorkBudget, output_backlog
from dixit_tui.ssh.input import ESC, EventPacer, Pasted, PasteSplitter, PasteTooLarge, SequenceFilter, Typed
from dixit_tui.ssh.terminal import TerminalInfo, clamp_size

if TYPE_CHECKING:
    from textual.app import App

logger = logging.getLogger(__name__)
logger.addFilter(LOG_RATE)

_READ_SIZE = 4096
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
"""Input events (keys, mouse reports, window changes asked for) in the last second below which a session counts as a
person at the keyboard: its input never waits for `cpu_share` (a fast typist at a table that moves under them, whose
app redraws much, must not be slowed). Floods (hundreds a second) are far above it."""
# How many times one step of an over-budget session's work may be put behind other work.
_MAX_DEFERRALS = 20
# How many of the next callbacks in the ready queue a held session's step looks at for other work waiting
_SCAN_LIMIT = 32
# How long input typed before an EOF may take to be handed on before the session ends.
_EOF_DRAIN = 5.0

_KeyTuple = tuple[str, str | None]

DEFAULT_SESSION_LIMITS = SessionLimits()


@lru_cache(maxsize=1024)
def _parse_extended_key(sequence: str) -> tuple[_KeyTuple, ...] | None:
    """Textual's Kitty-key parsing, cached on the sequence only and holding plain tuples.

    Textual caches `XTermParser._parse_extended_key` with an lru_cache on the method, so the cache keys
    pin every parser (and its app) that ever typed a key, and the cached Key events pin their sender app.
    """
    parse = XTermParser._parse_extended_key.__wrapped__
    keys: list[events.Key] | None = parse(XTermParser, sequence)
    if keys is None:
        return None
    return tuple((key.key, key.character) for key in keys)


def _cost(piece: Typed | Pasted) -> int:
    """What a queued piece counts in the backlog (`max_backlog`): typed input by its characters (each may be an
    event), a whole paste as one event (its size is capped by `max_paste`, and the byte rate keeps big ones few)."""
    return _PASTE_COST if isinstance(piece, Pasted) else len(piece.text)


class SessionParser(XTermParser):
    """XTermParser without the per-instance lru_cache (see `_parse_extended_key`)."""

    def _parse_extended_key(self, sequence: str) -> list[events.Key] | None:  # type: ignore[override]
        parsed = _parse_extended_key(sequence)
        if parsed is None:
            return None
        return [events.Key(key, character) for key, character in parsed]

    @property
    def waiting(self) -> bool:
        """The parser is inside an escape sequence it has not matched yet (it would take the next keys into it)."""
        return self._awaiting.timeout is not None

    def carry_over(self, old: XTermParser) -> None:
        """Take over what an earlier parser of the same session knew about the terminal (mouse and size)."""
        self.last_x, self.last_y = old.last_x, old.last_y
        self.mouse_pixels = old.mouse_pixels
        self.terminal_size, self.terminal_pixel_size = old.terminal_size, old.terminal_pixel_size

    def close(self) -> None:
        """End the parser's generator so it releases everything it holds."""
        with contextlib.suppress(Exception):
            for _ in self.feed(""):
                pass


class TerminalInput:
    """A session's typed input turned into events: checked by a SequenceFilter, then read by Textual's parser.

    Every piece is either events or dropped; the parser never waits inside a sequence (the filter hands on whole
    ones, and one the parser does not know is dropped with a fresh parser), and should it ever fail, the input is
    dropped (a WARNING once per session, no traceback) and a fresh parser reads what follows.
    """

    def __init__(self) -> None:
        self._filter = SequenceFilter()
        self._parser = SessionParser()
        self._failed = False

    def split(self, pieces: list[Typed | Pasted]) -> list[Typed | Pasted]:
        """Typed input cut into plain text runs and whole, checked escape sequences; pastes stay as they are."""
        out: list[Typed | Pasted] = []
        for piece in pieces:
            if isinstance(piece, Pasted):
                out += map(Typed, self._filter.flush())  # what was held before the paste is settled first
                out.append(piece)
            else:
                out += map(Typed, self._filter.feed(piece.text))
        return out

    def settle(self) -> list[Typed]:
        """The escape delay passed with no more input: what was held (a lone ESC is the Esc key)."""
        return list(map(Typed, self._filter.flush()))

    def parse(self, text: str) -> list[Message]:
        """The events of one piece from `split`/`settle`: plain text, or one whole escape sequence (ESC alone is the
        Esc key)."""
        if text == ESC:
            return [events.Key("escape", ESC)]
        parser = self._parser
        try:
            messages = list(parser.feed(text))
        except Exception as error:
            if not self._failed:
                self._failed = True
                logger.warning(
                    "dropped input the terminal parser could not read (%s: %.80s)", type(error).__name__, error
                )
            else:
                logger.debug("dropped input the terminal parser could not read: %r", error)
            self._new_parser()
            return []
        if parser.waiting:  # a whole sequence the parser does not know: it must not take the next keys into it
            logger.debug("dropped an unknown escape sequence %r", text[:40])
            self._new_parser()
        return messages

    def close(self) -> None:
        self._parser.close()

    def _new_parser(self) -> None:
        old, self._parser = self._parser, SessionParser()
        self._parser.carry_over(old)
        old.close()


class SSHDriver(Driver):
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
        self.frames = 0
        """Screen updates drawn for the client."""
        self.frames_held = 0
        """Drawings and screen update ticks put off because this session is watching (see `frame_due`)."""
        self._last_frame = -float("inf")
        self._held_timers: list[Any] = []
        """Update timers of this app's screens paused while a drawing is put off (see `hold_frame`)."""
        self._due_handle: asyncio.TimerHandle | None = None
        self._writes = 0
        self.socket_writes = 0
        """Writes of this session's output to its connection's socket (one per frame, see `_write_channel`)."""

    @property
    def username(self) -> str:
        """The SSH user name the session logged in with (for logs and tests)."""
        return str(self._process.get_extra_info("username") or "")

    # ---- frames -------------------------------------------------------------------------------------

    WATCHER_FRAME_INTERVAL = 0.05
    """Seconds between two screen updates of a session that is watching (no input of its own for
    `_INPUT_WORK_WINDOW`): a burst of changes (moves in quick succession, the table's follow-up redraws) is drawn as
    one frame. A session's own input is drawn at once."""

    def frame_due(self) -> bool:
        """Whether the app may draw a screen update now: always right after this session's own input (its echo is
        never delayed), else at most one per `WATCHER_FRAME_INTERVAL` (the first after a quiet spell at once)."""
        if time.perf_counter() < self.input_until:
            return True
        return self._loop.time() - self._last_frame >= self.WATCHER_FRAME_INTERVAL

    def hold_frame(self, timer: Any) -> None:
        """A screen's drawing is put off (`frame_due` said no): its update timer (`timer`) sleeps until the frame is
        due, instead of ticking 60 times a second to ask again. Input of this session resumes it at once (its
        refreshes do)."""
        timer.pause()
        if timer not in self._held_timers:
            self._held_timers.append(timer)
        if self._due_handle is None:
            wait = self._last_frame + self.WATCHER_FRAME_INTERVAL - self._loop.time()
            self._due_handle = self._loop.call_later(max(0.0, wait), self._frame_due_now)

    def _frame_due_now(self) -> None:
        self._due_handle = None
        timers, self._held_timers = self._held_timers, []
        for timer in timers:
            timer.resume()

    def draw_held_now(self) -> None:
        """What this session holds back is drawn at once (as if its last frame were long ago; for tests)."""
        self._last_frame = -float("inf")
        if self._due_handle is not None:
            self._due_handle.cancel()
        self._frame_due_now()

    # ---- capabilities -------------------------------------------------------------------------------

    @property
    def is_headless(self) -> bool:
        return False

    @property
    def is_inline(self) -> bool:
        return False

    @property
    def is_web(self) -> bool:
        return False

    @property
    def can_suspend(self) -> bool:
        return False

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
        if not constants.DISABLE_KITTY_KEY:
            # Kitty keyboard protocol: disambiguate escape codes | report all keys | associated text.
            write("\x1b[>25u")
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
        self.flush()
        self._cancel_tick()
        if self._due_handle is not None:
            self._due_handle.cancel()
            self._due_handle = None
        self._held_timers.clear()
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
        self._writes += 1
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
        data = (text if self._terminal.utf8 else ascii_forms(text)).encode("utf-8", "replace")
        self._pending.clear()
        if self._output_closed:
            return
        try:
            self._write_channel(data)
        except OSError:  # channel closed (BrokenPipeError) or connection gone
            self._output_closed = True
            return
        cost = len(data) // self._limits.output_per_event
        if cost:  # screen updates are the work this session's input causes: later input waits for them
            self._pacer.charge(cost)
            self.output_charged += cost
        self._check_drain()

    def _write_channel(self, data: bytes) -> None:
        """Write a frame to the channel as one write to the connection's socket: asyncssh sends each channel packet
        behind an empty SSH_MSG_IGNORE packet, and each of them as a write of its own to the socket (two sends, two TCP
        segments for every frame). Here the packets a frame makes are gathered and written together, in the same
        order, encrypted as asyncssh made them."""
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
                self.socket_writes += 1
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
            self._channel.get_connection().abort()

    # ---- input --------------------------------------------------------------------------------------
    #
    # The reader takes input as fast as it comes, guards it (a byte-rate flood or an endless paste disconnects
    # the client), cuts bracketed pastes out, and queues the pieces. The drainer hands them to the app through
    # the parser, a few events at a time and paced, yielding to the shared loop in between: one client's key
    # flood can neither stall every session nor grow a queue without bound (`max_backlog`).

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
                    self._post_resize(change.width, change.height)
                    continue
                except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                    continue
                except Exception as error:  # connection lost or channel closed
                    logger.debug("input ended: %r", error)
                    break
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


# ---- process-global Textual behaviour, made safe for many apps in one process -------------------------

_patched = False


def install_textual_patches() -> None:
    """Make Textual safe for concurrent apps with different terminals in one process. Idempotent.

    1. `App.run` redirects the process-wide sys.stdout/sys.stderr into the app; with overlapping sessions
       sys.stdout would be left pointing at a dead app. Skipped for apps driven by SSHDriver (apps with
       other drivers, e.g. Pilot in tests, keep the normal behaviour).
    2. Rich and Textual cache a style's ANSI codes on the shared Style object (`style._ansi`) whatever the
       colour system: the first session's colour system then leaks into every other session (256-colour
       codes sent to a 16-colour terminal). Strip rendering is made to use its per-colour-system cache.
    3. A session that is watching draws at most one screen update per `SSHDriver.WATCHER_FRAME_INTERVAL`
       (`_pace_watchers_frames`).
    4. A line that Textual's ANSI-to-truecolor filter would leave as it is (no ANSI colour, no dim) is not copied
       into a new strip on every render (`_apply_filter`).
    5. A line is sent with its style codes only where the style changes (`_render_strip`).
    """
    global _patched
    if _patched:
        return
    import textual.app as textual_app

    namespace = vars(textual_app)
    namespace["redirect_stdout"] = _skip_for_ssh_apps(namespace["redirect_stdout"])
    namespace["redirect_stderr"] = _skip_for_ssh_apps(namespace["redirect_stderr"])
    Strip.render_style = classmethod(_render_style)  # type: ignore[method-assign, assignment]
    Strip.apply_filter = _apply_filter  # type: ignore[method-assign]
    Strip.render = _render_strip  # type: ignore[method-assign]
    _pace_watchers_frames()
    _measure_session_work()
    _patched = True


_DRAW_PENDING = "_dixit_draw_pending"
"""Set on a screen whose drawing was put off (see `_pace_watchers_frames`)."""
_DRAWN = "_dixit_drawn"
"""Set on a screen once it has drawn (its first drawing is never put off)."""


def _pace_watchers_frames() -> None:
    """3. An app driven by SSHDriver draws its top screen only when `SSHDriver.frame_due` says so (a screen's first
    drawing always at once). A screen draws on its update timer's ticks (60 a second) and right after a layout (a
    resize, a screen shown); a drawing put off keeps the timer on, and a later tick draws everything pending at once
    (the layouts in between still run, so sizes and Resize events are as before). Apps with other drivers are
    unchanged."""
    from textual.screen import Screen

    timer_update = Screen._on_timer_update
    compositor_refresh = Screen._compositor_refresh

    def paced_compositor_refresh(self: Screen[Any]) -> None:
        app = self.app
        driver = app._driver
        if not isinstance(driver, SSHDriver) or self is not app.screen or app.is_inline:
            compositor_refresh(self)
            return
        if getattr(self, _DRAWN, False) and not driver.frame_due():
            setattr(self, _DRAW_PENDING, True)
            driver.frames_held += 1
            driver.hold_frame(self._update_timer)  # (its tick draws it once due)
            return
        setattr(self, _DRAW_PENDING, False)
        writes = driver._writes
        compositor_refresh(self)
        if driver._writes != writes:
            setattr(self, _DRAWN, True)
            driver.frames += 1
            driver._last_frame = driver._loop.time()

    def paced_timer_update(self: Screen[Any]) -> None:
        driver = self.app._driver
        if isinstance(driver, SSHDriver) and not driver.frame_due():
            driver.frames_held += 1
            driver.hold_frame(self._update_timer)  # (its tick once due draws)
            return
        timer_update(self)
        if getattr(self, _DRAW_PENDING, False) and self.is_current and not self.app._batch_count:
            paced_compositor_refresh(self)  # a drawing put off, and nothing since drew it

    Screen._on_timer_update = paced_timer_update  # type: ignore[method-assign]
    Screen._compositor_refresh = paced_compositor_refresh  # type: ignore[method-assign]


_measuring = False
"""Whether `Handle._run` is patched (see `_measure_session_work`)."""
_unmeasured_run: Callable[[asyncio.Handle], None] | None = None
"""asyncio's own `Handle._run`, once patched."""
_measured_runs = 0
"""Callbacks and task steps that went through the patched `Handle._run` (how `check_work_measured` sees it works)."""


def _measure_session_work() -> None:
    """Count the event loop's time in each SSH session's app: every callback and task step runs in a context, and
    Textual's tasks carry their app in it (`active_app`). The time goes to that app's SSHDriver (`work`; within half a
    second of its input or of a window resize also `input_work`, which makes the session's input wait when it is more
    than `cpu_share`). While a session is over its share, a step of its app's work that finds other work waiting to
    run goes to the end of the loop's ready queue (up to `_MAX_DEFERRALS` times), so a flooding session's frames do
    not delay everyone. A session's steps still run in the order they were scheduled: once one is put back, its later
    ones are put back behind it. The table's own work (timers, bots) runs in a fresh context and is nobody's.

    Only for asyncio's own event loop (its `Handle` and `_ready` queue); elsewhere nothing is patched or measured and
    `check_work_measured` says so in the log."""
    global _measuring, _unmeasured_run
    from textual._context import active_app

    handle_class = asyncio.events.Handle
    run = getattr(handle_class, "_run", None)
    if run is None or not callable(run):  # (`check_work_measured` says so at the server's start)
        return
    clock = time.perf_counter
    deferrals: weakref.WeakKeyDictionary[asyncio.Handle, int] = weakref.WeakKeyDictionary()
    tickets: weakref.WeakKeyDictionary[asyncio.Handle, int] = weakref.WeakKeyDictionary()
    next_ticket = itertools.count()

    def driver_of(handle: asyncio.Handle) -> SSHDriver | None:
        context = getattr(handle, "_context", None)
        app = context.get(active_app) if context is not None else None
        driver = getattr(app, "_driver", None) if app is not None else None
        return driver if isinstance(driver, SSHDriver) else None

    def others_ready(ready: deque[asyncio.Handle], now: float) -> bool:
        """Work of the server or of a session within its share is waiting to run (among the next few in the queue;
        cancelled callbacks are not work)."""
        for other in itertools.islice(ready, _SCAN_LIMIT):
            if other._cancelled:
                continue
            driver = driver_of(other)
            if driver is None or driver.held_until <= now:
                return True
        return False

    def defer(
        driver: SSHDriver, handle: asyncio.Handle, ticket: int, ready: deque[asyncio.Handle], *, push: bool
    ) -> None:
        if push:  # (a step put back and not yet run again is in `_deferred_steps` once)
            heapq.heappush(driver._deferred_steps, (ticket, handle))
        deferrals[handle] = deferrals.get(handle, 0) + 1
        driver.work_deferred += 1
        ready.append(handle)

    def charge(driver: SSHDriver, started: float, ended: float) -> None:
        driver.work += ended - started
        if started < driver.input_until:
            driver.input_work += ended - started

    def measured_run(handle: asyncio.Handle) -> None:
        global _measured_runs
        _measured_runs += 1
        driver = driver_of(handle)
        if driver is None:
            run(handle)
            return
        started = clock()
        waiting = driver._deferred_steps
        if waiting or driver.held_until > time.monotonic():
            ready: deque[asyncio.Handle] | None = getattr(handle._loop, "_ready", None)  # type: ignore[attr-defined]
            if ready is not None and isinstance(ready, deque):
                while waiting and waiting[0][1]._cancelled:
                    heapq.heappop(waiting)  # a step put back, then cancelled: asyncio drops it, so must we
                ticket = tickets.get(handle)
                if ticket is None:
                    ticket = tickets[handle] = next(next_ticket)
                if waiting and waiting[0][0] < ticket:
                    # An earlier step of this session was put back: this one runs after it.
                    defer(driver, handle, ticket, ready, push=handle not in deferrals)
                    charge(driver, started, clock())
                    return
                if waiting and waiting[0][0] == ticket:
                    heapq.heappop(waiting)
                # Over its share: this step runs after the work waiting now (a few times at most), so the other
                # sessions' small steps (a login, a key) do not queue behind the flooding session's frames.
                if (
                    driver.held_until > time.monotonic()
                    and deferrals.get(handle, 0) < _MAX_DEFERRALS
                    and others_ready(ready, time.monotonic())
                ):
                    defer(driver, handle, ticket, ready, push=True)
                    charge(driver, started, clock())
                    return
            else:
                waiting.clear()
        try:
            run(handle)
        finally:
            charge(driver, started, clock())

    asyncio.events.Handle._run = measured_run  # type: ignore[method-assign, assignment]
    _unmeasured_run = run
    _measuring = True


async def check_work_measured() -> bool:
    """At server start: whether the running loop's work is measured per session (asyncio's own loop, with its
    ready queue, running the patched `Handle._run`). If not, one WARNING says `cpu_share` is inactive. Never raises."""
    try:
        install_textual_patches()
        loop = asyncio.get_running_loop()
        reason = None
        if not _measuring:
            reason = "asyncio.Handle could not be patched"
        elif not isinstance(loop, asyncio.BaseEventLoop) or not isinstance(getattr(loop, "_ready", None), deque):
            reason = f"the event loop ({type(loop).__module__}.{type(loop).__name__}) is not asyncio's own"
        else:
            before = _measured_runs
            await asyncio.sleep(0)  # one task step through the loop's ready queue
            if _measured_runs == before:
                reason = "the event loop does not run callbacks through asyncio.Handle._run"
    except Exception as error:  # a check must never stop the server
        reason = f"checking failed ({error!r})"
    if reason is None:
        return True
    logger.warning("cpu_share is inactive: %s; sessions' work is not measured nor put back", reason)
    return False


def _skip_for_ssh_apps(
    redirect: Callable[[Any], contextlib.AbstractContextManager[Any]],
) -> Callable[[Any], contextlib.AbstractContextManager[Any]]:
    def maybe_redirect(target: Any) -> contextlib.AbstractContextManager[Any]:
        driver = getattr(getattr(target, "app", None), "_driver", None)
        if isinstance(driver, SSHDriver):
            return contextlib.nullcontext(target)
        return redirect(target)

    return maybe_redirect


def _render_style(cls: type[Strip], style: Style, text: str, color_system: ColorSystem) -> str:
    """Textual's Strip.render_style without the colour-system-blind `style._ansi` shortcut."""
    ansi = cls.render_ansi(style, color_system)
    output = f"\x1b[{ansi}m{text}\x1b[0m" if ansi else text
    if style._link:
        output = f"\x1b]8;id={style._link_id};{style._link}\x1b\\{output}\x1b]8;;\x1b\\"
    return output


_Codes = tuple[frozenset[str], str, str]
"""A style's SGR codes: its attributes' codes, its colour's, its background's ("" for none)."""
_NO_CODES: _Codes = (frozenset(), "", "")


@lru_cache(maxsize=16384)
def _style_codes(style: Style, color_system: ColorSystem) -> tuple[_Codes, str]:
    """A style's SGR codes, and all of them as Textual sends them (`Strip.render_ansi`, the same order)."""
    attributes = style._attributes & style._set_attributes
    names = [code for bit, code in enumerate(SGR_STYLES) if attributes & (1 << bit)]
    color = ";".join(style._color.downgrade(color_system).get_ansi_codes()) if style._color is not None else ""
    bgcolor = (
        ";".join(style._bgcolor.downgrade(color_system).get_ansi_codes(False)) if style._bgcolor is not None else ""
    )
    return (frozenset(names), color, bgcolor), ";".join(filter(None, [*names, color, bgcolor]))


def _sgr_change(current: _Codes, new: _Codes, full: str) -> str:
    """The SGR sequence that takes the terminal from the style `current` to `new`: only what changes when `new` keeps
    every attribute of `current` (bold stays bold), else a reset and all of `new`'s codes."""
    attributes, color, bgcolor = current
    new_attributes, new_color, new_bgcolor = new
    if not attributes <= new_attributes:
        return f"\x1b[0;{full}m" if full else "\x1b[0m"
    codes = sorted(new_attributes - attributes, key=SGR_STYLES.index)
    if new_color != color:
        codes.append(new_color or "39")
    if new_bgcolor != bgcolor:
        codes.append(new_bgcolor or "49")
    return f"\x1b[{';'.join(codes)}m"


def _render_strip(self: Strip, console: Console) -> str:
    """Textual's Strip.render, with fewer bytes for the same screen: Textual sends each segment as its style's codes,
    its text and a reset (`ESC[1;97;40mdan ESC[0m ESC[1;97;40m, ESC[0m`), also between segments of the same style.
    Here only what changes from one segment's style to the next is sent (nothing for the same style, `ESC[46m` for a
    new background; a reset with the new codes in one sequence when an attribute ends), and one reset at the end:
    each character is drawn with the same attributes and colours as with Textual's, and the terminal is left the
    same after the line (reset). A segment with a link is sent Textual's way.

    The line as sent is kept per colour system (`_renders`), not on the strip as Textual does: sessions share strips
    (the same line drawn once for every session showing it, see `dixit_tui.tui.line_cache`), and their terminals
    may take different colour codes."""
    color_system = console._color_system or ColorSystem.TRUECOLOR
    key = (id(self), color_system)
    kept = _renders.get(key)
    if kept is not None and kept[0] is self:
        return kept[1]
    parts: list[str] = []
    append = parts.append
    current = _NO_CODES  # the codes in force (none, as after a reset)
    for text, style, _ in self._segments:
        if style is None:
            codes, full = _NO_CODES, ""
        elif style._link:
            if current != _NO_CODES:
                append("\x1b[0m")
                current = _NO_CODES
            append(_render_style(Strip, style, text, color_system))
            continue
        else:
            codes, full = _style_codes(style, color_system)
        if codes != current:
            append(_sgr_change(current, codes, full))
            current = codes
        append(text)
    if current != _NO_CODES:
        append("\x1b[0m")
    line = "".join(parts)
    if len(_renders) >= _RENDERS_KEPT:
        _renders.clear()
    _renders[key] = (self, line)
    return line


_RENDERS_KEPT = 2048
"""Lines kept as sent by `_render_strip` (the latest drawn; a screen update sends a few, a whole screen some 100)."""
_renders: dict[tuple[int, ColorSystem], tuple[Strip, str]] = {}
"""(id of a strip, colour system) -> (the strip, the line as sent): the strip is kept with it, so the id is its own."""


_UNCHANGED: Any = object()
"""Kept in a strip's filter cache for a filter that leaves the strip as it is (the strip itself there would be a
reference cycle)."""


@lru_cache(maxsize=4096)
def _truecolor_changes(style: Style) -> bool:
    """Whether `ANSIToTruecolor.truecolor_style` changes `style`: an ANSI (palette) colour or background, or dim text
    with a colour (whatever the background)."""
    color, bgcolor = style.color, style.bgcolor
    return (color is not None and (color.triplet is None or bool(style.dim))) or (
        bgcolor is not None and bgcolor.triplet is None
    )


_ANY_TRUECOLOR: Any = (ANSIToTruecolor, None)
"""The key, in a strip's filter cache, of "every `ANSIToTruecolor` leaves this strip as it is" (whatever its theme
and the background: see `_truecolor_changes`). Each session has its own filter object, and a strip's filter cache
holds four: keyed by the filter, the answer was worked out again at each session for the same shared strip (and a
strip it changes was copied again for each: it is kept by the filter's theme and the background)."""


def _apply_filter(self: Strip, filter: LineFilter, background: Color) -> Strip:
    """Textual's Strip.apply_filter, but a strip that `ANSIToTruecolor` would leave unchanged is returned as it is
    (Textual copies every rendered line into a new strip, with its five caches, for every frame that renders it)."""
    global filtered_strips
    truecolor = type(filter) is ANSIToTruecolor
    cache = self._filter_cache
    if truecolor and cache.get(_ANY_TRUECOLOR) is _UNCHANGED:
        return self
    # (what `ANSIToTruecolor` makes depends on its theme and the background only: one strip for every session)
    key: Any = (
        (ANSIToTruecolor, cast(ANSIToTruecolor, filter)._terminal_theme, background)
        if truecolor
        else (filter, background)
    )
    cached = cache.get(key)
    if cached is _UNCHANGED:
        return self
    if cached is None:
        if truecolor and not any(
            control is not None or (style is not None and _truecolor_changes(style))
            for _, style, control in self._segments
        ):
            cache[_ANY_TRUECOLOR] = _UNCHANGED
            return self
        filtered_strips += 1
        cached = Strip(filter.apply(self._segments, background), self._cell_length)
        self._filter_cache[key] = cached
    return cached


filtered_strips = 0
"""Strips built by line filters (`_apply_filter`), for tests."""
