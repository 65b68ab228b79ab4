"""Typed errors for commands the rules refuse. Each has a stable `code` and a short human message."""

from __future__ import annotations


class RuleError(Exception):
    """A command the rules refuse. Raising one never changes the game."""

    code = "illegal"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class ConfigError(RuleError):
    """The table cannot start as configured (player count, deck size, options)."""

    code = "bad_config"


class WrongPhase(RuleError):
    code = "wrong_phase"


class NotYourTurn(RuleError):
    """The actor has no part to play in this phase (wrong role, already acted, or not seated)."""

    code = "not_your_turn"


class BadCard(RuleError):
    """A card that is not in the actor's hand, repeated, or the wrong number of cards."""

    code = "bad_card"


class BadClue(RuleError):
    code = "bad_clue"


class BadVote(RuleError):
    """A vote for a slot that does not exist, the actor's own card, or the wrong number of votes."""

    code = "bad_vote"


class NotHost(RuleError):
    code = "not_host"


class GameOver(RuleError):
    code = "game_over"
