"""The practice turn at a real table: the host presses p (or sends start with practice), the table plays turn 0
through the usual screens with the help beside it, nothing counts, and the game proper then starts normally.
Real server, real SSH (asyncssh PTY clients with pyte screens; JSON clients for the protocol)."""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path

import pytest

from dixit_tui.protocol.schema import validate_message
from tests.e2e.harness import PtyClient, wait_for
from tests.e2e.json_client import everyone_over, play, table_of_three
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import (
    RECAP_CLOSE,
    RECAP_NEXT,
    TIMEOUT,
    board_slots,
    cast_vote,
    check_scores,
    give_clue,
    play_turn,
    press,
    scores_shown,
    seat_players,
    state_of,
    status,
    submit_cards,
    text,
    wait_all,
    wait_gone,
    wait_status,
    wait_text,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

PRACTICE_RECAP = "Practice turn revealed"
SIDE = 27  # the side column's width at 100 columns


def side_text(client: PtyClient) -> str:
    """The side column's words as one line (the practice help wraps in its box)."""
    lines = (line[:SIDE].strip().strip("│╭╮╰╯─").strip() for line in client.screen.display)
    return " ".join(" ".join(line for line in lines if line).split())


def all_zero(client: PtyClient) -> bool:
    return set(scores_shown(client).values()) == {0}


async def wait_help(client: PtyClient, needle: str) -> None:
    await client.wait_until(lambda: needle in side_text(client), TIMEOUT, f"the help to say {needle!r}")


async def test_a_practice_turn_played_through_the_table_screens_counts_for_nothing(tmp_path: Path) -> None:
    async with dixit_server(tmp_path, seed=9) as (server, coord):
        players, table = await seat_players(server.port, coord, ["ana", "ben", "cara"], target=10)
        clients = [p.client for p in players]
        ana, ben, cara = clients
        await wait_status(ana, "Press s to start the game (p: practice turn first)")
        await press(ana, "p")
        await wait_text(ana, "Start with a practice turn, 3 players?")
        await press(ana, "y")
        await wait_all(clients, "to 10 points · practice turn · pile")
        for client in clients:
            await wait_help(client, "Practice turn: this does not count.")
        state = state_of(table)
        assert state.practice and state.turn.number == 0 and state.turn.storyteller == 0
        await wait_help(ana, "You are the storyteller. Choose a card from your hand and give a clue about it.")
        await wait_help(ben, "ana is the storyteller: they choose a card and give a clue about it.")

        # turn 0, by keys: ana tells, ben and cara give two cards each (three players), and vote
        await give_clue(ana, 1, "practice")
        await wait_all(clients, "Clue: “practice”")
        await wait_help(ben, "Choose the card of your hand that fits the clue best.")
        for client in (ben, cara):
            await submit_cards(client, [1, 2])
        state = state_of(table)
        owners = board_slots(state)
        teller_slot = state.turn.board.index(state.turn.clue_card) + 1 if state.turn.clue_card else 0
        await wait_help(ben, "Find ana's card: turn the dial and vote.")
        await cast_vote(ben, teller_slot)  # ben finds it, cara votes for one of ben's cards: points to show
        await cast_vote(cara, min(slot for slot, owner in owners.items() if owner == 1))
        # the table holds the practice's reveal as any turn's: its recap opens by itself, and Enter moves on (read
        # as the outcome in the clue line before, once the hold had ended by itself: 8 s of real time each run)
        await wait_all(clients, PRACTICE_RECAP, "these points do not count", RECAP_NEXT)
        for client in clients:
            await press(client, "enter")
            await wait_gone(client, "these points do not count")
        # the outcome in the clue line; r opens the recap again
        await wait_all(clients, "Practice turn (r: recap)")
        for client in clients:
            await press(client, "r")
        await wait_all(clients, PRACTICE_RECAP, "these points do not count", RECAP_CLOSE)
        for client in clients:
            await press(client, "enter")
            await wait_gone(client, "these points do not count")

        # nothing counted: every seats panel says 0, the game proper is at turn 1 with an open first clue
        state = state_of(table)
        assert not state.practice and state.turn.number == 1 and state.turn.storyteller is None
        assert state.scores == (0, 0, 0) and state.history == ()
        for client in clients:
            await wait_text(client, "to 10 points · turn 1 ·")
            await client.wait_until(partial(all_zero, client), TIMEOUT, "every score at 0")
            assert "Practice turn" not in side_text(client)
        assert "The practice is over" in text(ana)

        # and the game proper plays normally: a whole turn by keys, its points counted
        played = await play_turn(table, players, first_teller=1)
        assert played == 1 and state_of(table).history[0].turn == 1
        assert any(state_of(table).scores)
        await check_scores(table, clients)
        assert status(ben)  # still a working table
        for client in clients:
            await client.close()


async def test_start_with_practice_over_json(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, _):
        players, _ = await table_of_three(server.port)
        ana = players[0]
        ana.send({"cmd": "start", "practice": "yes", "ref": 1})
        bad = await ana.wait_for(lambda m: m["type"] == "error" and m["ref"] == 1)
        assert bad["code"] == "bad_command"
        ana.send({"cmd": "start", "practice": True})
        first = await players[1].wait_for(lambda m: m["type"] == "state" and m["phase"] == "clue")
        assert first["practice"] is True and first["turn"] == 0 and first["storyteller"] == 0
        await play(players, everyone_over(players), random.Random(2))
        for player in players:
            reveals = player.of_type("reveal")
            assert reveals[0]["turn"] == 0 and reveals[0]["practice"] is True
            assert all(p["score"] == 0 for p in reveals[0]["points"])
            assert all(r["turn"] >= 1 and r["practice"] is False for r in reveals[1:])
            after = next(m for m in player.messages if m["type"] == "state" and m.get("turn") == 1)
            assert after["practice"] is False and {p["score"] for p in after["players"]} == {0}
            for message in player.messages:
                validate_message(message)
        await wait_for(lambda: players[0].state["phase"] == "over", TIMEOUT)
        for player in players:
            assert await player.close() == 0
