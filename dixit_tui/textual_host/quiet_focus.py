"""`quiet_focus()`: a screen's `focused` reactive (its class takes it as its own, no mixin: a class more in the
screen's MRO costs calls at every message) that moves the focus without repainting the whole screen.

Textual's `Screen.focused` is a reactive with repaint (in `internals.py`): the table moves the focus at every phase
change (hand, dial, nothing), and each time the whole table screen was drawn again. The widgets that gain or lose
:focus restyle themselves. Without (tests/tui/patch_cost.py --off focused, 2026-12-07): a phase change +7.1% of
Python calls: kept.
"""

from __future__ import annotations

from textual.reactive import Reactive
from textual.widget import Widget


def quiet_focus() -> Reactive[Widget | None]:
    """`focused: Reactive[Widget | None] = quiet_focus()` in a Screen class overrides Textual's."""
    return Reactive(None, repaint=False)
