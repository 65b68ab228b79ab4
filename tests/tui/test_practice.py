"""The practice turn's help beside the table: what it says to whom, and that it goes once the game proper begins."""

from __future__ import annotations

import random

from textual.pilot import Pilot

from dixit_tui.coordinator import Coordinator, Identity, TableOptions, Update
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.table_words import HEADLINE, practice_help
from dixit_tui.tui.widgets.main_view import MainView
from dixit_tui.tui.widgets.side_panel import SidePanel
from dixit_tui.tui.widgets.top_lines import TopLines

SIZE = (80, 24)


async def settle(*pilots: Pilot[int]) -> None:
    for _ in range(4):
        for pilot in pilots:
            await pilot.pause()


def ignore(_: Update) -> None:
    pass


def help_shown(app: DixitApp) -> str | None:
    screen = next((s for s in app.screen_stack if isinstance(s, TableScreen)), None)
    assert screen is not None
    side = screen.query_one(SidePanel).side
    return side.help.plain if side is not None and side.help is not None else None


async def test_the_help_follows_the_practice_turn_and_goes_with_it() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    host = DixitApp(coord, Identity("ana", "key-ana"))
    guest = DixitApp(coord, Identity("ben", "key-ben"))
    async with host.run_test(size=SIZE) as hp, guest.run_test(size=SIZE) as gp:
        await settle(hp, gp)
        assert host.session is not None and guest.session is not None
        view = await host.session.create(TableOptions(seed=4))
        await guest.session.join(view.code)
        cara = await coord.connect(Identity("cara", "key-cara"), ignore)
        await cara.join(view.code)
        await settle(hp, gp)
        assert help_shown(host) is None
        await hp.press("p", "y")
        await settle(hp, gp)
        shown = help_shown(host)
        assert shown is not None and shown.startswith(HEADLINE) and "You are the storyteller" in shown
        shown = help_shown(guest)
        assert shown is not None and "ana is the storyteller" in shown
        assert "· practice turn ·" in guest.screen.query_one(TopLines).bar.plain

        table = coord.tables[view.code]
        assert table.game is not None
        await host.session.clue("a quiet storm", table.game.state.hands[0][0])
        await settle(hp, gp)
        assert "fits the clue best" in (help_shown(guest) or "")
        assert "Your card is in" in (help_shown(host) or "")
        await guest.session.submit(list(table.game.state.hands[1][:2]))  # three players: two cards each
        await cara.submit(list(table.game.state.hands[2][:2]))
        await settle(hp, gp)
        assert "turn the dial and vote" in (help_shown(guest) or "")
        for seat, session in ((1, guest.session), (2, cara)):
            forbidden = table.game.state.forbidden_slots(seat)
            await session.vote([next(s for s in range(1, 6) if s not in forbidden)])
        await settle(hp, gp)
        assert table.game.state.turn.number == 1
        assert help_shown(host) is None and help_shown(guest) is None  # the game proper: no practice help


def test_no_help_outside_the_practice() -> None:
    coord = Coordinator(rng=random.Random(1))

    async def run() -> None:
        ana = await coord.connect(Identity("ana", "k"), ignore)
        view = await ana.create(TableOptions())
        assert practice_help(view) is None

    import asyncio

    asyncio.run(run())


async def test_voiding_the_practice_turn_and_a_game_ended_in_it_say_practice_not_turn_0() -> None:
    from dixit_tui.tui.widgets.confirm import ConfirmScreen

    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    host = DixitApp(coord, Identity("ana", "key-ana"))
    async with host.run_test(size=SIZE) as hp:
        await settle(hp)
        assert host.session is not None
        view = await host.session.create(TableOptions(seed=4))
        ben = await coord.connect(Identity("ben", "key-ben"), ignore)
        cara = await coord.connect(Identity("cara", "key-cara"), ignore)
        await ben.join(view.code)
        await cara.join(view.code)
        await settle(hp)
        await hp.press("p")
        await settle(hp)
        assert (
            isinstance(host.screen, ConfirmScreen)
            and host.screen.title_text == "Start with a practice turn, 3 players?"
        )
        await hp.press("y")
        await settle(hp)
        table = coord.tables[view.code]
        assert table.game is not None and table.game.state.practice
        await host.session.clue("a quiet storm", table.game.state.hands[0][0])
        await settle(hp)
        await hp.press("v")
        await settle(hp)
        dialog = host.screen
        assert isinstance(dialog, ConfirmScreen)
        body = str(dialog.body)
        assert body.startswith("Void the practice turn?") and "turn 0" not in body, body
        await hp.press("y")
        await settle(hp)
        messages = [str(n.message) for n in host._notifications]
        assert "The practice turn was voided: every card went back to its owner." in messages, messages
        assert not any("Turn 0" in m for m in messages)
        await cara.remove(2)  # cara leaves for good: two are too few, and nothing counted yet
        await settle(hp)
        assert table.game.state.winners == ()
        screen = next(s for s in host.screen_stack if isinstance(s, TableScreen))
        shown = screen.query_one(TopLines).status.plain
        assert "The practice ended, nobody won." in shown, shown
        over = screen.query_one(MainView).over.text.plain
        assert over.startswith("The practice ended: too few players are left to play, so nobody won."), over
