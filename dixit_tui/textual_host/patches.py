"""Textual made safe for many concurrent apps, with different terminals, in one process: the patches of this package
installed once.

Touches nothing itself: it installs the patches of `stdout.py`, `strip_output.py` and `work_share.py` (each says
which internals it touches and why).
"""

from __future__ import annotations

from dixit_tui.textual_host.stdout import keep_process_output
from dixit_tui.textual_host.strip_output import render_per_colour_system
from dixit_tui.textual_host.work_share import measure_session_work

_patched = False


def install_textual_patches() -> None:
    """Make Textual safe for concurrent apps with different terminals in one process. Idempotent.

    1. An app driven by a `HostedDriver` leaves the process's sys.stdout and sys.stderr alone (`stdout.py`).
    2. Each session's lines carry the codes of its own terminal's colour system; a line is sent with its style codes
       only where the style changes (`strip_output.py`).
    3. The event loop's time is counted per session, and a session over its share waits (`work_share.py`).
    """
    global _patched
    if _patched:
        return
    keep_process_output()
    render_per_colour_system()
    measure_session_work()
    _patched = True
