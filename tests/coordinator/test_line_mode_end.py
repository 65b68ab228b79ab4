"""The plain line mode says the last turn's reveal before the game's end (found playing over OpenSSH: in
`ssh HOST plain`, "Turn 4: ana's card was 2, ..." came after "Game over. ana won.")."""

from __future__ import annotations

import random
from collections.abc import Callable

from dixit_tui.coordinator import Coordinator, Identity
from dixit_tui.coordinator.player_session import SessionTable
from dixit_tui.line_mode import LinePlayer
from tests.tui.fixtures import options, play_until


async def played_in_line_mode(until: Callable[[SessionTable], bool]) -> tuple[list[str], SessionTable]:
    """A game of ana (in the line mode), ben and cara, played until `until`: the lines ana was told, its table."""
    said: list[str] = []
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    player = LinePlayer(said.append)
    player.session = ana = await coord.connect(Identity("ana", "key-ana"), player.deliver)
    view = await ana.create(options(target=10))
    others = [await coord.connect(Identity(n, f"key-{n}"), lambda _u: None) for n in ("ben", "cara")]
    for other in others:
        await other.join(view.code)
    await ana.start()
    table = coord.tables[view.code]
    await play_until([ana, *others], lambda: until(table))
    return said, table


async def test_the_last_reveal_is_said_before_game_over() -> None:
    said, table = await played_in_line_mode(lambda table: table.game is not None and table.game.state.winners != ())
    last = table.game.state.turn.number if table.game is not None else 0
    over = next(i for i, line in enumerate(said) if line.startswith("Game over"))
    reveal = next(i for i, line in enumerate(said) if line.startswith(f"Turn {last}: "))
    assert reveal < over, said[reveal - 3 :]


async def test_each_reveal_is_said_right_after_its_turn_is_revealed() -> None:
    """Found playing over OpenSSH: "Turn 1: your card was 4, everyone found it." came after "ana tells next."."""
    said, _ = await played_in_line_mode(lambda table: table.game is not None and table.game.state.turn.number >= 3)
    for turn in (1, 2):
        revealed = next(i for i, line in enumerate(said) if line.startswith(f"Turn {turn} revealed."))
        assert said[revealed + 1].startswith(f"Turn {turn}: "), said[revealed : revealed + 3]
