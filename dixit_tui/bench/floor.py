"""The floor of `dixit-tui bench --floor`: the real SSH server and its Textual driver, with a one-line app.

    python -m dixit_tui.bench.floor --host 127.0.0.1 --port 0 --keys-dir K --data-dir D [serve's options]

It runs `dixit-tui serve` (same options, same asyncssh server, same limits, same SSHDriver for every PTY session)
with two things swapped: every terminal session gets `FloorApp`, one line of text, instead of the Dixit app; and
sessions without a terminal speak a tiny JSON-lines protocol instead of the game's, so the benchmark's bots can
"act": each `bump` changes the one line on every terminal watching that floor table. What the benchmark measures
against it is the cost of the SSH path and of Textual drawing one changed line: the floor under any screen update.

Protocol (one JSON object per line; every answer repeats the command's `ref`):
    <- {"type": "hello"}
    -> {"cmd": "create"}             <- {"type": "state", "table": "F1"}
    -> {"cmd": "join", "table": C}   <- {"type": "state", "table": C}
    -> {"cmd": "bump"}               <- {"type": "state", "table": C, "count": N}   (every terminal watching C redraws)
    -> {"cmd": "leave"}              <- {"type": "state", "table": null}
A terminal session's SSH command `watch CODE` or `join CODE` shows that table's line; without one, a lobby line.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.message import Message
from textual.widgets import Static

from dixit_tui import serve
from dixit_tui.ssh.session_runner import SessionIdentity
from dixit_tui.ssh.terminal import TerminalInfo


class Bump(Message):
    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count


class FloorApp(App[None]):
    """One line: `table CODE · update N` (or the lobby line), updated in place, nothing else."""

    CSS_PATH = Path(__file__).with_name("floor.tcss")  # (beside this file also when run under `-m cProfile`)

    def __init__(self, broadcaster: Broadcaster, command: str | None) -> None:
        super().__init__()
        verb, _, arg = (command or "").strip().partition(" ")
        self.broadcaster = broadcaster
        self.code = arg.strip() if verb in ("watch", "join") and arg.strip() else None

    def compose(self) -> ComposeResult:
        count = self.broadcaster.counts.get(self.code, 0) if self.code is not None else 0
        yield Static(self._text(count), id="line", markup=False)

    def on_mount(self) -> None:
        if self.code is not None:
            self.broadcaster.watchers.setdefault(self.code, set()).add(self)

    def on_unmount(self) -> None:
        if self.code is not None:
            self.broadcaster.watchers.get(self.code, set()).discard(self)

    def _text(self, count: int) -> str:
        return "dixit-tui floor: lobby" if self.code is None else f"table {self.code} · update {count}"

    def on_bump(self, message: Bump) -> None:
        self.query_one("#line", Static).update(self._text(message.count), layout=False)


class Broadcaster:
    """The shared in-process state: a counter per floor table and the apps watching it."""

    def __init__(self) -> None:
        self.codes = itertools.count(1)
        self.counts: dict[str, int] = {}
        self.watchers: dict[str, set[FloorApp]] = {}

    def create(self) -> str:
        code = f"F{next(self.codes)}"
        self.counts[code] = 0
        return code

    def bump(self, code: str) -> int:
        count = self.counts.get(code, 0) + 1
        self.counts[code] = count
        for app in list(self.watchers.get(code, ())):
            app.post_message(Bump(count))
        return count


def build(broadcaster: Broadcaster) -> tuple[Any, Any]:
    """The app factory and command handler of the floor server."""

    def factory(identity: SessionIdentity, terminal: TerminalInfo) -> FloorApp:
        return FloorApp(broadcaster, terminal.command)

    async def handler(identity: SessionIdentity, command: str | None, reader: Any, writer: Any) -> int:
        def say(message: dict[str, Any]) -> None:
            writer.write((json.dumps(message) + "\n").encode())

        table: str | None = None
        say({"type": "hello"})
        while line := await reader.readline():
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if not isinstance(message, dict):
                continue
            cmd, ref = message.get("cmd"), message.get("ref")
            answer: dict[str, Any] = {"type": "state", "ref": ref}
            if cmd == "create":
                table = broadcaster.create()
            elif cmd == "join" and isinstance(message.get("table"), str):
                table = message["table"]
            elif cmd == "bump" and table is not None:
                answer["count"] = broadcaster.bump(table)
            elif cmd == "leave":
                table = None
            else:
                say({"type": "error", "ref": ref, "code": "bad_command"})
                continue
            say({**answer, "table": table})
        return 0

    return factory, handler


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dixit_tui.bench.floor", description=__doc__.split("\n")[0])
    serve.add_arguments(parser)
    args = parser.parse_args(argv)
    factory, handler = build(Broadcaster())
    return serve.run(args, app_factory=factory, command_handler=handler)


if __name__ == "__main__":
    sys.exit(main())
