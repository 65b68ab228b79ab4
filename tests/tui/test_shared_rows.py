"""The spectators of a table draw their widgets' lines from the very same shared strips: the way each widget is drawn
is worked out again only when something it is made of changes (`styled_lines._way`). Counted, never timed.
"""

from __future__ import annotations

from collections import Counter
from contextlib import AsyncExitStack
from unittest.mock import patch

from dixit_tui.textual_host import styled_lines
from dixit_tui.textual_host.patches import install_textual_patches
from tests.tui.fixtures import default_move, default_move_pending, phase, play_until, settle
from tests.tui.screen_cost import watched_table
from tests.tui.styled_line_counts import counted_styled_lines


async def test_an_ordinary_move_works_out_no_widgets_way_of_drawing_again() -> None:
    """A spectator's screen draws the changed rows of its widgets at each move: their way of drawing (styles, size,
    backgrounds, titles, theme) is kept while none of those changes."""
    install_textual_patches()
    async with AsyncExitStack() as stack:
        sessions, _, pilots = await watched_table(stack)
        await play_until(sessions, lambda: phase(sessions[0]) == "submit")
        await settle(*pilots)
        number = styled_lines._number
        counts: Counter[str] = Counter()

        def counted_number(way: tuple[object, ...]) -> int:
            counts["ways"] += 1
            return number(way)

        movers = [s for s in sessions if default_move_pending(s)]
        for session in movers[:3]:
            await settle(*pilots)
            counts.clear()
            with (
                counted_styled_lines() as lines,
                patch.object(styled_lines, "_number", counted_number),
            ):
                await default_move(session)
                await settle(*pilots)
            assert phase(sessions[0]) == "submit"
            assert lines.asked > 0  # (lines were drawn)
            assert counts["ways"] == 0, counts
