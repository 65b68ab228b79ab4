"""Names the SSH layer or the game cannot take as they are: a clear word and a usable name, never a protocol error.

Found at the table: `ssh 🎲dice@host` was dropped by asyncssh's user name check (SASLprep: "Unassigned character")
before the game could answer, with nothing in the server's log; a 68-character name became "Bartholomew-Maximili"
without a word; a duplicate typed as "GUS" was refused as "already called GUS" while the one at the table is "gus".
"""

from __future__ import annotations

import logging
import shlex
from pathlib import Path

import pytest

from dixit_tui.coordinator import Identity
from dixit_tui.ssh import usernames
from tests.e2e.harness import HOST
from tests.e2e.openssh import SSH, Tmux, needs_ssh, needs_tmux, run, ssh_options
from tests.e2e.servers import dixit_server
from tests.e2e.shared_servers import two_workers_wanted
from tests.e2e.tui_driver import lobby_keys, open_lobby, press, text, wait_footer, wait_text
from tests.tui.fixtures import Recorder, options

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]

DICE = "🎲dice"
LONG = "Bartholomew-Maximilian-Alexander-Fitzgerald-Montgomery-Wellington-III-of-Y"  # 68+ characters


@needs_ssh
async def test_openssh_with_a_name_saslprep_refuses_gets_the_game_and_the_log_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """No PTY (`ssh 🎲dice@host tables`): the game answers, where the connection was dropped."""
    assert SSH is not None
    caplog.set_level(logging.INFO, logger="dixit_tui")
    async with dixit_server(tmp_path) as (server, _coord):
        code, out, err = await run(SSH, *ssh_options(server.port), "-T", f"{DICE}@{HOST}", "tables")
        assert "Unassigned" not in err and "disconnect" not in err.lower(), err
        assert code == 0, (code, out, err)
        assert "table" in out.lower(), out
    if not two_workers_wanted():  # (two workers log in their own processes)
        assert any("refused by SASLprep" in r.getMessage() for r in caplog.records), caplog.text


@needs_ssh
@needs_tmux
async def test_openssh_in_tmux_with_an_emoji_name_reaches_the_lobby_under_that_name(tmp_path: Path) -> None:
    assert SSH is not None
    async with dixit_server(tmp_path) as (server, _coord), Tmux(tmp_path) as tmux:
        ssh = [SSH, "-tt", *ssh_options(server.port), "-o", "PubkeyAuthentication=no", f"{DICE}@{HOST}"]
        await tmux.start(f"LANG=C.UTF-8 {shlex.join(ssh)}")
        await tmux.wait("dice!")  # "Welcome, 🎲dice!" (tmux may draw the die as it likes)
        rows = await tmux.pane()
        assert "Welcome," in rows and "Unassigned" not in rows, rows


async def test_a_shortened_name_is_said(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, _coord):
        client = await open_lobby(server.port, LONG, welcome="Welcome,")  # (the notice stands over the line's end)
        try:
            await wait_text(client, "shortened to", "Bartholomew-Maximili")
        finally:
            await client.close()


async def test_an_asyncssh_client_with_an_emoji_name_is_welcomed_without_a_notice(tmp_path: Path) -> None:
    """The asyncssh client prepares its user name with SASLprep too (it would refuse to send this one): here it takes
    the name as the server now does."""
    usernames.install()
    async with dixit_server(tmp_path) as (server, _coord):
        client = await open_lobby(server.port, DICE)
        try:
            await wait_text(client, f"Welcome, {DICE}!")
            assert "shortened" not in text(client) and "shown as" not in text(client)
        finally:
            await client.close()


async def test_a_name_taken_in_another_case_names_the_one_at_the_table(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coord):
        gus = await coord.connect(Identity("gus", key="key-gus"), Recorder())
        code = (await gus.create(options(target=10))).code
        client = await open_lobby(server.port, "GUS")
        try:
            await lobby_keys(client)
            await press(client, "j")
            # the code field has the focus (its key bar): "Join" was on the screen before j
            await wait_footer(client, "esc Back to the list")
            await press(client, code, "enter")
            await wait_text(client, "Pick another name", "already called gus (GUS counts")
        finally:
            await client.close()
