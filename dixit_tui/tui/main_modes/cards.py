"""The hand mode and the vote mode of the main region: what a list of numbered cards shows (its cards, the card
under the cursor, the first row shown, the note under them and whether that note is a refusal's hint). The drawing,
the cursor's moves and the keys are `widgets/cards.py`'s (`CardList`), on the state of the mode shown."""

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
