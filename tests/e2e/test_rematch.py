"""Game over, then a rematch: the host opens a new table with the same seats and options, and everyone moves there.

Over the headless protocol (`json`) and through the real TUI, both on the real server over real SSH, with a
built-in bot at the table. The old game stays replayable from the store.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

from dixit_tui.coordinator.table import Table
from dixit_tui.engine import Phase, event_from_dict, fold
from dixit_tui.protocol.schema import validate_message
from tests.e2e.bots import quick
from tests.e2e.harness import PtyClient, wait_for
from tests.e2e.json_client import JsonClient, Message, everyone_over, play
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import (
    add_bot,
    cast_vote,
    close_recap,
    footer,
    give_clue,
    press,
    rematch,
    seat_players,
    start_game,
    state_of,
    status,
    submit_cards,
    text,
    wait_all,
    wait_any,
    wait_footer,
    wait_gone,
    wait_status,
    wait_text,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

TIMEOUT = 20.0


def table_state(code: str) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "state" and m["table"] == code


async def test_a_json_host_starts_a_rematch_and_everyone_moves_to_its_lobby(tmp_path: Path) -> None:
    async with dixit_server(tmp_path, store=True) as (server, coord):
        store = coord.store
        ana, ben, sam = [await JsonClient.open(server.port, name) for name in ("ana", "ben", "sam")]
        ana.send({"cmd": "create", "mode": "standard", "target": 10, "bots": 1, "seed": 3})
        old = (await ana.wait_for(lambda m: m["type"] == "state" and len(m.get("players", [])) == 2))["table"]
        ben.send({"cmd": "join", "table": old})
        sam.send({"cmd": "watch", "table": old})
        await ana.wait_for(lambda m: m["type"] == "state" and len(m["players"]) == 3)
        await sam.wait_for(table_state(old))
        await wait_for(lambda: len(quick(coord, old)) == 1, TIMEOUT, "the bot")  # (its pace is not tested here)
        ana.send({"cmd": "rematch", "ref": "early"})
        early = await ana.wait_for(lambda m: m["type"] == "error" and m["ref"] == "early")
        assert early["code"] == "not_over"
        ana.send({"cmd": "start"})
        await play([ana, ben], everyone_over([ana, ben]), random.Random(5))
        final = ana.state
        names = [p["name"] for p in final["players"]]
        assert names == ["ana", "Oneiros", "ben"] and final["players"][1]["bot"]
        ben.send({"cmd": "rematch", "ref": "ben"})
        refused = await ben.wait_for(lambda m: m["type"] == "error" and m["ref"] == "ben")
        assert refused["code"] == "not_host"
        assert old in coord.tables and coord.tables[old].status == "over"  # the refusals changed nothing

        old_table = coord.tables[old]
        old_options = old_table.options
        old_keys, old_codes = [s.key for s in old_table.seats], [s.code for s in old_table.seats]
        marks = {c.name: len(c.messages) for c in (ana, ben, sam)}
        ana.send({"cmd": "rematch"})
        notice = await ben.wait_for(lambda m: m["type"] == "notice" and "rematch" in m["text"], start=marks["ben"])
        new = notice["text"].removesuffix(".").rsplit(" ", 1)[-1]
        assert notice["text"] == f"ana started a rematch: table {new}." and new != old
        mine = await ana.wait_for(lambda m: m["type"] == "notice", start=marks["ana"])
        assert mine["text"] == f"You started a rematch: table {new}."
        watched = await sam.wait_for(lambda m: m["type"] == "notice", start=marks["sam"])
        assert watched["text"] == notice["text"]

        def lobby_of_new(m: Message) -> bool:
            return m["type"] == "state" and m["table"] == new and m["phase"] == "lobby"

        for client, you in ((ana, 0), (ben, 2), (sam, None)):
            state = await client.wait_for(lobby_of_new, start=marks[client.name])
            assert state["you"] == you and state["host"] == 0
            for message in client.messages:
                validate_message(message)
        # the bot sits down again in its own seat; same names, same order, same options
        await ana.wait_for(lambda m: lobby_of_new(m) and m["players"][1]["connected"], start=marks["ana"])
        table = coord.tables[new]
        assert [s.name for s in table.seats] == names
        assert table.seats[1].bot and not table.seats[0].bot and not table.seats[2].bot
        assert table.options == old_options
        assert [s.key for s in table.seats] == old_keys and [s.code for s in table.seats] == old_codes
        await wait_for(lambda: old not in coord.tables, TIMEOUT, "the old table to close once empty")
        # the old game is still in the store, whole: `dixit-tui replay OLD` folds it to its end
        history = await store.history(old)
        events = [event_from_dict(e) for r in history if r["t"] == "events" for e in r["events"]]
        assert fold(events).phase is Phase.OVER
        assert [r["t"] for r in await store.history(new)][:4] == ["create", "seat", "seat", "seat"]

        # the old code now leads to the rematch (for whoever was away and comes back with `join OLD`)
        eve = await JsonClient.open(server.port, "eve")
        eve.send({"cmd": "watch", "table": old})
        assert (await eve.wait_for(lambda m: m["type"] == "state" and m["table"] is not None))["table"] == new
        assert await eve.close() == 0

        # the new table plays: start it and give the first clue
        ana.send({"cmd": "start"})
        started = await ben.wait_for(lambda m: m["type"] == "state" and m["table"] == new and m["phase"] == "clue")
        assert [p["score"] for p in started["players"]] == [0, 0, 0]
        for client in (ana, ben, sam):
            assert await client.close() == 0


# --- through the TUI ------------------------------------------------------------------------------------------------


def moved_on(table: Table, seat: int, where: tuple[int, Phase]) -> bool:
    state = state_of(table)
    return (state.turn.number, state.phase) != where or seat not in state.waiting_for()


async def play_by_keys(table: Table, seat: int, client: PtyClient) -> None:
    """One person's part of a game with bots at the table, by keys only, until the game is over: close each recap,
    then give the clue (not in the race for the first clue, which the bot takes: the race is not tested here),
    cards or vote the phase waits for from this seat."""
    closed = 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 240
    while True:
        assert loop.time() < deadline, text(client)
        state = state_of(table)
        if len(state.history) > closed:
            await close_recap(client, state.history[closed].turn)
            closed += 1
            continue
        if state.phase is Phase.OVER:
            return
        turn = state.turn
        if seat not in state.waiting_for() or turn.storyteller is None:
            await asyncio.sleep(0.05)
            continue
        if state.phase is Phase.CLUE:
            await give_clue(client, 1, f"clue {turn.number}")
        elif state.phase is Phase.SUBMIT:
            await submit_cards(client, list(range(1, state.rules.submit_count + 1)))
        else:
            forbidden = state.forbidden_slots(seat)
            await cast_vote(client, next(s for s in range(1, len(turn.board) + 1) if s not in forbidden))
        await client.wait_until(partial(moved_on, table, seat, (turn.number, state.phase)), TIMEOUT, "the move")


@pytest.mark.timeout(300)
async def test_the_host_presses_m_at_game_over_and_everyone_lands_in_the_new_lobby(tmp_path: Path) -> None:
    """ana and ben (each with a key) and a bot play a game to 10 points by keys; at game over ana sees `m Rematch`,
    ben a line saying the host can start one; ana presses m and both land in the new table's lobby, same seats,
    the bot seated again; the new game starts."""
    # the bot takes the first clue at once (people are not given the first-clue race's 25 s: it is not tested here)
    async with dixit_server(tmp_path, seed=5, first_clue_grace=0.0) as (server, coord):
        players, table = await seat_players(server.port, coord, ["ana", "ben"], target=10)
        ana, ben = players[0].client, players[1].client
        await add_bot(ana)
        await wait_all([ana, ben], "3 seated")
        await wait_for(lambda: len(quick(coord, table.code)) == 1, TIMEOUT, "the bot")  # (its pace is not tested)
        names = [s.name for s in table.seats]
        await start_game(ana)
        await asyncio.gather(play_by_keys(table, 0, ana), play_by_keys(table, names.index("ben"), ben))
        for client in (ana, ben):
            await wait_text(client, "★ Game over: ", "Final scores")
        await wait_footer(ana, "m Rematch")
        await wait_text(ana, "Press m for a rematch")
        await wait_text(ben, "The host, ana, can start a rematch")
        assert "m Rematch" not in footer(ben)
        old = table.code
        await press(ana, "more?")  # plain typing without `c` first only asks (the guarded dialog), never answers
        await wait_text(ana, "Start a rematch?", "Everyone here moves to a new table with the same seats.")
        await press(ana, "n")
        await wait_gone(ana, "Start a rematch?")
        assert list(coord.tables) == [old] and ana.screen_text().count("started a rematch") == 0
        await rematch(ana)
        await wait_any(ana, "You started a rematch: table")
        await wait_for(lambda: any(code != old for code in coord.tables), TIMEOUT, "the new table")
        new = next(code for code in coord.tables if code != old)
        await wait_text(ben, f"ana started a rematch: table {new}")
        for client in (ana, ben):
            await wait_text(client, f"Dixit · table {new}", "3 seated")
        await wait_status(ana, "Press s to start the game")
        assert "Waiting for ana (host) to start the game." in status(ben)
        fresh = coord.tables[new]
        assert [s.name for s in fresh.seats] == names
        await wait_for(lambda: all(s.connected for s in fresh.seats), TIMEOUT, "the bot to sit down again")
        assert [s.key for s in fresh.seats] == [s.key for s in table.seats]
        await start_game(ana)
        assert fresh.game is not None and all(score == 0 for score in state_of(fresh).scores)
        for client in (ana, ben):
            await client.close()
