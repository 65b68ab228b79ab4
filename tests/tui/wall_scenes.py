"""Tables seen by spectators, for the wall's tests: a seeded coordinator, seats played with fixed moves, and the
spectators' views at the step asked for (the vote, or the reveal just after it)."""

from __future__ import annotations

from dixit_tui.coordinator import Identity, TableView
from tests.tui.fixtures import Recorder, coordinator, options, phase_of, play_until, seat_many

NAMES = ["ana", "ben", "cara", "dev", "eve", "fay"]
PLAYERS = {"standard": 3, "party": 6, "team": 6}


async def in_lobby(players: int, bots: int = 0, **kwargs: object) -> TableView:
    """A spectator's view of a standard table's lobby, `players` seated (ana the host first) and `bots` bots."""
    coord = coordinator()
    host = await coord.connect(Identity("ana", key="key-ana"), Recorder())
    view = await host.create(options(**kwargs))
    await seat_many(coord, NAMES[1:players], view.code)
    if bots:
        await host.add_bots(bots)
    spectator = await coord.connect(Identity("tv", key="key-tv"), Recorder())
    seen = await spectator.watch(view.code)
    return spectator.view() or seen


async def spectated(mode: str, step: str, watchers: int = 1, **kwargs: object) -> list[TableView]:
    """A `mode` table played to `step` ("vote": the vote on turn 1; "reveal": turn 1 scored, turn 2's clue not yet
    given; "submit": turn 2's cards come in; "over": the game over), and the views of the `watchers` spectators who
    watch it."""
    coord = coordinator()
    host = await coord.connect(Identity("ana", key="key-ana"), Recorder())
    view = await host.create(options(mode=mode, **kwargs))
    others = [s for s, _ in await seat_many(coord, NAMES[1 : PLAYERS[mode]], view.code)]
    spectators = []
    for n in range(watchers):
        spectator = await coord.connect(Identity(f"tv{n}", key=f"key-tv{n}"), Recorder())
        await spectator.watch(view.code)
        spectators.append(spectator)
    await host.start()
    if step == "vote":
        await play_until([host, *others], lambda: phase_of(host)[2] == "vote")
    elif step == "reveal":
        await play_until([host, *others], lambda: phase_of(host)[1] == 2)
    elif step == "submit":  # turn 2's cards come in
        await play_until([host, *others], lambda: phase_of(host)[1:] == (2, "submit"))
    else:  # "over"
        await play_until([host, *others], lambda: phase_of(host)[0] == "over")
    views = [spectator.view() for spectator in spectators]
    assert all(seen is not None and seen.you is None for seen in views)
    return [seen for seen in views if seen is not None]
