"""SVG snapshots of every phase at 80x24, the common terminal size, for standard, party and team tables.

What each picture must show (see tests/tui/test_layout.py for the same as checks): every card of the board and of
the hand on a line of its own with the highlighted card in full, the whole key bar, the top bar with who is
watching, and the recap's points table and red-marker line without scrolling.

ana hosts every table; a spectator (zed) watches, so the top bar has its "1 watching". Deterministic: a seeded
coordinator and table, fixed moves for the other seats (the scenes: tests/tui/scenes_80x24.py). Regenerate with
`./dev test tests/tui/test_snapshots_80x24.py --snapshot-update` and look at the SVGs before keeping them.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.tui.fixtures import make_app
from tests.tui.scenes_80x24 import SCENARIOS, SIZE

Compare = Callable[..., bool]


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_snapshot_80x24(snap_compare: Compare, name: str) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=SCENARIOS[name])
