"""`MainView`: the table's main region, one Line-API widget whose mode follows the view (`tui/main_modes/`): the
lobby, your hand, the board of the vote, or the end of the game, not panes mounted and hidden. In the hand and the
vote it is the list of numbered cards (`Hand`, `Board`); in the lobby and at the end, text that scrolls.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import BindingType
from textual.color import Color
from textual.containers import ScrollableContainer
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip

from dixit_tui.coordinator import TableView
from dixit_tui.tui.main_modes import CardsMode, LobbyMode, MainMode, OverMode
from dixit_tui.tui.main_modes.lobby import LobbyStyles
from dixit_tui.tui.picture import Picture
from dixit_tui.tui.table_words import Words
from dixit_tui.tui.widgets.cards import Board, CardList, Hand
from dixit_tui.tui.widgets.picture_view import FITS, PictureView

_NO_COLOR = Color(0, 0, 0, 0)

_TEXT_MODES = (MainMode.LOBBY, MainMode.OVER)
"""The modes shown as text, each with its CSS class (`-lobby`, `-over`); the hand and the board have none."""


class MainView(Board, Hand, inherit_bindings=False):
    """The main region in one of its `MainMode`s (`set_mode`). `Hand` and `Board` are what it is in the hand and the
    vote (queried as a `Board`: Textual's CSS type names follow the first base); `show_lobby` and `show_over` hand
    it the words of the other two."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        *Board.COMPONENT_CLASSES,
        "main-view--button",
        "main-view--button-primary",
        "main-view--button-disabled",
    }

    DEFAULT_CSS = """
    MainView {
        height: 1fr;
        &.-lobby, &.-over {  /* text: no frame, a cell of margin each side, scrolled down when taller */
            border: none;
            background: transparent;
            padding: 0 1;
            overflow-x: hidden;
            overflow-y: auto;
        }
        & > .main-view--button {
            color: $button-foreground;
            background: $surface;
            text-style: bold;
        }
        & > .main-view--button-primary {
            color: $button-color-foreground;
            background: $primary;
            text-style: bold;
        }
        & > .main-view--button-disabled {
            text-opacity: 60%;
        }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [*ScrollableContainer.BINDINGS, *Board.BINDINGS, *Hand.BINDINGS]
    """The board's (the dial's) keys and the hand's Enter, each acting only in its mode (`check_action`), in the
    order a board's key bar shows them (merged from both classes, the hand's Enter took the first place)."""

    class Pressed(Message):
        """A button of the lobby was clicked: `action` is the screen's action its key runs."""

        def __init__(self, action: str) -> None:
            super().__init__()
            self.action = action

    def __init__(self, mode: MainMode, *, id: str | None = None) -> None:
        self._cards_modes: dict[MainMode, CardsMode] = {MainMode.HAND: CardsMode(), MainMode.VOTE: CardsMode()}
        self.mode: MainMode = mode
        self.BARE = False  # (no -bare class: see `show_bare`)
        self._bare = False
        self.lobby = LobbyMode()
        self.over = OverMode()
        self._button_styles: LobbyStyles | None = None
        self._switched = False  # the mode changed, and it was not drawn since (see `_draw`)
        super().__init__(id=id, classes=f"-{mode}" if mode in _TEXT_MODES else None)
        self.BARE = mode == MainMode.HAND  # (a spectator's hand: the note alone)
        self.show_bare(self.BARE)
        self.can_focus = mode in (MainMode.HAND, MainMode.VOTE)

    # --- the mode ------------------------------------------------------------------------------------------------

    def set_mode(self, mode: MainMode) -> None:
        """Show `mode` (its cards, cursor and note as they were left, or its words)."""
        if mode == self.mode:
            return
        # the cards, cursor and note `CardList` shows are its own attributes (read at every turn of its code): the
        # mode left keeps them, the mode shown brings its own
        left = self._cards_modes.get(self.mode)
        if left is not None:
            left.items, left.note, left.cursor, left.top = self.items, self.note, self._cursor, self._top
            left.hint = self.has_class("-hint")
        self.mode = mode
        self.BARE = mode == MainMode.HAND
        cards = self._cards_modes.get(mode) or CardsMode()
        self.items, self.note, self._cursor, self._top = cards.items, cards.note, cards.cursor, cards.top
        # one restyle at most (each class set on its own restyled the widget, its component classes and scroll bars:
        # half the work of a phase change); the hand and the board look alike: no class tells them apart
        classes = {f"-{text}": text == mode for text in _TEXT_MODES}
        looks = frozenset(self.classes)
        if mode != MainMode.HAND:
            classes["-above-clue"] = False  # (the screen sets it on a bare hand above the clue box: the hand's only)
        classes["-hint"] = cards.hint
        wanted = {name for name in looks if classes.get(name, True)} | {name for name, on in classes.items() if on}
        if wanted != looks:
            self.set_classes(wanted)  # (one restyle, on every Textual the pin admits: 8.0 has no update_classes)
        restyled = looks != self.classes  # (a new frame, padding or height lays the screen out by itself)
        self.show_bare(mode == MainMode.HAND and not self.items)  # (lays the screen out when it changes)
        self.can_focus = mode in (MainMode.HAND, MainMode.VOTE)
        if mode != MainMode.VOTE and self.dial is not None:
            self.dial = None  # (the vote is over: its keys go with it)
            self._keys_changed()
        self._drawn_at = None
        self._switched = True
        self.picture = ()
        self._virtual = self.virtual_size = FITS
        self.scroll_to(0, 0, animate=False, immediate=True)
        # drawn whole in its new mode; laid out only with its new look (the hand and the board of a player keep the
        # same room: the layout drew the whole screen again, a third of a phase change)
        self.refresh(layout=restyled)

    _BARE_RULES = ("border_top", "border_right", "border_bottom", "border_left", "background", "background_tint")

    def show_bare(self, bare: bool) -> None:
        """A bare hand (a spectator's, the blind clue's: its note alone) has no frame and no background of its own,
        set as inline styles: a class (-bare) restyled the region, its component classes and scroll bars, at each
        phase change of a spectator (6% of the server's CPU in the bench)."""
        if bare == self._bare:
            return
        self._bare = bare
        styles = self.styles
        if bare:
            styles.border = ("none", _NO_COLOR)
            styles.background = _NO_COLOR
            styles.background_tint = _NO_COLOR  # (nor the focus's tint: it keeps the keyboard through the turn)
        else:
            for rule in self._BARE_RULES:
                styles.clear_rule(rule)
            self.refresh(layout=True)  # (the frame's room)
        self.notify_style_update()  # (the rows' styles again: their background)

    def show_lobby(self, view: TableView) -> None:
        if self.lobby.show(view) and self.mode == MainMode.LOBBY:
            self._draw()

    def show_over(self, text: Words) -> None:
        if self.over.show(text) and self.mode == MainMode.OVER:
            self._draw()

    # --- drawing -------------------------------------------------------------------------------------------------

    def _text_mode(self) -> bool:
        return self.mode in (MainMode.LOBBY, MainMode.OVER)

    def notify_style_update(self) -> None:
        self._button_styles = None
        super().notify_style_update()

    def _styles_of_buttons(self) -> LobbyStyles:
        styles = self._button_styles
        if styles is None:
            plain, primary, dim = "main-view--button", "main-view--button-primary", "main-view--button-disabled"
            styles = self._button_styles = LobbyStyles(
                self.get_visual_style(),
                self.get_visual_style(plain).rich_style,
                self.get_visual_style(primary).rich_style,
                self.get_visual_style(plain, dim).rich_style,
                self.get_visual_style(primary, dim).rich_style,
            )
        return styles

    def _draw(self, *, quiet: bool = False) -> None:
        if self._switched and not quiet:
            return  # (a new mode is drawn whole when the widget is drawn, at the size the layout it asked for gives)
        self._switched = False
        if not self._text_mode():
            super()._draw(quiet=quiet)
            return
        width = self.scrollable_content_region.width
        lobby = self.mode == MainMode.LOBBY
        picture: Picture = self.lobby.picture(width, self._styles_of_buttons()) if lobby else self.over.picture(width)
        self._drawn_at = (width, self.size.height)
        self.show_picture(picture, drawing=quiet)

    def render_lines(self, crop: Region) -> list[Strip]:
        if not self._text_mode():
            return super().render_lines(crop)
        if self._drawn_at != (self.scrollable_content_region.width, self.size.height):
            self._draw(quiet=True)
        return PictureView.render_lines(self, crop)

    def watch_show_vertical_scrollbar(self) -> None:
        if self._text_mode():
            self._draw()  # (drawn again at the width the scroll bar leaves)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self._text_mode():
            return container.height
        return super().get_content_height(container, viewport, width)

    # --- keys and mouse --------------------------------------------------------------------------------------------

    def _hand_keys(self) -> bool:
        return self.mode == MainMode.HAND

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "select" and self.mode != MainMode.HAND:
            return False
        return super().check_action(action, parameters)

    def on_click(self, event: events.Click) -> None:
        if self.mode == MainMode.VOTE:
            return  # (the board's: the dial's, or the cursor's)
        event.prevent_default()  # (each class's handler would run in turn: the hand's card picked once, here)
        if self.mode == MainMode.HAND:
            CardList.on_click(self, event)
            return
        if self.mode != MainMode.LOBBY:
            return
        offset = event.get_content_offset(self)
        if offset is None:
            return
        action = self.lobby.action_at(offset.x, offset.y + self.scroll_offset.y, self.picture)
        if action is not None:
            event.stop()
            self.post_message(self.Pressed(action))
