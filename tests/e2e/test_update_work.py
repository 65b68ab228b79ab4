"""What an ordinary move at an 8-seat table costs a watcher's SSH session outside its widgets, counted (never timed):
the writes to its connection's socket per frame, and the messages its app dispatches."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.message import Message
from textual.message_pump import MessagePump
from textual.timer import Timer

from dixit_tui.ssh.driver import SSHDriver
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import TIMEOUT, wait_text
from tests.e2e.watched import (
    INTERVAL,
    all_drawn,
    driver_of,
    frames_drawn,
    pacing_of,
    release,
    settles,
    watched_table,
)
from tests.tui.fixtures import default_move, default_move_pending, phase, play_until
from tests.work_counters import wrapped_methods

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


async def ordinary_moves(
    tmp_path: Path, measure: Callable[[SSHDriver], Callable[[], tuple[int, ...]]]
) -> list[tuple[int, ...]]:
    """At an 8-seat table in its submit phase, with a watcher over SSH: `measure(driver)` gives a function counting
    something at the watcher; the counts' changes (and the frames drawn) for each card given but the last one."""
    async with dixit_server(tmp_path) as (server, coord):
        sessions, watcher = await watched_table(
            server, coord, ["ben", "cy", "dee", "eli", "fay", "gil", "hal"], seats=8
        )
        host = sessions[0]
        await host.start()
        await play_until(sessions, lambda: phase(host) == "submit")
        driver = driver_of(coord, "wes")
        await all_drawn(driver, like=host)
        counts = measure(driver)
        moves = []
        movers = [s for s in sessions if default_move_pending(s)]
        for session in movers[:-1]:  # (the last one changes the phase)
            frames, before = frames_drawn(driver).count, counts()
            await default_move(session)
            await all_drawn(driver, like=session)
            moves.append((frames_drawn(driver).count - frames, *(b - a for a, b in zip(before, counts(), strict=True))))
        await watcher.close()
        return moves


async def test_a_frame_is_one_write_to_the_socket(tmp_path: Path) -> None:
    """asyncssh sends each channel packet behind an empty SSH_MSG_IGNORE packet, each a send of its own (two TCP
    segments a frame): the driver writes a frame's packets to the socket at once."""

    def measure(driver: SSHDriver) -> Callable[[], tuple[int, ...]]:
        transport: Any = driver._channel.get_connection()._transport
        write = transport.write
        writes = [0, 0]

        def counted(data: bytes) -> None:
            writes[0] += 1
            writes[1] += len(data)
            write(data)

        transport.write = counted
        return lambda: (writes[0], writes[1])

    moves = await ordinary_moves(tmp_path, measure)
    print("per move (frames, socket writes, bytes):", moves)
    assert len(moves) == 6
    assert all(frames == 1 and writes == 1 and size > 0 for frames, writes, size in moves), moves


async def test_an_ordinary_move_is_its_update_and_a_repaint_per_widget_changed_at_a_watcher(tmp_path: Path) -> None:
    """The view reaches the watcher's app as one message (the coordinator's update); each widget it changes (seat
    row, status line, feed, text box) repaints Textual's way, a Prompt to the widget and an Update from it to the
    screen: 9 messages for a card given, and one frame. (1 while dispatch.py's repaints without messages reached the
    screen directly: removed in issue 23, 2.1% of a move's Python calls.)"""

    def measure(driver: SSHDriver) -> Callable[[], tuple[int, ...]]:
        app = driver._app
        dispatched = [0]
        original = MessagePump._dispatch_message

        async def counted(self: MessagePump, message: Message) -> None:
            # (the test's own round trips are left out: `settles`; but for the one Prompt by which Textual runs
            # their callback after the move's frame, as the Callback that took held updates was counted before)
            if _app_of(self) is app and not settles(message):
                dispatched[0] += 1
            await original(self, message)

        MessagePump._dispatch_message = counted  # type: ignore[method-assign]
        measuring.append(lambda: setattr(MessagePump, "_dispatch_message", original))
        return lambda: (dispatched[0],)

    measuring: list[Callable[[], object]] = []
    try:
        moves = await ordinary_moves(tmp_path, measure)
    finally:
        for undo in measuring:
            undo()
    print("per move (frames, messages dispatched):", moves)
    assert len(moves) == 6
    assert all(frames == 1 and messages <= 1 + 2 * 4 for frames, messages in moves), moves


def _app_of(node: MessagePump) -> object:
    while node is not None and not isinstance(node, App):
        node = node._parent  # type: ignore[assignment]
    return node


async def test_a_watcher_holding_updates_does_no_work_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A watcher that took the coordinator's updates less than `WATCHER_FRAME_INTERVAL` ago holds the next ones at its
    sink: its screen is not laid out, drawn or ticked for them (it once asked to draw 60 times a second, about 90 ticks
    in the 1.5 s of changes below); the held updates are taken, and drawn, together."""
    monkeypatch.setattr(SSHDriver, "WATCHER_FRAME_INTERVAL", INTERVAL, raising=False)
    async with dixit_server(tmp_path) as (server, coord):
        players, watcher = await watched_table(server, coord, ["ben", "cy"])
        host = players[0]
        driver = driver_of(coord, "wes")
        await all_drawn(driver)
        await host.chat("opening-line")  # taken at once (the first after a quiet spell); what follows is held
        await watcher.wait_until(lambda: "opening-line" in watcher.screen_text(), TIMEOUT, "the first line drawn")
        app = driver._app
        ticks = [0]

        def count_ticks(original: Any) -> Any:
            async def tick(self: Timer, **kwargs: Any) -> None:
                if _app_of(self.target) is app:  # type: ignore[arg-type]
                    ticks[0] += 1
                await original(self, **kwargs)

            return tick

        frames, writes = frames_drawn(driver).count, driver.writes
        with wrapped_methods() as wrap:
            wrap(Timer, "_tick", count_ticks)
            for number in range(5):
                await players[(number + 1) % 3].chat(f"line {number}")  # (a few lines each: under the chat's rate)
                await asyncio.sleep(0.3)  # (real time is what is tested: the held watcher's ticks in 1.5 s)
        assert (frames_drawn(driver).count, driver.writes) == (frames, writes)  # (all of them held)
        held = pacing_of(driver).held
        print(f"5 changes -> {held} updates held, {ticks[0]} timer ticks meanwhile")
        assert held >= 5 and ticks[0] <= 3, (held, ticks[0])
        release(driver)
        await wait_text(watcher, "line 4")
        await all_drawn(driver)
        assert frames_drawn(driver).count - frames == 1  # (the held updates drawn as one frame)
        await watcher.close()


async def test_a_phase_change_is_one_frame_at_a_watcher(tmp_path: Path) -> None:
    """The last card (the vote starts) and the last vote (the reveal, the next turn): the repaints reach the screen at
    once, the layouts the new phase asks for in messages; the screen draws once both are there, as one frame (drawn
    when the repaints came, the new phase took two frames)."""
    async with dixit_server(tmp_path) as (server, coord):
        sessions, watcher = await watched_table(
            server, coord, ["ben", "cy", "dee", "eli", "fay", "gil", "hal"], seats=8
        )
        host = sessions[0]
        await host.start()
        await play_until(sessions, lambda: phase(host) == "submit")
        driver = driver_of(coord, "wes")
        changes = []
        for _ in range(2):  # the cards, then the votes
            movers = [s for s in sessions if default_move_pending(s)]
            for session in movers[:-1]:
                await default_move(session)
            await all_drawn(driver, like=movers[-2])
            frames = frames_drawn(driver).count
            await default_move(movers[-1])
            await all_drawn(driver, like=movers[-1])
            changes.append(frames_drawn(driver).count - frames)
        print("frames per phase change:", changes)
        assert phase(host) == "clue"
        assert changes == [1, 1], changes
        await watcher.close()
