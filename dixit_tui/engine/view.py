"""The per-player view: the only way game state leaves the engine toward a player or a spectator.

What a seat may see: its own hand (not during a party clue it must give blind), the board once every card is in
(without owners), its own given cards and votes, who the phase waits for, the scores, and the public record of
the last scored turn. Nobody sees another hand, who gave which card, or any vote before the reveal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dixit_tui.engine.config import Mode
from dixit_tui.engine.reveal import Reveal
from dixit_tui.engine.state import GameState, Phase


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    name: str
    score: int
    team: int | None
    active: bool  # False once removed for good
    told: int  # scored turns told so far


@dataclass(frozen=True, slots=True)
class CardView:
    card: str
    text: str


@dataclass(frozen=True, slots=True)
class SlotView:
    slot: int
    card: str
    text: str


@dataclass(frozen=True, slots=True)
class PlayerView:
    mode: str
    profile: str
    phase: str
    turn: int
    you: int | None  # None for a spectator
    host: int
    players: tuple[SeatView, ...]
    storyteller: int | None
    clue: str | None
    hand: tuple[CardView, ...]
    hand_hidden: bool  # party: your hand is hidden until the clue is given
    board: tuple[SlotView, ...]
    votes_allowed: int
    forbidden_slots: tuple[int, ...]
    your_cards: tuple[str, ...]
    your_votes: tuple[int, ...]
    your_red: int | None
    waiting_for: tuple[int, ...]
    can_clue: bool
    clue_needs_card: bool
    submit_count: int  # how many cards you give now, 0 if none
    can_vote: bool
    places_red: bool  # party storyteller: the vote carries the red marker
    target: int
    storytells: int
    hand_size: int
    draw_pile: int  # cards left in the draw pile (a public count)
    last_reveal: Reveal | None
    history: tuple[Reveal, ...]  # every scored turn so far (public)
    winners: tuple[int, ...]
    version: int
    practice: bool = False  # the turn in progress is the unscored practice turn (number 0)

    def name_of(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.players):
            return ""
        return self.players[seat].name

    def to_protocol(self) -> dict[str, Any]:
        """The fields of protocol v1's `state` message that come from the game (the coordinator adds the rest)."""
        return {
            "mode": self.mode,
            "profile": self.profile,
            "phase": self.phase,
            "turn": self.turn,
            "you": self.you,
            "host": self.host,
            "players": [
                {"seat": p.seat, "name": p.name, "score": p.score, "team": p.team, "removed": not p.active}
                for p in self.players
            ],
            "storyteller": self.storyteller,
            "clue": self.clue,
            "hand": [{"card": c.card, "text": c.text} for c in self.hand],
            "board": [{"slot": s.slot, "card": s.card, "text": s.text} for s in self.board],
            "votes_allowed": self.votes_allowed,
            "forbidden_slots": list(self.forbidden_slots),
            "your_cards": list(self.your_cards),
            "your_votes": list(self.your_votes),
            "your_red": self.your_red,
            "waiting_for": list(self.waiting_for),
        }


def _hand_hidden(state: GameState, seat: int) -> bool:
    if state.config.mode is not Mode.PARTY or state.phase is not Phase.CLUE:
        return False
    teller = state.turn.storyteller
    return teller is None or teller == seat


def _public(state: GameState) -> tuple[tuple[SeatView, ...], tuple[SlotView, ...]]:
    """The parts of every seat's view that are the same for all (remembered per state: a change shows the state to
    every seat at the table)."""
    memo = state._public
    if memo is None:
        players = tuple(
            [
                SeatView(s, state.names[s], state.scores[s], state.team_of(s), state.active[s], state.told[s])
                for s in state.seats
            ]
        )
        board: tuple[SlotView, ...] = ()
        if state.phase is Phase.VOTE:
            texts = state.cards
            board = tuple([SlotView(i, c, texts[c].text) for i, c in enumerate(state.turn.board, start=1)])
        memo = state.__dict__["_public"] = (players, board)
    return memo


def view_for(state: GameState, seat: int | None) -> PlayerView:
    """What `seat` may see of the game (None: a spectator, who sees no hand)."""
    you = seat if seat is not None and 0 <= seat < len(state.names) else None
    turn = state.turn
    players, board = _public(state)
    hidden = you is not None and _hand_hidden(state, you)
    hand: tuple[CardView, ...] = ()
    if you is not None and not hidden:
        texts = state.cards
        hand = tuple([CardView(c, texts[c].text) for c in state.hands[you]])
    waiting = state.waiting_for()
    acting = you is not None and you in waiting
    party = state.config.mode is Mode.PARTY
    submit_count = 0
    if acting and state.phase is Phase.SUBMIT:
        submit_count = state.rules.submit_count if state.config.mode is Mode.STANDARD else 1
    your_votes: tuple[int, ...] = ()
    your_red = None
    if you is not None and state.phase is Phase.VOTE:
        your_votes = turn.votes.get(you, ())
        if you == turn.storyteller:
            your_red = turn.red
    can_vote = you is not None and state.phase is Phase.VOTE and you in state.voter_tuple()
    return PlayerView(
        mode=state.config.mode.value,
        profile=state.config.profile.value,
        phase=state.phase.value,
        turn=turn.number,
        you=you,
        host=state.host,
        players=players,
        storyteller=turn.storyteller,
        clue=turn.clue,
        hand=hand,
        hand_hidden=hidden,
        board=board,
        votes_allowed=state.rules.votes_allowed,
        forbidden_slots=state.forbidden_slots(you) if you is not None and state.phase is Phase.VOTE else (),
        your_cards=state.given_by(you) if you is not None and state.phase is not Phase.OVER else (),
        your_votes=your_votes,
        your_red=your_red,
        waiting_for=waiting,
        can_clue=acting and state.phase is Phase.CLUE,
        clue_needs_card=not party,
        submit_count=submit_count,
        can_vote=can_vote,
        places_red=party and can_vote and you == turn.storyteller,
        target=state.config.target,
        storytells=state.config.storytells,
        hand_size=state.rules.hand_size,
        draw_pile=len(state.draw_pile),
        last_reveal=state.last_reveal,
        history=state.history,
        winners=state.winners,
        version=state.version,
        practice=state.practice,
    )
