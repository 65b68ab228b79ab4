"""Helpers for the store tests (SQLite and Redis): players who play random legal moves at a seeded table, and
the parts of a view that must come back equal after a restart."""

from __future__ import annotations

import random

from dixit_tui.coordinator import (
    ChatLine,
    ChatUpdate,
    Coordinator,
    Identity,
    PlayerSession,
    StateUpdate,
    TableOptions,
    TableView,
    Update,
)
from dixit_tui.engine import PlayerView


class Client:
    def __init__(self) -> None:
        self.views: list[TableView | None] = []
        self.chat: list[ChatLine] = []  # the chat lines received (a line alone comes without a new view)

    def __call__(self, update: Update) -> None:
        if isinstance(update, StateUpdate):
            self.views.append(update.view)
        elif isinstance(update, ChatUpdate):
            self.chat.append(update.line)


def last_view(client: Client) -> TableView:
    """The client's latest table view (it is at a table)."""
    view = client.views[-1]
    assert view is not None
    return view


def game_of(client: Client) -> PlayerView:
    """The client's latest game view, at a table whose game has started."""
    game = last_view(client).game
    assert game is not None
    return game


async def play_some(coord: Coordinator, moves: int, seed: int) -> tuple[str, list[tuple[Client, PlayerSession]]]:
    """Three keyed players at a seeded table play `moves` random legal actions (and chat between turns)."""
    clients = []
    for name in ("ana", "ben", "cy"):
        c = Client()
        clients.append((c, await coord.connect(Identity(name, f"SHA256:{name}"), c)))
    view = await clients[0][1].create(TableOptions(seed=seed, target=12))
    for _, s in clients[1:]:
        await s.join(view.code)
    await clients[0][1].start()
    rng = random.Random(seed)
    for _ in range(moves):
        for c, s in clients:
            g = game_of(c)
            if g.phase == "over":
                break
            if g.can_clue:
                await s.clue(f"clue {rng.random():.3f}", g.hand[0].card)
                break
            if g.submit_count:
                await s.submit([h.card for h in g.hand[: g.submit_count]])
                break
            if g.can_vote and not g.your_votes:
                await s.vote([rng.choice([b.slot for b in g.board if b.slot not in g.forbidden_slots])])
                break
        if game_of(clients[0][0]).phase == "clue" and rng.random() < 0.3:
            await clients[1][1].chat(f"nice {rng.randrange(100)}")
    return view.code, clients


def comparable(view: TableView) -> tuple:
    seats = tuple((s.seat, s.name, s.bot, s.host, s.removed) for s in view.seats)
    return (view.code, view.options, view.status, seats, view.you, view.host, view.game, view.chat, view.reconnect_code)


async def views_after_restart(coord: Coordinator, code: str) -> list[tuple]:
    """What ana, ben and cy see when they come back (with their keys, new sessions) to table `code` of a restarted
    coordinator: to compare with what they saw before."""
    views = []
    for name in ("ana", "ben", "cy"):
        c = Client()
        session = await coord.connect(Identity(f"{name}-again", f"SHA256:{name}"), c)
        await session.join(code)
        views.append(comparable(last_view(c)))
    return views
