"""The practice turn: the host walks everyone at the table through the same scripted, unscored steps."""

from __future__ import annotations

import random

from textual.pilot import Pilot
from textual.widgets import Static

from dixit_tui.coordinator import Coordinator, Identity, TableOptions, Update
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.practice import BOARD, STEPS, PracticeBody, PracticeScreen, card_texts

SIZE = (80, 24)


async def settle(*pilots: Pilot[int]) -> None:
    for _ in range(4):
        for pilot in pilots:
            await pilot.pause()


def practice_of(app: DixitApp) -> PracticeScreen | None:
    return next((s for s in app.screen_stack if isinstance(s, PracticeScreen)), None)


def step_of(app: DixitApp) -> int | None:
    screen = practice_of(app)
    if screen is None:
        return None
    assert screen.query_one(PracticeBody).step == screen.step
    return screen.step


def ignore(_: Update) -> None:
    pass


def test_practice_cards_come_from_the_base_deck() -> None:
    texts = card_texts()
    assert len(texts) == len(BOARD) == 4
    assert all(texts[card.card_id] for card in BOARD)


async def test_host_moves_the_practice_on_for_everyone() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    host = DixitApp(coord, Identity("ana", "key-ana"))
    guest = DixitApp(coord, Identity("ben", "key-ben"))
    async with host.run_test(size=SIZE) as hp, guest.run_test(size=SIZE) as gp:
        await settle(hp, gp)
        assert host.session is not None and guest.session is not None
        view = await host.session.create(TableOptions())
        await guest.session.join(view.code)
        await settle(hp, gp)
        assert practice_of(host) is None and practice_of(guest) is None

        await host.session.practice(0)  # what the table screen's practice key does
        await settle(hp, gp)
        assert step_of(host) == 0 and step_of(guest) == 0
        host_practice, guest_practice = practice_of(host), practice_of(guest)
        assert host_practice is not None and guest_practice is not None
        assert host.screen is host_practice and guest.screen is guest_practice
        assert "You are the host" in str(host.screen.query_one("#practice-nav", Static).render())
        assert "The host moves the practice on" in str(guest.screen.query_one("#practice-nav", Static).render())

        await hp.press("right")
        await settle(hp, gp)
        assert step_of(host) == 1 and step_of(guest) == 1
        await hp.press("right", "right")
        await settle(hp, gp)
        assert step_of(host) == 3 and step_of(guest) == 3
        await hp.press("left")
        await settle(hp, gp)
        assert step_of(host) == 2 and step_of(guest) == 2

        await gp.press("right", "left")  # a guest cannot move it
        await settle(hp, gp)
        assert step_of(host) == 2 and step_of(guest) == 2
        assert coord.tables[view.code].practice_step == 2

        await gp.press("escape")  # a guest only hides it, for themselves
        await settle(hp, gp)
        assert practice_of(guest) is None and step_of(host) == 2
        assert coord.tables[view.code].practice_step == 2
        await hp.press("right")  # the next step shows again
        await settle(hp, gp)
        assert step_of(guest) == 3 and step_of(host) == 3

        for _ in range(STEPS + 2):  # never beyond the last step
            await hp.press("right")
        await settle(hp, gp)
        assert step_of(host) == STEPS - 1 and step_of(guest) == STEPS - 1
        assert "Press s to start the game" in _body_text(host)
        assert "Waiting for the host" in _body_text(guest)

        await hp.press("escape")  # the host ends it for everyone
        await settle(hp, gp)
        assert practice_of(host) is None and practice_of(guest) is None
        assert coord.tables[view.code].practice_step is None
        assert coord.tables[view.code].game is None  # unscored, nothing started


async def test_host_starts_the_game_from_the_last_step() -> None:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    host = DixitApp(coord, Identity("ana", "key-ana"))
    guest = DixitApp(coord, Identity("ben", "key-ben"))
    async with host.run_test(size=SIZE) as hp, guest.run_test(size=SIZE) as gp:
        await settle(hp, gp)
        assert host.session is not None and guest.session is not None
        view = await host.session.create(TableOptions())
        await guest.session.join(view.code)
        await host.session.practice(STEPS - 1)
        await settle(hp, gp)
        await hp.press("s")  # two players: the start is refused and said so; the practice stays
        await settle(hp, gp)
        assert any("needs 3 to 8 players" in str(n.message) for n in host._notifications)
        assert step_of(host) == STEPS - 1

        third = await coord.connect(Identity("cara", "key-cara"), ignore)
        await third.join(view.code)
        await settle(hp, gp)
        await hp.press("s")
        await settle(hp, gp)
        assert coord.tables[view.code].game is not None
        assert practice_of(host) is None and practice_of(guest) is None


async def test_practice_closes_under_the_help_screen() -> None:
    coord = Coordinator(rng=random.Random(1))
    host = DixitApp(coord, Identity("ana", "key-ana"))
    guest = DixitApp(coord, Identity("ben", "key-ben"))
    async with host.run_test(size=SIZE) as hp, guest.run_test(size=SIZE) as gp:
        await settle(hp, gp)
        assert host.session is not None and guest.session is not None
        view = await host.session.create(TableOptions())
        await guest.session.join(view.code)
        await host.session.practice(1)
        await settle(hp, gp)
        await gp.press("f1")  # the guest reads the help on top of the practice
        await settle(hp, gp)
        await host.session.practice(None)
        await settle(hp, gp)
        await gp.press("escape")  # closing the help shows the table, not a stale practice
        await settle(hp, gp)
        assert practice_of(guest) is None


def _body_text(app: DixitApp) -> str:
    screen = practice_of(app)
    assert screen is not None
    return "\n".join(str(w.render()) for w in screen.query_one(PracticeBody).query(Static))
