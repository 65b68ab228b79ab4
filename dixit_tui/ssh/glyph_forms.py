"""What a session's text is sent in, by the glyphs its terminal can draw (`TerminalInfo.glyphs`): as it is (all of
Unicode), in console forms (`TERM=linux`'s small font, `console_forms`) or in ASCII forms (no UTF-8, `ascii_forms`);
cell for cell. The one choice both the full-screen app's output (`SSHDriver.flush`) and the line mode's lines use."""

from __future__ import annotations

from dixit_tui.ssh.ascii_forms import ASCII_FORMS
from dixit_tui.ssh.console_forms import CONSOLE_FORMS
from dixit_tui.ssh.terminal import Glyphs

_FORMS: dict[Glyphs, dict[int, str] | None] = {"unicode": None, "console": CONSOLE_FORMS, "ascii": ASCII_FORMS}


def in_glyphs(text: str, glyphs: Glyphs) -> str:
    """`text` as a terminal that draws `glyphs` is sent it (terminal escape sequences are ASCII: unchanged)."""
    forms = _FORMS[glyphs]
    return text if forms is None else text.translate(forms)
