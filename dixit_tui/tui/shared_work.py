"""What every Textual app of the process may share, whatever app it is (the game's, the benchmark's floor): set up
once by the composition root (`serve.py`), which hands `share_per_process_work` to the SSH server as the setup
each session's app gets before it runs; the transport itself knows nothing of it."""

from __future__ import annotations

from dixit_tui.textual_host.shared_css import share_parsed_css
from dixit_tui.textual_host.shared_styles import share_computed_styles


def share_per_process_work() -> None:
    """Parsed CSS and the styles CSS gives a widget at a place: the same answer Textual works out per app, kept once
    per process. Idempotent."""
    share_parsed_css()
    share_computed_styles()
