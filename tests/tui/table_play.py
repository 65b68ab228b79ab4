"""Sessions at one table without screens (recording nothing), played by the first legal choices."""

from __future__ import annotations

import random

from dixit_tui.coordinator import Coordinator, Identity, PlayerSession, TableOptions, TableView, Update
from dixit_tui.engine import Phase


def ignore(_: Update) -> None:
    pass


async def open_table(names: list[str], *, watcher: bool = False, **options: object) -> list[PlayerSession]:
    """Sessions seated at one new table, the first its host (the last a spectator with `watcher`), not started."""
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    sessions = [await coord.connect(Identity(name, f"key-{name}"), ignore) for name in names]
    view = await sessions[0].create(TableOptions(seed=5, **options))  # type: ignore[arg-type]
    for session in sessions[1:]:
        await session.join(view.code)
    if watcher:
        spectator = await coord.connect(Identity("zoe", "key-zoe"), ignore)
        await spectator.watch(view.code)
        sessions.append(spectator)
    return sessions


def view_of(session: PlayerSession) -> TableView:
    view = session.view()
    assert view is not None
    return view


def teller_of(sessions: list[PlayerSession]) -> PlayerSession:
    game = view_of(sessions[0]).game
    assert game is not None and game.storyteller is not None
    return sessions[game.storyteller]


async def tell(session: PlayerSession, clue: str = "a quiet storm") -> None:
    game = view_of(session).game
    assert game is not None
    await session.clue(clue, game.hand[0].card if game.clue_needs_card and not game.hand_hidden else None)


async def give(sessions: list[PlayerSession]) -> None:
    for session in sessions:
        game = view_of(session).game
        if game is not None and game.submit_count and view_of(session).you in game.waiting_for:
            await session.submit([c.card for c in game.hand[: game.submit_count]])


async def vote_all(sessions: list[PlayerSession]) -> None:
    for session in sessions:
        game = view_of(session).game
        if game is not None and game.can_vote and view_of(session).you in game.waiting_for:
            allowed = [s.slot for s in game.board if s.slot not in game.forbidden_slots]
            await session.vote(allowed[:1], red=game.board[-1].slot if game.places_red else None)


async def play_to_the_end(sessions: list[PlayerSession]) -> None:
    """Clue, cards and votes by the first legal choices until the game is over (at most 200 rounds)."""
    for _ in range(200):
        game = view_of(sessions[0]).game
        assert game is not None
        if game.phase == Phase.OVER:
            return
        if game.phase == Phase.CLUE:
            await tell(teller_of(sessions))
        await give(sessions)
        await vote_all(sessions)
