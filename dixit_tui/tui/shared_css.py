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

from textual import events
from textual.cache import LRUCache
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.css.types import CSSLocation
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets._toast import ToastRack

_CACHE_SIZE = 512
"""Parsed sources kept (a source is one CSS file or one class's DEFAULT_CSS, for one set of variables)."""

_shared: LRUCache[tuple[Any, ...], list[RuleSet]] = LRUCache(_CACHE_SIZE)
parses = 0
"""CSS sources parsed since the process started (what the shared cache could not answer): for tests."""

_installed = False
_resume_patched = False
_FRESH = "_dixit_styled_at_mount"


def _variables_key(stylesheet: Stylesheet) -> tuple[tuple[str, str], ...]:
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
        key = (css, read_from, is_default_rules, tie_breaker, scope, _variables_key(self))
        rules = _shared.get(key)
        if rules is None:
            parses += 1
            rules = parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
            if not any(rule.errors for rule in rules):  # (a source with errors is reported by each app, as before)
                _shared[key] = rules
        return rules

    Stylesheet._parse_rules = shared_parse_rules  # type: ignore[method-assign]
    _installed = True


def mark_styled_at_mount(screen: Screen[Any]) -> None:
    """`screen` is about to be pushed for the first time, with its breakpoint classes already set (see
    `DixitApp.push_screen`): its widgets get their styles when they mount, so its first ScreenResume need not
    restyle every one of them again (Textual does, for screens coming back from below others)."""
    _keep_styles_on_first_resume()
    setattr(screen, _FRESH, True)


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
        resume(self, event)
        if laid_out and not self._layout_required:
            # The layout just drew the whole screen; the repaint Textual asks for after it would draw it all again.
            self._repaint_required = False

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
    _resume_patched = True
