"""Tries counted across the workers (creates, reconnect codes): a sorted set of try times per counted key in Redis,
so a cap holds for everyone's tries wherever they connect."""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Sequence

from redis.exceptions import RedisError

from dixit_tui.coordinator.shared.pipeline import execute
from dixit_tui.log_caps import REPEATS
from dixit_tui.store.redis_store import RedisStore

log = logging.getLogger(__name__)
log.addFilter(REPEATS)

# KEYS: a sorted set of try times per counted key (everyone, an address, a network). ARGV: now (ms), the window (ms),
# this try's member, then each key's cap. Counts the try against every key unless one is full: returns 1, or 0.
_TRIES = """
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
for i = 1, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
    if redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[3 + i]) then
        return 0
    end
end
for i = 1, #KEYS do
    redis.call('ZADD', KEYS[i], now, ARGV[3])
    redis.call('PEXPIRE', KEYS[i], window)
end
return 1
"""


class Tries:
    def __init__(self, store: RedisStore) -> None:
        self.store = store
        self._tries = store.client.register_script(_TRIES)

    def _key(self, key: str) -> str:
        return f"{self.store.prefix}tries:{key}"

    async def count(self, keys: Sequence[tuple[str, int]], window: float) -> str | None:
        """Count a try against every worker's count of each key (within `window` seconds). Returns the try's token
        (to forgive it when the code was right), or None when one of the keys is at its cap. If Redis cannot be
        reached the try is not refused for it (the seat it names cannot be taken then anyway)."""
        token = secrets.token_hex(8)
        try:
            counted = await self._tries(
                keys=[self._key(key) for key, _ in keys],
                args=[int(time.time() * 1000), max(1, int(window * 1000)), token, *(cap for _, cap in keys)],
            )
        except RedisError as err:
            log.warning("could not count a reconnect try in Redis: %s", err)
            return token
        return token if counted else None

    async def forgive(self, keys: Sequence[tuple[str, int]], token: str) -> None:
        """The code was right: the try counts nowhere."""
        try:
            pipe = self.store.client.pipeline(transaction=False)
            for key, _ in keys:
                pipe.zrem(self._key(key), token)
            await execute(pipe)
        except RedisError as err:
            log.warning("could not forgive a reconnect try in Redis: %s", err)
