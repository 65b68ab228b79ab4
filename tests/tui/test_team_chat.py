"""Team chat on the table screen: in team mode teammates agree on their card in a line nobody else gets."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from dixit_tui.coordinator import ChatUpdate, Coordinator, PlayerSession
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.widgets.chat import ChatPanel
from tests.tui.apps import open_apps, session_of, table_of
from tests.tui.fixtures import Recorder, coordinator, default_move, options, screen_text, seat_many, settle


async def test_teammates_agree_in_team_chat_while_the_table_chat_is_paused() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options(mode="team"))
        ben_cara = await seat_many(coord, ["ben", "cara"], view.code)
        ((dan, pd),) = await open_apps(stack, coord, ["dan"], view.code)  # seat 3: ana's teammate
        eve_fay = await seat_many(coord, ["eve", "fay"], view.code)
        await settle(pa, pd)
        panel = ana.screen.query_one(ChatPanel)
        assert table_of(ana).check_action("team_chat", ()) is False  # no team chat before the start
        await pa.press("s", "y")
        await settle(pa, pd)
        assert table_of(ana).check_action("team_chat", ()) is True
        assert "T Team chat" in screen_text(ana)
        assert not panel.to_team  # the table's chat is open: the box goes to the table
        # the box's target, then its hint, which does not say "Chat" again (it read "Table: Chat: press c...")
        assert "Table: press c, type, Enter · T: your team" in screen_text(ana), screen_text(ana)
        await default_move(ben_cara[0][0])  # ben gives the first clue: the table's chat pauses
        await settle(pa, pd)
        assert panel.paused and panel.to_team  # ...and the box goes to the team, saying so
        assert "Team:  only dan sees this" in screen_text(ana)  # the label in reverse colours, a space apart
        assert "table chat paused; team chat open" in screen_text(ana)
        await pa.press("c", *"the lighthouse?", "enter")
        await settle(pa, pd)
        assert ana.screen.query_one("#chat-input", Input).value == ""
        assert "ana (team): the lighthouse?" in screen_text(dan)
        assert "ana (team): the lighthouse?" in screen_text(ana)
        await pd.press("c", *"yes, give it", "enter")
        await settle(pa, pd)
        assert "dan (team): yes, give it" in screen_text(ana)
        for _, sink in (*ben_cara, *eve_fay):  # the other teams never get a word of it
            assert "lighthouse" not in repr(sink.updates) and "give it" not in repr(sink.updates)
        # ctrl+t switches to the table, whose chat is paused: kept, not sent
        await pa.press("ctrl+t", *"hint", "enter")
        await settle(pa)
        assert not panel.to_team and "Table:" in screen_text(ana)
        assert ana.screen.query_one("#chat-input", Input).value == "hint"
        assert not any(isinstance(u, ChatUpdate) for _, s in (*ben_cara, *eve_fay) for u in s.updates)


async def test_no_team_chat_outside_team_mode() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        await seat_many(coord, ["ben", "cara"], view.code)
        await pa.press("s", "y")
        await settle(pa)
        panel = ana.screen.query_one(ChatPanel)
        assert table_of(ana).check_action("team_chat", ()) is False
        await pa.press("T")
        await settle(pa)
        assert not panel.to_team and "Table:" not in screen_text(ana)


async def team_game_started(
    stack: AsyncExitStack,
) -> tuple[Coordinator, DixitApp, Pilot[Any], list[PlayerSession], list[Recorder]]:
    """ana on a Pilot app and five others (seats 1-5; ana's teammate is dev, seat 3), the game started."""
    coord = coordinator()
    ((ana, pa),) = await open_apps(stack, coord, ["ana"])
    await settle(pa)
    view = await session_of(ana).create(options(mode="team"))
    ben_cara = await seat_many(coord, ["ben", "cara"], view.code)
    dev_eve_fay = await seat_many(coord, ["dev", "eve", "fay"], view.code)
    await settle(pa)
    await pa.press("s", "y")
    await settle(pa)
    return coord, ana, pa, [s for s, _ in (*ben_cara, *dev_eve_fay)], [r for _, r in (*ben_cara, *dev_eve_fay)]


async def test_c_after_t_then_esc_aims_the_box_at_the_table_while_table_chat_is_open() -> None:
    async with AsyncExitStack() as stack:
        _, ana, pa, _, _ = await team_game_started(stack)
        panel = ana.screen.query_one(ChatPanel)
        assert not panel.paused
        await pa.press("T")
        await settle(pa)
        assert panel.to_team
        # the log's title says where the box sends, whole at 80 columns; the table's chat was never paused (it read
        # "Log & chat (table chat open again; your box still …": seen playing)
        assert "─Log & chat (your box sends to the team)─" in screen_text(ana)
        await pa.press("escape", "c")
        await settle(pa)
        assert not panel.to_team and panel.input.has_focus
        assert "Table:" in screen_text(ana)


async def test_a_team_line_typed_at_the_reveal_stays_a_team_line() -> None:
    async with AsyncExitStack() as stack:
        coord, ana, pa, others, sinks = await team_game_started(stack)
        assert isinstance(ana.screen, TableScreen) and ana.session is not None
        table = coord.tables[ana.screen.code]
        assert table.game is not None
        panel = ana.screen.query_one(ChatPanel)
        everyone = [ana.session, *others]
        # The clue and the cards, made for everyone (not by keys), up to the vote.
        for _ in range(40):
            if table.game.state.phase.value == "vote":
                break
            for session in everyone:
                if table.game.state.phase.value != "vote":
                    await default_move(session)
        assert table.game.state.phase.value == "vote" and table.game.state.turn.number == 1
        await settle(pa)
        assert panel.paused and panel.to_team
        await pa.press("c", *"the owl")  # typing a team line...
        for session in [*others, ana.session]:  # ...when the votes come in: the reveal
            await default_move(session)
        await settle(pa)
        assert not panel.paused
        assert table.game.state.turn.number == 2
        assert panel.to_team  # not switched back to the table by itself
        await pa.press("enter")  # closes the recap of the reveal
        await settle(pa)
        assert "Team:" in screen_text(ana)
        await pa.press("enter")
        await settle(pa)
        heard = [[u.line.text for u in sink.updates if isinstance(u, ChatUpdate)] for sink in sinks]
        assert heard == [[], [], ["the owl"], [], []]  # dev alone, ana's teammate (seats 0+3)
