"""The shrewd strategy: a storyteller that estimates how many of the others would find its card for a clue, and picks
the clue (and card) that should gain it the most on them, which is what Dixit pays for: found by some but not all.

For a candidate clue (smart's best few per card) it models the board and the voters:

- each other player lays down the card of their hand that fits the clue best (a decoy): the best decoy on the board
  is the best of that many hands of cards drawn from the decks in play (their texts are public; which card is where
  is not, so the draw is over every card of those decks but the bot's own hand);
- each voter votes for the card that seems to fit best, judged with the smart voter's noise: given the board, a voter
  finds the card with probability Phi((own fit - best decoy's fit) / (noise * sqrt 2)), independently of the others
  (who see the same board, so mostly agree); a quarter of the voters are taken to vote at random (not every player
  judges as carefully: at a table of careless voters the careful model tells clues too hard to find);

and from the number k of the V voters who find it, the storyteller's lead on the others: 3 - 3k/V when some but not
all find it (it and each finder score 3), -2 when all or none do (the others score 2 each). The clue with the best
expected lead, averaged over the boards, is told (ties: smart's own value, with its little noise from `rng`). Its
decoys and votes are smart's: the card that fits the clue best draws the most votes, whoever tells. Deterministic
under `rng`, like the other strategies.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Sequence
from functools import cache, lru_cache

from dixit_tui.bots.similarity import fit
from dixit_tui.bots.strategy import (
    VOTE_NOISE,
    AnyView,
    _clues_for,
    choose_clue,
    choose_submission,
    choose_vote,
)
from dixit_tui.bots.view import BotCard, as_bot_view
from dixit_tui.engine import Mode

CANDIDATES_PER_CARD = 12  # smart's best clues per card weighed again here
HAND = 6  # cards in a hand the others pick their decoy from
SPREAD = VOTE_NOISE * math.sqrt(2.0)  # the spread of the difference of two noisy judgements
CARELESS = 0.25  # of the voters, the share taken to vote at random (not every player judges as carefully)


@cache
def _deck_texts(decks: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(card id, text) of every card of the built-in decks named (those a hand's card ids come from)."""
    from dixit_tui.decks import builtin_deck_names, resolve_decks

    known = [d for d in decks if d in builtin_deck_names()]
    return tuple((c.id, c.text) for c in resolve_decks(known)) if known else ()


def _pool(hand: Sequence[BotCard]) -> tuple[str, ...]:
    """The texts of the cards the others may hold: the decks of the hand's cards, less the hand."""
    decks = tuple(sorted({card.card.rsplit("-", 1)[0] for card in hand}))
    mine = {card.card for card in hand}
    texts = tuple(text for card, text in _deck_texts(decks) if card not in mine)
    return texts or tuple(card.text for card in hand)


@lru_cache(maxsize=65_536)
def _best_decoy(clue: str, pool: tuple[str, ...], draws: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The distribution of the best fit among `draws` cards drawn from `pool` (the best decoy on the board, the
    others holding a hand each): (values, their probabilities)."""
    values = sorted(fit(clue, text) for text in pool)
    n = len(values)
    distinct: list[float] = []
    chances: list[float] = []
    below = 0.0
    for value in sorted(set(values)):
        at_most = (bisect.bisect_right(values, value) / n) ** draws  # P(every card drawn fits at most this)
        distinct.append(value)
        chances.append(at_most - below)
        below = at_most
    return tuple(distinct), tuple(chances)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def lead_gained(clue: str, card: str, pool: tuple[str, ...], decoys: int, voters: int) -> float:
    """What telling `card` with `clue` should gain on the others, in points (the decoys' points aside): found by
    all or none, the storyteller scores 0 and each of the others 2; by some, the storyteller and each finder 3. So
    with k of the V voters finding it the gain is 3 - 3k/V, or -2 for all or none; given the board
    (each voter finds the card when it seems to fit better than the best decoy, judged with the voters' noise, and
    independently of the others) that is E = 3 - 5 (P(none) + P(all)) - 3p + 3p^V, averaged over the boards the
    others may lay down (the best decoy: the best of `decoys` hands drawn from `pool`)."""
    own = fit(clue, card)
    values, chances = _best_decoy(clue, pool, HAND * max(decoys, 1))
    gain = 0.0
    for value, weight in zip(values, chances, strict=True):
        p = (1.0 - CARELESS) * _phi((own - value) / SPREAD) + CARELESS / (decoys + 1)
        extremes = p**voters + (1.0 - p) ** voters
        gain += weight * (3.0 - 5.0 * extremes - 3.0 * p + 3.0 * p**voters)
    return gain


def choose_shrewd_clue(view: AnyView, rng: random.Random) -> tuple[str, str | None]:
    v = as_bot_view(view)
    cards = v.clue_cards() or v.hand
    if not v.clue_needs_card or not cards:
        return choose_clue(view, rng)
    pool = _pool(v.hand)
    submit = 2 if v.players == 3 and v.mode == Mode.STANDARD else 1  # the cards each other player lays down
    voters = max(v.players - 1, 1)
    decoys = voters * submit
    best: tuple[float, float, str, str] | None = None
    for card in cards:
        others = [c for c in v.hand if c.card != card.card]
        candidates = sorted(_clues_for(card, others, rng), key=lambda t: -t[0])[:CANDIDATES_PER_CARD]
        for value, text in candidates:
            chance = lead_gained(text, card.text, pool, decoys, voters)
            if best is None or (chance, value) > (best[0], best[1]):
                best = (chance, value, text, card.card)
    if best is None:
        return choose_clue(view, rng)
    return best[2], best[3]


class ShrewdStrategy:
    name = "shrewd"

    def choose_clue(self, view: AnyView, rng: random.Random) -> tuple[str, str | None]:
        return choose_shrewd_clue(view, rng)

    def choose_submission(self, view: AnyView, rng: random.Random) -> list[str]:
        return choose_submission(view, rng)

    def choose_vote(self, view: AnyView, rng: random.Random) -> tuple[list[int], int | None]:
        return choose_vote(view, rng)
