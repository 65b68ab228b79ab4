"""A watching session's app holds the coordinator's updates between two takes (`dixit_tui.tui.update_pacing`): a newer
view of the same table replaces the one held right before it, nothing else is dropped, and the held updates are taken
in order, together. The interval is set here as the SSH driver would set it for a session that watches."""

from __future__ import annotations

from typing import Any

from dixit_tui.coordinator import ChatLine, ChatUpdate, Identity, StateUpdate, TableView
from dixit_tui.tui.app import CoordinatorUpdate, DixitApp
from dixit_tui.tui.lobby import LobbyScreen
from dixit_tui.tui.table_screen import TableScreen
from tests.tui.fixtures import coordinator, options, seat


async def test_a_watcher_takes_held_updates_together_newest_views_merged_nothing_else_lost() -> None:
    coord = coordinator()
    app = DixitApp(coord, Identity("ana"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.session is not None
        view = await app.session.create(options())
        await seat(coord, "ben", view.code)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)
        shown: list[TableView] = []
        chats: list[str] = []
        real_show, real_chat = screen.show_view, screen.add_chat

        def show(view: TableView) -> None:
            shown.append(view)
            real_show(view)

        def chat(line: Any) -> None:
            chats.append(line.text)
            real_chat(line)

        screen.show_view = show  # type: ignore[method-assign]
        screen.add_chat = chat  # type: ignore[method-assign]
        pacing = app.update_pacing
        pacing.interval = lambda: 30.0  # (watching: it took the table's updates less than 30 s ago)
        now = app.session.view()
        assert now is not None
        first, second, third = (StateUpdate(now) for _ in range(3))
        hi, yo = ChatUpdate(ChatLine(1, "ben", "hi")), ChatUpdate(ChatLine(2, "ben", "yo"))
        for update in (first, hi, second, third, yo):
            app.post_message(CoordinatorUpdate(update))
            await pilot.pause()  # (one at a time: Textual's queue merges nothing here, the pacing does)
        assert (pacing.held, shown, chats) == (4, [], [])  # the second view replaced by the third, right behind it

        app.call_later(pacing.take_held)
        await pilot.pause()
        assert pacing.held == 0
        assert [id(v) for v in shown] == [id(first.view), id(third.view)] and chats == ["hi", "yo"]

        # Leaving the table opens another screen: taken at once, with what was held before it.
        app.post_message(CoordinatorUpdate(ChatUpdate(ChatLine(3, "ben", "bye"))))
        await pilot.pause()
        assert pacing.held == 1
        app.post_message(CoordinatorUpdate(StateUpdate(None)))
        await pilot.pause()
        assert pacing.held == 0 and chats[-1] == "bye" and isinstance(app.screen, LobbyScreen)
