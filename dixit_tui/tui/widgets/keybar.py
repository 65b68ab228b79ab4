"""The key bar: the keys that work now, at the bottom of every screen (it stands in for Textual's Footer).

Textual's Footer, a widget per key rebuilt at each change, took 15-25% of the server's CPU under load; this is one
widget drawing one line, redrawn only when its keys change, looking like the Footer (a click presses a key). Every
key always shows: descriptions get shorter (`Void turn` -> `Void`), then a second row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, NamedTuple

from rich.cells import cell_len
from textual import events
from textual.content import Content
from textual.style import Style

from dixit_tui.tui.widgets.kept_lines import KeptLines

if TYPE_CHECKING:
    from textual.screen import Screen


_NORMAL = Style()
_DIM = Style(dim=True)

# Shorter descriptions for a narrow terminal (80 columns must show every key of every role and phase).
SHORT: dict[str, str] = {
    "Add a bot": "Bot",
    "Back to the list": "Back",
    "Back to the table": "Back",
    "Back to green": "Back",
    "Choose card": "Choose",
    "Create table": "Create",
    "Join by code": "Join",
    "Leaderboard": "Ranks",
    "Mark/unmark": "Mark",
    "Quick game": "Quick",
    "Remove player": "Remove",
    "Type your clue": "Clue",
    "Void turn": "Void",
}


class ShownKey(NamedTuple):
    key: str
    display: str
    description: str
    enabled: bool


class KeyBar(KeptLines, can_focus=False):
    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {"keybar--key", "keybar--description"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        width: 1fr;
        text-wrap: nowrap;
        text-overflow: clip;
        color: $footer-foreground;
        background: $footer-background;
        & > .keybar--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .keybar--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.keys: tuple[ShownKey, ...] = ()
        self._spans: list[tuple[int, int, int, ShownKey]] = []  # (row, x from, x to) of each key
        self._rows = 1

    def on_resize(self) -> None:
        self._fit()

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._collect()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        if self.is_attached and screen is self.screen:
            self._collect()

    def _collect(self) -> None:
        """The shown bindings of the focused chain (one per action, as the Footer does); redraw if they changed."""
        keys: list[ShownKey] = []
        actions: set[str] = set()
        for _node, binding, enabled, _tooltip in self.screen.active_bindings.values():
            if not binding.show or binding.action in actions:
                continue
            actions.add(binding.action)
            keys.append(ShownKey(binding.key, self.app.get_key_display(binding), binding.description, enabled))
        if tuple(keys) != self.keys:
            self.keys = tuple(keys)
            self._fit()
            self.refresh()

    def _cells(self, tier: int) -> list[tuple[str, str, ShownKey]]:
        """(key text, description text, key) of every key in a tier: 0 full, 1 short words, 2 short and tight."""
        out = []
        for shown in self.keys:
            description = SHORT.get(shown.description, shown.description) if tier else shown.description
            if tier < 2:
                out.append((f" {shown.display} ", f"{description} " if description else "", shown))
            else:
                out.append((f" {shown.display}", f" {description}" if description else "", shown))
        return out

    def _layout(self, width: int) -> list[list[tuple[str, str, ShownKey]]]:
        """The rows to draw at `width`: the widest tier that fits on one line, else the tight tier on two rows."""
        tier: list[tuple[str, str, ShownKey]] = []
        for level in range(3):
            tier = self._cells(level)
            if width <= 0 or sum(cell_len(k) + cell_len(d) for k, d, _ in tier) + (level == 2) <= width:
                return [tier]
        rows: list[list[tuple[str, str, ShownKey]]] = [[], []]
        half = (sum(cell_len(k) + cell_len(d) for k, d, _ in tier) + 1) // 2
        x = 0
        for cell in tier:
            rows[0 if x < half and rows[1] == [] else 1].append(cell)
            x += cell_len(cell[0]) + cell_len(cell[1])
        return rows

    def _fit(self) -> None:
        """One row, or two when even the tight tier does not fit (only then does the bar ask for a layout)."""
        rows = len(self._layout(self.content_size.width)) if self.is_mounted else 1
        if rows != self._rows:
            self._rows = rows
            self.styles.height = rows

    def render(self) -> Content:
        key_style = self.get_visual_style("keybar--key")
        description_style = self.get_visual_style("keybar--description")
        lines: list[Content] = []
        spans: list[tuple[int, int, int, ShownKey]] = []
        for y, row in enumerate(self._layout(self.content_size.width)):
            parts: list[tuple[str, Style]] = []
            x = 0
            for key_text, description, shown in row:
                dim = _NORMAL if shown.enabled else _DIM
                parts.append((key_text, key_style + dim))
                if description:
                    parts.append((description, description_style + dim))
                width = cell_len(key_text) + cell_len(description)
                spans.append((y, x, x + width, shown))
                x += width
            lines.append(Content.assemble(*parts))
        self._spans = spans
        return Content("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        for y, start, end, shown in self._spans:
            if y == event.y and start <= event.x < end:
                if shown.enabled:
                    self.app.simulate_key(shown.key)
                else:
                    self.app.bell()
                return
