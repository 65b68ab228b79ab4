"""What a seat may do now: the one place that turns the rules into choices (like OpenSpiel's `legal_actions`).

`legal_moves(state, seat)` answers it whole for the per-player view (engine/view.py), and through the view for
the stand-ins, the bots and the widgets. The pieces it is made of (`acts`, `clue_cards`, `vote_slots`, ...) are
public too, for the random player, which asks one of them per command and must stay cheap. The engine's checks in
engine/rules.py refuse exactly what these leave out.
"""

from __future__ import annotations

from dataclasses import dataclass

from dixit_tui.engine.config import PARTY
from dixit_tui.engine.state import CLUE, SUBMIT, VOTE, GameState


@dataclass(frozen=True, slots=True)
class LegalMoves:
    """What one seat may do in the state it was asked for. A seat with nothing to do gets `NOTHING`."""

    clue: bool = False  # may give the clue now
    clue_needs_card: bool = True  # a clue goes with a card of the hand (all but party mode)
    clue_cards: tuple[str, ...] = ()  # the cards the clue may go with (the hand but the voided card), if it needs one
    voided_card: str | None = None  # the card of a voided turn, which the storyteller's new clue may not use
    submit_count: int = 0  # how many different cards of `submit_cards` to give now, 0 if none
    submit_cards: tuple[str, ...] = ()  # the cards it may give (its hand)
    vote: bool = False  # may vote now (a voter who has voted may change the vote until the last one is in)
    vote_slots: tuple[int, ...] = ()  # the slots it may vote for (the board but its own or its team's cards)
    votes_allowed: int = 0  # votes on different slots of `vote_slots`: one, or up to this many
    red_slots: tuple[int, ...] = ()  # party storyteller: the red marker goes on one of these (any slot), with the vote

    @property
    def places_red(self) -> bool:
        return bool(self.red_slots)


NOTHING = LegalMoves()
_NOTHING_BLIND = LegalMoves(clue_needs_card=False)  # party mode


def acts(state: GameState, seat: int) -> bool:
    """Whether `seat` has a move now: the clue or a submission it owes, or a vote (also one it may change)."""
    phase = state.phase
    if phase is CLUE or phase is SUBMIT:
        return seat in state.waiting_for()  # SUBMIT: the seats that may submit (GameState.may_submit)
    return phase is VOTE and seat in state.voter_tuple()


def clue_needs_card(state: GameState) -> bool:
    return state.config.mode is not PARTY


def voided_card(state: GameState, seat: int) -> str | None:
    """The card this seat's new clue may not use after a void (only the storyteller, whose card it was, learns it)."""
    turn = state.turn
    return turn.voided_card if state.phase is CLUE and seat == turn.storyteller else None


def clue_cards(state: GameState, seat: int) -> tuple[str, ...]:
    """The cards of `seat`'s hand a clue may go with: all but a voided turn's card; none in party mode."""
    if state.config.mode is PARTY:
        return ()
    hand, voided = state.hands[seat], state.turn.voided_card
    return hand if voided is None or voided not in hand else tuple([c for c in hand if c != voided])


def submit_count(state: GameState) -> int:
    """How many cards a submitting seat gives (the rules say: two with three players in standard mode, else one)."""
    return state.rules.submit_count


# The slots (1, ..., size) of a board of each size a game can lay out (a card or two per player, at most twelve
# players); vote_slots builds any bigger one as it goes.
_BOARD_SLOTS = tuple(tuple(range(1, size + 1)) for size in range(25))


def vote_slots(state: GameState, seat: int) -> tuple[int, ...]:
    """The board's slots `seat` may vote for: all but its own cards (team mode: its team's; party mode: all)."""
    size = len(state.turn.board)
    slots = _BOARD_SLOTS[size] if size < len(_BOARD_SLOTS) else tuple(range(1, size + 1))
    forbidden = state.forbidden_slots(seat)
    if not forbidden:
        return slots
    if len(forbidden) == 1:  # one card of its own (most votes): the slots before it and after it
        mine = forbidden[0]
        return slots[: mine - 1] + slots[mine:]
    return tuple([s for s in slots if s not in forbidden])


def places_red(state: GameState, seat: int) -> bool:
    """Party mode: the storyteller's vote carries the red marker."""
    return state.config.mode is PARTY and seat == state.turn.storyteller


def legal_moves(state: GameState, seat: int | None) -> LegalMoves:
    """What `seat` may do now (None, a spectator or an unknown seat: nothing)."""
    needs_card = clue_needs_card(state)
    if seat is None or not 0 <= seat < len(state.names) or not acts(state, seat):
        return NOTHING if needs_card else _NOTHING_BLIND
    phase = state.phase
    if phase is CLUE:
        return LegalMoves(
            clue=True,
            clue_needs_card=needs_card,
            clue_cards=clue_cards(state, seat),
            voided_card=voided_card(state, seat),
        )
    if phase is SUBMIT:
        return LegalMoves(clue_needs_card=needs_card, submit_count=submit_count(state), submit_cards=state.hands[seat])
    board = range(1, len(state.turn.board) + 1)
    return LegalMoves(
        clue_needs_card=needs_card,
        vote=True,
        vote_slots=vote_slots(state, seat),
        votes_allowed=state.rules.votes_allowed,
        red_slots=tuple(board) if places_red(state, seat) else (),
    )
