"""A worker's tick renews what it holds in the presence hashes (its seats, its spectator count) while its players
come and go. A renew sent before a player left must not bring their seat back (the other workers would count them
as connected, and a deadline would play a stand-in for nobody), nor an old spectator count; a field that expired
while the worker held it is claimed again."""

from __future__ import annotations

import asyncio
import contextlib

from dixit_tui.coordinator import TableOptions, detached
from dixit_tui.coordinator.shared.pipeline import execute
from dixit_tui.coordinator.shared.presence import WATCHERS
from tests.redis.test_shared_tables import Worker, start_worker, until
from tests.redis_server import RedisServer


async def hash_of(worker: Worker, code: str) -> dict[str, str]:
    fields = await worker.shared.store.client.hgetall(worker.shared.presence.key(code))
    return {str(k): str(v) for k, v in fields.items()}


async def test_a_renew_sent_before_a_player_left_does_not_bring_their_seat_back(redis_server: RedisServer) -> None:
    b = await start_worker(redis_server.url, "wb")
    try:
        (_, ana), (_, cy) = [await b.connect(name) for name in ("ana", "cy")]
        code = (await ana.create(TableOptions(seed=3))).code
        await cy.join(code)
        seat = b.coordinator.tables[code].seats[1].code
        assert (await hash_of(b, code))[seat].startswith("wb ")
        pipe = b.shared.store.client.pipeline(transaction=False)
        await b.shared.presence.queue_renew(pipe)  # a tick's renew, on its way...
        await cy.close()  # ...when cy leaves
        assert seat not in await hash_of(b, code)
        await execute(pipe)
        assert seat not in await hash_of(b, code), "the renew brought cy's seat back"
    finally:
        await b.stop()


async def test_a_renew_sent_before_a_spectator_left_keeps_the_new_count(redis_server: RedisServer) -> None:
    b = await start_worker(redis_server.url, "wb")
    try:
        _, ana = await b.connect("ana")
        code = (await ana.create(TableOptions(seed=3))).code
        watchers = [await b.connect(name) for name in ("eve", "fay")]
        for _, watcher in watchers:
            await watcher.watch(code)
        assert (await hash_of(b, code))[WATCHERS + "wb"].startswith("2 ")
        pipe = b.shared.store.client.pipeline(transaction=False)
        await b.shared.presence.queue_renew(pipe)
        await watchers[0][1].close()
        assert (await hash_of(b, code))[WATCHERS + "wb"].startswith("1 ")
        await execute(pipe)
        assert (await hash_of(b, code))[WATCHERS + "wb"].startswith("1 "), "the renew wrote the old count back"
        pipe = b.shared.store.client.pipeline(transaction=False)
        await b.shared.presence.queue_renew(pipe)
        await watchers[1][1].close()
        await execute(pipe)
        assert WATCHERS + "wb" not in await hash_of(b, code), "the renew brought back a count of nobody"
    finally:
        await b.stop()


async def test_a_seat_and_a_count_that_expired_while_still_held_are_claimed_again(redis_server: RedisServer) -> None:
    b = await start_worker(redis_server.url, "wb")
    try:
        (_, ana), (_, cy), (_, eve) = [await b.connect(name) for name in ("ana", "cy", "eve")]
        code = (await ana.create(TableOptions(seed=3))).code
        await cy.join(code)
        await eve.watch(code)
        seat = b.coordinator.tables[code].seats[1].code
        key = b.shared.presence.key(code)
        await b.shared.store.client.hdel(key, seat, WATCHERS + "wb")  # as if B could not renew them in time
        fields: dict[str, str] = {}

        async def read() -> None:
            fields.clear()
            fields.update(await hash_of(b, code))

        for _ in range(300):  # bounded: the tick runs every 0.1 s
            await read()
            if seat in fields and WATCHERS + "wb" in fields:
                break
            await asyncio.sleep(0.02)
        assert fields[seat].startswith("wb ") and fields[WATCHERS + "wb"].startswith("1 "), fields
    finally:
        await b.stop()


async def test_a_loop_whose_cancel_came_out_as_an_error_stops_at_its_next_round() -> None:
    rounds = 0

    async def loop() -> None:
        nonlocal rounds
        while not detached.stopping():
            rounds += 1
            with contextlib.suppress(asyncio.CancelledError):  # as a Redis read can turn a cancel into an error,
                await asyncio.sleep(10)  # caught and logged by the loop

    task = asyncio.get_running_loop().create_task(loop())
    await until(lambda: rounds == 1, "the loop to start")
    task.cancel()
    await asyncio.wait_for(task, 5.0)
    assert rounds == 1
