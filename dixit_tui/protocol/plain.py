"""Sessions without a terminal: `json` (the headless protocol) and the plain commands `tables`, `help`, `version`."""

from __future__ import annotations

import dataclasses
from typing import Any

from dixit_tui import __version__
from dixit_tui.coordinator import Coordinator, Identity
from dixit_tui.protocol.session import serve_json

HELP = """dixit-tui: Dixit in the terminal, over SSH.

  ssh -p PORT NAME@HOST                 play: the lobby opens in your terminal
  ssh -t -p PORT NAME@HOST join CODE    go straight to a table (watch CODE to spectate)
  ssh -t -p PORT NAME@HOST reconnect C  return to your seat with your reconnect code
  ssh -p PORT NAME@HOST json            headless play: JSON lines (scripts, agents)
  ssh -p PORT NAME@HOST json bot        the same, for a bot (shown as a bot at the table)
  ssh -p PORT NAME@HOST tables          list the tables
  ssh -p PORT NAME@HOST version         print the server's version
"""


def tables_text(coordinator: Coordinator) -> str:
    rows = coordinator.summaries()
    if not rows:
        return "No tables yet. Connect with a terminal to create one.\n"
    decks = {t.code: "+".join(t.decks) for t in rows}
    width = max(len("decks"), *(len(d) for d in decks.values())) + 2
    lines = [f"{'code':<6}{'mode':<10}{'status':<9}{'players':<9}{'decks':<{width}}host"]
    lines += [
        f"{t.code:<6}{t.label:<10}{t.status:<9}{f'{t.players}/{t.seats}':<9}{decks[t.code]:<{width}}{t.host}"
        for t in rows
    ]
    return "\n".join(lines) + "\n"


async def handle_plain(
    coordinator: Coordinator, identity: Identity, command: str | None, reader: Any, writer: Any
) -> int:
    verb = (command or "").strip()
    if verb in ("json", "json bot"):  # `json bot`: a headless bot, shown as a bot to everyone
        who = dataclasses.replace(identity, bot=verb == "json bot")
        return await serve_json(coordinator, who, reader, writer)
    if verb == "tables":
        text, status = tables_text(coordinator), 0
    elif verb in ("help", "--help"):
        text, status = HELP, 0
    elif not verb:  # a plain `ssh host` without a terminal
        text, status = "dixit-tui needs a terminal to play: add -t, or use the json command.\n\n" + HELP, 2
    elif verb == "version":
        text, status = f"dixit-tui {__version__} (protocol 1)\n", 0
    else:
        shown = "".join(ch for ch in verb[:40] if ch.isprintable())
        text, status = f"Unknown command {shown!r}. Try: help, tables, version, json.\n", 2
    writer.write(text.encode())
    return status
