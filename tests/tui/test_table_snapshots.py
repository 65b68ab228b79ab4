"""SVG snapshots of the table screen in each phase and each mode, at 80x24 and 120x40.

Deterministic: a seeded coordinator (table codes, reconnect codes) and a seeded table (the deal), fixed moves for
the other seats. Regenerate with `.venv/bin/python -m pytest tests/tui/test_table_snapshots.py --snapshot-update`
and look at the SVGs before keeping them.
"""

from __future__ import annotations

import pytest

from dixit_tui.coordinator import Identity
from dixit_tui.ssh.no_color import WithoutColor
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.capabilities import Capabilities
from tests.tui.fixtures import coordinator, make_app
from tests.tui.table_scenes import SCENARIOS, Compare

SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_table_snapshot(snap_compare: Compare, name: str, size: tuple[int, int]) -> None:
    assert snap_compare(make_app(), terminal_size=size, run_before=SCENARIOS[name])


@pytest.mark.parametrize("name", ["vote", "party_red_marker", "team_submit"])
def test_table_snapshot_no_color(snap_compare: Compare, name: str) -> None:
    """NO_COLOR (as the SSH session sets it up: no colour at all): pointer, marks and roles stay readable."""
    app = DixitApp(coordinator(), Identity("ana", "key-ana"), capabilities=Capabilities(colors="none"))
    app._filters.append(WithoutColor())
    assert snap_compare(app, terminal_size=(80, 24), run_before=SCENARIOS[name])
