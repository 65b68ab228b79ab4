"""The main region's mode before the game: the table's lobby words (`table_words.lobby_info`: its code, its rules,
what the host waits for) wrapped at the region's width, a blank row, then the buttons a mouse can click: Start (s)
and Practice (p) for the host, Leave (l) for everyone. The buttons are a row of the picture, drawn as Textual draws a
compact button (at least 16 cells, the label centred, two cells between them); a click on one does what its key does
(the keys are the screen's). The picture is a pure function of the words, the buttons, the width and the styles,
one picture for every session showing the same lobby the same way."""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.content import Content
from textual.style import Style as TextStyle

from dixit_tui.coordinator import TableView
from dixit_tui.textual_host.process_caches import forget_with_shared
from dixit_tui.tui import table_words as words
from dixit_tui.tui.picture import Line, Picture, PictureCache
from dixit_tui.tui.text_row import text_row

BUTTON_MIN = 16  # cells: Textual's Button's min-width
BUTTON_GAP = 2  # cells between two buttons

_cache = forget_with_shared(PictureCache(pictures=64))


@dataclass(frozen=True, slots=True)
class LobbyButton:
    label: str
    action: str  # the screen's action its key runs: start, practice, leave
    primary: bool = False
    disabled: bool = False

    @property
    def width(self) -> int:
        return max(BUTTON_MIN, len(self.label) + 2)


@dataclass(frozen=True, slots=True)
class LobbyStyles:
    """The text's and the buttons' styles (from the region's CSS)."""

    text: TextStyle
    plain: Style
    primary: Style
    disabled: Style
    disabled_primary: Style

    def of(self, button: LobbyButton) -> Style:
        if button.primary:
            return self.disabled_primary if button.disabled else self.primary
        return self.disabled if button.disabled else self.plain


def lobby_buttons(view: TableView) -> tuple[LobbyButton, ...]:
    """Start and Practice for the host (Start dimmed while the table cannot start), Leave for everyone."""
    buttons: list[LobbyButton] = []
    if view.is_host:
        buttons.append(LobbyButton("Start (s)", "start", primary=True, disabled=view.start_problem is not None))
        buttons.append(LobbyButton("Practice (p)", "practice"))
    buttons.append(LobbyButton("Leave (l)", "leave"))
    return tuple(buttons)


def button_line(buttons: tuple[LobbyButton, ...], width: int, styles: LobbyStyles) -> Line:
    segments: Line = []
    used = 0
    for index, button in enumerate(buttons):
        if index:
            segments.append(Segment(" " * BUTTON_GAP))
            used += BUTTON_GAP
        left = (button.width - len(button.label)) // 2
        text = " " * left + button.label + " " * (button.width - left - len(button.label))
        segments.append(Segment(text, styles.of(button)))
        used += button.width
    if used < width:
        segments.append(Segment(" " * (width - used)))
    return list(Segment.adjust_line_length(segments, width)) if used > width else segments


def lobby_picture(text: words.Words, buttons: tuple[LobbyButton, ...], width: int, styles: LobbyStyles) -> Picture:
    """The lobby's words at `width`, a blank row, the buttons."""
    if width <= 0:
        return ()

    def draw() -> list[Line]:
        lines = Content.assemble(*text.parts).wrap(width)
        blank = [Segment(" " * width, styles.text.rich_style)]
        return [*(text_row(line, width, styles.text) for line in lines), blank, button_line(buttons, width, styles)]

    return _cache.picture(("lobby", text, buttons, width, styles), width, draw)


class LobbyMode:
    """The lobby shown (its words and buttons), and which button a click at a place of its picture is on."""

    def __init__(self) -> None:
        self.text = words.Words()
        self.buttons: tuple[LobbyButton, ...] = ()

    def show(self, view: TableView) -> bool:
        """Show the lobby of `view`; whether that changed what it shows."""
        text, buttons = words.lobby_info(view), lobby_buttons(view)
        if text == self.text and buttons == self.buttons:
            return False
        self.text, self.buttons = text, buttons
        return True

    def picture(self, width: int, styles: LobbyStyles) -> Picture:
        return lobby_picture(self.text, self.buttons, width, styles) if self.buttons else ()

    def action_at(self, x: int, y: int, picture: Picture) -> str | None:
        """The action of the button drawn at (`x`, `y`) of `picture` (its last row), if one is there and not dimmed."""
        if not picture or y != len(picture) - 1:
            return None
        left = 0
        for button in self.buttons:
            if left <= x < left + button.width:
                return None if button.disabled else button.action
            left += button.width + BUTTON_GAP
        return None
