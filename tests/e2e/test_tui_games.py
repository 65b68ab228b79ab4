"""The real TUI over real SSH: whole games, a dropped player, a spectator, hidden hands, hostile text, and leaks.

The server is the one `dixit-tui serve` runs (the lobby app factory and the headless command handler on one
coordinator) on 127.0.0.1, port from the OS, host key in tmp_path; clients are asyncssh PTY sessions feeding pyte
screens, each player with a client key of their own. The tests read the coordinator's state in this process to decide
WHICH card or slot a player picks and to check what the screens show; every player action goes through the keys of
that player's terminal. The coordinator's random source is seeded here, so table codes and shuffles are the same on
every run (the create dialog has no seed field).
"""

from __future__ import annotations

import asyncio
import gc
import re
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import asyncssh
import pytest

from dixit_tui.coordinator import PlayerSession
from dixit_tui.coordinator.table import Table
from dixit_tui.ssh.driver import SSHDriver
from dixit_tui.textual_host.parser import SessionParser
from dixit_tui.tui.app import DixitApp
from tests.e2e.clock import drive_clock, reveal_out
from tests.e2e.harness import PtyClient, wait_for
from tests.e2e.json_client import JsonClient
from tests.e2e.leaks import holders
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import (
    RECAP_CLOSE,
    TIMEOUT,
    Player,
    Seen,
    board_slots,
    card_marks,
    cast_vote,
    check_scores,
    close_recap,
    create_table,
    find,
    give_clue,
    join_by_code,
    key_of,
    leave_table,
    offline,
    online,
    open_lobby,
    paste,
    play_turn,
    press,
    printed,
    quit_from_lobby,
    seat_players,
    start_game,
    state_of,
    status,
    submit_cards,
    text,
    wait_all,
    wait_footer,
    wait_status,
    wait_text,
)
from tests.e2e.watched import drawn

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


# --- what reached a terminal ------------------------------------------------------------------------------------


class Checkpoints:
    """Called just before each reveal: how many bytes each client had received, and which cards it must not have
    seen by then (in other hands, never on a board)."""

    def __init__(self, clients: Sequence[PtyClient], seen: Seen) -> None:
        self.clients = list(clients)
        self.seen = seen
        self.points: list[tuple[list[int], list[set[str]]]] = []

    def __call__(self) -> None:
        sizes = [len(client.raw) for client in self.clients]
        self.points.append((sizes, [self.seen.hidden_from(seat) for seat in range(len(self.clients))]))

    def check(self, table: Table, names: Sequence[str]) -> None:
        assert self.points
        for sizes, hidden in self.points:
            for seat, client in enumerate(self.clients):
                foreign = card_marks(table, hidden[seat])
                assert foreign
                sent = printed(client, sizes[seat])
                leaked = {card: mark for card, mark in foreign.items() if mark in sent}
                assert not leaked, f"{names[seat]} was sent other players' cards before a reveal: {leaked}"
        # The control: the same reading finds every card each player held at the start of a turn.
        for seat, client in enumerate(self.clients):
            sent = printed(client)
            missing = {c: m for c, m in card_marks(table, self.seen.hands[seat]).items() if m not in sent}
            assert not missing, f"{names[seat]}'s own cards not found in its bytes: the check is blind: {missing}"


# --- 1, 2 (and 5): whole games ----------------------------------------------------------------------------------


async def play_to_the_end(table: Table, players: list[Player], max_turns: int = 8) -> tuple[list[int], Checkpoints]:
    """Turns through the keyboard until the game is over; after each, every seats panel shows the scores."""
    clients = [p.client for p in players]
    seen = Seen()
    checkpoints = Checkpoints(clients, seen)
    turns: list[int] = []
    for _ in range(max_turns):
        if state_of(table).phase == "over":
            break
        turns.append(await play_turn(table, players, seen=seen, before_reveal=checkpoints))
        await check_scores(table, clients)
    state = state_of(table)
    assert state.phase == "over", f"not over after turns {turns}"
    winners = [state.names[w] for w in state.winners]
    assert winners and all(state.scores[w] >= 10 for w in state.winners)
    for player in players:
        await wait_text(player.client, "★ Game over: ", "Final scores", "· game over")
        headline = next(line for line in text(player.client).splitlines() if "★ Game over: " in line)
        assert all(name in headline for name in winners), headline
        assert status(player.client).startswith("Game over:")
        for seat, name in enumerate(state.names):  # the final table: "1. ★  11  ana"
            assert re.search(rf"\d\. [★ ] +{state.scores[seat]}  {name}\b", text(player.client)), name
    return turns, checkpoints


async def test_three_player_refresh_game_to_the_end(tmp_path: Path) -> None:
    """Lobby, create (target 10) and join by code, start, then every turn by keys: the clue, two cards from each
    other player, the votes on the dial, the recap closed; until the game is over and the winner shown. Checks
    the hidden-information rule on the bytes too: up to each reveal nobody was sent another hand's card."""
    async with dixit_server(tmp_path) as (server, coord):
        players, table = await seat_players(server.port, coord, ["ana", "ben", "cara"], target=10)
        host = players[0].client
        assert "The first player to reach 10 points wins." in text(host)
        assert "Waiting for ana (host) to start the game." in status(players[1].client)
        await start_game(host)
        await wait_all([p.client for p in players], "to 10 points · turn 1 ·")
        assert state_of(table).rules.submit_count == 2
        turns, checkpoints = await play_to_the_end(table, players)
        assert len(turns) >= 3
        checkpoints.check(table, [p.name for p in players])
        for player in players:
            await player.client.close()


async def test_four_player_game_to_the_end(tmp_path: Path) -> None:
    async with dixit_server(tmp_path, seed=11) as (server, coord):
        players, table = await seat_players(server.port, coord, ["ana", "ben", "cara", "dev"], target=10)
        await start_game(players[0].client)
        assert state_of(table).rules.submit_count == 1
        turns, checkpoints = await play_to_the_end(table, players)
        assert len(turns) >= 2
        checkpoints.check(table, [p.name for p in players])
        for player in players:
            await player.client.close()


# --- 3: an abrupt drop and a return with the same key ---------------------------------------------------------


async def test_a_dropped_player_gets_seat_hand_and_vote_back(tmp_path: Path) -> None:
    async with dixit_server(tmp_path, seed=3) as (server, coord):
        clock = drive_clock(coord)
        players, table = await seat_players(server.port, coord, ["ana", "ben", "cara"])
        ana, ben, cara = (p.client for p in players)
        code = table.code
        await start_game(ana)
        await give_clue(ben, 1, "lantern")
        await submit_cards(ana, [1, 2])
        hand = state_of(table).hands[2]

        cara.drop()  # mid-turn, before giving her cards: no goodbye at all
        for client in (ana, ben):
            await client.wait_until(partial(offline, client, "cara"), TIMEOUT, "cara shown offline")
            await wait_text(client, "cara is disconnected; their seat is kept.")
        assert not table.seats[2].connected

        # Back with the same key: straight back at her seat, no code to find (issue 22 item 6: she landed in the
        # plain lobby and had to find `j CODE`); the seat, the hand and the phase are hers.
        cara = players[2].client = await open_lobby(server.port, "cara", key_of("cara"), welcome="cara (you)")
        await wait_status(cara, "Choose 2 cards that fit the clue")
        assert state_of(table).hands[2] == hand
        marks = card_marks(table, set(hand)).values()
        await cara.wait_until(lambda: all(m in text(cara) for m in marks), TIMEOUT, f"her hand: {list(marks)}")
        for client in (ana, ben):
            await client.wait_until(partial(online, client, "cara"), TIMEOUT, "cara back online")
            await wait_text(client, "cara is back.")
        await submit_cards(cara, [1, 2])

        # She votes, then drops again while ana has not voted: her vote stays in and shows when she is back.
        state = state_of(table)
        owners = board_slots(state)
        teller_slot = state.turn.board.index(state.turn.clue_card) + 1
        cara_vote = min(slot for slot, owner in owners.items() if owner == 0)
        await cast_vote(cara, cara_vote)
        cara.drop()
        await ana.wait_until(lambda: offline(ana, "cara"), TIMEOUT, "cara shown offline")
        assert state_of(table).turn.votes == {2: (cara_vote,)}

        cara = players[2].client = await open_lobby(server.port, "cara", key_of("cara"), command=f"join {code}")
        await wait_status(cara, f"Your vote: {cara_vote} (you can change it")
        await wait_text(cara, "[your vote]")
        await ana.wait_until(lambda: online(ana, "cara"), TIMEOUT, "cara back online")

        await cast_vote(ana, teller_slot)
        await reveal_out(coord, code, clock)  # the reveal's hold is over (its seconds, on the clock the test drives)
        await wait_all([ana, ben, cara], "Turn 1 (r: recap)")  # the outcome in the clue line; r opens the recap
        reveal = state_of(table).last_reveal
        assert reveal is not None
        assert {p.seat: p.delta for p in reveal.points} == {0: 3 + 1, 1: 3, 2: 0}  # cara's vote counted
        for player in players:
            await player.client.close()


# --- 4: a spectator -----------------------------------------------------------------------------------------


async def test_a_spectator_sees_the_board_but_no_hand(tmp_path: Path) -> None:
    async with dixit_server(tmp_path, seed=5) as (server, coord):
        clock = drive_clock(coord)
        players, table = await seat_players(server.port, coord, ["ana", "ben", "cara"])
        ana, ben, cara = (p.client for p in players)
        watcher = await open_lobby(server.port, "zed", key_of("zed"), command=f"watch {table.code}")
        await wait_text(watcher, "you are watching", f"Dixit · table {table.code}")
        await wait_status(watcher, "You are watching. Waiting for ana to start.")
        await wait_all([ana, ben, cara], "1 watching")
        await start_game(ana)
        dealt = {card for hand in state_of(table).hands for card in hand}
        await give_clue(ben, 1, "harbour")
        await wait_text(watcher, "Clue: “harbour”", "hands stay hidden")
        await asyncio.gather(submit_cards(ana, [1, 2]), submit_cards(cara, [1, 2]))
        await wait_status(watcher, "You are watching. Waiting for votes from ana and cara.")
        await drawn(watcher)  # (the rest of the frame too: the status line is at its top)
        state = state_of(table)
        board = set(state.turn.board)
        screen = text(watcher)
        for mark in card_marks(table, board).values():  # the board, in full
            assert mark in screen, mark
        assert "Enter: vote for" not in screen  # no dial
        hidden = {card for hand in state.hands for card in hand} | (dealt - board)
        assert all(mark not in printed(watcher) for mark in card_marks(table, hidden).values())
        # the reveal reaches the spectator too, and still no hand
        owners = board_slots(state)
        teller_slot = state.turn.board.index(state.turn.clue_card) + 1
        await cast_vote(ana, teller_slot)
        await cast_vote(cara, min(slot for slot, owner in owners.items() if owner == 0))
        await reveal_out(coord, table.code, clock)  # the reveal's hold is over (on the clock the test drives)
        await wait_all([watcher, ana], "Turn 1 (r: recap)")
        await close_recap(watcher, 1)
        await wait_text(watcher, "turn 2 ·", "you are watching")
        hidden = {card for hand in state_of(table).hands for card in hand}
        assert all(mark not in printed(watcher) for mark in card_marks(table, hidden).values())
        for client in (watcher, ana, ben, cara):
            await client.close()


# --- 6: hostile names, clues and chat -----------------------------------------------------------------------

ESC_NAME = "\x1b]0;pwned\x07[@click=app.quit]x"
MARKUP_NAME = "[@click=app.quit]x[/"  # a markup action and an unbalanced closing tag: 20 characters, the cap
PAYLOAD = "\x1b[2J\x1b]52;c;ZXZpbA==\x07\x9b2J[b]hi[/"
JSON_PAYLOAD = "\x1b]0;json-pwned\x07\x1b]52;c;SlNPTg==\x07ok\x9b2J\x1b[2J\x9d0;c1-pwned\x9c"
# Control sequences that player text must never carry to a terminal (OSC title and clipboard, 7-bit and C1; the
# C1 CSI), and the JSON payload's words, which the sanitiser drops whole with their sequences.
FORBIDDEN = (b"\x1b]52", b"\x1b]0;", b"\xc2\x9b", b"\xc2\x9d", b"\x9b2J", b"SlNPTg", b"json-pwned", b"c1-pwned")


def chat_line(client: PtyClient, name: str, end: str) -> bool:
    lines = [line.strip() for line in text(client).splitlines()]
    return any(line.startswith(f"{name}: ") and line.endswith(end) for line in lines)


async def connect_as_raw_username(port: int, username: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Log in with `username` sent as is: asyncssh's client would refuse it (saslprep), a raw client would not."""
    import sys

    import asyncssh.connection

    real = asyncssh.connection.saslprep

    def client_side_unchecked(value: str) -> str:
        caller = sys._getframe(1).f_code.co_name
        return value if value == username and caller == "prepare" else real(value)

    monkeypatch.setattr(asyncssh.connection, "saslprep", client_side_unchecked)
    try:
        conn = await PtyClient.connect(port, username, client_key=key_of("esc"))
        await conn.close()
    finally:
        monkeypatch.setattr(asyncssh.connection, "saslprep", real)


async def test_escape_and_markup_injection_reach_nobody(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with dixit_server(tmp_path, seed=9) as (server, coord):
        clock = drive_clock(coord)
        # A user name with escape sequences never gets as far as an app: the SSH layer refuses the login.
        with pytest.raises((asyncssh.Error, OSError)):
            await connect_as_raw_username(server.port, ESC_NAME, monkeypatch)
        await wait_for(lambda: server.connection_count == 0 and server.session_count == 0)

        ana = await open_lobby(server.port, "ana", key_of("ana"))
        evil = await open_lobby(server.port, MARKUP_NAME, key_of("evil"))
        ben = await open_lobby(server.port, "ben", key_of("ben"))
        clients = (ana, evil, ben)
        code = await create_table(ana)
        await join_by_code(evil, code)
        await join_by_code(ben, code)
        await wait_all(clients, "3 seated", f"{MARKUP_NAME} sat down.")
        table = coord.tables[code]
        clear_from = [len(c.raw) for c in clients]  # Textual clears the screen when it starts; never after

        # A chat line pasted into the chat field (a paste keeps control characters; typed keys could not).
        await press(evil, "c")
        await wait_footer(evil, "esc Back to the table")
        paste(evil, PAYLOAD)
        await press(evil, "enter")
        # The server's driver takes the paste whole and drops its control characters (ESC too), so only printable
        # characters reach the field. The line arrives as text, its markup shown literally.
        for client in clients:
            await client.wait_until(partial(chat_line, client, MARKUP_NAME, "[b]hi[/"), TIMEOUT, "the chat line")
        # The same from a headless spectator, whose JSON can carry any control character.
        mallory = await JsonClient.open(server.port, "mallory")
        mallory.send({"cmd": "watch", "table": code})
        await mallory.wait_for("state", table=code)
        mallory.send({"cmd": "chat", "text": JSON_PAYLOAD})
        await wait_all(clients, "mallory (watching): ok")

        # A click on the name that looks like a markup action does nothing.
        spot = find(ana, f"{MARKUP_NAME} sat down")
        assert spot is not None
        x, y = spot[0] + 3, spot[1]
        ana.send(f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m")

        # The clue, pasted once the card is chosen.
        await start_game(ana)
        await wait_footer(evil, "⏎ Choose card")
        await press(evil, "1", "enter")
        await wait_text(evil, "Card 1 chosen")
        await wait_footer(evil, "esc Back to the table")
        paste(evil, "\x1b]0;pwned\x07" + PAYLOAD)
        await press(evil, "enter")
        await wait_all(clients, "[b]hi[/” — told by")
        await wait_text(ana, f"· {MARKUP_NAME} gave the clue:")

        # Everyone plays on: no app was harmed, and the recap shows the name and clue as text.
        await asyncio.gather(submit_cards(ana, [1, 2]), submit_cards(ben, [1, 2]))
        state = state_of(table)
        teller_slot = state.turn.board.index(state.turn.clue_card) + 1
        ana_slot = min(slot for slot, owner in board_slots(state).items() if owner == 0)
        await cast_vote(ana, teller_slot)
        await cast_vote(ben, ana_slot)
        await reveal_out(coord, table.code, clock)  # the reveal's hold is over (on the clock the test drives)
        await wait_all(clients, "Turn 1 (r: recap)")
        for client in clients:
            # the held recap (open over the line above) closed by the hold's end: an r while it is open does nothing
            await drawn(client)
            await press(client, "r")
        await wait_all(clients, "Turn 1 revealed", f"[b]hi[/” told by {MARKUP_NAME}", RECAP_CLOSE)
        for client, start in zip(clients, clear_from, strict=True):
            raw = bytes(client.raw)
            for needle in FORBIDDEN:
                assert needle not in raw, needle
            assert b"\x1b[2J" not in raw[start:]
            assert not client.closed
        assert server.session_count == 4  # the three players and the headless spectator
        assert [seat.name for seat in table.seats] == ["ana", MARKUP_NAME, "ben"]
        assert [line.text[-7:] for line in table.chat] == ["[b]hi[/", "ok"]
        assert state_of(table).last_reveal is not None
        assert not any("\x1b" in line.text for line in table.chat)
        for client in clients:
            await client.close()
        await mallory.close()


# --- 8: connect/leave cycles leave nothing behind ---------------------------------------------------------------


def live(*kinds: type) -> tuple[int, ...]:
    """How many objects of each kind the garbage collector knows (one pass over all objects)."""
    counts = [0] * len(kinds)
    for item in gc.get_objects():
        for index, kind in enumerate(kinds):
            if isinstance(item, kind):
                counts[index] += 1
    return tuple(counts)


async def test_connect_leave_cycles_with_the_real_app_leave_nothing_behind(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coord):
        host = await JsonClient.open(server.port, "host")  # keeps a table open, in its lobby
        code = await host.create(mode="standard", seats=8)

        async def cycle(number: int) -> None:
            name = f"p{number}"
            key = key_of(name) if number % 3 else None  # some keyless guests too
            client = await open_lobby(server.port, name, key)
            joins = number % 5 == 0  # 0, 5, 10, 15: two leave and quit through the UI, two drop at the table
            if joins:
                await join_by_code(client, code)
                await wait_text(client, f"{name} sat down.")
            client.send("x\x1b[97;5u")  # typing, including a Kitty-protocol key
            if number % 2 == 0:
                if joins:
                    await leave_table(client)
                assert await quit_from_lobby(client) == 0
                await client.close()
            else:
                client.drop()
                await asyncio.wait_for(client.conn.wait_closed(), TIMEOUT)
            await wait_for(lambda: server.connection_count == 1 and server.session_count == 1, TIMEOUT)
            await wait_for(lambda: len(coord.sessions) == 1 and len(table.seats) == 1, TIMEOUT)

        async def settle(tasks_before: int | None = None) -> tuple[int, ...]:
            """The counts once the last session's objects are gone (a dropped session may take a moment to close
            on a busy machine) and, after the cycles, once no more tasks run than before them (a worker's tick on
            two workers runs a task now and then); a leak never gets there and is reported as it stands after the
            bounded wait."""
            counts: tuple[int, ...] = ()
            for _ in range(200):  # (polled)
                await asyncio.sleep(0.05)
                gc.collect()
                counts = (*live(DixitApp, SSHDriver, SessionParser, PlayerSession), len(asyncio.all_tasks()))
                if counts[:4] == (0, 0, 0, 1) and (tasks_before is None or counts[4] <= tasks_before):
                    break
            return counts

        table = coord.tables[code]
        await cycle(0)  # warm-up (a join, a leave, a quit; then a drop): imports, caches, the first table screen
        await cycle(1)
        baseline = await settle()
        for number in range(2, 20):
            await cycle(number)
        after = await settle(tasks_before=baseline[4])
        print(f"leak check (apps, drivers, parsers, sessions, tasks): before {baseline}, after 20 cycles {after}")
        if after[:3] != (0, 0, 0):
            print("\n".join(holders(DixitApp)))
        if after[4] > baseline[4]:
            print("\n".join(sorted(repr(task)[:200] for task in asyncio.all_tasks())))
        assert after[:3] == (0, 0, 0)
        assert after[3] == baseline[3] == 1  # the headless host's session
        assert after[4] <= baseline[4]
        await host.close()
