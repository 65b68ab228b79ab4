"""Drive exact scenarios through the engine: 'seat 1 votes for seat 3's card' rather than for a slot number."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from dixit_tui.engine import (
    Card,
    Command,
    FirstStoryteller,
    Game,
    GameConfig,
    GameState,
    GiveClue,
    Mode,
    Phase,
    Points,
    Profile,
    RemovePlayer,
    Reveal,
    Submit,
    VoidTurn,
    Vote,
)

CARDS = tuple(Card(f"t-{i:03d}", f"scene number {i}", "t") for i in range(120))
NAMES = ("ana", "ben", "cara", "dev", "eli", "fay", "gus", "hal", "ivy", "jo", "kai", "lu")


def make_game(
    n: int,
    mode: str = "standard",
    profile: str = "refresh",
    *,
    seed: int = 7,
    target: int = 30,
    storytells: int = 1,
    first: str = "first_clue",
    cards: Sequence[Card] = CARDS[:84],
) -> Game:
    config = GameConfig(Mode(mode), Profile(profile), target, storytells, FirstStoryteller(first))
    names = [*NAMES, *(f"p{i}" for i in range(len(NAMES), n))][:n]
    return Game.new(config, names, cards, seed)


# A vote target: a seat (its first card) or (seat, index) for the second card of a 3-player submission.
Target = int | tuple[int, int]


def slot_of(game: Game, target: Target) -> int:
    seat, index = (target, 0) if isinstance(target, int) else target
    card = game.state.given_by(seat)[index]
    return game.state.turn.board.index(card) + 1


def give_clue(game: Game, teller: int, text: str = "a quiet storm") -> None:
    state = game.state
    card = None if state.config.mode is Mode.PARTY else state.hands[teller][0]
    game.execute(GiveClue(teller, text, card))


def submit_all(game: Game, order: Sequence[int] | None = None) -> None:
    """Every seat that may submit does, in seat order (or `order`), giving the first cards of its hand."""
    state = game.state
    want = state.rules.submit_count if state.config.mode is Mode.STANDARD else 1
    for seat in order if order is not None else state.active_seats():
        if game.state.may_submit(seat):
            game.execute(Submit(seat, game.state.hands[seat][:want]))
    assert game.state.phase is Phase.VOTE


def cast(game: Game, votes: Mapping[int, Target | Sequence[Target]], red: Target | None = None) -> None:
    teller = game.state.turn.storyteller
    for seat, target in votes.items():
        targets = list(target) if isinstance(target, list) else [target]
        slots = tuple(slot_of(game, t) for t in targets)  # type: ignore[arg-type]
        red_slot = slot_of(game, red) if red is not None and seat == teller else None
        game.execute(Vote(seat, slots, red_slot))


def play_turn(
    game: Game,
    teller: int,
    votes: Mapping[int, Target | Sequence[Target]],
    *,
    red: Target | None = None,
    submit_order: Sequence[int] | None = None,
) -> Reveal:
    give_clue(game, teller)
    submit_all(game, submit_order)
    cast(game, votes, red)
    reveal = game.state.last_reveal
    assert reveal is not None
    return reveal


def deltas(reveal: Reveal) -> dict[int, int]:
    return {p.seat: p.delta for p in reveal.points}


def points_of(reveal: Reveal, seat: int) -> Points | None:
    """The points `seat` scored in this reveal (its breakdown), None if it is not in the game."""
    return next((p for p in reveal.points if p.seat == seat), None)


def random_table_command(state: GameState, rng: random.Random) -> Command | None:
    """A rarer host action: void the turn, or remove a player."""
    if state.phase is Phase.OVER:
        return None
    if rng.random() < 0.5 and state.phase is not Phase.CLUE:
        return VoidTurn(state.host)
    target = rng.choice(state.active_seats())
    return RemovePlayer(state.host, target)
