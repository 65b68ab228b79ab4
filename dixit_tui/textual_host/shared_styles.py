"""The styles CSS gives a widget, worked out once per process, not once per widget of every session.

Every widget a session mounts is styled by `Stylesheet.apply`: the rules that could apply to it are gathered, each
selector is matched against the widget's path from the app down, the most specific value of each property is kept,
and each value is then set on the widget's styles one property at a time (and again for each of its component
classes, on a virtual node). With one app per SSH session, the same widgets at the same places of the same screens were
styled from scratch for every session: a good part of what a join cost.

What `apply` decides is a function of the stylesheet's rules and of, for each node on the widget's path from the app:
its class (type selectors), id, CSS classes, and the pseudo-classes the candidate rules ask about (`:focus`, `:hover`,
`:dark`, `:first-child`...). Apps share their parsed rules (`shared_css.share_parsed_css`), so two apps with the same
CSS and theme hold the same RuleSet objects in the same order: the answer is kept process-wide under a key made of
exactly those things, and another widget at the same place of another session gets it without matching a selector.

The answer is set on the widget by Textual's own `replace_rules`, property by property, as `apply` would.

Three more parts went on 2026-12-07 (tests/tui/patch_cost.py), each repeating or replacing more of Textual's insides
than it saved: copying a new widget's styles as a whole from the first widget at its place, with the side effects of
six property setters repeated by hand (+4.9% of a join's Python calls, +4.0% of the lobby's without it), and sharing
each stylesheet's map from selector names to rules and its tokenised CSS variables (0 and +2.4% of the lobby's).

Switched off (tests/tui/patch_cost.py, 2026-12-07, after issue 23 removed the other app-level patches): a join
+16% Python calls, opening the lobby +21%.
"""

from __future__ import annotations

import functools
from typing import Any

from textual.css.model import RuleSet
from textual.css.styles import RulesMap
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.widget import Widget

_LIMIT = 4096
"""Answers kept (each is one place in one screen: a few hundred for this app). Past this, the cache starts over."""
_RULES_LIMIT = 128
"""Rules lists kept (an app's stylesheet grows by one source per widget class it meets first: one list per step, and
the steps depend on the way a session went, lobby first or straight to a table). Past this, both caches start over."""

_installed = False
_last_token = 0


class _Answer:
    """What `apply` did for one place: the node's flags and the rules it handed `replace_rules` (None: no rule
    matched)."""

    __slots__ = ("flags", "rules")

    def __init__(self, flags: tuple[bool, bool, bool, bool], rules: RulesMap | None) -> None:
        self.flags = flags
        self.rules = rules


class _Rules:
    """One stylesheet's rules, as parsed (shared by every app with the same CSS and variables)."""

    __slots__ = ("by_name", "candidates", "token")

    def __init__(self, token: int, rules: list[RuleSet]) -> None:
        self.token = token
        by_name: dict[str, list[RuleSet]] = {}
        for rule in rules:
            for name in rule.selector_names:
                by_name.setdefault(name, []).append(rule)
        self.by_name = by_name
        self.candidates: dict[tuple[Any, ...], tuple[str, ...]] = {}
        """A node's own (class, id, classes) -> the pseudo-classes its candidate rules ask about."""


_rules: dict[tuple[int, ...], tuple[_Rules, list[RuleSet]]] = {}  # by the ids of the rules (kept alive here)
_answers: dict[tuple[Any, ...], _Answer] = {}
_capture: list[list[Any]] = []  # [node, rules handed to replace_rules] for each apply under way


def _rules_of(stylesheet: Stylesheet) -> _Rules:
    rules = stylesheet.rules  # (parses first if the sources changed)
    memo: tuple[list[RuleSet], _Rules] | None = getattr(stylesheet, "_dixit_rules", None)
    if memo is not None and memo[0] is rules:
        return memo[1]
    ids = tuple(map(id, rules))
    found = _rules.get(ids)
    if found is None:
        if len(_rules) >= _RULES_LIMIT:
            _rules.clear()
            _answers.clear()
        global _last_token
        _last_token += 1
        found = (_Rules(_last_token, rules), rules)
        _rules[ids] = found
    stylesheet._dixit_rules = (rules, found[0])  # type: ignore[attr-defined]
    return found[0]


def _pseudo_classes(shared: _Rules, node: DOMNode) -> tuple[str, ...]:
    """The pseudo-classes any rule that could apply to `node` asks about, on any node of its path."""
    own = (type(node), node._id, frozenset(node._classes))
    names = shared.candidates.get(own)
    if names is None:
        found: set[str] = set()
        for name in node._selector_names:
            for rule in shared.by_name.get(name, ()):
                found |= rule.pseudo_classes
        names = tuple(sorted(found))
        shared.candidates[own] = names
    return names


_IS_DISABLED = Widget._PSEUDO_CLASSES["disabled"]
_IS_ENABLED = Widget._PSEUDO_CLASSES["enabled"]


def _place(node: DOMNode, pseudo: tuple[str, ...]) -> tuple[Any, ...]:
    """What selectors can see of `node`'s path: each node's class, id, classes and the pseudo-classes asked about.

    `:disabled` and `:enabled` (asked at almost every node: Textual's own widgets' CSS has them) are worked out from the
    top of the path down, once per node: asked of each node, each walked up to its screen again (`is_disabled`)."""
    nodes: list[Any] = []
    current: Any = node
    while isinstance(current, DOMNode):
        nodes.append(current)
        current = current._parent
    if not pseudo:
        return tuple([(type(each), each._id, frozenset(each._classes), ()) for each in nodes])
    path: list[Any] = [None] * len(nodes)
    disabled = False  # (`is_disabled`: the node or a widget above it, up to the first node that is not a widget)
    for index in range(len(nodes) - 1, -1, -1):
        current = nodes[index]
        checks = current._PSEUDO_CLASSES
        disabled = (disabled or current.disabled) if isinstance(current, Widget) else False
        flags: list[bool] = []
        for name in pseudo:
            check = checks.get(name)
            if check is _IS_DISABLED:
                flags.append(disabled)
            elif check is _IS_ENABLED:
                flags.append(not disabled)
            else:
                flags.append(current.has_pseudo_class(name))
        path[index] = (type(current), current._id, frozenset(current._classes), tuple(flags))
    return tuple(path)


def _flags(node: DOMNode) -> tuple[bool, bool, bool, bool]:
    return (node._has_hover_style, node._has_focus_within, node._has_order_style, node._has_odd_or_even)


def share_computed_styles() -> None:
    """Make every Stylesheet of this process share computed styles. Idempotent."""
    global _installed
    if _installed:
        return
    apply = Stylesheet.apply
    replace_rules = Stylesheet.replace_rules.__func__  # type: ignore[attr-defined]

    @functools.wraps(apply)  # (Textual's own way: `inspect.unwrap(Stylesheet.apply)`)
    def shared_apply(
        self: Stylesheet, node: DOMNode, *, animate: bool = False, cache: dict[tuple[Any, ...], RulesMap] | None = None
    ) -> None:
        shared = _rules_of(self)
        try:
            key = (shared.token, _place(node, _pseudo_classes(shared, node)))
        except Exception:  # a pseudo-class not answerable here: styled Textual's way, not kept
            apply(self, node, animate=animate, cache=cache)
            return
        answer = _answers.get(key)
        if answer is None:
            _capture.append([node, None])
            try:
                apply(self, node, animate=animate, cache=cache)
            finally:
                rules = _capture.pop()[1]
            if len(_answers) >= _LIMIT:
                _answers.clear()
            _answers[key] = _Answer(_flags(node), rules)
            return
        node._has_hover_style, node._has_focus_within, node._has_order_style, node._has_odd_or_even = answer.flags
        if answer.rules is not None:
            self.replace_rules(node, answer.rules, animate=animate)
        self._process_component_classes(node)

    def capturing_replace_rules(cls: type[Stylesheet], node: DOMNode, rules: RulesMap, animate: bool = False) -> None:
        if _capture and _capture[-1][0] is node:
            _capture[-1][1] = rules
        replace_rules(cls, node, rules, animate)

    Stylesheet.apply = shared_apply  # type: ignore[method-assign]
    Stylesheet.replace_rules = classmethod(capturing_replace_rules)  # type: ignore[method-assign,assignment]
    _installed = True
