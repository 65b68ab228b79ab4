"""Your hand and the board: Line-API widgets showing a picture of their cards (`tui.cards_picture`), owning their
cursor and keys; what picking a card means is up to the screen (`CardList.Picked`). Keys are handled as they arrive
(as bindings they would act only after an Enter typed right behind them). Card text: plain text only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip
from textual.style import Style
from textual.widget import Widget

from dixit_tui.textual_host.process_caches import forget_with_shared
from dixit_tui.tui import dial_picture as dial_drawing
from dixit_tui.tui.cards_picture import CardItem, CardStyles, cards_picture, fits_whole, layout, note_lines, scrolled
from dixit_tui.tui.picture import Picture, PictureCache
from dixit_tui.tui.vote_dial import Ballot, Moved, Outcome, VoteDial
from dixit_tui.tui.widgets.picture_view import PictureView

__all__ = ["Board", "CardItem", "CardList", "Hand"]

PICTURES = forget_with_shared(PictureCache())
"""The lists' pictures, for every session of the process (the board is the same at every screen of a table)."""

DIALS = forget_with_shared(PictureCache(pictures=512, lines=2048))
"""The vote dials' pictures (`tui.dial_picture`), for every session: each voter's own, kept apart from the boards."""

_MOVES = frozenset({"up", "down", "home", "end", "pageup", "pagedown"})


class CardList(PictureView):
    """Numbered cards with a cursor (`highlighted`, an index), and a note under them. Digits move the cursor."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "card-list--card",
        "card-list--highlighted",
        "card-list--disabled",
        "card-list--note",
    }

    DEFAULT_CSS = """
    CardList {
        height: 1fr;
        max-height: 100%;
        overflow: hidden hidden;
        color: $foreground;
        background: $surface;
        border: round $border-blurred;
        padding: 0;
        & > .card-list--highlighted {
            color: $foreground;
            background: $block-cursor-blurred-background;
            text-style: bold;
        }
        & > .card-list--disabled {
            color: $text-disabled;
        }
        & > .card-list--note {
            text-style: italic;
        }
        &.-bare {  /* no cards (a spectator's hand): the note alone */
            height: auto;
            border: none;
            background: transparent;
        }
        &.-hint > .card-list--note {
            text-style: bold;
            color: $warning;
        }
        &:focus {
            border: double $border;
            background-tint: $foreground 5%;
            & > .card-list--highlighted {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
    }
    """

    class Picked(Message):
        """A card was picked (Enter, or a click): `key` is its item's key."""

        def __init__(self, cards: CardList, key: str) -> None:
            super().__init__()
            self.cards = cards
            self.key = key

        @property
        def control(self) -> CardList:
            return self.cards

    BARE = False
    """Whether the list shows without a frame, its note alone, when it has no cards (a spectator's hand)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        bare = "-bare" if self.BARE else None  # (no cards yet; set now, not as its first cards come: restyled then,
        super().__init__(id=id, classes=" ".join(filter(None, (classes, bare))))  # it was laid out twice)
        self.items: tuple[CardItem, ...] = ()
        self.note: Content | None = None
        self._cursor: int | None = None
        self._top = 0  # the first row of the cards shown
        self._styles: CardStyles | None = None  # (from the CSS: again when the styles change)
        self._drawn_at: tuple[int, int] | None = None  # the size the picture was made for

    # --- what it shows -----------------------------------------------------------------------------------------

    @property
    def highlighted(self) -> int | None:
        """The index of the card under the cursor."""
        return self._cursor

    @highlighted.setter
    def highlighted(self, index: int | None) -> None:
        if index is not None:
            index = max(0, min(index, len(self.items) - 1)) if self.items else None
        if index != self._cursor:
            self._cursor = index
            self._draw()

    def place(self) -> tuple[object, ...]:
        """Where this list's own keys left it (the cursor, the first row shown), beyond the cards every screen shows."""
        return (self._cursor, self._top)

    def show_items(self, items: Sequence[CardItem], *, highlight: str | None = None) -> None:
        """Show `items`; keep the card under the cursor (by key) where possible, or move it to `highlight`."""
        items = tuple(items)
        self.show_bare(self.BARE and not items)
        wanted = highlight if highlight is not None else self.highlighted_key()
        if items == self.items and (highlight is None or highlight == wanted == self.highlighted_key()):
            return
        self.items = items
        cursor = next((index for index, item in enumerate(items) if item.key == wanted), None)
        if cursor is None:
            cursor = self._cursor if self._cursor is not None and self._cursor < len(items) else self._first()
        self._cursor = cursor
        self._draw()

    def show_bare(self, bare: bool) -> None:
        """Look bare (no cards: the note alone, no frame, no background) or framed."""
        self.set_class(bare, "-bare")

    def show_note(self, note: Content | None, *, hint: bool = False) -> None:
        """The note under the cards (None: no row for it); `hint`: a refusal's hint, in its own style."""
        self.set_class(hint, "-hint")
        if note is not self.note:
            self.note = note
            self._draw()

    def row_of(self, index: int) -> int | None:
        """The row (of the widget's content) where card `index` starts, if it is in view."""
        room = self._room()
        area = layout(self.items, self._cursor, self.size.width, room)
        row = area.starts[index] - self._top if 0 <= index < len(area.starts) else -1
        return row if 0 <= row < room else None

    def highlighted_key(self) -> str | None:
        index = self._cursor
        return self.items[index].key if index is not None and 0 <= index < len(self.items) else None

    # --- drawing -----------------------------------------------------------------------------------------------

    def notify_style_update(self) -> None:
        self._styles = None  # (the focus, a class, the theme: the rows' styles again, when next drawn; Textual
        super().notify_style_update()  # redraws the widget when they changed)

    def on_resize(self, event: events.Resize) -> None:
        self._draw()

    def render_lines(self, crop: Region) -> list[Strip]:
        if self._styles is None or self._drawn_at != tuple(self.size):
            self._draw(quiet=True)  # (drawn now, all of it: a style change or a layout redraws the whole widget)
        return super().render_lines(crop)

    def _card_styles(self) -> CardStyles:
        styles = self._styles
        if styles is None:
            styles = self._styles = CardStyles(
                self.get_visual_style("card-list--card"),
                self.get_visual_style("card-list--card", "card-list--highlighted"),
                self.get_visual_style("card-list--card", "card-list--disabled"),
                self.get_visual_style("card-list--note"),
            )
        return styles

    def _room(self) -> int:
        return max(0, self.size.height - len(note_lines(self.note, self.size.width)))

    def _draw(self, *, quiet: bool = False) -> None:
        width, height = self.size
        if width <= 0 or (height <= 0 and self.items):
            if self._drawn_at is not None and self.picture:
                # Hidden, it keeps the lines of the picture it showed: shown again at the size it had, Textual would
                # draw those (a board showing the last turn's cards under this turn's dial). Forgotten now.
                self.refresh()
            self._drawn_at = None  # (hidden: drawn when it shows, before it is drawn)
            return  # (drawn when it has a size; the note alone makes its height)
        room = self._room()
        self._top = scrolled(self._top, layout(self.items, self._cursor, width, room), self._cursor, room)
        picture = self._picture(width, height)
        self._drawn_at = (width, height)
        if quiet:
            self.picture = picture
        elif self.BARE and not self.items and len(picture) != len(self.picture):
            self.picture = picture
            self.refresh(layout=True)  # (the note alone: its rows are the list's height)
        else:
            self.show_fitted(picture)

    def _picture(self, width: int, height: int) -> Picture:
        styles = self._card_styles()
        return cards_picture(PICTURES, self.items, self._cursor, self._top, self.note, width, height, styles)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The note's rows when there are no cards (`-bare`: its height is auto); else its room decides."""
        return len(note_lines(self.note, width)) if self.BARE and not self.items else container.height

    # --- keys and mouse ----------------------------------------------------------------------------------------

    def _enabled(self) -> list[int]:
        return [index for index, item in enumerate(self.items) if not item.disabled]

    def _first(self) -> int | None:
        enabled = self._enabled()
        return enabled[0] if enabled else None

    def _step(self, step: int) -> None:
        """The next card that can be chosen, up or down, round the end of the list."""
        enabled = self._enabled()
        if not enabled:
            return
        cursor = self._cursor
        if cursor is None:
            self.highlighted = enabled[0]
            return
        after = [i for i in enabled if (i > cursor if step > 0 else i < cursor)]
        if after:
            self.highlighted = after[0] if step > 0 else after[-1]
        else:
            self.highlighted = enabled[0] if step > 0 else enabled[-1]

    def _page(self, step: int) -> None:
        """About a room's height of rows up or down, onto a card that can be chosen."""
        enabled = self._enabled()
        if not enabled:
            return
        if self._cursor is None:
            self.highlighted = enabled[0] if step < 0 else enabled[-1]
            return
        width, room = self.size.width, self._room()
        area = layout(self.items, self._cursor, width, room)
        row = max(0, min(area.starts[self._cursor] + step * max(1, room), area.total - 1))
        target = area.card_at(row)
        target = self._cursor if target is None else target
        ahead = [i for i in enabled if (i >= target if step > 0 else i <= target)]
        self.highlighted = (ahead[0] if step > 0 else ahead[-1]) if ahead else self._cursor

    def move(self, key: str) -> None:
        enabled = self._enabled()
        if key in ("up", "down"):
            self._step(-1 if key == "up" else 1)
        elif key in ("home", "end") and enabled:
            self.highlighted = enabled[0] if key == "home" else enabled[-1]
        elif key in ("pageup", "pagedown"):
            self._page(-1 if key == "pageup" else 1)

    def on_key(self, event: events.Key) -> None:
        if event.key in _MOVES and self.can_focus:
            event.stop()
            event.prevent_default()
            self.move(event.key)
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

    def action_select(self) -> None:
        """Pick the card under the cursor (not a disabled one)."""
        index = self._cursor
        if index is not None and 0 <= index < len(self.items) and not self.items[index].disabled:
            self.post_message(self.Picked(self, self.items[index].key))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y >= self._room():
            return
        width, room = self.size.width, self._room()
        index = layout(self.items, self._cursor, width, room).card_at(self._top + offset.y)
        if index is not None and not self.items[index].disabled:
            event.stop()
            self.highlighted = index
            self.action_select()


class Hand(CardList):
    """Your hand. Enter picks the card under the cursor; what picking means is up to the screen. Only arrows, digits
    and Enter act on the hand: Space and letters (words typed for a clue box that closed) choose nothing."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Choose card", show=True),
    ]
    BARE = True  # (a spectator's hand pane shows the note alone)
    can_choose = True  # set by the screen: the key bar offers "Choose card" only when a card can be chosen now

    pick: Callable[[str], Widget | None] | None = None
    """Set by the screen: picks the card in the same step as the Enter and returns the widget the focus goes to (the
    clue box), which takes the keys typed right behind it (else the hand took the clue's letters); None: as a click."""
    _typed_ahead_to: Widget | None = None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "select" and not (self.can_choose and self.items):
            return False
        return super().check_action(action, parameters)

    def _hand_keys(self) -> bool:
        """Whether Enter picks here (the main region is a `Hand` only in its hand mode)."""
        return True

    def on_key(self, event: events.Key) -> None:
        if not self._hand_keys():
            return  # (CardList's keys: the cursor's)
        target = self._typed_ahead_to
        if target is not None:  # typed ahead behind the Enter that sent the focus to `target`: the keys are its
            event.stop()
            event.prevent_default()
            target.post_message(events.Key(event.key, event.character))
            return
        if event.key == "enter" and self.can_focus:
            event.stop()
            event.prevent_default()
            index = self._cursor
            item = self.items[index] if index is not None and 0 <= index < len(self.items) else None
            pick, card = self.pick, item.key if item is not None and not item.disabled else None
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


class Board(CardList):
    """The numbered board of the vote phase. While you vote, the dial (`tui.vote_dial`) is drawn under its cards and
    takes its keys, clicks and wheel; what each comes to is posted (`Board.Dialled`). Whoever does not vote moves the
    cursor to read each card whole."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {*CardList.COMPONENT_CLASSES, "board--rule"}

    DEFAULT_CSS = """
    Board > .board--rule {
        color: $primary;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [  # (for the key bar: the keys act in `on_key`, in the order they came)
        Binding("space", "toggle_mark", "Mark/unmark"),
        Binding("enter", "cast", "Vote"),
        Binding("escape", "back", "Back to green"),
    ]

    class Dialled(Message):
        """What a key, click or wheel turn at the dial came to (`tui.vote_dial`): `Moved`, `Cast` or `Refused`."""

        def __init__(self, board: Board, dial: VoteDial, outcome: Outcome) -> None:
            super().__init__()
            self.board = board
            self.dial = dial
            self.outcome = outcome

        @property
        def control(self) -> Board:
            return self.board

    def __init__(self, *, dial: VoteDial | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.dial = dial
        """The vote, while you vote (None: the board alone)."""
        self._rule: Style | None = None  # the rule's style (from the CSS: again when the styles change)
        self._bindings_state: tuple[bool | None, ...] | None = None

    # --- the vote ------------------------------------------------------------------------------------------------

    def vote(self, ballot: Ballot | None) -> VoteDial | None:
        """You vote on this board: the dial set up for `ballot` (on the same board it stays where it was), the cursor
        on its card. None: you do not vote (or no longer), the board alone."""
        before = self.dial.look if self.dial is not None else None
        if ballot is None:
            self.dial = None
        elif self.dial is None:
            self.dial = VoteDial(ballot)
        else:
            self.dial.configure(ballot)
        if (self.dial.look if self.dial is not None else None) != before:
            self._follow()
        return self.dial

    def _follow(self) -> None:
        """The cursor to the dial's card, the picture drawn again, the key bar's keys."""
        dial = self.dial
        if dial is not None:
            index = next((i for i, item in enumerate(self.items) if item.number == dial.pointer), None)
            self._cursor = index if index is not None else self._cursor
        self._draw()
        self._keys_changed()

    def _took(self, dial: VoteDial, done: list[Outcome]) -> None:
        """What came of a key, click or wheel turn at the dial, in order: drawn, and told."""
        for outcome in done:
            if isinstance(outcome, Moved):
                self._follow()
            self.post_message(self.Dialled(self, dial, outcome))

    def _keys_changed(self) -> None:
        state = tuple(self.check_action(b.action if isinstance(b, Binding) else b[1], ()) for b in self.BINDINGS)
        if state != self._bindings_state:  # the footer is costly to rebuild: only when a key's state changed
            self._bindings_state = state
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The dial's keys while you vote (Space only where a vote may carry two marks, Esc only in the red step)."""
        if action in ("toggle_mark", "cast", "back"):
            return self.dial is not None and self.dial.offers(action)
        return super().check_action(action, parameters)

    # --- drawing -----------------------------------------------------------------------------------------------

    def notify_style_update(self) -> None:
        self._rule = None
        super().notify_style_update()

    def _arrow(self, dial: VoteDial) -> bool:
        """The arrow under the dial's pointer takes a row only where every card still fits whole."""
        width, height = self.size
        noted = len(note_lines(self.note, width))
        return fits_whole(self.items, width, height - noted - dial_drawing.dial_height(dial.look, True))

    def _dial_rows(self) -> int:
        dial = self.dial
        return 0 if dial is None else dial_drawing.dial_height(dial.look, self._arrow(dial))

    def _room(self) -> int:
        return max(0, super()._room() - self._dial_rows())

    def _picture(self, width: int, height: int) -> Picture:
        dial = self.dial
        if dial is None:
            return super()._picture(width, height)
        arrow = self._arrow(dial)
        cards = super()._picture(width, max(0, height - dial_drawing.dial_height(dial.look, arrow)))
        rule = self._rule
        if rule is None:
            rule = self._rule = self.get_visual_style("board--rule")
        styles = self._card_styles()
        return cards + dial_drawing.dial_picture(DIALS, dial.look, width, arrow, styles.card, rule)

    def _dial_row(self) -> int:
        """The row of the dial's numbers in the board's content, under its rule (-1: no dial)."""
        return len(self.picture) - self._dial_rows() + 1 if self.dial is not None else -1

    # --- keys and mouse ----------------------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        # The dial's keys act as they arrive, in order (as a binding, → then Enter typed ahead voted the old slot).
        dial = self.dial
        if dial is None:
            super().on_key(event)
            return
        done = dial.key(event.key, event.character, event.is_printable)
        if done is not None:
            event.stop()
            event.prevent_default()
            self._took(dial, done)

    def on_click(self, event: events.Click) -> None:
        dial = self.dial
        if dial is None:
            super().on_click(event)
            return
        offset = event.get_content_offset(self)
        if offset is None:
            return
        slot = 0
        if offset.y == self._dial_row():
            slot = dial_drawing.slot_at(dial.look, self.size.width, offset.x)
        elif offset.y < self._room():
            index = layout(self.items, self._cursor, self.size.width, self._room()).card_at(self._top + offset.y)
            if index is not None and not self.items[index].disabled:
                slot = self.items[index].number
        if slot:
            event.stop()
            self.focus()
            self._took(dial, dial.select(slot))

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self._wheel(event, 1)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self._wheel(event, -1)

    def _wheel(self, event: events.MouseEvent, step: int) -> None:
        dial = self.dial
        if dial is not None:
            event.stop()
            self._took(dial, dial.turn(step))
