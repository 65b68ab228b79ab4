"""A headless session: JSON lines in, JSON lines out, over any pair of byte streams (an SSH channel in practice)."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Protocol

from dixit_tui.coordinator import Coordinator, Identity, LobbyUpdate, TableSummary, Update
from dixit_tui.counts import COUNTS
from dixit_tui.engine import RuleError
from dixit_tui.protocol.commands import dispatch
from dixit_tui.protocol.messages import encode_update, error, hello

log = logging.getLogger(__name__)

MAX_LINE = 16_384
QUEUE_LIMIT = 1_000  # messages waiting for a client that stopped reading; past this it is disconnected


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


async def serve_json(coordinator: Coordinator, identity: Identity, reader: ByteReader, writer: ByteWriter) -> int:
    """Run one headless session until the client closes its input. Returns the exit status."""
    outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
    lobby: list[tuple[TableSummary, ...]] = [()]
    overflow = asyncio.Event()

    def sink(update: Update) -> None:
        if isinstance(update, LobbyUpdate):
            lobby[0] = update.tables
        message = encode_update(update, lobby[0])
        if message is None:
            return
        if outbox.qsize() >= QUEUE_LIMIT:
            overflow.set()
            return
        outbox.put_nowait(message)

    async def pump() -> None:
        while (message := await outbox.get()) is not None:
            writer.write(_line(message))
            await writer.drain()

    session = await coordinator.connect(identity, sink)
    writer.write(_line(hello(session.name)))
    pumping = asyncio.create_task(pump())
    stalled = asyncio.ensure_future(overflow.wait())
    try:
        while True:
            reading = asyncio.ensure_future(reader.readline())
            await asyncio.wait({reading, stalled}, return_when=asyncio.FIRST_COMPLETED)
            if stalled.done():  # the client stopped reading: end the session now, not at its next line
                reading.cancel()
                log.warning("headless client %s stopped reading; disconnecting", session.name)
                return 1
            try:
                raw = reading.result()
            except Exception as lost:  # the stream failed: the client is gone (an ordinary disconnect)
                log.info("headless client %s disconnected: %s", session.name, type(lost).__name__)
                break
            if not raw:
                break
            if len(raw) > MAX_LINE:
                outbox.put_nowait(error("line_too_long", f"A line can be at most {MAX_LINE} bytes."))
                continue
            text = raw.decode("utf-8", errors="replace").strip()
            if not text:
                continue
            await _handle(session, text, outbox)
    finally:
        stalled.cancel()
        await session.close()
        outbox.put_nowait(None)
        try:
            await asyncio.wait_for(pumping, timeout=5)
        except (TimeoutError, ConnectionError, OSError):
            pumping.cancel()
    return 0


async def _handle(session: Any, text: str, outbox: asyncio.Queue[dict[str, Any] | None]) -> None:
    try:
        msg = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except (ValueError, RecursionError):
        outbox.put_nowait(error("bad_json", "That line is not valid JSON."))
        return
    if not isinstance(msg, dict):
        outbox.put_nowait(error("bad_json", 'Send one JSON object per line, like {"cmd": "start"}.'))
        return
    ref = msg.get("ref")
    try:
        await dispatch(session, msg)
    except RuleError as err:
        COUNTS.refused(err.code)
        outbox.put_nowait(error(err.code, err.message, ref))
    except Exception:  # a bug must not end the session or touch the game
        log.exception("headless command failed: %r", msg.get("cmd"))
        outbox.put_nowait(error("internal", "Something went wrong on the server; nothing changed.", ref))
