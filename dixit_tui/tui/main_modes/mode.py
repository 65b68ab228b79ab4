"""`MainMode`: which of its modes the table's main region (`widgets/main_view.py`) is in. Compared by member, never
by its name written out as a string (tests/test_enum_names.py); the value is the widget's CSS class (`-lobby`...)."""

from __future__ import annotations

from enum import StrEnum


class MainMode(StrEnum):
    LOBBY = "lobby"  # the table before its game: seats, options and the lobby's buttons
    HAND = "hand"  # your hand (the clue and the submit)
    VOTE = "vote"  # the board of the vote, and its dial
    OVER = "over"  # the end of the game
