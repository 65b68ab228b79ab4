"""A headless session: JSON lines in, JSON lines out, over any pair of byte streams (an SSH channel in practice)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any, Protocol

from dixit_tui.coordinator import Coordinator, Identity, LobbyUpdate, TableSummary, Update
from dixit_tui.counts import COUNTS
from dixit_tui.engine import ErrorCode, RuleError
from dixit_tui.log_caps import REPEATS
from dixit_tui.protocol.commands import dispatch
from dixit_tui.protocol.messages import encode_update, error, hello
from dixit_tui.sanitize import log_text

log = logging.getLogger(__name__)
log.addFilter(REPEATS)

MAX_LINE = 16_384
QUEUE_LIMIT = 1_000  # messages waiting for a client that stopped reading; past this it is disconnected
IDLE_MESSAGE = "You sent nothing for {seconds} seconds outside a seat, so the server closed this session."


class ByteReader(Protocol):
    async def readline(self) -> bytes: ...


class ByteWriter(Protocol):
    def write(self, data: bytes) -> None: ...

    async def drain(self) -> None: ...


def _line(message: dict[str, Any]) -> bytes:
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n").encode(
        "utf-8",
        "backslashreplace",  # a lone surrogate echoed back becomes a JSON \udXXX escape, never an error
    )


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError("number out of range")
    return value


async def serve_json(
    coordinator: Coordinator,
    identity: Identity,
    reader: ByteReader,
    writer: ByteWriter,
    *,
    idle_timeout: float | None = None,
) -> int:
    """Run one headless session until the client closes its input. Returns the exit status.

    With `idle_timeout`, a session neither seated at a table nor waiting in the queue (in the lobby, or watching)
    that sends nothing, not even an empty line, for that many seconds is told so (`idle`) and ended: idle sessions
    cannot fill the server."""
    outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
    lobby: list[tuple[TableSummary, ...]] = [()]
    overflow = asyncio.Event()

    def say(message: dict[str, Any]) -> None:
        if outbox.qsize() >= QUEUE_LIMIT:
            overflow.set()
            return
        outbox.put_nowait(message)

    def sink(update: Update) -> None:
        if isinstance(update, LobbyUpdate):
            lobby[0] = update.tables
        message = encode_update(update, lobby[0])
        if message is not None:
            say(message)

    async def pump() -> None:
        while (message := await outbox.get()) is not None:
            writer.write(_line(message))
            await writer.drain()

    session = await coordinator.connect(identity, sink)
    who = log_text(session.name)  # the name as the log shows it (a Cyrillic "a" escaped)
    writer.write(_line(hello(session.name, coordinator.moderation.motd)))
    pumping = asyncio.create_task(pump())
    stalled = asyncio.ensure_future(overflow.wait())
    reading: asyncio.Future[bytes] | None = None
    loop = asyncio.get_running_loop()
    status = 0
    try:
        last_input = loop.time()
        while True:
            if reading is None:
                reading = asyncio.ensure_future(reader.readline())
            wait = None if idle_timeout is None else max(0.0, last_input + idle_timeout - loop.time())
            watched: set[asyncio.Future[Any]] = {reading, stalled, pumping}
            await asyncio.wait(watched, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
            if stalled.done():  # the client stopped reading: end the session now, not at its next line
                log.warning("headless client %s stopped reading; disconnecting", who)
                status = 1
                break
            if pumping.done():  # writing to the client failed: it is gone
                log.info("headless client %s disconnected (output closed)", who)
                break
            if not reading.done():
                if idle_timeout is not None and loop.time() >= last_input + idle_timeout:
                    if session.seat is None and not coordinator.matchmaker.queued(session):
                        log.info("headless client %s idle for %gs; disconnecting", who, idle_timeout)
                        say(error(ErrorCode.IDLE, IDLE_MESSAGE.format(seconds=round(idle_timeout))))
                        status = 1
                        break
                    last_input = loop.time()  # seated at a table: a player may wait for their turn
                continue
            done, reading = reading, None
            last_input = loop.time()
            try:
                raw = done.result()
            except Exception as lost:  # the stream failed: the client is gone (an ordinary disconnect)
                log.info("headless client %s disconnected: %s", who, type(lost).__name__)
                break
            if not raw:
                break
            if len(raw) > MAX_LINE:
                say(error(ErrorCode.LINE_TOO_LONG, f"A line can be at most {MAX_LINE} bytes."))
                continue
            text = raw.decode("utf-8", errors="replace").strip()
            if not text:
                continue
            await _handle(session, text, say)
    finally:
        if reading is not None:
            reading.cancel()
        stalled.cancel()
        try:
            await session.close()
        except Exception:  # the rest of the clean-up must run (the session's seat is kept as in any disconnect)
            log.warning("headless client %s: leaving its table failed", who, exc_info=True)
        outbox.put_nowait(None)
        try:
            await asyncio.wait_for(pumping, timeout=5)
        except (TimeoutError, ConnectionError, OSError) as gone:
            pumping.cancel()
            log.debug("headless client %s: output ended: %r", who, gone)
        except Exception:
            pumping.cancel()
            log.debug("headless client %s: output failed", who, exc_info=True)
    return status


async def _handle(session: Any, text: str, say: Callable[[dict[str, Any]], None]) -> None:
    try:
        msg = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except (ValueError, RecursionError):
        say(error(ErrorCode.BAD_JSON, "That line is not valid JSON."))
        return
    if not isinstance(msg, dict):
        say(error(ErrorCode.BAD_JSON, 'Send one JSON object per line, like {"cmd": "start"}.'))
        return
    ref = msg.get("ref")
    try:
        await dispatch(session, msg)
    except RuleError as err:
        COUNTS.refused(err.code)
        say(error(err.code, err.message, ref))
    except Exception:  # a bug must not end the session or touch the game
        log.exception("headless command failed: %r", msg.get("cmd"))
        say(error(ErrorCode.INTERNAL, "Something went wrong on the server; nothing changed.", ref))
