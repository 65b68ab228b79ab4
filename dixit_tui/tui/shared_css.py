"""Textual CSS parsed once per process, not once per app; a new screen styled once, not three times.

Every Textual App has its own `Stylesheet`, and each one parses every CSS source it meets (the app's CSS files, each
screen's, the DEFAULT_CSS of every widget class) again, and all of them once more whenever a screen brings a CSS file
the app has not read yet (`Stylesheet.reparse` starts from an empty cache). With one app per SSH session that was a
good part of the CPU a session costs to open. The parsed rules only depend on the source and the CSS variables (the
theme), and Textual never changes a rule set once parsed (its own cache hands the same ones to every parse of a
stylesheet), so one process-wide cache keyed on both serves every app. Apps with another theme get rules of their own.
"""

from __future__ import annotations

from typing import Any

from textual import _time, events, messages
from textual.cache import LRUCache
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.css.types import CSSLocation
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets._toast import ToastRack

_CACHE_SIZE = 512
"""Parsed sources kept (a source is one CSS file or one class's DEFAULT_CSS, for one set of variables)."""

_shared: LRUCache[tuple[Any, ...], list[RuleSet]] = LRUCache(_CACHE_SIZE)
parses = 0
"""CSS sources parsed since the process started (what the shared cache could not answer): for tests."""
_whole: LRUCache[tuple[Any, ...], list[RuleSet]] = LRUCache(_CACHE_SIZE)
whole_parses = 0
"""Stylesheets parsed whole, source by source (what the shared cache of whole stylesheets could not answer)."""

_installed = False
_resume_patched = False
_FRESH = "_dixit_styled_at_mount"
LAID_OUT = "_dixit_laid_out_at_resume"
"""Set on a screen whose first resume laid it out (see `mark_styled_at_mount`): when that layout started."""
SAME_SIZE_NO_LAYOUT = "_dixit_same_size_no_layout"
"""An App class attribute: True where a Resize to the size a screen is laid out at lays nothing out again."""


def variables_key(stylesheet: Stylesheet) -> tuple[tuple[str, str], ...]:
    """The stylesheet's CSS variables as a hashable key, remembered while its variables dict stays the same object
    (`set_variables` replaces it; `reparse` and `copy` hand it on)."""
    variables = stylesheet._variables
    memo: tuple[dict[str, str], tuple[tuple[str, str], ...]] | None = getattr(stylesheet, "_dixit_variables_key", None)
    if memo is not None and memo[0] is variables:
        return memo[1]
    key = tuple(sorted(variables.items()))
    stylesheet._dixit_variables_key = (variables, key)  # type: ignore[attr-defined]
    return key


def share_parsed_css() -> None:
    """Make every Stylesheet of this process share parsed CSS. Idempotent."""
    global _installed
    if _installed:
        return
    parse_rules = Stylesheet._parse_rules

    def shared_parse_rules(
        self: Stylesheet,
        css: str,
        read_from: CSSLocation,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        global parses
        key = (css, read_from, is_default_rules, tie_breaker, scope, variables_key(self))
        rules = _shared.get(key)
        if rules is None:
            parses += 1
            rules = parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
            if not any(rule.errors for rule in rules):  # (a source with errors is reported by each app, as before)
                _shared[key] = rules
        return rules

    parse = Stylesheet.parse

    def shared_parse(self: Stylesheet) -> None:
        """A stylesheet with the same sources (in the same order) and variables as one parsed before takes its rules:
        each widget class an app mounts for the first time adds its DEFAULT_CSS, and Textual then parsed the whole
        stylesheet again (every source, every rule), about ten times per new session."""
        global whole_parses
        key = (variables_key(self), tuple(self.source.items()))
        rules = _whole.get(key)
        if rules is None:
            whole_parses += 1
            parse(self)
            if self._rules is not None:
                _whole[key] = self._rules
            return
        self._rules = rules  # (Textual never changes a parsed rules list: a new parse makes a new list)
        self._require_parse = False
        self._rules_map = None

    Stylesheet._parse_rules = shared_parse_rules  # type: ignore[method-assign]
    Stylesheet.parse = shared_parse  # type: ignore[method-assign]
    _installed = True


def mark_styled_at_mount(screen: Screen[Any]) -> None:
    """`screen` is about to be pushed for the first time, with its breakpoint classes already set (see
    `DixitApp.push_screen`): its widgets get their styles when they mount, so its first ScreenResume need not
    restyle every one of them again (Textual does, for screens coming back from below others)."""
    _keep_styles_on_first_resume()
    setattr(screen, _FRESH, True)


def install_screen_patches() -> None:
    """The patches of Textual's Screen that `mark_styled_at_mount` relies on, and the same-size Resize one.
    Idempotent."""
    _keep_styles_on_first_resume()


def _keep_styles_on_first_resume() -> None:
    global _resume_patched
    if _resume_patched:
        return
    resume = Screen._on_screen_resume

    def first_resume_keeps_styles(self: Screen[Any], event: events.ScreenResume) -> None:
        if not getattr(self, _FRESH, False):
            resume(self, event)
            return
        setattr(self, _FRESH, False)
        event.refresh_styles = False
        laid_out = self.is_attached and self._size != self.app.size
        started = _time.get_time()
        resume(self, event)
        if laid_out:
            # That layout placed every widget of the screen and drew them all. Each widget it gave a size for the first
            # time asked for another layout (its new virtual size) and a repaint of itself, and Textual would lay the
            # whole screen out and draw it again: those are answered already, as is any layout asked for before. A
            # widget the layout gave a scroll bar still gets its second layout (the bar takes room from its content).
            for widget in (self, *self._compositor.widgets):
                if not (widget.show_vertical_scrollbar or widget.show_horizontal_scrollbar):
                    widget._layout_required = False
                    if widget is not self:
                        widget._repaint_required = False
            app = self.app
            if not (app._running and not app._batch_count):
                # Laid out while the app starts (or batches its updates): not drawn. The repaint Textual asks for draws
                # it (with the lines just rendered), once the app's queue comes to it: the batch is over by then.
                app.call_later(self.check_idle)
            elif not self._layout_required:
                # The repaint Textual asks for after the layout would draw it all again.
                self._repaint_required = False
            setattr(self, LAID_OUT, started)

    Screen._on_screen_resume = first_resume_keeps_styles  # type: ignore[method-assign]

    extend_compose = Screen._extend_compose

    def toasts_start_as_shown(self: Screen[Any], widgets: list[Widget]) -> None:
        """Each screen's toast rack starts as its first resume leaves it (hidden unless there are notifications):
        Textual hides it only then, and that one change asked for a second layout of the whole new screen."""
        extend_compose(self, widgets)
        for widget in widgets:
            if isinstance(widget, ToastRack):
                widget.styles.set_rule("display", "block" if self.app._notifications else "none")  # (no refresh)

    Screen._extend_compose = toasts_start_as_shown  # type: ignore[method-assign]

    on_layout = Screen._on_layout

    async def layout_once(self: Screen[Any], message: messages.Layout) -> None:
        """A layout asked for before the screen's first layout started (a widget filled while the screen mounted) is
        answered by it: Textual did it again once the screen was drawn, and drew the screen again."""
        laid_out: float | None = getattr(self, LAID_OUT, None)
        if laid_out is not None and message.time < laid_out:
            message.stop()
            message.prevent_default()
            return
        await on_layout(self, message)

    Screen._on_layout = layout_once  # type: ignore[method-assign]

    screen_resized = Screen._screen_resized

    def resized_when_size_changed(self: Screen[Any], size: Size) -> None:
        """In apps that opt in (SAME_SIZE_NO_LAYOUT), a screen told the size it is laid out at already, with no layout
        pending, is not laid out again. A screen's first layout sends the screen a Resize, and Textual then laid out
        the screen and every screen below it again, at the same size (twice per screen for a new session)."""
        if (
            getattr(self.app, SAME_SIZE_NO_LAYOUT, False)
            and self._compositor.size == size
            and not self._layout_required
            and self._compositor.widgets
        ):
            return
        screen_resized(self, size)

    Screen._screen_resized = resized_when_size_changed  # type: ignore[method-assign]
    _resume_patched = True
