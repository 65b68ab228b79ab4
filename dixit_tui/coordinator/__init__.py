"""The coordinator: every table, seat and session of the server, behind one small async interface."""

from dixit_tui.coordinator.errors import TableError
from dixit_tui.coordinator.models import (
    ChatLine,
    ChatUpdate,
    Identity,
    LobbyUpdate,
    NoticeUpdate,
    OverUpdate,
    QueueUpdate,
    RevealUpdate,
    SeatInfo,
    StateUpdate,
    TableLock,
    TableOptions,
    TableSummary,
    TableView,
    Update,
    VoidedUpdate,
)
from dixit_tui.coordinator.player_session import PlayerSession, Sink
from dixit_tui.coordinator.service import Coordinator

__all__ = [
    "ChatLine",
    "ChatUpdate",
    "Coordinator",
    "Identity",
    "LobbyUpdate",
    "NoticeUpdate",
    "OverUpdate",
    "PlayerSession",
    "QueueUpdate",
    "RevealUpdate",
    "SeatInfo",
    "Sink",
    "StateUpdate",
    "TableError",
    "TableLock",
    "TableOptions",
    "TableSummary",
    "TableView",
    "Update",
    "VoidedUpdate",
]
