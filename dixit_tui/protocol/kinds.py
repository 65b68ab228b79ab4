"""The `type` of each message the server sends (protocol v1); the schema's list, as an enum for clients to match."""

from __future__ import annotations

from enum import StrEnum


class MessageType(StrEnum):
    HELLO = "hello"
    STATE = "state"
    REVEAL = "reveal"
    VOIDED = "voided"
    OVER = "over"
    CHAT = "chat"
    NOTICE = "notice"
    ERROR = "error"
    QUEUE = "queue"  # addition
    LEADERBOARD = "leaderboard"  # addition
