"""The real lobby through the real OpenSSH client in tmux: the welcome line, a resize that changes the layout, a lone
Esc, and `q` with exit status 0. The server is the one `dixit-tui serve` runs, on 127.0.0.1 with a port from the OS.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tests.e2e.harness import HOST, wait_for
from tests.e2e.openssh import SSH, Tmux, needs_ssh, needs_tmux, ssh_options
from tests.e2e.servers import dixit_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60), needs_ssh, needs_tmux]


def box_width(rows: list[str]) -> int:
    """The width of the lobby's "Open tables" box, from its top border."""
    top = next(row for row in rows if "╭─ Open tables" in row)
    return len(top.rstrip())


def footer_row(rows: list[str]) -> int:
    return next(i for i, row in enumerate(rows) if "q Quit" in row)


async def test_openssh_in_tmux_real_lobby_resizes_and_quits_with_0(tmp_path: Path) -> None:
    async with dixit_server(tmp_path) as (server, _), Tmux(tmp_path) as tmux:
        status = tmp_path / "ssh-status"
        ssh = [str(SSH), "-tt", *ssh_options(server.port), "-oPubkeyAuthentication=no", f"carol@{HOST}"]
        await tmux.start(f"{shlex.join(ssh)}; echo $? > {shlex.quote(str(status))}")
        rows = await tmux.wait(lambda r: any("Welcome, carol!" in row for row in r), "the welcome line")
        rows = await tmux.wait(lambda r: any("q Quit" in row for row in r), "the footer")
        assert box_width(rows) == 100
        assert footer_row(rows) == 29
        assert any("No tables yet: press c to create one." in row for row in rows)
        assert any("No SSH key?" in row for row in rows)  # a keyless guest is told about reconnect codes

        await tmux.resize(120, 40)
        rows = await tmux.wait(lambda r: any("╭─ Open tables" in row and len(row) == 120 for row in r), "resize")
        await tmux.wait(lambda r: len(r) >= 40 and "q Quit" in r[39], "the footer on row 40")

        # A lone Esc through a real terminal: the create dialog opens and closes again.
        await tmux.keys("c")
        await tmux.wait("Create a table", "the create dialog")
        await tmux.keys("Escape")
        await tmux.wait(lambda r: not any("Create a table" in row for row in r), "the dialog to close")

        await tmux.keys("q")
        await wait_for(lambda: status.exists() and status.read_text().strip() != "", timeout=15)
        assert status.read_text().strip() == "0"
        await wait_for(lambda: server.session_count == 0, timeout=10)
