"""Numbered lists of text cards: your hand and the board. Card text is player-provided: only plain Content here.

Each row reads `▶ 3  [✓ chosen] A fox in a waistcoat...`: the `▶` follows the highlight (so it is visible without
colour), the tags say what is special about the card in words. When every card's full text fits, every card is
shown in full; when it does not (80x24 is the common size), every other card takes one line, cut with `…`, and the
highlighted card shows its whole text, always: when that is more than the list's height holds, the list scrolls to
it (at an 8-card odyssey vote at 80x24 the highlighted card stopped after two lines). Every card can be read whole by
moving the highlight to it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.geometry import Region, Size, Spacing
from textual.reactive import Reactive, reactive
from textual.strip import Strip
from textual.style import Style
from textual.visual import Padding, Visual
from textual.widget import Widget
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from dixit_tui.tui.line_cache import shared_cache, text_rules
from dixit_tui.tui.widgets.textbox import same_content

shared_options = shared_cache(1024)
"""A card's strips as a list draws it (text, width, style, place in the list), for every session showing it."""

GUTTER = 5  # "▶ 12 " before the text
_WIDTH = 60  # the text width assumed before the list has a size


@dataclass(frozen=True, slots=True)
class CardItem:
    key: str  # the option id: a card id, or "slot-3"
    number: int
    text: str
    tags: tuple[str, ...] = ()
    disabled: bool = False


def card_lines(item: CardItem, width: int) -> list[Content]:
    """The card's tags and text wrapped at `width` cells (without the gutter)."""
    parts: list[str | tuple[str, str]] = []
    for tag in item.tags:
        parts.append((f"[{tag}]", "bold" if not item.disabled else ""))
        parts.append(" ")
    parts.append(item.text)
    return Content.assemble(*parts).wrap(max(1, width)) or [Content("")]


def card_prompt(item: CardItem, highlighted: bool, width: int = _WIDTH, lines: int | None = None) -> Content:
    """One card: `▶ 3  text` with a hanging indent, at most `lines` lines (the last one cut with `…`)."""
    wrapped = card_lines(item, width)
    if lines is not None and len(wrapped) > lines:
        keep = max(1, lines)
        last = Content.assemble(wrapped[keep - 1], " ", *wrapped[keep:])
        wrapped = [*wrapped[: keep - 1], last.truncate(width, ellipsis=True)]
    gutter = Content.assemble(("▶" if highlighted else " ", "bold"), (f"{item.number:>2}", "bold"), "  ")
    indent = Content(" " * GUTTER)
    return Content("\n").join(Content.assemble(gutter if i == 0 else indent, line) for i, line in enumerate(wrapped))


_shared_prompt = lru_cache(maxsize=512)(card_prompt)
"""`card_prompt` built once for every session showing the card the same way (a prompt is not changed)."""


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

    # The list's size comes from its parent, never from its options: a new set of options (a new board, a hand dealt)
    # changes the virtual size, which Textual answers with a layout of the whole screen (a second one, in the phase
    # change that shows the list). The scroll bars follow the virtual size without it (`_update_lines` updates them;
    # one appearing is a layout of its own).
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    # a new highlight changes the two prompts involved (the `▶` moves): `_update_prompts` redraws their rows, not
    # the whole list as OptionList's repainting reactive did
    highlighted: reactive[int | None] = reactive(None, repaint=False)

    _drawing = False  # inside render_lines

    def _move_page(self, direction: Any) -> None:
        if self.scrollable_content_region.height <= 0:  # not laid out yet (or a tiny terminal): nothing to page
            return
        super()._move_page(direction)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, markup=False)
        self.items: tuple[CardItem, ...] = ()
        self._prompts: list[Content] = []  # the prompt shown for each item (compared to redraw only what changed)
        self._wrapped: dict[tuple[CardItem, int], int] = {}  # (item, width) -> lines of its full text
        self._padding_kept: tuple[tuple[int, int, int], Spacing] | None = None
        self._fitted: tuple[int, int] | None = None  # the (text width, height) the prompts were made for
        self._resized_to: Size | None = None  # the size the list was last fitted to on a resize
        self._shown_fit: tuple[int, int] | None = None  # (text width, height) when the list last had a size

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
        self.items = items
        if same_keys:
            for index, item in enumerate(items):
                self.get_option_at_index(index).disabled = item.disabled
        else:
            self._prompts = []
            self.set_options(Option(Content(""), id=item.key, disabled=item.disabled) for item in items)
        if not self.highlight_key(wanted) and self.highlighted is None and items:
            self.action_first()
        self._update_prompts()

    def _get_option_render(self, option: Option, style: Style) -> list[Strip]:
        """OptionList's, with the strips of a card shared by every session that shows it the same way (the board
        is the same at every screen of the table; see `shared_strips`)."""
        padding = self._option_padding()
        cache_key = (option, style, padding)
        if (strips := self._option_render_cache.get(cache_key)) is not None:
            return strips
        prompt = option.prompt
        if not isinstance(prompt, Content) or option._divider or self.text_selection is not None:
            return super()._get_option_render(option, style)
        width = self.scrollable_content_region.width - self._get_left_gutter_width()
        index = self._option_to_index[option]
        key = ("option", prompt.plain, tuple(prompt.spans), width, style, padding, index, text_rules(self))
        strips = shared_options.get(key)
        if strips is None:  # (OptionList's way, with the padding at hand)
            visual: Visual = self._get_visual(option)
            if padding:
                visual = Padding(visual, padding)
            meta = {"option": index}
            strips = [
                strip.extend_cell_length(width, style.rich_style).apply_meta(meta)
                for strip in visual.to_strips(self, visual, width, None, style)
            ]
            shared_options.set(key, strips)
        self._option_render_cache[cache_key] = strips
        return strips

    def _option_padding(self) -> Spacing:
        """The options' padding (Textual works out the component's styles again for every line drawn), kept until
        the list's styles change."""
        component = self._component_styles.get("option-list--option")
        key = (self.styles._cache_key, id(component), component._cache_key if component is not None else 0)
        kept = self._padding_kept
        if kept is None or kept[0] != key:
            kept = self._padding_kept = (key, self.get_component_styles("option-list--option").padding)
        return kept[1]

    def _fit_size(self) -> tuple[int, int]:
        """The (text width, height) to fit the prompts to: the list's, or while it is hidden (a pane not shown: no
        size) the one it had when last shown, where it shows again with the next phase. (Fitted to no size, the
        prompts were all made again when the list was first drawn, and the whole list drawn twice.)"""
        region = self.scrollable_content_region
        if region.width > 0:
            width = region.width - GUTTER - 1  # the option's right padding
            self._shown_fit = (width if width > 0 else _WIDTH, region.height)
            return self._shown_fit
        return self._shown_fit if self._shown_fit is not None else (_WIDTH, region.height)

    def _full_height(self, item: CardItem, width: int) -> int:
        key = (item, width)
        if (height := self._wrapped.get(key)) is None:
            if len(self._wrapped) > 256:
                self._wrapped.clear()
            height = self._wrapped[key] = len(card_lines(item, width))
        return height

    def _update_prompts(self, *, repaint: bool = True) -> None:
        """Every card in full if all fit, else one line each and the highlighted card in full (the list scrolls to
        it). Only the prompts that changed are replaced (and redrawn, unless not `repaint`: being drawn now)."""
        if self._shown_fit is None and self.scrollable_content_region.width <= 0:
            # never laid out (a hand dealt as its pane is mounted): fitted once, when first drawn (`render_lines`),
            # not first to a guessed size and then again
            self._prompts = []
            return
        items = self.items
        width, height = self._fitted = self._fit_size()
        highlighted = self.highlighted
        full = height <= 0 or sum(self._full_height(item, width) for item in items) <= height
        prompts = []
        for index, item in enumerate(items):
            lit = index == highlighted
            lines = None if full or lit else 1
            prompts.append(_shared_prompt(item, lit, width, lines))
        old = self._prompts
        # (only the prompts given to options: while `set_options` clears the list, its highlight's reset comes here
        # with the new items and no options yet, and prompts kept for options not there were never given to them)
        self._prompts = prompts[: self.option_count]
        changed: list[int] = []
        for index, prompt in enumerate(prompts):
            if index < len(old) and (old[index] is prompt or same_content(old[index], prompt)):
                continue
            if index < self.option_count:
                option = self.get_option_at_index(index)
                option._set_prompt(prompt)
                cache = self._option_render_cache  # an LRUCache (not a dict): iterate its keys
                for key in [k for k in cache.keys() if k[0] is option]:  # noqa: SIM118
                    self._option_render_cache.discard(key)
                changed.append(index)
        if not changed or not repaint:
            return
        line_cache = self._line_cache
        if line_cache.lines and all(
            index < len(old) and line_cache.heights.get(index) == _height(old[index]) == _height(prompts[index])
            for index in changed
        ):
            # the same rows as before (the highlight moved, a card got a tag): redraw those rows only
            for index in changed:
                self.refresh_lines(line_cache.index_to_line[index], line_cache.heights[index])
        else:
            line_cache.clear()
            self.refresh()
        self.scroll_to_highlight()

    def _refresh_scrollbars(self) -> None:
        if self.items and len(self.items) <= self.container_size.height and self.styles.overflow_y == "auto":
            # Every card has a line of its own at this height: no scroll bar (it scrolls, without one, only to show
            # the highlighted card whole; the numbers say which cards are above or below). The virtual size of
            # prompts still fitted to the list's last size may say otherwise for a moment, when the list shrinks
            # with a new phase: the scroll bar came and went again, a layout of the screen each.
            self._scrollbar_changes.clear()
            self.show_horizontal_scrollbar = False  # (overflow-x: hidden)
            self.show_vertical_scrollbar = False
            if self._vertical_scrollbar is not None:
                self.vertical_scrollbar.display = False
            return
        super()._refresh_scrollbars()

    def on_resize(self, event: events.Resize) -> None:
        if self.size == self._resized_to and self._prompts:
            # shown again at the size it had (its pane shown with a new phase): its lines stand; OptionList would
            # drop them all (`_on_resize`) and draw the whole list a second time
            event.prevent_default()
            return
        self._resized_to = self.size
        self._prompts = []  # new width or height: every prompt again
        self._update_prompts()
        self.call_after_refresh(self.scroll_to_highlight)

    def render_lines(self, crop: Region) -> list[Strip]:
        if self.size != self._resized_to and (self._resized_to is not None or self.items):
            # drawn at a new size before the resize arrives (a layout draws at once; the resize is a message to
            # come): do now what the resize would (OptionList's caches and every prompt again, for this size),
            # without asking for a redraw: the lines are drawn just below, and the resize, when it comes, finds
            # the list already fitted. (Drawn with the old caches, lines went blank, and the whole list was drawn
            # a second time on the resize.) Also when first drawn with items given before it was laid out (a hand
            # dealt at the start, as its pane is mounted): fitted now, not again on the resize that follows.
            self._resized_to = self.size
            self._option_render_cache.clear()
            self._line_cache.clear()
            self._prompts = []
            self._update_prompts(repaint=False)
            self.call_after_refresh(self.scroll_to_highlight)
        elif self.items and self._fitted != self._fit_size():
            # Items shown while the list was hidden or not laid out yet (a hand dealt with the clue) were fitted to
            # a size it no longer has, and no resize may follow: fit them to the size they are drawn at.
            self._update_prompts()
        self._drawing = True  # (OptionList.render_lines brings its lines up to date first)
        try:
            return super().render_lines(crop)
        finally:
            self._drawing = False

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> CardList:
        if self._drawing and repaint and not (regions or layout or recompose):
            # the whole list asked to be drawn again while it is being drawn (OptionList bringing its lines up to
            # date sets their virtual size): the lines drawn now are already the new ones
            return self
        super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        return self

    @property
    def _lines(self) -> Sequence[tuple[int, int]]:
        """OptionList's, without bringing the lines up to date again for every line drawn."""
        if not self._drawing:
            self._update_lines()
        return self._line_cache.lines

    def scroll_to_highlight(self, top: bool = False) -> None:
        """OptionList's, bringing the lines up to date once (not three times), and nothing to do while the whole list
        fits (a board a spectator reads has a highlight too now: it is scrolled to at each show and redraw)."""
        highlighted = self.highlighted
        if highlighted is None or not self.is_mounted:
            return
        self._update_lines()
        cache = self._line_cache
        y, height = cache.index_to_line.get(highlighted), cache.heights.get(highlighted)
        if y is None or height is None:
            return
        if self.scroll_y == 0 and self.virtual_size.height <= self.scrollable_content_region.height and not top:
            return
        region = Region(0, y, self.scrollable_content_region.width, height)
        self.scroll_to_region(region, force=True, animate=False, top=top, immediate=True)

    def highlighted_key(self) -> str | None:
        index = self.highlighted
        if index is None or not 0 <= index < len(self.items):
            return None
        return self.items[index].key

    def highlight_key(self, key: str | None) -> bool:
        if key is None:
            return False
        for index, item in enumerate(self.items):
            if item.key == key:
                self.highlighted = index
                return True
        return False

    def watch_highlighted(self, highlighted: int | None) -> None:
        self._update_prompts()
        super().watch_highlighted(highlighted)

    def on_key(self, event: events.Key) -> None:
        # The arrows act here, in the order the keys came, like the digits and the hand's Enter: as bindings they
        # would act only once the key has bubbled up to the app, after an Enter typed right behind them ("down"
        # and Enter in one packet would pick the card above the one the `▶` moved to).
        move = _MOVES.get(event.key)
        if move is not None and self.can_focus:
            event.stop()
            event.prevent_default()
            getattr(self, f"action_{move}")()
            return
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


_MOVES = {
    "up": "cursor_up",
    "down": "cursor_down",
    "home": "first",
    "end": "last",
    "pageup": "page_up",
    "pagedown": "page_down",
}  # OptionList's own bindings for these keys


class Hand(CardList):
    """Your hand. Enter picks the highlighted card; what picking means is up to the screen. Only arrows, digits
    and Enter act on the hand: Space and letters (words typed for a clue box that closed) choose nothing."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Choose card", show=True),
    ]
    can_choose = True  # set by the screen: the key bar offers "Choose card" only when a card can be chosen now

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "select" and not self.can_choose:
            return False
        return super().check_action(action, parameters)

    pick: Callable[[str], Widget | None] | None = None
    """Set by the screen: picks the card with this id in the same step as the Enter, if it can, and returns the
    widget the focus goes to (the clue box), which takes the keys typed right behind the Enter; else (None) Enter
    selects as a click does. (Enter's OptionSelected message reached the screen only after the keys typed behind it,
    and the focus moves only once the app has run its callback: the hand took the letters of the clue.)"""
    _typed_ahead_to: Widget | None = None

    def on_key(self, event: events.Key) -> None:
        target = self._typed_ahead_to
        if target is not None:  # typed ahead behind the Enter that sent the focus to `target`: the keys are its
            event.stop()
            event.prevent_default()
            target.post_message(events.Key(event.key, event.character))
            return
        # picking is handled with the digits, in the order the keys came (typed ahead in one packet)
        if event.key == "enter" and self.can_focus:
            event.stop()
            event.prevent_default()
            option = self.highlighted_option
            pick, card = self.pick, option.id if option is not None and not option.disabled else None
            target = pick(card) if pick is not None and card is not None else None
            if target is None:
                self.action_select()
                return
            self._typed_ahead_to = target
            self.call_later(self._end_typed_ahead)  # (after the keys in the hand's queue now: the typed-ahead ones)
            return
        super().on_key(event)

    def _end_typed_ahead(self) -> None:
        self._typed_ahead_to = None


class Board(CardList, can_focus=False):
    """The numbered board of the vote phase. The dial drives its highlight; a click on a card points the dial.
    Whoever does not vote (a spectator, the storyteller, a player who has voted) moves the highlight on the board
    itself, to read each card whole: the screen makes it focusable then (`can_focus`)."""

    DEFAULT_CSS = """
    Board {
        border: round $border-blurred;
    }
    """


def _height(prompt: Content) -> int:
    """The rows a prompt takes (it is wrapped to the list's width already)."""
    return prompt.plain.count("\n") + 1
