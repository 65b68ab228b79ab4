"""People first, over real SSH: bots leave the first clue to a person writing one (and everyone sees who is), an
offline player's seat and the status line say when a stand-in plays, the stand-in's move is logged once as what
it was, and a bot teammate leaves the team's card to its person."""

from __future__ import annotations

import asyncio
import re
import sys
from functools import partial
from pathlib import Path

import pytest

from tests.bots.holds import still_holding
from tests.e2e.bots import bots_at
from tests.e2e.clock import drive_clock, idle_out, run_out
from tests.e2e.harness import PtyClient, wait_for
from tests.e2e.json_client import JsonClient
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import (
    TIMEOUT,
    add_bot,
    give_clue,
    offline,
    press,
    seat_players,
    start_game,
    state_of,
    status,
    submit_cards,
    text,
    wait_footer,
    wait_status,
    wait_text,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


# --- 5: the first clue is the people's while they write it -----------------------------------------------------


async def test_bots_wait_while_a_person_writes_the_first_clue_and_everyone_sees_who(tmp_path: Path) -> None:
    async with dixit_server(tmp_path, store=True, disconnect_grace=60.0, first_clue_grace=3600.0) as (server, coord):
        players, table = await seat_players(server.port, coord, ["ana", "ben"])
        ana, ben = (p.client for p in players)
        await wait_footer(ana, "b Add a bot")
        await add_bot(ana)
        await wait_text(ana, "3 seated")
        bots = bots_at(table)
        await start_game(ana)
        await wait_for(
            lambda: (
                all(getattr(b, "holds", {}).get("grace") for b in bots) or state_of(table).turn.storyteller is not None
            ),
            TIMEOUT,
            "the bot to leave the first clue to people",
        )
        assert state_of(table).turn.storyteller is None, "a bot took the first clue at once"

        for bot in bots:
            bot.first_clue_grace = 0  # people had their chance: from now on only a person writing holds the bot
        await wait_footer(ana, "⏎ Choose card")
        await press(ana, "2", "enter")
        await wait_text(ana, "Card 2 chosen")
        await wait_footer(ana, "esc Back to the table")  # the clue field has the focus
        await press(ana, "moo")
        await wait_text(ben, "ana is writing a clue…")  # the other player sees who is writing
        await wait_for(lambda: all(b.holds.get("typing") for b in bots), TIMEOUT, "the bot to hold while ana writes")
        await still_holding(bots, "typing")  # (whatever its think delay: it holds, by its own look, a minute on)
        await press(ana, "n")
        await wait_text(ana, "moon")
        await still_holding(bots, "typing")
        assert state_of(table).turn.storyteller is None, "a bot took the first clue while ana was writing it"
        await press(ana, "enter")
        await wait_text(ben, "Clue: “moon” — told by ana")
        assert "is writing a clue" not in text(ben)
        for player in players:
            await player.client.close()


# --- 7: an offline player, the stand-in's countdown, and what the log says -------------------------------------


def counts_down(client: PtyClient) -> bool:
    return re.search(r"A stand-in plays for cara in 0:[01]\d\.", status(client)) is not None


async def test_an_offline_players_stand_in_is_announced_with_its_countdown_and_logged_once(tmp_path: Path) -> None:
    async with dixit_server(tmp_path, store=True, disconnect_grace=15.0) as (server, coord):
        clock = drive_clock(coord)  # cara's 15 s of grace pass when the test says
        players, table = await seat_players(server.port, coord, ["ana", "ben", "cara"])
        ana, ben, cara = (p.client for p in players)
        await start_game(ana)
        await give_clue(ben, 1, "lantern")
        await submit_cards(ana, [1, 2])
        cara.drop()  # gone without a word, before giving her cards
        for client in (ana, ben):
            await client.wait_until(partial(offline, client, "cara"), TIMEOUT, "cara shown offline")
            await client.wait_until(
                partial(counts_down, client), TIMEOUT, "the stand-in's countdown in the status line"
            )
        assert table.options.turn_seconds is None  # a table without a timer
        await run_out(coord, table.code, clock)  # her grace is over (its vote's, after it, is over at once)
        await wait_status(ana, "Vote: turn the dial")  # the stand-in gave cara's cards, then votes for her
        await wait_for(lambda: "cara is away: a stand-in voted for them." in table.log, TIMEOUT, "the stand-in's vote")
        await ana.wait_until(lambda: "is offline" not in status(ana), TIMEOUT, "no more offline player awaited")
        log = list(table.log)
        assert [line for line in log if "stand-in" in line] == [
            "cara is away: a stand-in gave 2 cards for them.",
            "cara is away: a stand-in voted for them.",
        ]
        assert not any("Time's up" in line for line in log)
        await wait_text(ana, "a stand-in gave 2 cards")
        assert "Time's up" not in text(ana) and "Time's up" not in text(ben)
        for client in (ana, ben):
            await client.close()


# --- 11: a bot teammate leaves the team's card to its person ------------------------------------------------------


async def test_a_bot_teammate_waits_for_its_person_to_give_the_teams_card(tmp_path: Path) -> None:
    async with dixit_server(tmp_path, store=True, disconnect_grace=60.0, first_clue_grace=3600.0) as (server, coord):
        ana = await JsonClient.open(server.port, "ana")
        code = await ana.create(mode="team", first="random", seed=12, bots=5)
        ana.send({"cmd": "start"})
        submit = await ana.wait_for("state", phase="submit")
        assert submit["storyteller"] not in (0, 3), "pick a seed where another team tells first"
        table = coord.tables[code]
        mate = next(b for b in bots_at(table) if b.seat == 3)  # ana's teammate sits opposite her
        await wait_for(
            lambda: getattr(mate, "holds", {}).get("team") or 3 not in state_of(table).waiting_for(),
            TIMEOUT,
            "the bot teammate to leave the card to ana",
        )
        await still_holding([mate], "team")
        waiting = state_of(table).waiting_for()
        assert 0 in waiting and 3 in waiting, "the bot gave the team's card before ana could"
        hand = submit["hand"]
        assert isinstance(hand, list)
        ana.send({"cmd": "submit", "cards": [hand[0]["card"]]})
        await wait_for(lambda: "ana gave a card." in table.log, TIMEOUT, "ana's card")
        assert not any(m.get("type") == "error" for m in ana.messages), ana.messages[-3:]
        assert f"{mate.name} gave a card." not in table.log
        await ana.close()


# --- 7: a table everyone has left closes, and stays replayable ---------------------------------------------------


def paused(coord: object, code: str) -> bool:
    """Whether the table's clocks stopped at every worker that has it open (one, or both of two workers)."""
    workers = getattr(coord, "workers", [coord])
    replicas = [w.tables[code] for w in workers if code in w.tables]
    return bool(replicas) and all(r.deadline is None and r.timer is None for r in replicas)


async def test_a_game_everyone_left_pauses_then_closes_and_can_be_replayed(tmp_path: Path) -> None:
    async with dixit_server(tmp_path, store=True, disconnect_grace=0.5, close_idle_after=3600.0) as (server, coord):
        ana = await JsonClient.open(server.port, "ana")
        code = await ana.create(mode="standard", seed=3, bots=2, turn_seconds=1)
        ana.send({"cmd": "start"})
        await ana.wait_for("state", phase="clue")
        table = coord.tables[code]
        bots = bots_at(table)
        await ana.close()  # the only person leaves: timers and bots wait, nothing plays by itself
        # on two workers the other worker's replica learns of the leave a moment later: wait for both to pause
        await wait_for(
            lambda: (
                (all(getattr(b, "holds", {}).get("alone") for b in bots) and paused(coord, code))
                or state_of(table).turn.storyteller is not None
            ),
            TIMEOUT,
            "the bots to hold and the clocks to stop at an empty table",
        )
        assert state_of(table).turn.storyteller is None, "a bot played at a table no person is at"
        events = len(state_of(table).turn.board) + len(table.log)

        lee = await JsonClient.open(server.port, "lee")
        lobby = await lee.wait_for("state", table=None)
        tables = lobby["tables"]
        assert isinstance(tables, list) and [t["status"] for t in tables if t["table"] == code] == ["playing"]
        await still_holding(bots, "alone")
        await idle_out(coord, code)  # its hour alone is over
        await wait_for(lambda: code not in coord.tables, TIMEOUT, "the table to close")
        assert len(table.log) == events + 1 and "closed" in table.log[-1]  # nothing was played meanwhile
        lee.messages.clear()
        lee.send({"cmd": "join", "table": code})
        error = await lee.wait_for("error")
        assert error["code"] == "no_table"
        await wait_for(lambda: all(b.finished.is_set() for b in bots), TIMEOUT, "the bots to stop")
        await lee.close()

        replay = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "dixit_tui", "replay", code, *server.saved_in,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        out, _ = await asyncio.wait_for(replay.communicate(), TIMEOUT)
        assert replay.returncode == 0, out.decode()
        assert "ana" in out.decode()


async def test_a_game_everyone_left_resumes_its_time_limit_where_it_stopped(tmp_path: Path) -> None:
    """Over JSON: while nobody is seated and connected, the phase's time limit stops; back with her reconnect code,
    ana finds it pushed on by (at least) the time the table stood empty, and nobody was played for."""
    async with dixit_server(tmp_path, store=True, disconnect_grace=3600.0, close_idle_after=3600.0) as (server, coord):
        clock = drive_clock(coord)
        ana = await JsonClient.open(server.port, "ana")
        code = await ana.create(mode="standard", seed=3, turn_seconds=600)
        others = [await JsonClient.open(server.port, name) for name in ("ben", "cy")]
        for other in others:
            other.send({"cmd": "join", "table": code})
            await other.wait_for("state", table=code)
        ana.send({"cmd": "start"})
        state = await ana.wait_for("state", phase="clue")
        before, reconnect = state["deadline"], state["reconnect_code"]
        assert isinstance(before, float) and isinstance(reconnect, str)
        table = coord.tables[code]
        for client in (ana, *others):
            await client.close()
        await wait_for(lambda: paused(coord, code) and not table.humans_connected(), TIMEOUT, "the table to pause")
        left = clock()
        clock.advance(300.0)  # the table stands empty five minutes
        back_at = clock()
        back = await JsonClient.open(server.port, "ana")
        back.send({"cmd": "reconnect", "code": reconnect})
        state = await back.wait_for("state", table=code)
        after = state["deadline"]
        assert state["phase"] == "clue" and isinstance(after, float)
        assert after - before >= back_at - left, "the time limit ran on while nobody was there"
        assert not any("stand-in" in line for line in table.log)
        await back.close()
