"""Cards: a short text describing a dreamlike scene, with an id unique across every deck at a table."""

from __future__ import annotations

from dataclasses import dataclass

CARD_TEXT_MAX = 140


@dataclass(frozen=True, slots=True)
class Card:
    id: str  # e.g. "base-017", unique across all decks mixed at one table
    text: str  # already sanitised, 1..CARD_TEXT_MAX characters
    deck: str  # the deck's name, e.g. "base"
