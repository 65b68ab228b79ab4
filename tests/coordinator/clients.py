"""Recording sinks for the coordinator tests: a client that keeps every update its session is sent, and a table
of seated clients."""

from __future__ import annotations

import json
from dataclasses import asdict

from dixit_tui.coordinator import Coordinator, Identity, PlayerSession, StateUpdate, TableOptions, TableView, Update
from dixit_tui.engine import PlayerView


class Client:
    def __init__(self) -> None:
        self.updates: list[Update] = []
        self.session: PlayerSession

    def __call__(self, update: Update) -> None:
        self.updates.append(update)

    @property
    def view(self) -> TableView | None:
        states = [u for u in self.updates if isinstance(u, StateUpdate)]
        return states[-1].view if states else None

    def seen(self) -> str:
        return json.dumps([asdict(u) for u in self.updates], default=str)


def game_of(client: Client) -> PlayerView:
    """The client's latest game view, at a table whose game has started."""
    view = client.view
    assert view is not None and view.game is not None
    return view.game


async def connect(coord: Coordinator, name: str, key: str | None = None) -> Client:
    client = Client()
    client.session = await coord.connect(Identity(name, key), client)
    return client


async def table_of(coord: Coordinator, n: int, **options: object) -> list[Client]:
    host = await connect(coord, "ana", key="SHA256:ana")
    view = await host.session.create(TableOptions(**options))  # type: ignore[arg-type]
    clients = [host]
    for i in range(1, n):
        c = await connect(coord, f"p{i}", key=f"SHA256:p{i}")
        await c.session.join(view.code)
        clients.append(c)
    return clients
