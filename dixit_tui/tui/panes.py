"""`Panes`: a ContentSwitcher that builds a pane only when it is first shown; `Backdrop`: a pane's blank lines.

The table screen switches between four panes (the lobby, your hand, the board and its dial, the end of the game), and
only one shows at a time. A plain ContentSwitcher mounts all of them when the screen opens: every widget of every
hidden pane is created, styled and composed for a screen that may never show it (someone joining a table in its
lobby sees none of the hand, the board or the end of the game), which was a good part of what opening a table cost.
Here a pane other than the initial one is held back and mounted the first time it becomes `current`; its widgets are
all in the DOM as soon as `current` is set (so the screen can query and fill them at once, as before), the screen draws
nothing until they have all mounted (the new pane appears whole, in the same frame as the rest of the change), and they
stay once mounted (switching back and forth mounts nothing).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from textual.geometry import NULL_SPACING, Region
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import ContentSwitcher

from dixit_tui.textual_host.compat import native_ansi_color

MOUNT_WAIT = 5.0
"""Seconds the screen's drawing waits at most for a pane to mount."""


class Panes(ContentSwitcher):
    def __init__(
        self, *children: Widget, id: str | None = None, initial: str | None = None, parts: tuple[str, ...] = ()
    ) -> None:
        super().__init__(*children, id=id, initial=initial)
        self._held: dict[str, Widget] = {}
        self._hold_parts = set(parts)
        """The ids of widgets composed into a pane that are held back when it is mounted, until asked for
        (`build_part`): a part that may never show on this screen (a spectator's hand and clue box)."""
        self._parts: dict[str, tuple[Widget, Widget, list[Widget]]] = {}  # held part -> (it, its parent, siblings)
        self.mounted_late = 0
        """Panes mounted after the switcher (on first need): for tests."""
        self.parts_mounted = 0
        """Parts mounted when asked for: for tests."""

    def is_built(self, pane: str) -> bool:
        """Whether pane `pane` is in the DOM (shown now or before)."""
        return pane not in self._held

    def part_built(self, part: str) -> bool:
        """Whether part `part` was asked for (`build_part`): in the DOM, or coming with its pane when that is built.
        (A part held back, `_parts`, is always one not asked for yet.)"""
        return part not in self._hold_parts

    def build_part(self, part: str) -> None:
        """Put part `part` in the DOM now (in its place in its pane), if it was held back; if its pane is not built
        yet, the pane will come with it."""
        self._hold_parts.discard(part)
        held = self._parts.pop(part, None)
        if held is None:
            return
        widget, parent, siblings = held
        following = siblings[siblings.index(widget) + 1 :]
        before = next((w for w in following if w.parent is parent), None)
        self._mount_whole(widget, parent=parent, before=before)
        self.parts_mounted += 1

    async def mount_composed_widgets(self, widgets: list[Widget]) -> None:
        shown = []
        for widget in widgets:
            if widget.id is not None and widget.id != self._initial:
                self._held[widget.id] = widget
            else:
                self._hold_back(widget)
                shown.append(widget)
        await super().mount_composed_widgets(shown)

    def _hold_back(self, pane: Widget) -> None:
        """Take the parts held back out of the widgets composed into `pane` (at any depth), before it is mounted."""
        level = [pane]
        while level:
            below: list[Widget] = []
            for widget in level:
                composed = list(widget._pending_children)
                kept = [child for child in composed if child.id not in self._hold_parts]
                if len(kept) < len(composed):
                    widget._pending_children[:] = kept
                    for child in composed:
                        if child.id in self._hold_parts:
                            self._parts[child.id] = (child, widget, composed)
                below.extend(kept)
            level = below

    def watch_current(self, old: str | None, new: str | None) -> None:
        if new is not None and (pane := self._held.pop(new, None)) is not None:
            pane.display = False  # shown below, as ContentSwitcher shows any pane
            self._mount_whole(pane)
            self.mounted_late += 1
        # Showing a widget or hiding it counts as a change of its own children and of those of every ancestor
        # (NodeList.updated): each of them is arranged again at the next layout, the pane shown, the main column, the
        # screen. Only this switcher's displayed children change: the others arrange their children as they did (a
        # pane keeps its arrangement at its size; anything sized by its content is arranged again anyway, its layout
        # asked for clears its ancestors' arrangements up to the first one that is not).
        kept = [
            (node._nodes, node._nodes._updates)
            for node in (*(child for child in self._nodes if child.id in (old, new)), *self.ancestors)
        ]
        super().watch_current(old, new)
        for nodes, updates in kept:
            nodes._updates = updates

    def _mount_whole(self, pane: Widget, parent: Widget | None = None, before: Widget | None = None) -> None:
        """Mount `pane` (into `parent`, this switcher by default) and, at once, every widget composed into it
        (Textual would add each level only when its parent has mounted), but the parts held back: the screen fills
        them in the same call that shows the pane."""
        self._hold_back(pane)
        mounts: list[Awaitable[Any]] = [(parent or self).mount(pane, before=before)]
        level = [pane]
        while level:
            below: list[Widget] = []
            for widget in level:
                children = list(widget._pending_children)
                if children:
                    widget._pending_children.clear()
                    mounts.append(widget.mount(*children))
                    below.extend(children)
            level = below
        app, screen = self.app, self.screen
        app._begin_batch()  # no drawing of a half-mounted pane (an empty frame, then the pane)

        async def mounted() -> None:
            try:
                await asyncio.wait_for(asyncio.gather(*mounts), MOUNT_WAIT)
            except TimeoutError:
                pass
            finally:
                self._take_layouts(pane, parent or self)
                app._end_batch()
                screen.check_idle()  # draws what waited

        self.call_next(mounted)

    def _take_layouts(self, pane: Widget, parent: Widget) -> None:
        """The layouts the pane's mounts asked for, handed to the screen at once. Each level of the pane, once
        mounted, asks its parent for a layout, which reaches the screen in a message from that parent's idle handler,
        some time later: those that came after the screen's first layout laid it out again (three times in all at a
        watcher's screen at the start, twice at a player's). Done here, as that handler would, before the pane is
        drawn: one layout."""
        screen = self.screen
        taken = False
        for widget in (self, parent, *pane.walk_children(Widget, with_self=True)):
            if not widget._layout_required or widget._closing:
                continue
            widget._layout_required = False
            taken = True
            node = widget
            for ancestor in widget.ancestors:
                if not isinstance(ancestor, Widget):
                    break
                ancestor._clear_arrangement_cache()
                ancestor._layout_updates += 1
                screen._layout_widgets.setdefault(ancestor, set()).add(node)
                if not ancestor.styles.auto_dimensions:
                    break
                node = ancestor
        if taken:
            screen._layout_required = True


class Backdrop(Widget):
    """A container that draws nothing but its background (its children draw themselves), so that each of its lines
    is the same: it draws one and reuses it, also at a new size. Textual draws every line of a widget again when its
    size changes: the blank rows of a pane that grew a row with a new phase, all drawn again to show the same.
    Anything else on its lines (a border, padding, an outline, a hatch, a scroll bar, a title) goes Textual's way.
    (A mixin: list it after the widget's own class, so that CSS still matches that class's name.)"""

    _backdrop: tuple[tuple[object, ...], Strip] | None = None

    def _plain_background(self) -> bool:
        styles = self.styles
        return (
            self._border_title is None
            and self._border_subtitle is None
            and not (self.show_vertical_scrollbar or self.show_horizontal_scrollbar)
            and styles.border.spacing == NULL_SPACING
            and styles.padding == NULL_SPACING
            and all(edge in ("", "none", "hidden") for edge, _ in styles.outline)
            and styles.hatch in (None, "none")
        )

    def render_lines(self, crop: Region) -> list[Strip]:
        if crop.height <= 1 or not self._plain_background():
            return super().render_lines(crop)
        app, styles = self.app, self.styles
        key = (
            crop.x,
            crop.width,
            self.background_colors,
            styles.color,
            styles.text_style,
            styles.tint,
            self.opacity,
            tuple(map(id, self.get_line_filters())),
            id(app.ansi_theme),
            native_ansi_color(app),
        )
        if self._backdrop is None or self._backdrop[0] != key:
            self._backdrop = (key, super().render_lines(Region(crop.x, crop.y, crop.width, 1))[0])
        return [self._backdrop[1]] * crop.height
