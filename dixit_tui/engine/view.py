"""The per-player view: the only way game state leaves the engine toward a player or a spectator.

What a seat may see: its own hand (not during a party clue it must give blind), the board once every card is in
(without owners), its own given cards and votes, who the phase waits for, the scores, and the public record of
the last scored turn. Nobody sees another hand, who gave which card, or any vote before the reveal.
The view also says what the seat may do now (engine/legal.py): which cards, how many, which slots. Its wire form
is the protocol's business (protocol/views.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from dixit_tui.engine.config import PARTY, Mode, Profile
from dixit_tui.engine.legal import legal_moves
from dixit_tui.engine.reveal import Reveal
from dixit_tui.engine.state import CLUE, OVER, VOTE, GameState, Phase


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
    mode: Mode
    profile: Profile
    phase: Phase
    turn: int
    you: int | None  # None for a spectator
    host: int
    players: tuple[SeatView, ...]
    storyteller: int | None
    clue: str | None
    hand: tuple[CardView, ...]
    hand_hidden: bool  # party: your hand is hidden until the clue is given
    board: tuple[SlotView, ...]
    votes_allowed: int  # the rules' votes per voter: one, or up to two on different cards
    forbidden_slots: tuple[int, ...]  # vote phase: the slots of your own cards (team mode: your team's)
    your_cards: tuple[str, ...]
    your_votes: tuple[int, ...]
    your_red: int | None
    waiting_for: tuple[int, ...]
    # what you may do now, from engine/legal.py's legal_moves (with clue_cards, voided_card and vote_slots below)
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
    clue_cards: tuple[str, ...] = ()  # the cards your clue may go with now (your hand but the voided card)
    voided_card: str | None = None  # storyteller after a void: the card the new clue may not use
    vote_slots: tuple[int, ...] = ()  # the slots you may vote for now (the board but forbidden_slots)

    def name_of(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.players):
            return ""
        return self.players[seat].name


def _hand_hidden(state: GameState, seat: int) -> bool:
    if state.config.mode is not PARTY or state.phase is not CLUE:
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
        if state.phase is VOTE:
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
    moves = legal_moves(state, you)
    your_votes: tuple[int, ...] = ()
    your_red = None
    if you is not None and state.phase is VOTE:
        your_votes = turn.votes.get(you, ())
        if you == turn.storyteller:
            your_red = turn.red
    return PlayerView(
        mode=state.config.mode,
        profile=state.config.profile,
        phase=state.phase,
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
        forbidden_slots=state.forbidden_slots(you) if you is not None and state.phase is VOTE else (),
        your_cards=state.given_by(you) if you is not None and state.phase is not OVER else (),
        your_votes=your_votes,
        your_red=your_red,
        waiting_for=waiting,
        can_clue=moves.clue,
        clue_needs_card=moves.clue_needs_card,
        submit_count=moves.submit_count,
        can_vote=moves.vote,
        places_red=moves.places_red,
        target=state.config.target,
        storytells=state.config.storytells,
        hand_size=state.rules.hand_size,
        draw_pile=len(state.draw_pile),
        last_reveal=state.last_reveal,
        history=state.history,
        winners=state.winners,
        version=state.version,
        practice=state.practice,
        clue_cards=moves.clue_cards,
        voided_card=moves.voided_card,
        vote_slots=moves.vote_slots,
    )
