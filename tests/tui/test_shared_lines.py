"""The sessions at a table show the same lines: a line that changed is turned into strips once for all of them.

Counted, never timed: each line of text drawn (Textual's `Visual.to_strips`, the feed's `Console.render_lines`)
during an update is recorded with its text; with three spectators at one table (same terminal size), every line
that changed is drawn once, not once per spectator. The strips drawn for one session are shown by the others, and a
line rendered for one terminal's colours is never sent to another's (`_render_strip` keeps the line as sent per
colour system).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack, contextmanager
from typing import Any
from unittest.mock import patch

from rich.color import ColorSystem
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.content import Content
from textual.pilot import Pilot
from textual.strip import Strip
from textual.visual import Visual

from dixit_tui.textual_host.strip_output import _render_strip
from dixit_tui.tui import picture, side_picture
from tests.tui.fixtures import default_move, default_move_pending, phase, play_until, screen_text, settle
from tests.tui.screen_cost import WATCHERS, watched_table


@contextmanager
def lines_drawn() -> Iterator[Counter[str]]:
    """Every line of text turned into strips while inside, by its text (any app): by a widget (`Visual.to_strips`),
    a picture (`Content.render_strips` outside a widget's: the cards; a picture's line made a strip: the side
    column) or the feed (`Console.render_lines`)."""
    drawn: Counter[str] = Counter()
    to_strips = Visual.to_strips.__func__  # type: ignore[attr-defined]
    render_strips = Content.render_strips
    render_lines = Console.render_lines
    inside = 0

    def counted_to_strips(cls: Any, widget: Any, visual: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal inside
        drawn[str(getattr(visual, "plain", visual))] += 1
        inside += 1
        try:
            return to_strips(cls, widget, visual, *args, **kwargs)
        finally:
            inside -= 1

    def counted_render_strips(self: Content, *args: Any, **kwargs: Any) -> Any:
        if not inside:
            drawn[self.plain] += 1
        return render_strips(self, *args, **kwargs)

    def counted_render_lines(self: Console, renderable: Any, *args: Any, **kwargs: Any) -> Any:
        drawn[renderable.plain if isinstance(renderable, Text) else repr(renderable)] += 1
        return render_lines(self, renderable, *args, **kwargs)

    def counted_strip(line: list[Segment], width: int) -> Strip:  # a line of a picture (tui/picture.py) made
        drawn["".join(segment.text for segment in line)] += 1
        return Strip(line, width)

    with (
        patch.object(Visual, "to_strips", classmethod(counted_to_strips)),
        patch.object(Content, "render_strips", counted_render_strips),
        patch.object(Console, "render_lines", counted_render_lines),
        patch.object(picture, "Strip", counted_strip),
    ):
        yield drawn


async def drawn_by(pilots: list[Pilot[Any]], update: Callable[[], Awaitable[object]]) -> Counter[str]:
    await settle(*pilots)
    with lines_drawn() as drawn:
        await update()
        await settle(*pilots)
    return drawn


async def test_a_move_draws_each_changed_line_once_for_every_spectator() -> None:
    """A card given changes a seat row, the status line and the log at every spectator's screen: each of those
    lines is drawn once for the three of them (each session drew its own: three times); the side column's picture
    with the seat row is made once for the three (its changed row drawn once, or found made: a seat's row as it was
    earlier in the game)."""
    async with AsyncExitStack() as stack:
        sessions, apps, pilots = await watched_table(stack)
        await play_until(sessions, lambda: phase(sessions[0]) == "submit")
        await settle(*pilots)
        movers = [s for s in sessions if default_move_pending(s)]
        for session in movers[:3]:
            made, found = side_picture.counts.drawn, side_picture.counts.shared
            drawn = await drawn_by(pilots, lambda s=session: default_move(s))  # type: ignore[misc]
            assert phase(sessions[0]) == "submit"
            assert any("gave a card" in text for text in drawn), drawn  # the new log line
            assert len(drawn) >= 2, drawn  # the log line, the status line (at least)
            assert set(drawn.values()) == {1}, drawn
            assert side_picture.counts.drawn - made == 1, side_picture.counts  # (the seat row changed)
            assert side_picture.counts.shared - found >= WATCHERS - 1, side_picture.counts
        texts = {screen_text(app) for app in apps}
        assert len(texts) == 1  # (the three show the same screen)


async def test_the_board_is_drawn_once_for_every_spectator() -> None:
    """The last card starts the vote: the board appears at every spectator's screen, each card drawn once for the
    three of them."""
    async with AsyncExitStack() as stack:
        sessions, apps, pilots = await watched_table(stack)
        await play_until(sessions, lambda: phase(sessions[0]) == "submit")
        movers = [s for s in sessions if default_move_pending(s)]
        for session in movers[:-1]:
            await default_move(session)
        drawn = await drawn_by(pilots, lambda: default_move(movers[-1]))
        assert phase(sessions[0]) == "vote"
        board = sessions[0].view().game.board  # type: ignore[union-attr]
        card_lines = [text for text in drawn if any(slot.text[:20] in text for slot in board)]
        assert len(card_lines) >= len(board), drawn
        assert set(drawn.values()) == {1}, drawn
        texts = {screen_text(app) for app in apps}
        assert len(texts) == 1


def test_a_shared_line_is_sent_in_each_terminals_colours() -> None:
    """One strip sent to a truecolor terminal and to a 256-colour one: each gets its own colour codes (the line as
    sent was kept on the strip, whatever the colour system: the second terminal got the first one's codes)."""
    strip = Strip.blank(3, Style(bgcolor="#123456"))
    truecolor = Console(color_system="truecolor", force_terminal=True)
    eight_bit = Console(color_system="256", force_terminal=True)
    assert truecolor._color_system == ColorSystem.TRUECOLOR and eight_bit._color_system == ColorSystem.EIGHT_BIT
    first = _render_strip(strip, truecolor)
    second = _render_strip(strip, eight_bit)
    assert "48;2;18;52;86" in first
    assert "48;5;" in second and "48;2;" not in second
    assert _render_strip(strip, truecolor) == first


async def test_the_board_builds_each_card_once_and_no_styles_per_line() -> None:
    """The vote starts: the board's picture (each card's `▶ 3  text` rows) is made once for the three spectators
    of a size (each session built its own prompts), and drawing it works out the list's styles once per list, not
    once per line drawn."""
    from textual.dom import DOMNode

    from dixit_tui.tui import cards_picture
    from dixit_tui.tui.widgets import cards

    async with AsyncExitStack() as stack:
        sessions, _, pilots = await watched_table(stack)
        await play_until(sessions, lambda: phase(sessions[0]) == "submit")
        movers = [s for s in sessions if default_move_pending(s)]
        for session in movers[:-1]:
            await default_move(session)
        await settle(*pilots)
        cards_picture.card_lines.cache_clear()
        drawn, shared = cards.PICTURES.counts.drawn, cards.PICTURES.counts.shared
        component_styles = DOMNode.get_component_styles
        looked_up: Counter[int] = Counter()

        def counted(self: DOMNode, *names: str) -> Any:
            if isinstance(self, cards.CardList):
                looked_up[id(self)] += 1
            return component_styles(self, *names)

        with patch.object(DOMNode, "get_component_styles", counted):
            await drawn_by(pilots, lambda: default_move(movers[-1]))
        assert phase(sessions[0]) == "vote"
        board = sessions[0].view().game.board  # type: ignore[union-attr]
        wrapped = cards_picture.card_lines.cache_info()
        assert wrapped.misses <= len(board), wrapped  # each card wrapped once, for every screen
        drawn, shared = cards.PICTURES.counts.drawn - drawn, cards.PICTURES.counts.shared - shared
        assert shared >= (WATCHERS - 1) * drawn, (drawn, shared)  # the board's picture made once, then looked up
        # (the list's styles are worked out once per change of its styles: 4 styles of 6 components; OptionList asked
        # again for each line drawn: 20 and more)
        assert looked_up and max(looked_up.values()) <= 6, looked_up


async def test_the_reveal_draws_only_the_score_tracks_rows_that_changed() -> None:
    """The last vote reveals the turn and the markers move on the score track: the ruler and its numbers are not
    drawn again, and each marker row that changed, and the legend when it says other ties, is drawn once for the
    three spectators (the whole track was drawn again at every screen)."""
    async with AsyncExitStack() as stack:
        sessions, apps, pilots = await watched_table(stack)
        await play_until(sessions, lambda: phase(sessions[0]) == "vote")
        voters = [s for s in sessions if default_move_pending(s)]
        for session in voters[:-1]:
            await default_move(session)
        drawn = await drawn_by(pilots, lambda: default_move(voters[-1]))
        assert phase(sessions[0]) == "clue"
        inner = {text: text.strip(" │") for text in drawn}  # (the side column's lines are framed)
        assert not [text for text in drawn if "├" in text or inner[text].startswith("0 ")], drawn  # the ruler, numbers
        markers = [text for text in drawn if inner[text] and set(inner[text]) <= set("12345678abcdefgh ")]
        assert markers, drawn  # the marker rows (a seat's digit, a tie's letter)
        legend = [text for text in drawn if "goal 30" in text]  # (its ties: "a: 2 3 4 · goal 30")
        assert all(drawn[text] == 1 for text in markers + legend), drawn
        assert len({screen_text(app) for app in apps}) == 1
