"""The Dixit rules engine: pure, deterministic, importable without any UI or network code.

Commands go in (`decide`), events come out, and the state is a fold of events (`apply`, `fold`). The only way
state leaves the engine toward a player is `view_for(state, seat)`.
"""

from dixit_tui.engine.cards import CARD_TEXT_MAX, Card
from dixit_tui.engine.commands import Command, GiveClue, PassHost, RemovePlayer, Submit, VoidTurn, Vote
from dixit_tui.engine.config import (
    CLUE_MAX_LEN,
    FirstStoryteller,
    GameConfig,
    Mode,
    Profile,
    Rules,
    a_or_an,
    check_player_count,
    player_range,
    profile_for,
    rules_for,
)
from dixit_tui.engine.errors import (
    BadCard,
    BadClue,
    BadVote,
    ConfigError,
    ErrorCode,
    GameOver,
    NotHost,
    NotYourTurn,
    RuleError,
    WrongPhase,
)
from dixit_tui.engine.events import Event
from dixit_tui.engine.folding import apply, fold
from dixit_tui.engine.game import Game
from dixit_tui.engine.legal import LegalMoves, legal_moves
from dixit_tui.engine.opening import new_game, start
from dixit_tui.engine.reveal import Points, Reveal, SlotResult
from dixit_tui.engine.rules import decide, step
from dixit_tui.engine.serialize import event_from_dict, event_to_dict
from dixit_tui.engine.state import GameState, Phase, Turn
from dixit_tui.engine.view import PlayerView, view_for

__all__ = [
    "CARD_TEXT_MAX",
    "CLUE_MAX_LEN",
    "BadCard",
    "BadClue",
    "BadVote",
    "Card",
    "Command",
    "ConfigError",
    "ErrorCode",
    "Event",
    "FirstStoryteller",
    "Game",
    "GameConfig",
    "GameOver",
    "GameState",
    "GiveClue",
    "LegalMoves",
    "Mode",
    "NotHost",
    "NotYourTurn",
    "PassHost",
    "Phase",
    "PlayerView",
    "Points",
    "Profile",
    "RemovePlayer",
    "Reveal",
    "RuleError",
    "Rules",
    "SlotResult",
    "Submit",
    "Turn",
    "VoidTurn",
    "Vote",
    "WrongPhase",
    "a_or_an",
    "apply",
    "check_player_count",
    "decide",
    "event_from_dict",
    "event_to_dict",
    "fold",
    "legal_moves",
    "new_game",
    "player_range",
    "profile_for",
    "rules_for",
    "start",
    "step",
    "view_for",
]
