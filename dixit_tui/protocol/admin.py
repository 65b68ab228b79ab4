"""`ssh HOST admin ...`: the admins' plain-text commands (an admin is a key named by `serve --admin-key`).

Each command is one line in, a few lines of plain text out, exit status 0 when it worked, 1 when it was refused, 2 for
a command it does not know. What they change goes through the coordinator (tables) or its moderation (bans, keys
allowed in, the message of the day, kept in the store so every worker applies them)."""

from __future__ import annotations

import logging
import shlex
from collections.abc import Mapping

from dixit_tui.coordinator import Coordinator, Identity
from dixit_tui.engine import RuleError

log = logging.getLogger(__name__)

ADMIN_HELP = """Admin commands (ssh HOST admin COMMAND ...):
  ban TARGET          refuse a key (SHA256:...) or an address or network (203.0.113.7, 10.0.0.0/24)
  unban TARGET        lift a ban
  bans                list the bans
  allow KEY           let a key (SHA256:...) into a private server
  disallow KEY        take it back
  allowed             list the keys allowed by admins
  close CODE          close a table now (its game stays replayable)
  remove CODE NAME    take a player off a table (in a game: for good)
  motd TEXT           the message of the day in the lobby (motd alone: none)
"""

NOT_ADMIN = "Only the server's admins may use admin commands (their keys are set with serve --admin-key).\n"


async def handle_admin(coordinator: Coordinator, identity: Identity, line: str) -> tuple[str, int]:
    """Run one admin command line (what follows `admin`). Returns (text, exit status)."""
    moderation = coordinator.moderation
    if not moderation.is_admin(identity.key):
        return NOT_ADMIN, 1
    try:
        words = shlex.split(line)
    except ValueError:
        words = line.split()
    verb, args = (words[0].lower(), words[1:]) if words else ("help", [])
    by = f"by {identity.key}"
    try:
        if verb == "help":
            return ADMIN_HELP, 0
        if verb == "ban" and len(args) == 1:
            target = await moderation.ban(args[0], by)
            log.warning("admin %s banned %s", identity.key, target)
            return f"Banned {target}: new sessions from it are refused on every worker.\n", 0
        if verb == "unban" and len(args) == 1:
            lifted = await moderation.unban(args[0])
            done = f"The ban on {args[0]} is lifted."
            return _taken_back(lifted, identity, f"lifted the ban on {args[0]}", done, f"{args[0]} is not banned.")
        if verb == "allow" and len(args) == 1 and args[0].startswith("SHA256:"):
            await moderation.allow(args[0], by)
            log.warning("admin %s allowed key %s in", identity.key, args[0])
            return f"{args[0]} may come in.\n", 0
        if verb == "disallow" and len(args) == 1:
            lifted = await moderation.disallow(args[0])
            done = f"{args[0]} is no longer allowed in (unless the --allow-keys file has it)."
            refused = f"{args[0]} was not allowed by an admin."
            return _taken_back(lifted, identity, f"took key {args[0]} off the allowed keys", done, refused)
        if verb in ("bans", "allowed") and not args:
            await moderation.refresh()
            if verb == "bans":
                return _listed(moderation.bans, "No bans."), 0
            return _listed(moderation.allowed, "No keys allowed by admins."), 0
        if verb == "close" and len(args) == 1:
            said = await coordinator.admin_close(args[0])
            log.warning("admin %s closed table %s", identity.key, args[0])
            return said + "\n", 0
        if verb == "remove" and len(args) >= 2:
            said = await coordinator.admin_remove(args[0], " ".join(args[1:]))
            log.warning("admin %s: %s", identity.key, said)
            return said + "\n", 0
        if verb == "motd":
            text = await moderation.set_motd(" ".join(args))
            log.warning("admin %s set the message of the day: %r", identity.key, text)
            return (f"Message of the day: {text}\n" if text else "No message of the day now.\n"), 0
    except ValueError as err:
        return f"{err}.\n", 1
    except RuleError as err:
        return err.message + "\n", 1
    shown = "".join(ch for ch in line[:60] if ch.isprintable())
    return f"Unknown admin command {shown!r}.\n\n{ADMIN_HELP}", 2


def _taken_back(lifted: bool, identity: Identity, logged: str, said: str, refused: str) -> tuple[str, int]:
    """A ban lifted or a key taken off the allowed ones: logged and said, or `refused` when there was none."""
    if not lifted:
        return refused + "\n", 1
    log.warning("admin %s %s", identity.key, logged)
    return said + "\n", 0


def _listed(entries: Mapping[str, str], none: str) -> str:
    """The bans or the keys allowed in, one a line with its note, or `none`."""
    return "".join(f"{name}  {note}\n" for name, note in sorted(entries.items())) or none + "\n"
