"""When a spectator's terminal shares one drawing with the other spectators of its table (a cast, `ssh.screen_cast`).

A session joins a cast when it is a spectator, its top screen is that table's (nothing over it, no notice) and it
has had no input for `QUIET_SECONDS` (looked at after each frame, and once that time is over: a still table draws
none); the key is what makes the picture on the app's side (the table, capabilities, theme, the screen's own choices),
the driver adds the terminal's (size, characters, colours). The table moves that picture on for every member alike:
the source files its cast under its key after each frame (`DixitApp._check_cast`).
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


def quiet_left(quiet_for: float) -> float:
    """Seconds until a session quiet for `quiet_for` seconds has been quiet long enough to join a cast (0: it has)."""
    return max(0.0, QUIET_SECONDS - quiet_for)


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
