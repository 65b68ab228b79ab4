"""Make docs/screenshot.svg: one player's table in the vote phase, from a seeded game (the same picture every run).

    .venv/bin/python docs/screenshot.py            # writes docs/screenshot.svg
    .venv/bin/python docs/screenshot.py out.svg    # or another file

The game runs on a real Coordinator with a fixed random source and a seeded table; ana is a real DixitApp driven
by Textual's test pilot at 100x32 cells, the other four seats are sessions that make fixed moves. The first turn is
played and its recap closed, so the second turn's vote shows scores, the log and a chat line.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from dixit_tui.coordinator import Coordinator, Identity, PlayerSession, TableOptions, Update
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen

SIZE = (100, 32)
OUT = Path(__file__).resolve().parent / "screenshot.svg"
OTHERS = ("ben", "cara", "dev", "eve")
CLUES = {1: "the long way home", 2: "a quiet storm"}


def ignore(update: Update) -> None:
    """The sink of a seat without a screen."""


async def move(session: PlayerSession, turn: int) -> bool:
    """If this seat is awaited, a fixed legal move: the first card(s), the first slot it may vote for."""
    view = session.view()
    if view is None or view.game is None or view.you is None or view.you not in view.game.waiting_for:
        return False
    game = view.game
    if game.phase == "clue":
        await session.clue(CLUES[turn], game.hand[0].card if game.clue_needs_card else None)
    elif game.phase == "submit":
        await session.submit([card.card for card in game.hand[: game.submit_count]])
    elif game.phase == "vote":
        allowed = [slot.slot for slot in game.board if slot.slot not in game.forbidden_slots]
        await session.vote(allowed[turn % len(allowed) : turn % len(allowed) + 1])
    return True


def phase(session: PlayerSession) -> tuple[int, str]:
    view = session.view()
    assert view is not None and view.game is not None
    return view.game.turn, view.game.phase


async def main(out: Path) -> None:
    coord = Coordinator(rng=random.Random(2024), allow_seeded_tables=True)
    app = DixitApp(coord, Identity("ana", "key-ana"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.session is not None
        ana = app.session
        view = await ana.create(TableOptions(seed=31, target=30))
        others = []
        for name in OTHERS:
            session = await coord.connect(Identity(name, f"key-{name}"), ignore)
            await session.join(view.code)
            others.append(session)
        await others[0].chat("good luck, all!")
        await ana.start()
        # Turn 1: ben tells, everyone plays; ana's moves go through her session too (only the picture matters here).
        await move(others[0], 1)
        while phase(ana) != (2, "clue"):
            if not any([await move(s, 1) for s in (ana, *others)]):
                raise RuntimeError("stuck in turn 1")
        # Turn 2 up to the vote: a chat line, then cara tells and everyone gives a card; nobody has voted yet.
        await others[2].chat("nice one, ben")
        for session in (others[1], ana, *others[:1], *others[2:]):
            await move(session, 2)
        if phase(ana) != (2, "vote"):
            raise RuntimeError(f"expected the vote of turn 2, not {phase(ana)}")
        await pilot.pause()
        while not isinstance(app.screen, TableScreen):  # close the recap of turn 1
            await pilot.press("enter")
            await pilot.pause()
        await pilot.press("right")  # the dial points at another card
        await pilot.pause()
        app.clear_notifications()
        await pilot.pause(0.3)
        svg = app.export_screenshot(title="ssh -t dixit.example.org  ·  dixit-tui")
    out.write_text(svg, encoding="utf-8")
    print(f"wrote {out} ({len(svg):,} bytes)")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
