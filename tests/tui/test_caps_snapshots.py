"""SVG snapshots of the table as two kinds of terminals draw it: 16 colours (`TERM=linux`) and ASCII (`LANG=C`).

A snapshot is drawn in 24-bit colour and UTF-8; a test filter shows it as the terminal would: each colour as the
nearest of the 16 standard ones (what the SSH session's colour system sends), each line and mark in the console form
(`TERM=linux`'s font, `ssh.glyph_forms`) or ASCII form (`ssh.glyph_forms`) the SSH driver sends. Regenerate with
`.venv/bin/python -m pytest tests/tui/test_caps_snapshots.py --snapshot-update` and look at the SVGs first."""

from __future__ import annotations

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.capabilities import Capabilities
from tests.tui.fixtures import coordinator
from tests.tui.table_scenes import SCENARIOS, Compare
from tests.tui.terminal_filters import AsciiForms, ConsoleForms, SixteenColours


def test_table_in_16_colours(snap_compare: Compare) -> None:
    """`TERM=linux`: 16 colours and the console's font."""
    app = DixitApp(coordinator(), Identity("ana", "key-ana"), capabilities=Capabilities(colors="16", console=True))
    app._filters += [SixteenColours(), ConsoleForms()]
    assert snap_compare(app, terminal_size=(80, 24), run_before=SCENARIOS["vote"])


def test_table_in_ascii(snap_compare: Compare) -> None:
    app = DixitApp(coordinator(), Identity("ana", "key-ana"), capabilities=Capabilities(utf8=False))
    app._filters.append(AsciiForms())
    assert snap_compare(app, terminal_size=(80, 24), run_before=SCENARIOS["vote"])
