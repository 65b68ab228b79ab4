"""The league: bot strategies play many games in this process through a coordinator; the coordinator's ratings of
their keys, rebuilt from its store, equal the live ones; the same seed plays the same league. The shrewd strategy
is deterministic under its seed and never plays an illegal move."""

from __future__ import annotations

from pathlib import Path

from dixit_tui.bots.bench_strength import play_game
from dixit_tui.bots.strategy_names import strategy_named
from dixit_tui.decks import resolve_decks
from dixit_tui.engine import GameConfig, Mode, Profile
from dixit_tui.league import run_league
from dixit_tui.ratings import rebuild
from dixit_tui.store import SqliteStore


async def test_ratings_rebuilt_after_a_league_run_equal_the_live_ones(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path)
    try:
        league = await run_league(["random", "smart", "shrewd"], 5, (4, 5), seed=3, target=10, store=store)
        assert league.games == 5 and league.coordinator is not None
        live = league.coordinator.ratings.as_rows()
        assert live and sum(games for *_, games in live) == sum(len(r["players"]) for r in league.results)
        assert (await rebuild(store)).as_rows() == live
        stats = league.stats
        assert sum(s.seats for s in stats.values()) == sum(len(r["players"]) for r in league.results)
    finally:
        await store.close()


async def test_the_same_seed_plays_the_same_league() -> None:
    first = await run_league(["random", "shrewd"], 3, (4, 4), seed=9, target=10)
    again = await run_league(["random", "shrewd"], 3, (4, 4), seed=9, target=10)
    strip = [{k: v for k, v in r.items() if k != "at"} for r in first.results]
    assert strip == [{k: v for k, v in r.items() if k != "at"} for r in again.results]
    figures = {k: v for k, v in first.as_json().items() if k not in ("seconds", "games_per_second")}
    assert figures == {k: v for k, v in again.as_json().items() if k not in ("seconds", "games_per_second")}


def test_the_shrewd_strategy_is_deterministic_and_plays_whole_games() -> None:
    cards = resolve_decks(["base"])
    for mode, profile, players in ((Mode.STANDARD, Profile.REFRESH, 3), (Mode.STANDARD, Profile.ODYSSEY, 7)):
        config = GameConfig(mode, profile, target=10)
        seats = [strategy_named("shrewd" if i % 2 else "smart") for i in range(players)]
        once = play_game(config, cards, seats, seed=5)
        assert play_game(config, cards, [strategy_named(s.name) for s in seats], seed=5) == once
        assert once.winners
    assert strategy_named("shrewd").name == "shrewd"  # registered by name
