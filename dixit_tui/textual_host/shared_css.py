"""Textual CSS parsed once per process, not once per app.

Every Textual App has its own `Stylesheet`, and each one parses every CSS source it meets (the app's CSS files, each
screen's, the DEFAULT_CSS of every widget class) again, and all of them once more whenever a screen brings a CSS file
the app has not read yet (`Stylesheet.reparse` starts from an empty cache). With one app per SSH session that was a
good part of the CPU a session costs to open. The parsed rules only depend on the source and the CSS variables (the
theme), and Textual never changes a rule set once parsed (its own cache hands the same ones to every parse of a
stylesheet), so one process-wide cache keyed on both serves every app. Apps with another theme get rules of their own.
A whole stylesheet is shared the same way (`shared_parse`). The styles those rules give each widget are shared by
`shared_styles`; the patches that style and lay out a new screen once are in `screen_patches`.

Switched off (tests/tui/patch_cost.py, 2026-12-07, after issue 23 removed the other app-level patches): a join
+75% Python calls, opening the lobby +67%.
"""

from __future__ import annotations

from typing import Any

from textual.cache import LRUCache
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.css.types import CSSLocation

_CACHE_SIZE = 512
"""Parsed sources kept (a source is one CSS file or one class's DEFAULT_CSS, for one set of variables)."""

_shared: LRUCache[tuple[Any, ...], list[RuleSet]] = LRUCache(_CACHE_SIZE)
_whole: LRUCache[tuple[Any, ...], list[RuleSet]] = LRUCache(_CACHE_SIZE)

_installed = False


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
        key = (css, read_from, is_default_rules, tie_breaker, scope, variables_key(self))
        rules = _shared.get(key)
        if rules is None:
            rules = parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
            if not any(rule.errors for rule in rules):  # (a source with errors is reported by each app, as before)
                _shared[key] = rules
        return rules

    parse = Stylesheet.parse

    def shared_parse(self: Stylesheet) -> None:
        """A stylesheet with the same sources (in the same order) and variables as one parsed before takes its rules:
        each widget class an app mounts for the first time adds its DEFAULT_CSS, and Textual then parsed the whole
        stylesheet again (every source, every rule), about ten times per new session."""
        key = (variables_key(self), tuple(self.source.items()))
        rules = _whole.get(key)
        if rules is None:
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
