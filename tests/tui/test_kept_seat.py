"""Back with your key, back at your seat (issue 22, item 6): a keyed player who stepped away from a running game reads
on the lobby's first line where their seat is kept, with that table selected, and Enter returns them to it; the
lobby's "From your shell: ... join CODE" hint never names an empty leftover table (it pointed at one)."""

from __future__ import annotations

from contextlib import AsyncExitStack

from textual.widgets import Static

from dixit_tui.coordinator import Identity
from dixit_tui.tui.lobby import LobbyScreen
from dixit_tui.tui.table_screen import TableScreen
from tests.tui.apps import open_apps, session_of
from tests.tui.fixtures import coordinator, options, settle
from tests.tui.lobby_pilot import hint_of


def _lobby(app: object) -> LobbyScreen:
    screen = getattr(app, "screen", None)
    assert isinstance(screen, LobbyScreen), screen
    return screen


async def test_a_keyed_player_who_stepped_away_reads_where_the_seat_is_and_enter_returns() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        for name in ("ben", "cara"):
            session = await coord.connect(Identity(name, f"key-{name}"), lambda _: None)
            await session.join(view.code)
        dee = await coord.connect(Identity("dee", "key-dee"), lambda _: None)
        lobby_table = await dee.create(options())  # another table, listed first: the kept seat's is selected
        await session_of(ana).start()
        await settle(pa)
        await pa.press("l", "y")  # steps away: the seat is kept
        await settle(pa)
        lobby = _lobby(ana)
        welcome = str(lobby.query_one("#welcome", Static).render())
        assert welcome.startswith(
            f"Welcome back, ana! Your seat at table {view.code} is kept: Enter on it returns you to your game."
        ), welcome
        assert lobby.selected_code() == view.code and lobby_table.code != view.code
        assert f"join {view.code}" in hint_of(lobby)
        await pa.press("enter")
        await settle(pa)
        assert isinstance(ana.screen, TableScreen)
        back = session_of(ana).view()
        assert back is not None and back.you == 0 and back.code == view.code


async def test_the_shell_hint_never_names_an_empty_leftover_table() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        sessions = [await coord.connect(Identity(n, f"key-{n}"), lambda _: None) for n in ("ben", "cara", "dan")]
        ben, cara, dan = sessions
        view = await ben.create(options())
        await cara.join(view.code)
        await dan.join(view.code)
        await ben.start()
        await dan.remove(2)  # dan leaves for good: the game is over
        zed = await coord.connect(Identity("zed", "key-zed"), lambda _: None)
        await zed.watch(view.code)  # a spectator keeps the finished table listed
        await ben.leave()
        await cara.leave()
        await settle(pa)
        lobby = _lobby(ana)
        assert [(t.code, t.status, t.players) for t in ana.tables] == [(view.code, "over", 2)]
        assert lobby.selected_code() == view.code
        hint = hint_of(lobby)
        assert f"join {view.code}" not in hint and "join CODE" in hint, hint


async def test_leaving_for_good_from_the_table_with_x() -> None:
    """Issue 22 item 2: `l` asks to step away (the seat is kept) and says how to leave for good instead: x; a player
    who is not the host may do that too, and lands in the lobby. Their key bar says so: "x Leave for good", not
    "x Remove player" (seen playing: the bar offered removing, the dialog leaving), and x asks at once (a pick of one,
    yourself, was titled "Remove which player?")."""
    from dixit_tui.tui.widgets.confirm import ConfirmScreen
    from dixit_tui.tui.widgets.keybar import KeyBar

    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        (ben, pb), (_, pc), (_, pd) = await open_apps(stack, coord, ["ben", "cara", "dee"], view.code)
        await session_of(ana).start()
        await settle(pa, pb, pc, pd)
        await pb.press("l")
        await settle(pb)
        dialog = ben.screen
        assert isinstance(dialog, ConfirmScreen) and dialog.yes_label == "Step away"
        assert "To leave the game for good instead, press x at the table." in str(dialog.body)
        await pb.press("escape")
        await settle(pb)
        keys = {k.key: k.description for k in ben.screen.query_one(KeyBar).keys}
        assert keys["x"] == "Leave for good" and keys["l"] == "Leave", keys
        host_keys = {k.key: k.description for k in ana.screen.query_one(KeyBar).keys}
        assert host_keys["x"] == "Remove player", host_keys
        await pb.press("x")
        await settle(pb)
        assert isinstance(ben.screen, ConfirmScreen) and ben.screen.title_text == "Leave for good?"
        await pb.press("y")
        await settle(pa, pb)
        assert isinstance(ben.screen, LobbyScreen)
        table = coord.tables[view.code]
        assert table.seats[1].removed and table.game is not None and table.status == "playing"
