"""What is live only and never recorded, told to the other workers over a Redis channel: team chat lines, who is
writing a clue, who moved on from a reveal."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from dixit_tui.coordinator import detached
from dixit_tui.coordinator.models import ChatLine, ChatUpdate, LiveKind
from dixit_tui.coordinator.shared.presence import RemoteSeat
from dixit_tui.coordinator.table import TEAM_CHAT_TAIL
from dixit_tui.log_caps import REPEATS
from dixit_tui.store.redis_store import RedisStore

if TYPE_CHECKING:
    from dixit_tui.coordinator.player_session import SessionTable
    from dixit_tui.coordinator.service import Coordinator

log = logging.getLogger(__name__)
log.addFilter(REPEATS)


class LiveMessages:
    def __init__(self, coordinator: Coordinator, store: RedisStore, worker: str) -> None:
        self.coordinator = coordinator
        self.store = store
        self.worker = worker

    @property
    def channel(self) -> str:
        return f"{self.store.prefix}live"

    def publish(self, table: SessionTable, message: dict[str, Any]) -> None:
        """Tell the other workers something about `table` that is not recorded (a team line, a writing mark)."""
        payload = {**message, "w": self.worker, "c": table.code}
        if isinstance(payload.get("line"), ChatLine):
            payload["line"] = asdict(payload["line"])
        data = json.dumps(payload, separators=(",", ":"))

        async def publish() -> None:
            try:
                await self.store.client.publish(self.channel, data)
            except RedisError as err:
                log.warning("could not tell the other workers about table %s: %s", table.code, err)

        detached.spawn(publish())

    async def listen(self) -> None:
        """Take the other workers' live messages, for ever (listening again when Redis is lost)."""
        while not detached.stopping():
            try:
                pubsub = self.store.client.pubsub()
                try:
                    await pubsub.subscribe(self.channel)
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            self.take(json.loads(message["data"]))
                finally:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(pubsub.aclose(), 2.0)
            except RedisError as err:
                log.warning("lost the live notices from Redis: %s; listening again in a moment", err)
            except Exception:
                log.exception("a live notice could not be taken")
            await asyncio.sleep(1.0)

    def take(self, message: dict[str, Any]) -> None:
        if message.get("w") == self.worker:
            return
        table = self.coordinator.tables.get(str(message.get("c")))
        if table is None:
            return
        if message.get("k") == LiveKind.TEAM:
            line = ChatLine(**message["line"])
            if line.team is None:
                return
            table.team_chat.setdefault(line.team, deque(maxlen=TEAM_CHAT_TAIL)).append((table.chat_total, line))
            for session in table.team_sessions(line.team):
                if not isinstance(session, RemoteSeat):
                    session.deliver(ChatUpdate(line))
        elif message.get("k") == LiveKind.REVEAL:
            self.coordinator.reveal_seen(table, int(message["turn"]), int(message["seat"]))
        elif message.get("k") == LiveKind.TYPING and self.coordinator.timers.set_typing(
            table, int(message["seat"]), bool(message["active"])
        ):
            self.coordinator.broadcast(table)
