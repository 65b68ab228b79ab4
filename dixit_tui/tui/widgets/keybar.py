"""The key bar: the keys that work now, at the bottom of every screen (it stands in for Textual's Footer).

Textual's Footer is a container with a widget per key, rebuilt (composed, mounted, styled) each time a key's state
changes: profiling the server under load put it at 15-25% of all CPU. The key bar is one widget drawing one line of
`Content`, redrawn only when the keys it shows change. It looks like the Footer (same theme colours and padding), and
a click on a key presses it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, NamedTuple

from rich.cells import cell_len
from textual import events
from textual.content import Content
from textual.style import Style
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.screen import Screen


_NORMAL = Style()
_DIM = Style(dim=True)


class ShownKey(NamedTuple):
    key: str
    display: str
    description: str
    enabled: bool


class KeyBar(Widget, can_focus=False):
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
        self._spans: list[tuple[int, int, ShownKey]] = []  # x range of each key on the line

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
            self.refresh()

    def render(self) -> Content:
        key_style = self.get_visual_style("keybar--key")
        description_style = self.get_visual_style("keybar--description")
        parts: list[tuple[str, Style]] = []
        spans: list[tuple[int, int, ShownKey]] = []
        x = 0
        for shown in self.keys:
            key_text = f" {shown.display} "
            description = f"{shown.description} " if shown.description else ""
            dim = _NORMAL if shown.enabled else _DIM
            parts.append((key_text, key_style + dim))
            if description:
                parts.append((description, description_style + dim))
            width = cell_len(key_text) + cell_len(description)
            spans.append((x, x + width, shown))
            x += width
        self._spans = spans
        return Content.assemble(*parts)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        for start, end, shown in self._spans:
            if start <= event.x < end:
                if shown.enabled:
                    self.app.simulate_key(shown.key)
                else:
                    self.app.bell()
                return
