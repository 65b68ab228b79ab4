"""Clues and chat lines are never cut or lost without a word, over real SSH (asyncssh + pyte).

Found at the table: 300 characters typed in one burst were published cut at 80; a bracketed paste of 81, 100 or
300 characters inserted nothing at all; a pasted "snow in⏎summer" gave "snow in"; a raw line feed glued
"snow insummer". Now the room left shows beside the box, Enter past the limit is refused with a clear message
(the text stays, to be shortened), a long paste lands whole, and line breaks become spaces.
"""

from __future__ import annotations

import shlex
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from dixit_tui.coordinator import Identity, PlayerSession
from dixit_tui.coordinator.table import Table
from tests.e2e.harness import HOST, PtyClient
from tests.e2e.openssh import SSH, Tmux, needs_ssh, needs_tmux, ssh_options
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import (
    join_by_code,
    key_of,
    open_lobby,
    paste,
    press,
    settle_screen,
    text,
    wait_footer,
    wait_status,
    wait_text,
)
from tests.tui.fixtures import Recorder, options

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

CLEAR = "\x15"  # Ctrl+U: the text box's "delete everything left of the cursor"
WORDS = "a long night in the old kitchen, and then the snow came down on the town "


def letters(count: int) -> str:
    """`count` characters of words, with no space at either end."""
    return (WORDS * (count // len(WORDS) + 1))[:count].rstrip().ljust(count, "s")


@asynccontextmanager
async def ben_at_a_table(tmp_path: Path) -> AsyncIterator[tuple[PtyClient, Table, list[PlayerSession]]]:
    """ana (the host), cara and dev are sessions of the coordinator; ben is a real SSH terminal. Not started."""
    async with dixit_server(tmp_path) as (server, coord):
        sessions = [await coord.connect(Identity(n, key=f"key-{n}"), Recorder()) for n in ("ana", "cara", "dev")]
        code = (await sessions[0].create(options(target=10))).code
        client = await open_lobby(server.port, "ben", key_of("ben"))
        await join_by_code(client, code)
        for session in sessions[1:]:
            await session.join(code)
        await wait_text(client, "4 seated")
        try:
            yield client, coord.tables[code], sessions
        finally:
            await client.close()


def clue_of(table: Table) -> str | None:
    assert table.game is not None
    return table.game.state.turn.clue


async def test_a_long_clue_is_kept_counted_and_refused_never_cut(tmp_path: Path) -> None:
    async with ben_at_a_table(tmp_path) as (client, table, (ana, *_)):
        await ana.start()
        await wait_status(client, "Anyone may give the first clue")
        await wait_footer(client, "⏎ Choose card")
        await press(client, "2", "enter")
        await wait_text(client, "Card 2 chosen")
        await wait_footer(client, "esc Back to the table")  # the clue box has the focus
        # 300 characters typed in one burst: all kept, counted, and Enter refused with the reason
        await press(client, letters(300))
        await wait_text(client, "220 too many")
        await press(client, "enter")
        await wait_text(client, "220 characters")
        await settle_screen(client)
        assert clue_of(table) is None, "a clue past the limit was published"
        # a bracketed paste of 100 characters lands whole (it inserted nothing)
        await press(client, CLEAR)
        await wait_text(client, "type your clue")  # the box is empty (its placeholder shows)
        paste(client, letters(100))
        await wait_text(client, "20 too many")
        # a pasted line break and a raw line feed both become a space
        await press(client, CLEAR)
        await wait_text(client, "type your clue")
        paste(client, "snow in\r\nsummer")
        await wait_text(client, "snow in summer", "66 left")
        await press(client, CLEAR)
        await wait_text(client, "type your clue")
        await press(client, "snow in\nsummer")
        await wait_text(client, "snow in summer", "66 left")
        # exactly the limit: "0 left", and Enter publishes it whole
        await press(client, CLEAR)
        await wait_text(client, "type your clue")
        await press(client, letters(80))
        await wait_text(client, "0 left")
        await press(client, "enter")
        await wait_text(client, "Clue: “a long night")
        assert clue_of(table) == letters(80)
        assert "internal error" not in client.raw_text()


async def test_a_pasted_chat_line_keeps_its_lines_as_spaces_and_shows_the_room_left(tmp_path: Path) -> None:
    async with ben_at_a_table(tmp_path) as (client, table, _sessions):
        await press(client, "c")
        await wait_footer(client, "esc")  # the chat box has the focus
        paste(client, "hello\nall of\r\nyous")
        await wait_text(client, "hello all of yous", "183 left")
        paste(client, " " + letters(250))
        await wait_text(client, "68 too many")
        await press(client, "enter")
        await wait_text(client, "68 characters")
        await settle_screen(client)
        assert not [line for line in table.chat if "hello" in line.text], "a chat line past the limit was sent"
        for _ in range(68):
            await press(client, "\x7f")  # Backspace
        await wait_text(client, "0 left")
        await press(client, "enter")
        await wait_text(client, "ben: hello all of yous")
        sent = [line.text for line in table.chat if "hello" in line.text]
        assert sent == [("hello all of yous " + letters(250))[:200]], sent
        assert "internal error" not in text(client)


@needs_ssh
@needs_tmux
async def test_openssh_in_tmux_a_pasted_text_lands_whole_on_one_line(tmp_path: Path) -> None:
    """The real OpenSSH client in tmux: tmux pastes bracketed (the app asks for it); a raw line feed is Ctrl+J."""
    assert SSH is not None
    async with dixit_server(tmp_path) as (server, coord), Tmux(tmp_path) as tmux:
        ana = await coord.connect(Identity("ana", key="key-ana"), Recorder())
        code = (await ana.create(options(target=10))).code
        ssh = [SSH, "-tt", *ssh_options(server.port), "-oPubkeyAuthentication=no", f"ben@{HOST}", f"join {code}"]
        await tmux.start(shlex.join(ssh))
        await tmux.wait("2 seated")
        await tmux.keys("c")
        await tmux.wait("esc Back to the table")  # the chat box has the focus
        await tmux("set-buffer", "--", "snow in\nsummer " + letters(250))
        await tmux("paste-buffer", "-p", "-t", tmux.name)
        await tmux.wait("65 too many")  # 265 characters, all there (a paste past the limit inserted nothing)
        await tmux.keys("C-u")
        await tmux.wait(lambda rows: not any("too many" in row for row in rows), "the box emptied")
        await tmux("set-buffer", "--", "snow in\nsummer")
        await tmux("paste-buffer", "-p", "-t", tmux.name)
        await tmux.keys("C-j", "again")  # a raw line feed between words: a space
        await tmux.wait("snow in summer again")
        await tmux.keys("Enter")
        await tmux.wait("ben: snow in summer again")
