"""Team chat over real SSH: two teammates on terminals agree on their card while the table's chat is paused, and
the line never reaches the other teams (terminal bytes or JSON), a spectator, the table's log or the store."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

import pytest

from dixit_tui.coordinator import TableError
from dixit_tui.coordinator.table import Table
from dixit_tui.engine import RuleError
from dixit_tui.engine.state import Phase
from tests.e2e.bots import quick
from tests.e2e.clock import drive_clock, reveal_out
from tests.e2e.harness import PtyClient, wait_for
from tests.e2e.json_client import JsonClient
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import (
    TIMEOUT,
    footer,
    join_by_code,
    key_of,
    open_lobby,
    press,
    printed,
    state_of,
    text,
    wait_footer,
    wait_text,
)
from tests.tui.fixtures import default_move

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

SIZE = (120, 40)
SECRET = "the lighthouse one?"
REPLY = "yes, the scarf"


async def terminal(port: int, name: str, code: str) -> PtyClient:
    client = await open_lobby(port, name, key_of(name), size=SIZE)
    await join_by_code(client, code)
    return client


async def team_table(
    port: int,
) -> tuple[JsonClient, str, tuple[PtyClient, PtyClient, PtyClient], JsonClient, JsonClient]:
    """A team table of six: hal (host, headless), ana, cy (another team), eve (headless, hal's teammate), dan (ana's
    teammate, opposite her) and a bot (cy's teammate); sam (headless) watches. Returns hal, the code, the three
    terminals (ana, cy, dan), eve and sam."""
    hal = await JsonClient.open(port, "hal")
    code = await hal.create(mode="team", seed=4)
    ana = await terminal(port, "ana", code)  # seat 1
    cy = await terminal(port, "cy", code)  # seat 2: another team
    eve = await JsonClient.open(port, "eve")
    eve.send({"cmd": "join", "table": code})  # seat 3: hal's teammate
    await eve.wait_for("state", table=code)
    dan = await terminal(port, "dan", code)  # seat 4: ana's teammate, opposite her
    hal.send({"cmd": "add_bots", "count": 1})  # seat 5: cy's teammate
    sam = await JsonClient.open(port, "sam")
    sam.send({"cmd": "watch", "table": code})
    return hal, code, (ana, cy, dan), eve, sam


async def open_chat(client: PtyClient, key: str = "c") -> None:
    await press(client, key)
    await client.wait_until(lambda: "esc Back" in footer(client), TIMEOUT, "the chat box to get the focus")


async def test_teammates_agree_in_team_chat_while_the_table_chat_is_paused(tmp_path: Path) -> None:
    async with dixit_server(tmp_path, store=True, disconnect_grace=60.0, first_clue_grace=3600.0) as (server, coord):
        hal, code, (ana, cy, dan), eve, sam = await team_table(server.port)
        table = coord.tables[code]
        await wait_for(
            lambda: len(table.seats) == 6 and len(table.spectators) == 1, TIMEOUT, "six seats and a spectator"
        )
        assert [s.name for s in table.seats][:5] == ["hal", "ana", "cy", "eve", "dan"]

        await open_chat(ana)
        await press(ana, "good luck all", "enter")  # the table's chat, before the start: everyone gets it
        await wait_text(cy, "ana: good luck all")
        assert "good luck all" in printed(cy)  # the detector below sees chat on these bytes
        await press(ana, "escape")

        hal.send({"cmd": "start"})
        start = await hal.wait_for("state", phase="clue")
        await wait_text(ana, "T Team chat")
        assert "T Team chat" in footer(ana)
        hand = start["hand"]
        assert isinstance(hand, list)
        hal.send({"cmd": "clue", "text": "far from home", "card": hand[0]["card"]})
        await hal.wait_for("state", phase="submit")
        await wait_text(ana, "table chat paused; team chat open")

        # ana: c opens the chat box, which goes to her team while the table's chat is paused
        await open_chat(ana)
        await wait_text(ana, "Team:  only dan sees this")
        await press(ana, SECRET, "enter")
        await wait_text(dan, f"ana (team): {SECRET}")
        await wait_text(ana, f"ana (team): {SECRET}")
        await press(ana, "escape")
        # dan answers with T, the team chat key
        await open_chat(dan, "T")
        await wait_text(dan, "Team:  only ana sees this")
        await press(dan, REPLY, "enter")
        await wait_text(ana, f"dan (team): {REPLY}")
        await press(dan, "escape")

        # they agreed: ana gives the team's card, dan votes later
        await wait_footer(ana, "⏎ Choose card")
        await press(ana, "1", "enter")
        await wait_text(ana, "Give this card?", "cannot be taken back")
        await press(ana, "y")
        await wait_for(lambda: "ana gave a card." in table.log, TIMEOUT, "ana's card")
        assert 4 not in state_of(table).waiting_for()

        # cy's terminal shows a change made after the team lines: any team line sent to it would have come first
        await wait_text(cy, "ana gave a card.")
        # hal (JSON) talks to eve, his teammate: nobody else gets it
        hal.send({"cmd": "chat", "text": "hal was here", "to": "team"})
        await eve.wait_for("chat", text="hal was here", team=True)
        await open_chat(ana)
        await press(ana, "\x14")  # ctrl+t: back to the table, whose chat is paused
        await wait_text(ana, "Table:")
        await press(ana, "escape")
        for word in (SECRET, REPLY, "lighthouse", "scarf"):
            assert word not in printed(cy), f"{word!r} reached another team's terminal"
            assert word not in text(cy)
        for client in (hal, eve, sam):
            assert not any(word in str(m) for m in client.messages for word in ("lighthouse", "scarf"))
        assert [m for m in sam.messages if m.get("type") == "chat" and m.get("team")] == []
        assert "hal was here" not in printed(cy) and "hal was here" not in printed(ana)
        assert not any("lighthouse" in line or "scarf" in line for line in table.log)
        records = await coord.store.history(code)
        assert "lighthouse" not in str(records) and "scarf" not in str(records)
        assert "good luck all" in str(records)  # the table's chat is stored: the check above can fail

        for terminal_ in (ana, cy, dan):
            await terminal_.close()
        for headless in (hal, eve, sam):
            await headless.close()


async def moves_until(table: Table, done: Callable[[], bool]) -> None:
    """The people's moves, made directly through the coordinator (the bot plays its own), until `done`."""
    for _ in range(400):
        if done():
            return
        for seat in table.seats:
            if not done() and not seat.bot and seat.session is not None:
                with contextlib.suppress(RuleError, TableError):
                    await default_move(seat.session)
        await asyncio.sleep(0.05)
    raise AssertionError("the table never got there")


async def test_a_team_line_being_typed_at_the_reveal_still_goes_to_the_team_only(tmp_path: Path) -> None:
    """dan types a team line during the vote; everyone's votes come in (through the coordinator) and the reveal
    reopens the table's chat while his box keeps the line; dan presses Enter: only ana, his teammate, gets the line."""
    async with dixit_server(tmp_path, store=True, disconnect_grace=60.0, first_clue_grace=3600.0) as (server, coord):
        clock = drive_clock(coord)
        hal, code, (ana, cy, dan), eve, sam = await team_table(server.port)
        table = coord.tables[code]
        await wait_for(
            lambda: len(table.seats) == 6 and len(table.spectators) == 1, TIMEOUT, "six seats and a spectator"
        )
        await wait_for(lambda: len(quick(coord, code)) == 1, TIMEOUT, "the bot")  # (its pace is not tested here)
        hal.send({"cmd": "start"})
        await wait_for(lambda: table.game is not None, TIMEOUT, "the start")
        await moves_until(table, lambda: state_of(table).phase is Phase.VOTE)
        await wait_text(dan, "table chat paused; team chat open")
        await open_chat(dan)
        await wait_text(dan, "Team:", "only ana sees this")
        await press(dan, "zebra plan")  # typed, not yet sent...
        await wait_text(dan, "zebra plan")
        await moves_until(table, lambda: state_of(table).turn.number == 2)  # ...when the reveal comes
        await reveal_out(coord, code, clock)  # (its hold is over: on the clock the test drives)
        await wait_text(dan, "(r: recap)")  # the reveal, in the clue line (no recap opens over the chat box)
        await dan.wait_until(lambda: "esc Back" in footer(dan), TIMEOUT, "the chat box to keep the focus")
        # (the reveal's line can be drawn a frame before the view that ends the chat's pause: waited for, not read)
        await wait_text(dan, "zebra plan", "Team:", "your box sends to the team")
        await press(dan, "enter")
        await wait_text(dan, "dan (team): zebra plan")
        await wait_text(ana, "dan (team): zebra plan")  # ana's log shows her teammate's line
        await wait_text(cy, "(r: recap)")
        hal.send({"cmd": "chat", "text": "after"})  # a table line after dan's: had his reached cy, it came first
        await wait_text(cy, "hal: after")
        assert "zebra" not in printed(cy) and "zebra" not in text(cy)
        for client in (hal, eve, sam):
            await client.wait_for("chat", text="after")
            assert not any("zebra" in str(m) for m in client.messages)
        for terminal_ in (ana, cy, dan):
            await terminal_.close()
        for headless in (hal, eve, sam):
            await headless.close()
