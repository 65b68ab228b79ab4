"""What each phase change costs a screen that is not acting (a spectator, a player waiting for another), counted
(never timed): the layouts (Screen._refresh_layout) and the rows sent and drawn for every transition of a short
game at an 8-seat table, from the practice turn's clue to the end of the game. A layout comes only where a size
changes (a new pane, a line growing a row); the clue given changes text in place; the end of the game lays the
screen out once.

    .venv/bin/python -m tests.tui.test_phase_cost [WIDTH HEIGHT]

prints the counts per transition and screen.
"""

from __future__ import annotations

import asyncio
import sys

import pytest

from tests.tui.screen_cost import phase_changes


@pytest.mark.parametrize("role", ["watcher", "player"])
async def test_each_phase_change_lays_out_only_where_a_size_changes(role: str) -> None:
    """At 100x30: a new pane lays out once where its room changes; the clue given (the same pane, the clue
    line and the note under the hand keeping their rows) lays out nothing; the end of the game (its pane built then,
    its text fitting the screen) lays out once (its pane's new virtual size laid the screen out a second time). Each
    sends only the rows that changed, and draws no more widget lines than twice those rows. The main region is
    restyled only where its look changes."""
    seen = await phase_changes((100, 30), role)
    layouts = {transition: counts.layouts for transition, counts, _ in seen}
    assert layouts == {
        # the practice turn: no cards given, the board comes (a spectator's bare hand had no frame: one layout; a
        # player's hand and board keep the same room: none)
        "1:clue->vote": 1 if role == "watcher" else 0,
        "1:vote->clue": 1,
        "2:clue->submit": 0,
        "2:submit->vote": 1,
        "2:vote->over": 1,
    }, (role, layouts)
    restyled = {transition: sum(counts.restyled.values()) for transition, counts, _ in seen}
    # the main region is restyled only for the end's text and the keyboard leaving the board (two): never between the
    # hand and the board (a player's look alike; a spectator's bare hand, no frame, is inline styles, and the focus
    # stays on the region through the turn: its classes, then its focus, restyled it up to 4 times a phase change)
    most = 0
    assert restyled == {t: 2 if t.endswith("->over") else min(n, most) for t, n in restyled.items()}, (role, restyled)
    for transition, counts, changed in seen:
        where = (role, transition, counts.refreshed)
        assert counts.full_updates == 0, where
        assert counts.lines_sent <= changed + 2, (counts.lines_sent, changed, where)
        assert counts.lines_rendered <= 2 * changed, (counts.lines_rendered, changed, where)


async def test_the_clue_given_lays_nothing_out_at_a_spectators_80_columns() -> None:
    """At 80x24 too the clue given lays nothing out at a spectator's screen: the status line waiting for the cards
    keeps to one row, as the clue phase's did (it took two, and the screen was laid out every turn); each new pane
    lays out once (the practice turn's board, the hand, the board). (A player who has not given a card yet is asked
    for one in one row already.)"""
    role = "watcher"
    seen = await phase_changes((80, 24), role)
    layouts = {transition: counts.layouts for transition, counts, _ in seen}
    assert layouts["2:clue->submit"] == 0, (role, layouts)
    # (the end of the game, its text taller than the screen here, gets its scroll bar in more layouts: left as is)
    changes = [n for transition, n in layouts.items() if transition not in ("2:clue->submit", "2:vote->over")]
    assert changes == [1, 1, 1], (role, layouts)


def main() -> None:
    size = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) == 3 else (100, 30)
    for role in ("watcher", "player"):
        for transition, counts, changed in asyncio.run(phase_changes(size, role)):
            print(
                f"{size[0]}x{size[1]} {role:7} {transition:15} layouts={counts.layouts} full={counts.full_updates}"
                f" rows changed={changed} sent={counts.lines_sent} widget lines={counts.lines_rendered}"
                f" strips={counts.strips} restyled={dict(counts.restyled)}"
            )


if __name__ == "__main__":
    main()
