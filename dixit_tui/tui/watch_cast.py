"""When a spectator's terminal shares one drawing with the other spectators of its table (a cast, `ssh.screen_cast`).

Spectators at a table who sit still see the same picture: one of their apps draws it, and its frames are written to
the others' terminals, whose apps do no work meanwhile (they hold the coordinator's updates: `DixitApp`). A session
joins a cast when it is a spectator (its table view has no seat of its own), its top screen is that table's screen
(nothing over it), no notice shows and it has had no input of its own for `QUIET_SECONDS`; the key says what makes the
picture on the app's side (the table, the terminal's capabilities, the theme, the screen's own choices: a cursor moved,
the feed scrolled back); the driver adds the terminal's (its size, characters, colours). The table screen of a
spectator shows nothing of the viewer's own (no name, no reconnect code): the picture is the same for all of them.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from textual.screen import Screen

from dixit_tui.coordinator import TableView
from dixit_tui.tui.capabilities import Capabilities
from dixit_tui.tui.table_screen import TableScreen

QUIET_SECONDS = 3.0
"""Seconds without input of its own after which a spectator's session may follow another's drawing."""


def cast_key(
    view: TableView | None,
    screen: Screen[Any],
    *,
    capabilities: Capabilities,
    theme: str,
    quiet_for: float,
    notice_shown: bool,
) -> Hashable | None:
    """The key of the cast a session showing `screen` may join now, or None when it may not (see the module)."""
    if view is None or view.you is not None or quiet_for < QUIET_SECONDS or notice_shown:
        return None
    if not isinstance(screen, TableScreen) or screen.code != view.code:
        return None
    state = screen.cast_state()
    if state is None:
        return None
    return ("table", view.code, capabilities, theme, state)
