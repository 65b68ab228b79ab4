"""The rules: `decide` checks a command against the state and returns the events it causes; `step` also gives
the state after them. Pure: the state given is never changed, and an illegal command raises a RuleError (and
changes nothing)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dixit_tui.engine.commands import Command, GiveClue, PassHost, RemovePlayer, Submit, VoidTurn, Vote
from dixit_tui.engine.config import CLUE_MAX_LEN, PARTY, STANDARD, TEAM
from dixit_tui.engine.draft import Draft
from dixit_tui.engine.errors import BadCard, BadClue, BadVote, GameOver, NotHost, NotYourTurn, RuleError, WrongPhase
from dixit_tui.engine.events import (
    BoardLaidOut,
    CardsSubmitted,
    ClueGiven,
    Event,
    GameEnded,
    HostPassed,
    PlayerRemoved,
    TurnVoided,
    VoteCast,
)
from dixit_tui.engine.folding import apply_into, fold_submission, fold_vote
from dixit_tui.engine.rng import shuffled
from dixit_tui.engine.state import CLUE, OVER, SUBMIT, VOTE, GameState
from dixit_tui.engine.state_copy import copy_state
from dixit_tui.engine.turn_end import end_turn, game_finished, leaders


def decide(state: GameState, command: Command) -> list[Event]:
    """Check `command` and return the events it causes (possibly a whole end of turn). Raises RuleError."""
    return step(state, command)[0]


def step(state: GameState, command: Command) -> tuple[list[Event], GameState]:
    """`decide` and `fold` in one go: the events `command` causes and the state after them, which equals
    `fold(events, state)` (made once, not folded twice). Raises RuleError, and changes nothing, if the rules
    refuse the command."""
    if state.phase is OVER and type(command) is not PassHost:  # the host of a game over may still change
        raise GameOver("The game is over.")
    active = state._active  # state.active_tuple(): the seats still in, remembered
    if active is None:
        active = state.active_tuple()
    if command.seat not in active:
        raise NotYourTurn("You are not playing at this table.")
    rule = _DECIDE.get(type(command))
    if rule is None:
        raise RuleError(f"Unknown command {command!r}.")  # pragma: no cover
    return rule(state, command)


def _decide_clue(state: GameState, cmd: GiveClue) -> tuple[list[Event], GameState]:
    if state.phase is not CLUE:
        raise WrongPhase("The clue has already been given this turn.")
    teller = state.turn.storyteller
    if teller is not None and cmd.seat != teller:
        raise NotYourTurn(f"Only the storyteller ({state.names[teller]}) gives the clue.")
    text = " ".join(cmd.text.split())
    if not text:
        raise BadClue("A clue cannot be empty: a word, a sound, a line of a song, anything.")
    if len(text) > CLUE_MAX_LEN:
        raise BadClue(f"A clue can be at most {CLUE_MAX_LEN} characters.")
    if state.config.mode is PARTY:
        if cmd.card is not None:
            raise BadCard("In party mode the clue refers to no card: give the clue alone.")
    else:
        if cmd.card is None:
            raise BadCard("Choose one card from your hand to go with your clue.")
        if cmd.card not in state.hands[cmd.seat]:
            raise BadCard("That card is not in your hand.")
        if cmd.card == state.turn.voided_card:
            raise BadCard("This turn was voided: choose a different card for your new clue.")
    event = ClueGiven(cmd.seat, text, cmd.card)
    after = copy_state(state)
    apply_into(after, event)
    waiting = after._waiting  # after.waiting_for(), read straight from the state when the fold left it
    if waiting is None:
        waiting = after.waiting_for()
    if waiting:  # the cards to give (team mode may need none)
        return [event], after
    return _lay_board(Draft(after, [event]))


def _decide_submit(state: GameState, cmd: Submit) -> tuple[list[Event], GameState]:
    if state.phase is not SUBMIT:
        raise WrongPhase("This is not the time to give cards.")
    seat, cards = cmd.seat, cmd.cards
    waiting = state._waiting  # the seats that may submit (GameState.may_submit), remembered: state.waiting_for()
    if waiting is None:
        waiting = state.waiting_for()
    if seat not in waiting:
        raise NotYourTurn(_why_no_submit(state, seat))
    want = 1 if state.config.mode is not STANDARD else state.rules.submit_count
    if type(cards) is not tuple:
        cards = tuple(cards)
    if len(cards) != want:
        raise BadCard(f"Give exactly {want} card{'s' if want > 1 else ''}.")
    if want > 1 and len(set(cards)) != len(cards):
        raise BadCard("Give two different cards.")
    hand = state.hands[seat]
    for card in cards:
        if card not in hand:
            raise BadCard("That card is not in your hand.")
    event = CardsSubmitted(seat, cards)
    after = copy_state(state)
    fold_submission(after, after.__dict__, event)
    waiting = after._waiting  # after.waiting_for(), read straight from the state when the fold left it
    if waiting is None:
        waiting = after.waiting_for()
    if waiting:  # still in the submit phase: some cards are still to come
        return [event], after
    return _lay_board(Draft(after, [event]))


def _lay_board(draft: Draft) -> tuple[list[Event], GameState]:
    """Every card is in: shuffle them into numbered slots."""
    after = draft.state
    turn = after.turn
    teller, clue_card, submissions = turn.storyteller, turn.clue_card, turn.submissions
    given: list[str] = []  # every seat's given_by, in seat order
    for seat in range(len(after.names)):
        if seat == teller and clue_card is not None:
            given.append(clue_card)
        cards = submissions.get(seat)
        if cards:
            given.extend(cards)
    draft.emit(BoardLaidOut(shuffled(given, after.seed, after.rng_draws)))
    return draft.events, after


def _why_no_submit(state: GameState, seat: int) -> str:
    if seat in state.turn.submissions:
        return "You have already given your card; it is final."
    if seat == state.turn.storyteller:
        return "You are the storyteller: your card is already in."
    if state.config.mode is TEAM:
        if state.team_submitter(seat) is not None:
            return "Your teammate has given your team's card; you vote this turn."
        if state.partner(seat) is None:
            return "Your team has one player left, who votes."
        teller = state.turn.storyteller
        if teller is not None and seat in state.teammates(teller):
            return "Your team is telling this turn."
    return "You do not give a card this turn."


def _decide_vote(state: GameState, cmd: Vote) -> tuple[list[Event], GameState]:
    if state.phase is not VOTE:
        raise WrongPhase("Voting has not started yet.")
    seat, slots, red, turn = cmd.seat, cmd.slots, cmd.red, state.turn
    voters = state._voters  # state.voter_tuple(), without the call when remembered
    if voters is None:
        voters = state.voter_tuple()
    if seat not in voters:
        if seat == turn.storyteller:
            raise NotYourTurn("The storyteller does not vote.")
        raise NotYourTurn("You do not vote this turn.")
    if type(slots) is not tuple:
        slots = tuple(slots)
    allowed = state.rules.votes_allowed
    count = len(slots)
    if not 1 <= count <= allowed:
        raise BadVote("Vote for one card." if allowed == 1 else "Vote for one or two cards.")
    if count > 1 and len(set(slots)) != count:
        raise BadVote("Your two votes must be on different cards.")
    size = len(turn.board)
    for slot in slots if red is None else (*slots, red):
        if not 1 <= slot <= size:
            raise BadVote(f"There is no card {slot}: the board has cards 1 to {size}.")
    remembered = state._forbidden  # state.forbidden_slots(seat), without the call when remembered
    forbidden = state.forbidden_slots(seat) if remembered is None else remembered.get(seat, ())
    if forbidden:
        for slot in slots:
            if slot in forbidden:
                raise BadVote(
                    "You cannot vote for your own card."
                    if state.config.mode is not TEAM
                    else "You cannot vote for your team's card."
                )
    if state.config.mode is PARTY and seat == turn.storyteller:
        if red is None:
            raise BadVote("As storyteller, place your red marker too.")
    elif red is not None:
        raise BadVote("Only the party storyteller places the red marker.")
    event = VoteCast(seat, slots, red)
    after = copy_state(state)
    fold_vote(after, after.__dict__, event)
    waiting = after._waiting  # after.waiting_for(), read straight from the state when the fold left it
    if waiting is None:
        waiting = after.waiting_for()
    if waiting:
        return [event], after
    draft = Draft(after, [event])
    end_turn(draft)
    return draft.events, after


def _decide_void(state: GameState, cmd: VoidTurn) -> tuple[list[Event], GameState]:
    if cmd.seat != state.host:
        raise NotHost("Only the table's host can void the turn.")
    if state.phase is CLUE:
        raise WrongPhase("Nothing to void yet: no clue has been given this turn.")
    return Draft.start(state, TurnVoided(state.turn.number)).outcome


def _decide_remove(state: GameState, cmd: RemovePlayer) -> tuple[list[Event], GameState]:
    target = cmd.target
    if cmd.seat != state.host and cmd.seat != target:
        raise NotHost("Only the table's host can remove another player.")
    if not (0 <= target < len(state.names)) or not state.active[target]:
        raise NotYourTurn("That seat has no player.")
    draft: Draft | None = None
    before = state
    if state.phase in (SUBMIT, VOTE):
        draft = Draft.start(state, TurnVoided(state.turn.number))
        before = draft.state
    still = [s for s in before.active_seats() if s != target]
    host = before.host if before.host != target else before.next_active(target)
    teller = before.turn.storyteller
    if teller == target:
        teller = before.next_active(target)
    removed = PlayerRemoved(target, host, teller)
    if draft is None:
        draft = Draft.start(state, removed)
    else:
        draft.emit(removed)
    after = draft.state
    if _too_few(after) or game_finished(after):  # e.g. the one who had not told yet has left
        # Nothing the practice turn scores counts: a game that ends during it has no winner.
        draft.emit(GameEnded(() if after.practice else leaders(after, still)))
    return draft.outcome


def _decide_pass_host(state: GameState, cmd: PassHost) -> tuple[list[Event], GameState]:
    if cmd.seat != state.host:
        raise NotHost("Only the table's host can pass the host's duties on.")
    if not (0 <= cmd.to < len(state.names)) or not state.active[cmd.to] or cmd.to == cmd.seat:
        raise NotYourTurn("The host's duties go to another player still in the game.")
    return Draft.start(state, HostPassed(cmd.to)).outcome


_DECIDE: dict[type, Callable[[GameState, Any], tuple[list[Event], GameState]]] = {
    GiveClue: _decide_clue,
    Submit: _decide_submit,
    Vote: _decide_vote,
    VoidTurn: _decide_void,
    RemovePlayer: _decide_remove,
    PassHost: _decide_pass_host,
}


def _too_few(state: GameState) -> bool:
    if state.config.mode is TEAM:
        teams = {state.team_of(s) for s in state.active_seats()}
        return len(teams) < state.rules.min_players
    return len(state.active_seats()) < state.rules.min_players
