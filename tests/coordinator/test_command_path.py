"""The coordinator's command path: a command's events are serialised once for the store and never parsed back; the
stored records and snapshots are what they were; `simulate --through-coordinator` plays the engine's games."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dixit_tui.coordinator import Coordinator, Identity, TableOptions, Update
from dixit_tui.coordinator import table as table_module
from dixit_tui.engine import GameConfig, Phase, event_from_dict, event_to_dict, fold
from dixit_tui.engine.random_play import random_command
from dixit_tui.simulate import simulate
from dixit_tui.store.base import NullStore


class KeepingStore(NullStore):
    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self.snapshots: list[dict[str, Any]] = []

    async def append(self, code: str, records: Any) -> None:
        self.records.extend(records)

    async def snapshot(self, code: str, data: dict[str, Any]) -> None:
        self.snapshots.append(data)


async def test_commands_never_parse_their_events_back_and_the_store_gets_what_it_got(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(data: Any) -> Any:
        raise AssertionError("a command's events were parsed back from their dicts")

    monkeypatch.setattr(table_module, "event_from_dict", refuse)
    store = KeepingStore()
    coordinator = Coordinator(rng=random.Random(1), allow_seeded_tables=True, store=store, snapshot_every=10)

    def sink(update: Update) -> None:
        return None

    sessions = [await coordinator.connect(Identity(name), sink) for name in ("ana", "ben", "cy", "dee")]
    view = await sessions[0].create(TableOptions(seed=5, target=10))
    for session in sessions[1:]:
        await session.join(view.code)
    await sessions[0].start()
    table = coordinator.table(view.code)
    rng = random.Random(2)
    assert table.game is not None
    while table.game.state.phase is not Phase.OVER:
        command = random_command(table.game.state, rng)
        assert command is not None
        match type(command).__name__:
            case "GiveClue":
                await sessions[command.seat].clue(command.text, command.card)  # type: ignore[union-attr]
            case "Submit":
                await sessions[command.seat].submit(command.cards)  # type: ignore[union-attr]
            case _:
                await sessions[command.seat].vote(command.slots, command.red)  # type: ignore[union-attr]
    monkeypatch.undo()
    stored = [e for r in store.records if r["t"] == "events" for e in r["events"]]
    assert stored == [event_to_dict(e) for e in table.game.events]  # serialised once, exactly as before
    assert fold(event_from_dict(e) for e in stored) == table.game.state  # and they replay to the live state
    assert store.snapshots, "snapshot_every=10 takes snapshots"
    last = store.snapshots[-1]["events"]
    assert last == stored[: len(last)]  # a snapshot holds the stored dicts of the events so far


@pytest.mark.parametrize(("mode", "players"), [("standard", 8), ("party", 7), ("team", 6)])
def test_simulate_through_the_coordinator_plays_the_same_games(mode: str, players: int) -> None:
    from dixit_tui.engine import Mode

    config = GameConfig(Mode(mode))
    engine = simulate(config, players, 2, seed=11)
    through = simulate(config, players, 2, seed=11, through_coordinator=True)
    assert through["through"] == "coordinator" and engine["through"] == "engine"
    for key in ("turns", "commands", "turns_per_game", "winning_score", "score", "shared_wins"):
        assert through[key] == engine[key], key
