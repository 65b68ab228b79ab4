"""Table configuration and the rules it implies (the table of SPEC.md, one row per mode and profile)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from dixit_tui.engine.errors import ConfigError

CLUE_MAX_LEN = 80
TARGET_RANGE = (10, 100)
STORYTELLS_RANGE = (1, 5)


class Mode(StrEnum):
    STANDARD = "standard"
    PARTY = "party"
    TEAM = "team"


# The modes as plain module globals, for the engine's hot paths: on Python 3.11 every read such as `Mode.PARTY` goes
# through the slot hook of EnumType.__getattr__ (about ten times the cost of reading a global; Python 3.12 dropped
# the hook), and the rules ask a state's mode several times per command.
STANDARD, PARTY, TEAM = Mode.STANDARD, Mode.PARTY, Mode.TEAM


class Profile(StrEnum):
    REFRESH = "refresh"
    ODYSSEY = "odyssey"


class FirstStoryteller(StrEnum):
    FIRST_CLUE = "first_clue"  # every seat may give the first clue; the first accepted one tells
    RANDOM = "random"  # a random seat tells in turn 1


def profile_for(mode: Mode, profile: Profile) -> Profile:
    """The rules profile a table plays: party and team play odyssey rules whatever was asked."""
    return profile if mode is Mode.STANDARD else Profile.ODYSSEY


@dataclass(frozen=True, slots=True)
class GameConfig:
    mode: Mode = Mode.STANDARD
    profile: Profile = Profile.REFRESH
    target: int = 30  # standard games end after a turn in which someone reaches it
    storytells: int = 1  # party and team games end when everyone has told this many times
    first: FirstStoryteller = FirstStoryteller.FIRST_CLUE

    def normalized(self) -> GameConfig:
        """Party and team are odyssey modes whatever was asked; bad values raise ConfigError."""
        lo, hi = TARGET_RANGE
        if not lo <= self.target <= hi:
            raise ConfigError(f"The target score must be between {lo} and {hi}.")
        lo, hi = STORYTELLS_RANGE
        if not lo <= self.storytells <= hi:
            raise ConfigError(f"Each player can tell between {lo} and {hi} times.")
        profile = profile_for(self.mode, self.profile)
        return self if profile is self.profile else replace(self, profile=profile)


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything fixed for a game once it starts, derived from the config and the starting player count."""

    mode: Mode
    profile: Profile
    players: int
    hand_size: int
    submit_count: int  # cards each submitting player gives (the storyteller gives one)
    votes_allowed: int  # 2 means "one or two, on different cards"
    bonus_cap: int | None  # decoy bonus cap per player (team: per team) per turn
    single_vote_extra: bool  # odyssey 7+: +1 for a finder who used only one vote
    min_players: int  # below this many remaining players (team mode: teams) the game ends at once


def player_range(mode: Mode, profile: Profile) -> tuple[int, int]:
    if mode is Mode.STANDARD:
        return (3, 8) if profile is Profile.REFRESH else (3, 12)
    return (6, 12)


def a_or_an(word: str) -> str:
    """`word` with its indefinite article, capitalised to start a sentence: "A party", "An odyssey"."""
    return f"{'An' if word[:1].lower() in 'aeiou' else 'A'} {word}"


def players_wanted(lo: int, hi: int) -> str:
    """ "3 to 8 players", or "3 players" when the fewest is the most."""
    return f"{lo} players" if lo == hi else f"{lo} to {hi} players"


def check_player_count(config: GameConfig, players: int, *, seats: int | None = None) -> None:
    """Refuses a number of players the game cannot start with; `seats`: the table's seat limit, when it has one
    below the rules' most (the message then says this table's range, e.g. "This refresh table needs 3 players")."""
    config = config.normalized()
    lo, hi = player_range(config.mode, config.profile)
    label = config.mode.value if config.mode is not Mode.STANDARD else config.profile.value
    there = f"there {'is' if players == 1 else 'are'} {players}."
    if seats is not None and lo <= seats < hi and not lo <= players <= seats:
        raise ConfigError(f"This {label} table needs {players_wanted(lo, seats)}; {there}")
    if not lo <= players <= hi:
        raise ConfigError(f"{a_or_an(label)} game needs {players_wanted(lo, hi)}; {there}")
    if config.mode is Mode.TEAM and players % 2:
        raise ConfigError(f"Team games need an even number of players (6, 8, 10 or 12); there are {players}.")


def rules_for(config: GameConfig, players: int) -> Rules:
    config = config.normalized()
    check_player_count(config, players)
    odyssey = config.profile is Profile.ODYSSEY
    if config.mode is Mode.PARTY:
        return Rules(config.mode, config.profile, players, 5, 1, 1, None, False, 3)
    if config.mode is Mode.TEAM:
        return Rules(config.mode, config.profile, players, 4, 1, 1, 3, False, 3)
    three = players == 3
    big = odyssey and players >= 7
    return Rules(
        mode=config.mode,
        profile=config.profile,
        players=players,
        hand_size=7 if three else 6,
        submit_count=2 if three else 1,
        votes_allowed=2 if big else 1,
        bonus_cap=3 if odyssey else None,
        single_vote_extra=big,
        min_players=3,
    )
