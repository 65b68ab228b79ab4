"""Commands without a terminal (`ssh HOST CMD`): the full-screen app's commands say to add -t (found playing over
SSH: `ssh -p 2299 zed@127.0.0.1 join AHEK` answered "Unknown command 'join AHEK'", though help lists join)."""

from __future__ import annotations

import random

from dixit_tui.coordinator import Coordinator, Identity
from dixit_tui.plain_commands import handle_plain


class Out:
    def __init__(self) -> None:
        self.data = b""

    def write(self, data: bytes) -> None:
        self.data += data


async def test_join_watch_and_reconnect_without_a_terminal_say_to_add_t() -> None:
    coord = Coordinator(rng=random.Random(1))
    for command in ("join AHEK", "watch AHEK", "reconnect ABC-DEF-GHJ-KMN"):
        out = Out()
        assert await handle_plain(coord, Identity("zed"), command, None, out) == 2
        verb = command.split()[0]
        assert out.data.decode() == (
            f"{verb} needs a terminal: add -t (ssh -t -p PORT zed@HOST {command}), "
            f"or play in plain lines (ssh -p PORT zed@HOST plain {command}).\n"
        )
    out = Out()
    assert await handle_plain(coord, Identity("zed"), "bogus", None, out) == 2
    assert out.data.decode().startswith("Unknown command 'bogus'.")
