"""The modes of the table's main region (`widgets/main_view.py`): what it shows and how a key or a click acts there,
one small class per mode, no widget. The lobby (`lobby.py`) and the end of the game (`over.py`) are text pictures;
the hand and the board (`cards.py`) are numbered cards with a cursor, each mode keeping its own cards, cursor and
note (the hand keeps its cursor across the vote, as it did when it was a widget of its own)."""

from __future__ import annotations

from dixit_tui.tui.main_modes.cards import CardsMode
from dixit_tui.tui.main_modes.lobby import LobbyMode
from dixit_tui.tui.main_modes.mode import MainMode
from dixit_tui.tui.main_modes.over import OverMode

__all__ = ["CardsMode", "LobbyMode", "MainMode", "OverMode"]
