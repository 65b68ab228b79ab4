"""The CSS variables of the game's app: Textual's for its theme, with what a terminal of few colours or none needs.

They are the same for every session with the same theme and terminal capabilities, so they are worked out once per
process (Textual's colour system made them anew for every app: 1.4k Python calls of each join and each lobby's opening,
tests/tui/patch_cost.py)."""

from __future__ import annotations

from collections.abc import Callable

from textual.color import Color
from textual.theme import Theme

from dixit_tui.tui.capabilities import Capabilities

FRAME_GREY = 0.4  # the frames' grey: this far from the background to the text

_worked_out: dict[tuple[int, Capabilities], tuple[Theme, dict[str, str]]] = {}
"""(id of the theme, capabilities) -> (the theme, its variables): the theme is kept so that its id stays its own."""


def css_variables(
    theme: Theme, capabilities: Capabilities, textual_variables: Callable[[], dict[str, str]]
) -> dict[str, str]:
    """The variables for `theme` and `capabilities` (`textual_variables`: Textual's, asked the first time only); a
    copy, the caller's to change."""
    key = (id(theme), capabilities)
    kept = _worked_out.get(key)
    if kept is None or kept[0] is not theme:
        kept = _worked_out[key] = (theme, _for_terminal(textual_variables(), capabilities))
    return dict(kept[1])


def _for_terminal(variables: dict[str, str], capabilities: Capabilities) -> dict[str, str]:
    """Textual's `variables`, with what the terminal needs (see the comments)."""
    if capabilities.few_colors:
        # The frames' grey would become a dark grey or black, as the background (black): the foreground's grey.
        variables["border-blurred"] = variables["foreground-darken-1"]
    else:
        # The frames (panels, the log's rule, the hand and the board, text boxes not focused): Textual's grey
        # just off the background was colour 233 on 234 in a 256-colour terminal (found in a playtest). A mid
        # grey, clearly seen and still quieter than text: #6B6B6B on #1E1E1E (256 colours: 241 on 234).
        surface, foreground = Color.parse(variables["surface"]), Color.parse(variables["foreground"])
        variables["border-blurred"] = surface.blend(foreground, FRAME_GREY).hex
    variables["placeholder-text-style"] = "none"  # (the theme's grey tells a placeholder from typed text)
    if capabilities.colors == "none":
        # What colour alone showed (NO_COLOR sends none): a text box's cursor, the highlighted row of a list, a
        # text box's placeholder.
        variables["input-cursor-text-style"] = "reverse"
        variables["block-cursor-text-style"] = "bold reverse"
        variables["placeholder-text-style"] = "italic"  # (Textual draws dim as a fainter colour: none here)
    return variables
