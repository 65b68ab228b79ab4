"""What each player's terminal can show, over real SSH (asyncssh + pyte, and OpenSSH in tmux): NO_COLOR gets no colour
sequence at all, a client whose locale is not UTF-8 (`LANG=C`) gets ASCII lines and marks, and a 16-colour terminal
(`TERM=linux`) gets panel borders it can draw (not black on black)."""

from __future__ import annotations

import re
import shlex
from functools import partial
from pathlib import Path

import pytest

from dixit_tui.ssh.glyph_forms import CONSOLE_SET
from tests.e2e.harness import HOST, PtyClient
from tests.e2e.openssh import SSH, Tmux, needs_ssh, needs_tmux, ssh_options
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import (
    TIMEOUT,
    add_bot,
    board_slots,
    cast_vote,
    create_table,
    give_clue,
    join_by_code,
    key_of,
    open_lobby,
    press,
    start_game,
    state_of,
    submit_cards,
    wait_all,
    wait_any,
    wait_footer,
    wait_revealed,
    wait_text,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

_SGR = re.compile(rb"\x1b\[([0-9;:]*)m")


def colour_sequences(raw: bytes | bytearray, *, defaults: bool = True) -> list[bytes]:
    """The SGR sequences that set a colour or background (16, 256 or 24-bit; and back to the default's, 39 and 49,
    unless `defaults` is False: tmux's `capture-pane -e` writes those after any styled text)."""
    found = []
    for match in _SGR.finditer(raw):
        codes = [int(code) for code in re.split(rb"[;:]", match.group(1)) if code]
        if any((30 <= code <= 49 and (defaults or code not in (39, 49))) or 90 <= code <= 107 for code in codes):
            found.append(match.group(0))
    return found


async def _game_seen_by(
    port: int, *, term_type: str = "xterm-256color", env: dict[str, str] | None = None
) -> tuple[PtyClient, PtyClient]:
    """ana (a UTF-8 256-colour terminal) opens a table; cy joins it from her own terminal (`term_type`, `env`), a bot
    makes three and the game starts: cy sees the first turn (seats, score track, log and chat)."""
    ana = await open_lobby(port, "ana", key_of("ana"))
    code = await create_table(ana)
    cy = await PtyClient.connect(
        port, "cy", client_key=key_of("cy"), command=f"join {code}", term_type=term_type, env=env
    )
    await wait_text(ana, "2 seated")
    await add_bot(ana)
    await start_game(ana)
    await wait_text(cy, "turn 1", "Log & chat", "Score track")
    return ana, cy


async def test_no_color_sends_no_colour_sequence(tmp_path: Path) -> None:
    async with dixit_server(tmp_path, seed=5) as (server, _):
        _, cy = await _game_seen_by(server.port, env={"NO_COLOR": "1"})
        assert colour_sequences(cy.raw) == [], colour_sequences(cy.raw)[:10]
        assert re.search(rb"\x1b\[[0-9;]*7[;m]", cy.raw), "the highlight is still shown (reverse)"


async def test_a_client_without_utf8_gets_ascii(tmp_path: Path) -> None:
    async with dixit_server(tmp_path, seed=5) as (server, _):
        ana, cy = await _game_seen_by(server.port, env={"LANG": "C"})
        await wait_text(cy, "+- Seats", "|")
        outside = sorted({chr(byte) for byte in cy.raw if byte > 0x7F})
        assert outside == [], (outside, cy.screen_text())
        assert any(byte > 0x7F for byte in ana.raw)  # ana's terminal declares nothing: UTF-8 as before


def _assert_the_seats_border_is_seen(client: PtyClient, corner: str = "┌") -> None:
    """The "Seats" panel's top border: its corner and its title, each in a colour that is not the background's."""
    screen = client.screen
    y, x = next((y, line.index("Seats")) for y, line in enumerate(screen.display) if "Seats" in line and corner in line)
    line = screen.buffer[y]
    for char in (line[screen.display[y].index(corner)], line[x]):
        shown = "white" if char.fg == "default" else char.fg
        behind = "black" if char.bg == "default" else char.bg
        assert shown not in ("black", behind), (char, screen.display[y])


async def test_a_16_colour_terminal_sees_the_panel_borders(tmp_path: Path) -> None:
    async with dixit_server(tmp_path, seed=5) as (server, _):
        _, cy = await _game_seen_by(server.port, term_type="linux")
        _assert_the_seats_border_is_seen(cy)


def _outside_the_console_set(raw: bytes | bytearray) -> list[str]:
    return sorted({char for char in bytes(raw).decode("utf-8", "replace") if ord(char) > 0x7F} - CONSOLE_SET)


async def test_a_linux_console_gets_only_what_its_font_draws(tmp_path: Path) -> None:
    """cy plays from the Linux virtual console (`TERM=linux`) with a UTF-8 locale: its font (CP437's set, Latin-1)
    has no rounded corners, eighth blocks or marks such as ⏱✎♛◷⚙ (a playtest: blanks and diamonds). Through the
    lobby, her hand, the board, the vote and the reveal she gets only characters it has (light lines for the corners:
    `┌─ Seats`), and zoé's accents as they are; ana's xterm still gets the rounded corners."""
    async with dixit_server(tmp_path, seed=5) as (server, coord):
        env = {"LANG": "en_US.UTF-8"}
        cy = await PtyClient.connect(server.port, "cy", client_key=key_of("cy"), term_type="linux", env=env)
        await wait_text(cy, "Welcome, cy!")
        ana = await open_lobby(server.port, "ana", key_of("ana"))
        zoe = await open_lobby(server.port, "zoé", key_of("zoé"))
        code = await create_table(ana, target=10)
        await wait_text(cy, "Open tables")
        for client in (zoe, cy):
            await join_by_code(client, code)
        await wait_all([ana, zoe, cy], "3 seated")
        await wait_text(cy, "zoé")
        # a modern terminal: the rounded corners as before (looked at here, before a reveal covers the table)
        await wait_text(ana, "╭─ Seats")
        await start_game(ana)
        table = coord.tables[code]
        await give_clue(zoe, 1, "clue 1")
        await submit_cards(ana, [1, 2])
        # cy from her hand (the key bar reads "Enter Choose card": her font has no ⏎), as submit_cards does
        await wait_text(cy, "► Choose ")  # (the status line's ▶: her font's ►)
        await wait_footer(cy, "Enter Choose card")
        await press(cy, "1", "enter")
        await wait_text(cy, "√ marked 1/2")
        await press(cy, "2", "enter")
        await wait_text(cy, "Give these cards?")
        await press(cy, "y")
        await wait_text(cy, "► Vote: turn the dial")
        owners = board_slots(state_of(table))  # each votes for a card not their own
        await cast_vote(ana, min(slot for slot, owner in owners.items() if owner != 0))
        await wait_footer(cy, "Enter Vote")
        await press(cy, str(min(slot for slot, owner in owners.items() if owner != 2)), "enter")
        await wait_revealed(cy, 1)
        await wait_any(cy, "Next turn (Enter)", "Turn 1 (r: recap)")
        await wait_text(cy, "┌─ Seats", "zoé")
        assert _outside_the_console_set(cy.raw) == [], cy.screen_text()
        assert _outside_the_console_set(ana.raw) != []
        for client in (ana, zoe, cy):
            await client.close()


_MORE_THAN_16_COLOURS = re.compile(rb"\x1b\[[0-9;:]*[34]8[;:][25][;:]")
"""A 256-colour or 24-bit colour code (38;5;N, 48;2;R;G;B...)."""


async def test_bsd_and_pc_consoles_get_their_font_and_few_colours(tmp_path: Path) -> None:
    """Players on the BSDs' consoles (FreeBSD's syscons `cons25`, NetBSD's `wsvt25`, OpenBSD's `pccon`) and the PC's
    `ansi`, with a UTF-8 locale and a COLORTERM=truecolor left from another terminal, join a table: each gets only
    what its font draws (`┌─ Seats` for the rounded corners) in 8 or 16 colours (no 256- or 24-bit colour code), its
    frames seen; FreeBSD's vt (`teken`), whose font has Unicode's lines, keeps the rounded corners in few colours."""
    async with dixit_server(tmp_path, seed=5) as (server, _):
        ana = await open_lobby(server.port, "ana", key_of("ana"))
        code = await create_table(ana)
        env = {"LANG": "en_US.UTF-8", "COLORTERM": "truecolor"}
        consoles = {}
        for term in ("cons25", "wsvt25", "pccon", "ansi"):
            consoles[term] = await PtyClient.connect(
                server.port, term, client_key=key_of(term), command=f"join {code}", term_type=term, env=env
            )
        teken = await PtyClient.connect(
            server.port, "teken", client_key=key_of("teken"), command=f"join {code}", term_type="teken", env=env
        )
        await wait_text(ana, "6 seated")
        for term, client in consoles.items():
            await wait_text(client, "┌─ Seats", "6 seated")
            _assert_the_seats_border_is_seen(client)
            assert _outside_the_console_set(client.raw) == [], (term, client.screen_text())
            assert not _MORE_THAN_16_COLOURS.search(client.raw), term
        await wait_text(teken, "╭─ Seats", "6 seated")
        _assert_the_seats_border_is_seen(teken, "╭")
        assert not _MORE_THAN_16_COLOURS.search(teken.raw)
        assert _MORE_THAN_16_COLOURS.search(ana.raw)  # (xterm-256color: its frames' grey is colour 241)
        for client in (ana, teken, *consoles.values()):
            await client.close()


@needs_ssh
@needs_tmux
async def test_openssh_with_lang_c_and_no_color(tmp_path: Path) -> None:
    """OpenSSH in tmux, sending `LANG=C` and `NO_COLOR=1` with SetEnv: the table in ASCII and without colours."""
    async with dixit_server(tmp_path, seed=5) as (server, _), Tmux(tmp_path) as tmux:
        ana = await open_lobby(server.port, "ana", key_of("ana"))
        code = await create_table(ana)
        ssh = [SSH or "ssh", "-tt", *ssh_options(server.port), "-o", "PubkeyAuthentication=no"]
        ssh += ["-o", "SetEnv=LANG=C NO_COLOR=1", f"dora@{HOST}", f"join {code}"]
        await tmux.start(shlex.join(ssh) + "; sleep 30")
        rows = await tmux.wait("Log & chat", timeout=TIMEOUT)
        pane = "\n".join(rows)
        assert "+- Seats" in pane, pane
        assert all(ord(char) < 0x80 for char in pane), pane
        styled = await tmux("capture-pane", "-p", "-e", "-t", tmux.name)
        assert colour_sequences(styled.encode(), defaults=False) == [], styled


async def test_no_color_still_shows_where_you_type(tmp_path: Path) -> None:
    """Without colours, the chat box's cursor is drawn in reverse (it was a background colour: invisible)."""
    async with dixit_server(tmp_path, seed=5) as (server, _):
        _, cy = await _game_seen_by(server.port, env={"NO_COLOR": "1"})
        await press(cy, "c")
        # typed once the box has the focus (the footer says so; sent with the `c`, the letters could come first)
        await wait_footer(cy, "esc Back to the table")
        await press(cy, "hi")
        # (read where "hi" is followed by the cursor: "hi" may be on the screen elsewhere before the keys are drawn)
        await cy.wait_until(partial(_cursor_after, cy, "hi"), TIMEOUT, "the cursor after 'hi'")


def _cursor_after(client: PtyClient, typed: str) -> bool:
    """Whether some `typed` on the screen, not in reverse, is followed by a cell drawn in reverse (a cursor without
    colours; a highlighted card is reverse all along)."""
    for y, line in enumerate(client.screen.display):
        x = line.find(typed)
        while x >= 0:
            cells = client.screen.buffer[y]
            end = x + len(typed)
            if end < client.screen.columns and cells[end].reverse and not any(cells[i].reverse for i in range(x, end)):
                return True
            x = line.find(typed, x + 1)
    return False


def _border_columns(line: str) -> list[int]:
    return [x for x, char in enumerate(line) if char == "|"]


async def test_what_players_type_reaches_a_client_without_utf8_in_ascii_as_wide(tmp_path: Path) -> None:
    """zoé and 猫 (a name two cells wide) play with cy, whose terminal does not declare UTF-8 (`LANG=C`); zoé chats
    accents, CJK and an emoji and gives the clue `déjà vu`. cy gets not one byte outside ASCII: `cafe`, `deja vu`,
    `zoe`, a `?` for each cell of a wide character, so the Seats panel's border stays in its column. zoé's UTF-8
    terminal still shows `déjà vu` (found by a playtest: what players typed reached cy as UTF-8)."""
    async with dixit_server(tmp_path, seed=5) as (server, _):
        zoe = await open_lobby(server.port, "zoé", key_of("zoé"))
        code = await create_table(zoe)
        cy = await PtyClient.connect(
            server.port, "cy", client_key=key_of("cy"), command=f"join {code}", env={"LANG": "C"}
        )
        await wait_text(zoe, "2 seated")
        neko = await PtyClient.connect(server.port, "猫", client_key=key_of("猫"), command=f"join {code}")
        await wait_text(zoe, "3 seated")
        await start_game(zoe)
        await wait_text(cy, "turn 1", "Log & chat", "zoe")
        await press(zoe, "c")
        await wait_footer(zoe, "esc")  # the chat box has the focus
        await press(zoe, "café ✓ naïve 猫が好き 🎉 end", "enter")
        await wait_text(zoe, "café ✓ naïve 猫が好き 🎉 end")
        await press(zoe, "escape")
        await give_clue(zoe, 1, "déjà vu")
        await wait_text(cy, 'Clue: "deja vu"', "cafe v naive ???????? ?? end")
        outside = sorted({chr(byte) for byte in cy.raw if byte > 0x7F})
        assert outside == [], (outside, cy.screen_text())
        assert "déjà vu" in zoe.screen_text()  # UTF-8 as before for zoé
        # Widths intact: 猫's seat line keeps its right border in the column of the line above it.
        rows = cy.screen.display
        y = next(y for y, line in enumerate(rows) if line.startswith("| 3 ") and "??" in line)
        assert "??" in rows[y][:26] and rows[y].index(" 0 |") == rows[y - 1].index(" 0 |"), "\n".join(rows)
        assert _border_columns(rows[y]) == _border_columns(rows[y - 1]), "\n".join(rows)
        await zoe.close()
        await cy.close()
        await neko.close()
