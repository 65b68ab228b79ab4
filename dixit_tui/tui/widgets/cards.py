"""Numbered lists of text cards: your hand and the board. Card text is player-provided: only plain Content here.

Each row reads `▶ 3  ✓ chosen · A fox in a waistcoat...`: the `▶` follows the highlight (so it is visible without
colour), the tags say what is special about the card in words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import OptionList
from textual.widgets.option_list import Option


@dataclass(frozen=True, slots=True)
class CardItem:
    key: str  # the option id: a card id, or "slot-3"
    number: int
    text: str
    tags: tuple[str, ...] = ()
    disabled: bool = False


def card_prompt(item: CardItem, highlighted: bool) -> Table:
    """One card as a two-column grid (`▶ 3` | tags and text), so wrapped text keeps a hanging indent."""
    grid = Table.grid(padding=(0, 1), expand=True)
    grid.add_column(width=4, no_wrap=True)
    grid.add_column(ratio=1)
    text = Text()
    for tag in item.tags:
        text.append(f"[{tag}]", "bold" if not item.disabled else "")
        text.append(" ")
    text.append(item.text)
    grid.add_row(Text.assemble(("▶" if highlighted else " ", "bold"), (f"{item.number:>2}", "bold")), text)
    return grid


class CardList(OptionList):
    """An OptionList of numbered cards, rebuilt only when its items change. Digits highlight a card."""

    DEFAULT_CSS = """
    CardList {
        height: 1fr;
        max-height: 100%;
        border: round $border-blurred;
        padding: 0;
        & > .option-list--option-highlighted {
            text-style: bold;
        }
        &:focus {
            border: double $border;
        }
        & > .option-list--option {
            padding: 0 1 0 0;
        }
    }
    """

    def _move_page(self, direction: Any) -> None:
        if self.scrollable_content_region.height <= 0:  # not laid out yet (or a tiny terminal): nothing to page
            return
        super()._move_page(direction)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, markup=False)
        self.items: tuple[CardItem, ...] = ()
        self._pointed: int | None = None  # the option showing the ▶ marker

    def show_items(self, items: Sequence[CardItem], *, highlight: str | None = None) -> None:
        """Show `items`; keep the highlighted card (by key) where possible, or move it to `highlight`."""
        items = tuple(items)
        current = self.highlighted_key()
        wanted = highlight if highlight is not None else current
        if items == self.items:
            if highlight is not None:
                self.highlight_key(highlight)
            return
        same_keys = [i.key for i in items] == [i.key for i in self.items]
        if same_keys:
            self.items = items
            for index, item in enumerate(items):
                option = self.get_option_at_index(index)
                option.disabled = item.disabled
                self.replace_option_prompt_at_index(index, card_prompt(item, index == self.highlighted))
            self.refresh()
        else:
            self.items = ()
            self.set_options(Option(card_prompt(item, False), id=item.key, disabled=item.disabled) for item in items)
            self.items = items
        if not self.highlight_key(wanted) and self.highlighted is None and items:
            self.action_first()
        self._mark_highlight(None, self.highlighted)
        self._pointed = self.highlighted

    def highlighted_key(self) -> str | None:
        index = self.highlighted
        if index is None or not 0 <= index < len(self.items):
            return None
        return self.items[index].key

    def highlighted_item(self) -> CardItem | None:
        index = self.highlighted
        if index is None or not 0 <= index < len(self.items):
            return None
        return self.items[index]

    def highlight_key(self, key: str | None) -> bool:
        if key is None:
            return False
        for index, item in enumerate(self.items):
            if item.key == key:
                self.highlighted = index
                return True
        return False

    def _mark_highlight(self, old: int | None, new: int | None) -> None:
        for index in {old, new}:
            if index is not None and 0 <= index < min(len(self.items), self.option_count):
                self.replace_option_prompt_at_index(index, card_prompt(self.items[index], index == new))

    def watch_highlighted(self, highlighted: int | None) -> None:
        super().watch_highlighted(highlighted)
        self._mark_highlight(self._pointed, highlighted)
        self._pointed = highlighted

    def on_key(self, event: events.Key) -> None:
        char = event.character
        if char is not None and len(char) == 1 and char in "123456789" and self.can_focus:
            index = int(char) - 1
            if index < len(self.items):
                event.stop()
                event.prevent_default()
                if self.items[index].disabled:
                    self.app.bell()
                    return
                self.highlighted = index


class Hand(CardList):
    """Your hand. Enter picks the highlighted card; what picking means is up to the screen. Only arrows, digits
    and Enter act on the hand: Space and letters (words typed for a clue box that closed) choose nothing."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Choose card", show=True),
    ]

    def on_key(self, event: events.Key) -> None:
        # picking is handled with the digits, in the order the keys came (typed ahead in one packet)
        if event.key == "enter" and self.can_focus:
            event.stop()
            event.prevent_default()
            self.action_select()
            return
        super().on_key(event)


class Board(CardList, can_focus=False):
    """The numbered board of the vote phase. The dial drives its highlight; a click on a card points the dial."""

    DEFAULT_CSS = """
    Board {
        border: round $border-blurred;
    }
    """
