"""Text boxes and the focus: a box you come back to keeps its text (the next key goes on after it, it does not
replace it); a phase change moves the keyboard out of a box that takes no input now, keeping the text.
(Found playing over OpenSSH: "stairs to", Esc, Enter, " nowhere", Enter sent the clue "nowhere".)"""

from __future__ import annotations

from contextlib import AsyncExitStack

from textual.widgets import Input

from dixit_tui.coordinator import ChatUpdate
from tests.tui.apps import open_apps, session_of, table
from tests.tui.fixtures import coordinator, options, seat_many, settle


async def test_the_clue_box_keeps_its_text_when_you_come_back_to_it() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        await seat_many(coord, ["ben", "cara"], view.code)
        await settle(pa)
        await pa.press("s", "y")
        await settle(pa)
        await pa.press("1", "enter", *"stairs to", "escape")
        await settle(pa)
        assert not isinstance(ana.focused, Input)
        await pa.press("enter", *" nowhere", "enter")  # back in the box (card 1 still chosen), more words
        await settle(pa)
        game = table(coord, ana).game
        assert game is not None
        assert game.state.turn.clue == "stairs to nowhere"


async def test_the_chat_box_keeps_its_text_when_you_come_back_to_it() -> None:
    coord = coordinator()
    async with AsyncExitStack() as stack:
        ((ana, pa),) = await open_apps(stack, coord, ["ana"])
        await settle(pa)
        view = await session_of(ana).create(options())
        (_, ben), _ = await seat_many(coord, ["ben", "cara"], view.code)
        await settle(pa)
        await pa.press("c", *"hello", "escape")
        await settle(pa)
        await pa.press("c", *" world", "enter")
        await settle(pa)
        heard = [u.line.text for u in ben.updates if isinstance(u, ChatUpdate)]
        assert heard == ["hello world"]
