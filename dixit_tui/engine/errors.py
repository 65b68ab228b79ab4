"""Typed errors for commands the rules refuse. Each has a stable `code` and a short human message."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """The `code` of every error the server sends (docs/protocol.md, "Errors"): stable, snake_case, written as its
    value. The engine's, the coordinator's and the protocol's codes are one list, kept here beside `RuleError`, the
    base of every refusal, so that each layer can name its codes without importing a layer above it."""

    # protocol
    BAD_JSON = "bad_json"
    LINE_TOO_LONG = "line_too_long"
    IDLE = "idle"
    UNKNOWN_COMMAND = "unknown_command"
    BAD_COMMAND = "bad_command"
    INTERNAL = "internal"
    # coordinator
    BAD_OPTION = "bad_option"
    AT_TABLE = "at_table"
    NOT_QUEUED = "not_queued"
    BAD_DECK = "bad_deck"
    SEED_REFUSED = "seed_refused"
    NO_TABLE = "no_table"
    TABLE_FULL = "table_full"
    STARTED = "started"
    RECONNECT_NEEDED = "reconnect_needed"
    NAME_TAKEN = "name_taken"
    BAD_NAME = "bad_name"
    BAD_CODE = "bad_code"
    KEY_REQUIRED = "key_required"
    TOO_MANY_TRIES = "too_many_tries"
    STALE = "stale"
    TOO_MANY_TABLES = "too_many_tables"
    TOO_MANY_BOTS = "too_many_bots"
    NO_BOTS = "no_bots"
    REMOVED = "removed"
    LOCKED = "locked"
    TOO_MANY_INVITES = "too_many_invites"
    SPECTATOR = "spectator"
    NOT_OVER = "not_over"
    NO_SEAT = "no_seat"
    CANNOT_START = "cannot_start"
    NOT_STARTED = "not_started"
    EMPTY = "empty"
    CHAT_PAUSED = "chat_paused"
    NOT_TEAM = "not_team"
    NO_TEAM = "no_team"
    RATE_LIMITED = "rate_limited"
    STORAGE = "storage"
    CONFLICT = "conflict"
    # engine
    ILLEGAL = "illegal"
    NOT_HOST = "not_host"
    WRONG_PHASE = "wrong_phase"
    NOT_YOUR_TURN = "not_your_turn"
    BAD_CARD = "bad_card"
    BAD_CLUE = "bad_clue"
    BAD_VOTE = "bad_vote"
    GAME_OVER = "game_over"
    BAD_CONFIG = "bad_config"


class RuleError(Exception):
    """A command the rules refuse. Raising one never changes the game."""

    code: ErrorCode = ErrorCode.ILLEGAL

    def __init__(self, message: str, code: ErrorCode | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class ConfigError(RuleError):
    """The table cannot start as configured (player count, deck size, options)."""

    code = ErrorCode.BAD_CONFIG


class WrongPhase(RuleError):
    code = ErrorCode.WRONG_PHASE


class NotYourTurn(RuleError):
    """The actor has no part to play in this phase (wrong role, already acted, or not seated)."""

    code = ErrorCode.NOT_YOUR_TURN


class BadCard(RuleError):
    """A card that is not in the actor's hand, repeated, or the wrong number of cards."""

    code = ErrorCode.BAD_CARD


class BadClue(RuleError):
    code = ErrorCode.BAD_CLUE


class BadVote(RuleError):
    """A vote for a slot that does not exist, the actor's own card, or the wrong number of votes."""

    code = ErrorCode.BAD_VOTE


class NotHost(RuleError):
    code = ErrorCode.NOT_HOST


class GameOver(RuleError):
    code = ErrorCode.GAME_OVER
