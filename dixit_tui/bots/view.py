"""`BotView`: the little a bot needs to decide, built from the engine's PlayerView or from a protocol `state` message.

The strategies work from a BotView only, so one strategy plays in-process (through a coordinator session or the
engine directly) and over SSH (through the headless protocol) alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from dixit_tui.engine.config import Mode
from dixit_tui.engine.state import Phase
from dixit_tui.engine.view import PlayerView


@dataclass(frozen=True, slots=True)
class BotCard:
    card: str
    text: str


@dataclass(frozen=True, slots=True)
class BotSlot:
    slot: int
    card: str
    text: str


@dataclass(frozen=True, slots=True)
class BotView:
    mode: str  # "standard", "party", "team"
    phase: str  # "lobby", "clue", "submit", "vote", "over"
    turn: int
    you: int | None
    players: int  # seats in the game (removed ones included: the rules were fixed with them)
    storyteller: int | None
    clue: str | None
    hand: tuple[BotCard, ...]
    board: tuple[BotSlot, ...]
    votes_allowed: int
    forbidden_slots: tuple[int, ...]
    your_cards: tuple[str, ...]
    your_votes: tuple[int, ...]
    waiting_for: tuple[int, ...]
    can_clue: bool
    clue_needs_card: bool
    submit_count: int
    can_vote: bool
    places_red: bool
    avoid_cards: tuple[str, ...] = ()  # cards the next clue must not use (the card of a voided turn)
    vote_slots: tuple[int, ...] | None = None  # the slots it may vote for (None: the board but forbidden_slots)

    # --- constructors ----------------------------------------------------------------------------------------

    @classmethod
    def from_player_view(cls, view: PlayerView) -> BotView:
        return cls(
            mode=view.mode,
            phase=view.phase,
            turn=view.turn,
            you=view.you,
            players=len(view.players),
            storyteller=view.storyteller,
            clue=view.clue,
            hand=tuple(BotCard(c.card, c.text) for c in view.hand),
            board=tuple(BotSlot(s.slot, s.card, s.text) for s in view.board),
            votes_allowed=view.votes_allowed,
            forbidden_slots=tuple(view.forbidden_slots),
            your_cards=tuple(view.your_cards),
            your_votes=tuple(view.your_votes),
            waiting_for=tuple(view.waiting_for),
            can_clue=view.can_clue,
            clue_needs_card=view.clue_needs_card,
            submit_count=view.submit_count,
            can_vote=view.can_vote,
            places_red=view.places_red,
            avoid_cards=() if view.voided_card is None else (view.voided_card,),
            vote_slots=tuple(view.vote_slots),
        )

    @classmethod
    def from_protocol(cls, state: Mapping[str, Any]) -> BotView:
        """From a protocol v1 `state` message, which says what the seat may do now (`can_clue`, `submit_count`,
        `vote_slots`, ...: the engine's legal moves). A server older than those fields is read as the rules say."""
        mode = str(state.get("mode") or Mode.STANDARD)
        phase = str(state.get("phase") or "lobby")
        you = _opt_int(state.get("you"))
        waiting = tuple(_ints(state.get("waiting_for")))
        acting = you is not None and you in waiting
        voided = state.get("voided_card")
        vote_slots = state.get("vote_slots")
        return cls(
            mode=mode,
            phase=phase,
            turn=int(state.get("turn") or 0),
            you=you,
            players=len(state.get("players") or ()),
            storyteller=_opt_int(state.get("storyteller")),
            clue=state.get("clue") if isinstance(state.get("clue"), str) else None,
            hand=tuple(BotCard(str(c["card"]), str(c.get("text", ""))) for c in state.get("hand") or ()),
            board=tuple(
                BotSlot(int(s["slot"]), str(s.get("card", "")), str(s.get("text", "")))
                for s in state.get("board") or ()
            ),
            votes_allowed=int(state.get("votes_allowed") or 1),
            forbidden_slots=tuple(_ints(state.get("forbidden_slots"))),
            your_cards=tuple(str(c) for c in state.get("your_cards") or ()),
            your_votes=tuple(_ints(state.get("your_votes"))),
            waiting_for=waiting,
            can_clue=_flag(state, "can_clue", acting and phase == Phase.CLUE),
            clue_needs_card=_flag(state, "clue_needs_card", mode != Mode.PARTY),
            submit_count=_opt_int(state.get("submit_count")) or 0,
            can_vote=_flag(state, "can_vote", acting and phase == Phase.VOTE),
            places_red=state.get("places_red") is True,
            avoid_cards=(voided,) if isinstance(voided, str) else (),
            vote_slots=tuple(_ints(vote_slots)) if isinstance(vote_slots, list) else None,
        )

    def avoiding(self, cards: Iterable[str]) -> BotView:
        return replace(self, avoid_cards=tuple(dict.fromkeys((*self.avoid_cards, *cards))))

    # --- questions -------------------------------------------------------------------------------------------

    def needed(self) -> Phase | None:
        """What this seat must do now: Phase.CLUE, SUBMIT or VOTE, or None."""
        if self.you is None or self.you not in self.waiting_for:
            return None
        if self.phase == Phase.CLUE and self.can_clue:
            return Phase.CLUE
        if self.phase == Phase.SUBMIT and self.submit_count > 0:
            return Phase.SUBMIT
        if self.phase == Phase.VOTE and self.can_vote and not self.your_votes:
            return Phase.VOTE
        return None

    def clue_cards(self) -> tuple[BotCard, ...]:
        """The hand cards a clue may go with (all but the voided turn's card)."""
        return tuple(c for c in self.hand if c.card not in self.avoid_cards)

    def open_slots(self) -> tuple[BotSlot, ...]:
        """The board's slots this seat may vote for."""
        if self.vote_slots is not None:
            allowed = set(self.vote_slots)
            return tuple(s for s in self.board if s.slot in allowed)
        forbidden = set(self.forbidden_slots)
        return tuple(s for s in self.board if s.slot not in forbidden)


def as_bot_view(view: BotView | PlayerView) -> BotView:
    return view if isinstance(view, BotView) else BotView.from_player_view(view)


def _opt_int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _flag(state: Mapping[str, Any], key: str, default: bool) -> bool:
    value = state.get(key)
    return value if isinstance(value, bool) else default


def _ints(value: Any) -> list[int]:
    if not isinstance(value, list | tuple):
        return []
    return [v for v in value if isinstance(v, int) and not isinstance(v, bool)]
