"""The hand and vote modes of the main region: what a card list shows (drawn, moved and keyed by `CardList`)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content

from dixit_tui.tui.cards_picture import CardItem


@dataclass(slots=True)
class CardsMode:
    items: tuple[CardItem, ...] = ()
    note: Content | None = None
    cursor: int | None = None
    top: int = 0
    hint: bool = False
