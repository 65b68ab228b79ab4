"""What a bot does: pure decisions from a BotView (or an engine PlayerView), with all randomness from `rng`.

The smart strategy:
- clue: for each card it may tell with, words related to the card (the association table of `similarity`: a
  related concept or the theme of its group), alone or in pairs, never a word of the card itself (no 3+ letter
  word of its text) nor a word with the same stem. Each candidate is weighed by how well it fits the card against
  how well it fits the other cards in the hand (a sample of what the others may hold): the card should fit well,
  with about one other card fitting as well, so that some but not all find it. Party mode: a theme, no card.
- submission: the card(s) of the hand that fit the clue best (the best decoys).
- vote: the open slot that fits the clue best, judged with a little noise (careful players do not all agree);
  with two votes allowed (odyssey, 7+ players) both top slots when they are close. Party storyteller: green on
  the best fit, red on the runner-up (where it expects the others to go wrong).

`RandomStrategy` makes uniform legal choices, for comparison. `decide` turns a view into the one action the seat
owes now (or None), and falls back to a random legal action if a strategy ever answers something illegal.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from dixit_tui.bots.similarity import ASSOCIATIONS, STOPWORDS, content_stems, fit, groups_of, normalise, stem, words
from dixit_tui.bots.view import BotCard, BotView, as_bot_view
from dixit_tui.engine.commands import Command, GiveClue, Submit, Vote
from dixit_tui.engine.config import CLUE_MAX_LEN
from dixit_tui.engine.state import Phase
from dixit_tui.engine.view import PlayerView

log = logging.getLogger(__name__)

AnyView = BotView | PlayerView

CLOSE = 0.15  # two votes when the runner-up fits within this much of the best
VOTE_NOISE = 0.1  # spread of a voter's judgement, so that careful voters do not all agree
CLUE_NOISE = 0.08  # random spread between candidate clues of similar value
MAX_SINGLES = 24  # candidate one-word clues per card
MAX_PAIR_BASE = 6  # the best this many single words are paired with each other

# Clues for when nothing related is found, and the random strategy's words.
FALLBACK_CLUES = (
    "dreamlike",
    "once upon a time",
    "elsewhere",
    "a quiet wonder",
    "somewhere",
    "not quite right",
    "hush",
    "patience",
    "echo",
    "too late",
    "a secret",
    "Monday",
)


# --- actions ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClueAction:
    text: str
    card: str | None


@dataclass(frozen=True, slots=True)
class SubmitAction:
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class VoteAction:
    slots: tuple[int, ...]
    red: int | None = None


Action = ClueAction | SubmitAction | VoteAction


class Strategy(Protocol):
    name: str

    def choose_clue(self, view: AnyView, rng: random.Random) -> tuple[str, str | None]: ...

    def choose_submission(self, view: AnyView, rng: random.Random) -> list[str]: ...

    def choose_vote(self, view: AnyView, rng: random.Random) -> tuple[list[int], int | None]: ...


# --- the clue rule ---------------------------------------------------------------------------------------------


@lru_cache(maxsize=16_384)
def card_words(card_text: str) -> frozenset[str]:
    """The words a clue for this card must not use: every word of 3 letters or more of its text (normalised)."""
    return frozenset(w for w in words(card_text) if len(w) >= 3)


def clue_allowed(clue: str, card_text: str) -> bool:
    """A clue that copies no 3+ letter word of the card (so never the whole text either)."""
    banned = card_words(card_text)
    return not any(w in banned for w in words(clue))


# --- smart: the clue -------------------------------------------------------------------------------------------


@lru_cache(maxsize=16_384)
def candidate_words(card_text: str) -> tuple[str, ...]:
    """Related words for a card, in a stable order: no word of the card, no word sharing a stem with one."""
    banned = card_words(card_text)
    stems = set(content_stems(card_text))
    out: dict[str, None] = {}
    for word_stem in content_stems(card_text):
        for number in groups_of(word_stem):
            for word in ASSOCIATIONS[number]:
                w = normalise(word)
                if w in banned or w in out or stem(w) in stems:
                    continue
                out[w] = None
    return tuple(out)


def stem_variant(card_text: str) -> str | None:
    """A loose form of a content word of the card that is not a word of the card (e.g. "sleeping" -> "sleep")."""
    banned = card_words(card_text)
    for word in words(card_text):
        if len(word) < 5 or word in STOPWORDS:
            continue
        base = stem(word)
        for candidate in (base, base + "s", word + "s", base + "ing"):
            if len(candidate) >= 4 and candidate.isalpha() and candidate not in banned:
                return candidate
    return None


def clue_value(clue: str, card: BotCard, others: Sequence[BotCard]) -> float:
    """How good `clue` is for `card`, judged against the rest of the hand (a sample of what the others hold).

    A clue nothing else fits is found by every careful voter (and the storyteller scores 0), one that many cards
    fit is found by nobody: the aim is a card that fits well with about one other card of the hand fitting as
    well, so that the others' decoys compete with it and some, but not all, voters find it. -1 if it does not fit.
    """
    own = fit(clue, card.text)
    if own <= 0.0:
        return -1.0
    rivals = [fit(clue, c.text) for c in others]
    close = sum(1 for r in rivals if r >= own)
    mean = sum(rivals) / len(rivals) if rivals else 0.0
    return own - 0.3 * abs(close - 1) - 0.2 * mean


def _clues_for(card: BotCard, others: Sequence[BotCard], rng: random.Random) -> list[tuple[float, str]]:
    """(value with a little noise, clue) for the candidate clues of one card: single words and pairs."""
    # a word of another card of the hand (a voided turn's card too) is never the clue: it would tell of that card
    theirs = {word_stem for other in others for word_stem in content_stems(other.text)}
    singles = [w for w in candidate_words(card.text) if stem(w) not in theirs][:MAX_SINGLES]
    scored = [(clue_value(w, card, others), w) for w in singles]
    scored.sort(key=lambda t: -t[0])
    base = [w for v, w in scored[:MAX_PAIR_BASE] if v > -1.0]
    pairs = []
    for i, a in enumerate(base):
        for b in base[i + 1 :]:
            if set(groups_of(stem(a))) & set(groups_of(stem(b))):
                continue  # two words of one group say the same thing twice
            text = f"{a} {b}"
            if len(text) <= CLUE_MAX_LEN:
                pairs.append((clue_value(text, card, others), text))
    return [(v + rng.random() * CLUE_NOISE, text) for v, text in (*scored, *pairs) if v > -1.0]


def party_clue(rng: random.Random) -> str:
    """A broad theme, for a party clue given before seeing any card."""
    group = ASSOCIATIONS[rng.randrange(len(ASSOCIATIONS))]
    return group[0] if rng.random() < 0.6 else rng.choice(group)


def _fallback_clue(card_text: str, rng: random.Random) -> str:
    allowed = [c for c in FALLBACK_CLUES if clue_allowed(c, card_text)]
    return rng.choice(allowed) if allowed else "hm"


def choose_clue(view: AnyView, rng: random.Random) -> tuple[str, str | None]:
    """A clue and the card it goes with (None in party mode). The clue relates to the card but copies none of it."""
    v = as_bot_view(view)
    if not v.clue_needs_card:
        return party_clue(rng), None
    cards = v.clue_cards() or v.hand
    if not cards:
        return rng.choice(FALLBACK_CLUES), None
    best: tuple[float, str, BotCard] | None = None
    for card in cards:
        others = [c for c in v.hand if c.card != card.card]
        for value, text in _clues_for(card, others, rng):
            if best is None or value > best[0]:
                best = (value, text, card)
    if best is not None:
        return best[1], best[2].card
    card = rng.choice(cards)
    variant = stem_variant(card.text)
    if variant is not None and clue_allowed(variant, card.text):
        return variant, card.card
    return _fallback_clue(card.text, rng), card.card


# --- smart: submission and vote --------------------------------------------------------------------------------


def _ranked(
    clue: str, items: Sequence[tuple[str, str]], rng: random.Random, noise: float = 0.0
) -> list[tuple[float, str]]:
    """(fit, key) for (key, text) items, best first, each fit spread by gaussian `noise`; ties in random order."""
    scored = []
    for key, text in items:
        value = fit(clue, text) + (rng.gauss(0.0, noise) if noise else 0.0)
        scored.append((value, rng.random(), key))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [(value, key) for value, _, key in scored]


def choose_submission(view: AnyView, rng: random.Random) -> list[str]:
    """The card(s) of the hand that fit the clue best."""
    v = as_bot_view(view)
    want = max(v.submit_count, 1)
    ranked = _ranked(v.clue or "", [(c.card, c.text) for c in v.hand], rng)
    return [card for _, card in ranked[:want]]


def choose_vote(view: AnyView, rng: random.Random) -> tuple[list[int], int | None]:
    """The slot(s) that fit the clue best (never a forbidden one), and the party storyteller's red slot."""
    v = as_bot_view(view)
    clue = v.clue or ""
    ranked = _ranked(clue, [(str(s.slot), s.text) for s in v.open_slots()], rng, VOTE_NOISE)
    if not ranked:
        return [], None
    slots = [int(ranked[0][1])]
    if v.votes_allowed >= 2 and len(ranked) >= 2 and ranked[0][0] - ranked[1][0] <= CLOSE:
        slots.append(int(ranked[1][1]))
    red = None
    if v.places_red:
        mine = set(v.your_cards)
        others = [(str(s.slot), s.text) for s in v.board if s.card not in mine]
        wrong = [int(key) for _, key in _ranked(clue, others, rng, VOTE_NOISE) if int(key) not in slots]
        red = wrong[0] if wrong else slots[0]
    return slots, red


class SmartStrategy:
    name = "smart"

    def choose_clue(self, view: AnyView, rng: random.Random) -> tuple[str, str | None]:
        return choose_clue(view, rng)

    def choose_submission(self, view: AnyView, rng: random.Random) -> list[str]:
        return choose_submission(view, rng)

    def choose_vote(self, view: AnyView, rng: random.Random) -> tuple[list[int], int | None]:
        return choose_vote(view, rng)


# --- random ---------------------------------------------------------------------------------------------------


class RandomStrategy:
    """Uniform legal choices: any card, any clue word, any open slot(s)."""

    name = "random"

    def choose_clue(self, view: AnyView, rng: random.Random) -> tuple[str, str | None]:
        v = as_bot_view(view)
        cards = v.clue_cards() or v.hand
        if not v.clue_needs_card or not cards:
            return rng.choice(FALLBACK_CLUES), None
        card = rng.choice(cards)
        return _fallback_clue(card.text, rng), card.card

    def choose_submission(self, view: AnyView, rng: random.Random) -> list[str]:
        v = as_bot_view(view)
        want = min(max(v.submit_count, 1), len(v.hand))
        return [c.card for c in rng.sample(list(v.hand), want)]

    def choose_vote(self, view: AnyView, rng: random.Random) -> tuple[list[int], int | None]:
        v = as_bot_view(view)
        open_slots = [s.slot for s in v.open_slots()]
        if not open_slots:
            return [], None
        k = rng.randint(1, min(max(v.votes_allowed, 1), len(open_slots)))
        red = rng.choice([s.slot for s in v.board]) if v.places_red else None
        return rng.sample(open_slots, k), red


# --- from a view to the one action owed ------------------------------------------------------------------------


def decide(view: AnyView, strategy: Strategy, rng: random.Random) -> Action | None:
    """The action this seat owes now according to `strategy`, or None. Never illegal as far as the view tells:
    a strategy answer that breaks a rule is replaced by a random legal one (and logged)."""
    v = as_bot_view(view)
    action = _choose(v, strategy, rng)
    if action is None or legal(v, action):
        return action
    log.warning("%s strategy answered an illegal move: %r; playing a random legal one", strategy.name, action)
    return random_action(v, rng)


def random_action(view: AnyView, rng: random.Random) -> Action | None:
    """A uniform legal action for whatever the seat owes now (None if it owes nothing or nothing is legal)."""
    v = as_bot_view(view)
    action = _choose(v, RandomStrategy(), rng)
    return action if action is not None and legal(v, action) else None


def _choose(v: BotView, strategy: Strategy, rng: random.Random) -> Action | None:
    need = v.needed()
    if need is Phase.CLUE:
        text, card = strategy.choose_clue(v, rng)
        return ClueAction(text, card)
    if need is Phase.SUBMIT:
        return SubmitAction(tuple(strategy.choose_submission(v, rng)))
    if need is Phase.VOTE:
        slots, red = strategy.choose_vote(v, rng)
        return VoteAction(tuple(slots), red)
    return None


def legal(view: BotView, action: Action) -> bool:
    """Whether `action` is among the seat's legal moves, as its view gives them (engine/legal.py)."""
    match action:
        case ClueAction(text=text, card=card):
            clean = " ".join(text.split())
            if not clean or len(clean) > CLUE_MAX_LEN:
                return False
            if not view.clue_needs_card:
                return card is None
            return card is not None and card in {c.card for c in view.clue_cards()}
        case SubmitAction(cards=cards):
            hand = {c.card for c in view.hand}
            return len(cards) == view.submit_count and len(set(cards)) == len(cards) and set(cards) <= hand
        case VoteAction(slots=slots, red=red):
            if not 1 <= len(slots) <= view.votes_allowed or len(set(slots)) != len(slots):
                return False
            allowed = {s.slot for s in view.open_slots()}
            if any(s not in allowed for s in slots):
                return False
            return any(s.slot == red for s in view.board) if view.places_red else red is None
    return False  # pragma: no cover


def to_command(action: Action, seat: int) -> Command:
    """The engine command for an action of `seat`."""
    match action:
        case ClueAction(text=text, card=card):
            return GiveClue(seat, text, card)
        case SubmitAction(cards=cards):
            return Submit(seat, cards)
        case VoteAction(slots=slots, red=red):
            return Vote(seat, slots, red)
    raise TypeError(f"not an action: {action!r}")  # pragma: no cover
