"""The plain line mode over real SSH, played to the end: ana on a dumb terminal (a PTY with TERM=dumb: the server
echoes her typing), ben and cara with `ssh HOST plain` (no terminal). Every change comes as a sentence; every move
is typed as words ("clue 1 ...", "give 1", "vote 3")."""

from __future__ import annotations

import asyncio
import re
import shlex
from pathlib import Path

import asyncssh
import pytest

from dixit_tui.ssh.glyph_forms import CONSOLE_SET
from tests.e2e.harness import HOST, connect
from tests.e2e.openssh import SSH, Tmux, needs_ssh, needs_tmux, ssh_options
from tests.e2e.servers import dixit_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]


class LineClient:
    """One line-mode session: `lines` is everything it was told, one sentence a line."""

    def __init__(
        self, name: str, conn: asyncssh.SSHClientConnection, process: asyncssh.SSHClientProcess[str], terminal: bool
    ):
        self.name = name
        self.terminal = terminal  # a terminal sends Enter as \r
        self.conn = conn
        self.process = process
        self.lines: list[str] = []
        self.seen = 0  # lines already acted on
        self._reader = asyncio.ensure_future(self._read())

    @classmethod
    async def open(
        cls, port: int, name: str, *, dumb_terminal: bool, env: dict[str, str] | None = None, term: str | None = None
    ) -> LineClient:
        """`dumb_terminal`: TERM=dumb; else `ssh HOST plain` (without a terminal, or with `term`: `ssh -t`)."""
        conn = await connect(port, name)
        if dumb_terminal:
            process = await conn.create_process(term_type="dumb", term_size=(80, 24), env=env)
        elif term is not None:
            process = await conn.create_process("plain", term_type=term, term_size=(80, 24), env=env)
        else:
            process = await conn.create_process("plain", env=env)
        return cls(name, conn, process, dumb_terminal or term is not None)

    async def _read(self) -> None:
        async for line in self.process.stdout:
            self.lines.append(line.rstrip("\r\n"))

    def send(self, line: str) -> None:
        self.process.stdin.write(line + ("\r" if self.terminal else "\n"))

    async def wait_for(self, pattern: str, timeout: float = 20.0) -> re.Match[str]:
        for _ in range(int(timeout / 0.02)):
            for line in self.lines:
                match = re.search(pattern, line)
                if match:
                    return match
            await asyncio.sleep(0.02)
        raise AssertionError(f"{self.name}: no line matches {pattern!r}; last lines: {self.lines[-8:]}")

    def act(self) -> bool:
        """Answer the prompts said since the last call. True once the game is over."""
        over = False
        for line in self.lines[self.seen :]:
            if "Your turn to tell" in line:
                self.send("clue 1 a quiet sea" if "a card's number" in line else "clue a quiet sea")
            elif line.startswith("Your turn: give"):
                self.send("give 1 2" if "give 2 cards" in line else "give 1")
            elif line.startswith("Your turn to vote"):
                numbers = line.rsplit(":", 1)[1].strip(" .").split(", ")
                self.send(f"vote {numbers[0]}")
            elif line.startswith("The game is over"):
                over = True
        self.seen = len(self.lines)
        return over

    async def close(self) -> None:
        self.send("quit")
        await asyncio.wait_for(self.process.wait_closed(), 10)
        self.conn.close()


async def play_to_the_end(clients: tuple[LineClient, ...]) -> None:
    """Every client answers its prompts until each has been told the game is over."""
    done: set[str] = set()
    for _ in range(3000):
        for client in clients:
            if client.act():
                done.add(client.name)
        if len(done) == len(clients):
            break
        await asyncio.sleep(0.02)
    assert done == {c.name for c in clients}, [c.lines[-6:] for c in clients]


async def test_a_game_played_to_the_end_in_plain_lines(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, coordinator):
        ana = await LineClient.open(server.port, "ana", dumb_terminal=True)
        ben = await LineClient.open(server.port, "ben", dumb_terminal=False)
        cara = await LineClient.open(server.port, "cara", dumb_terminal=False)
        await ana.wait_for(r"^Welcome to dixit-tui, ana\.")
        ana.send("creatx\x7fe 10")  # a typo, erased with Backspace
        code = (await ana.wait_for(r"^You are at table (\w+): standard \(refresh\)\.$")).group(1)
        await ana.wait_for("^creatx\b \be 10$")  # her typing, echoed (and erased) by the server on her dumb terminal
        ben.send(f"join {code}")
        await ana.wait_for("^At the table: ana, ben.$")  # (one after the other: seats in the order they sat)
        cara.send(f"join {code}")
        await ana.wait_for("^At the table: ana, ben, cara.$")
        await ana.wait_for("type start when everyone is here")
        ana.send("start")
        await ben.wait_for("^The game has started")
        clients = (ana, ben, cara)
        await play_to_the_end(clients)
        table = coordinator.tables[code]
        assert table.game is not None and table.game.state.winners
        for client in clients:
            winners = " and ".join(table.seats[w].name for w in table.game.state.winners)
            await client.wait_for(f"^Game over. {winners} won.$")
            await client.wait_for(r"^1\. ★ +\d+  \w+")  # the final scores, ranked
            assert not any("\x1b" in line for line in client.lines)  # no escape sequence: plain text only
        await ben.wait_for(r"^ana gave the clue: a quiet sea$|^\w+ gave the clue: a quiet sea$")
        ana.send("say well played")
        await cara.wait_for("^ana says: well played$")
        for client in clients:
            await client.close()


async def test_a_client_without_utf8_gets_only_ascii_lines(tmp_path: Path) -> None:
    """ana (TERM=dumb) and ben (`ssh HOST plain`) send LANG=C: every byte of a whole game is ASCII (the clue's quotes,
    the scores' star...); cara sends no locale and still gets them in UTF-8."""
    async with dixit_server(tmp_path) as (server, _):
        ana = await LineClient.open(server.port, "ana", dumb_terminal=True, env={"LANG": "C"})
        ben = await LineClient.open(server.port, "ben", dumb_terminal=False, env={"LANG": "C"})
        cara = await LineClient.open(server.port, "cara", dumb_terminal=False)
        ana.send("create 10")
        code = (await ana.wait_for(r"^You are at table (\w+)")).group(1)
        ben.send(f"join {code}")
        await ana.wait_for("^At the table: ana, ben.$")  # (one after the other: seats in the order they sat)
        cara.send(f"join {code}")
        await ana.wait_for("^At the table: ana, ben, cara.$")
        ana.send("start")
        await play_to_the_end((ana, ben, cara))
        for client in (ana, ben):
            await client.wait_for(r"^1\. \* +\d+  \w+")  # the final scores, the star in ASCII
            assert [line for line in client.lines if not line.isascii()] == []
        await cara.wait_for(r"^1\. ★ +\d+  \w+")
        assert any("\u201c" in line for line in cara.lines)  # the clue in curly quotes
        for client in (ana, ben, cara):
            await client.close()


async def test_what_players_type_reaches_a_client_without_utf8_in_ascii(tmp_path: Path) -> None:
    """zoé hosts a table and chats `déjà vu 猫 🎉`; ben (`ssh HOST plain`, LANG=C) reads `host zoe` in the list of
    tables and `zoe says: deja vu ?? ??` (a ? a cell), never a byte outside ASCII; zoé, in UTF-8, reads her own words
    as typed (found by a playtest: ben was told `host zoé`)."""
    async with dixit_server(tmp_path) as (server, _):
        zoe = await LineClient.open(server.port, "zoé", dumb_terminal=False)
        ben = await LineClient.open(server.port, "ben", dumb_terminal=False, env={"LANG": "C"})
        zoe.send("create 10")
        code = (await zoe.wait_for(r"^You are at table (\w+)")).group(1)
        ben.send("tables")
        await ben.wait_for(rf"open: {code} \(.*, host zoe\)")
        ben.send(f"join {code}")
        await zoe.wait_for("^At the table: zoé, ben.$")
        zoe.send("say déjà vu 猫 🎉")
        await ben.wait_for(r"^zoe says: deja vu \?\? \?\?$")
        await zoe.wait_for("^zoé says: déjà vu 猫 🎉$")
        assert [line for line in ben.lines if not line.isascii()] == []
        for client in (zoe, ben):
            await client.close()


async def test_the_line_mode_on_a_linux_console_gets_only_what_its_font_draws(tmp_path: Path) -> None:
    """ben runs `ssh -t HOST plain` on the Linux console (`TERM=linux`, UTF-8): zoé's chat reaches him with her accents
    (`zoé`, `déjà`: Latin-1, his font has them), `✓` as `√`, `猫` as `??` (a ? a cell): no character his font lacks."""
    async with dixit_server(tmp_path) as (server, _):
        zoe = await LineClient.open(server.port, "zoé", dumb_terminal=False)
        env = {"LANG": "en_US.UTF-8"}
        ben = await LineClient.open(server.port, "ben", dumb_terminal=False, env=env, term="linux")
        zoe.send("create 10")
        code = (await zoe.wait_for(r"^You are at table (\w+)")).group(1)
        ben.send(f"join {code}")
        await zoe.wait_for("^At the table: zoé, ben.$")
        zoe.send("say déjà vu ✓ 猫 ⏱")
        await ben.wait_for(r"^zoé says: déjà vu √ \?\? @$")
        await zoe.wait_for("^zoé says: déjà vu ✓ 猫 ⏱$")
        assert sorted({char for line in ben.lines for char in line if ord(char) > 0x7F} - CONSOLE_SET) == []
        for client in (zoe, ben):
            await client.close()


@needs_ssh
@needs_tmux
async def test_openssh_on_a_dumb_terminal_gets_the_line_mode(tmp_path: Path) -> None:
    """OpenSSH in tmux with TERM=dumb: plain lines (no full screen), typing echoed and erased, commands as words."""
    async with dixit_server(tmp_path) as (server, _), Tmux(tmp_path) as tmux:
        ssh = [SSH or "ssh", "-tt", *ssh_options(server.port), "-o", "PubkeyAuthentication=no", f"dora@{HOST}"]
        await tmux.start(shlex.join(["env", "TERM=dumb", *ssh]) + "; sleep 30")
        await tmux.wait("Welcome to dixit-tui, dora. Type help for the commands.")
        await tmux.keys("tablx", "BSpace", "es", "Enter")
        await tmux.wait("No tables are open. Type create to open one.")
        await tmux.keys("create", "Enter")
        rows = await tmux.wait("You are the host")
        assert any(row.startswith("You are at table ") for row in rows), rows
        assert "tables" in rows and "create" in rows  # what she typed, echoed as typed (the x erased)
        await tmux.keys("quit", "Enter")
        await tmux.wait("Bye.")


async def test_the_lobby_is_said_once_not_at_every_change(tmp_path: Path) -> None:
    """In the lobby, the tables are said on arrival and when asked (`tables`), not at each change of a busy server."""
    async with dixit_server(tmp_path) as (server, _):
        zoe = await LineClient.open(server.port, "zoe", dumb_terminal=False)
        await zoe.wait_for("^No tables are open. Type create to open one.$")
        hosts = [await LineClient.open(server.port, name, dumb_terminal=False) for name in ("ana", "ben", "cara")]
        for host in hosts:
            host.send("create")
            await host.wait_for("^You are at table")
        zoe.send("tables")
        await zoe.wait_for("^3 tables open: ")
        assert sum("open" in line and "table" in line for line in zoe.lines) == 2, zoe.lines
        for client in (zoe, *hosts):
            await client.close()
