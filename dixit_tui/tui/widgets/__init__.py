"""Widgets of the table screen: pure widgets fed plain data, posting messages; none talks to a session."""

from dixit_tui.tui.widgets.cards import Board, CardItem, CardList, Hand
from dixit_tui.tui.widgets.chat import ChatPanel
from dixit_tui.tui.widgets.confirm import ConfirmScreen, SeatPicker
from dixit_tui.tui.widgets.recap import RecapScreen

__all__ = [
    "Board",
    "CardItem",
    "CardList",
    "ChatPanel",
    "ConfirmScreen",
    "Hand",
    "RecapScreen",
    "SeatPicker",
]
