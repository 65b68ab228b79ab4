"""`dixit-tui simulate`: play random legal games through the engine and print how fast and how they score."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from dixit_tui.engine import FirstStoryteller, GameConfig, Mode, Phase, Profile, RuleError, new_game
from dixit_tui.engine.random_play import play_out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mode", choices=[m.value for m in Mode], default="standard")
    parser.add_argument("--profile", choices=[p.value for p in Profile], default="refresh")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first", choices=[f.value for f in FirstStoryteller], default="first_clue")
    parser.add_argument("--deck", action="append", default=None, help="deck name or TOML file (repeatable)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def simulate(config: GameConfig, players: int, games: int, seed: int, decks: list[str] | None = None) -> dict[str, Any]:
    from dixit_tui.decks import resolve_decks

    cards = resolve_decks(decks or ["base"])
    names = [f"p{i}" for i in range(players)]
    turns: list[int] = []
    winning: list[int] = []
    all_scores: list[int] = []
    shared = 0
    commands = 0
    started = time.perf_counter()
    for g in range(games):
        state, _ = new_game(config, names, cards, seed=seed + g)
        state, n = play_out(state, random.Random(seed * 1_000_003 + g))
        assert state.phase is Phase.OVER
        commands += n
        turns.append(state.turn.number)
        winning.append(state.scores[state.winners[0]])
        all_scores.extend(state.scores)
        shared += len(state.winners) > (2 if config.mode is Mode.TEAM else 1)
    elapsed = time.perf_counter() - started
    return {
        "mode": config.normalized().mode.value,
        "profile": config.normalized().profile.value,
        "players": players,
        "games": games,
        "turns": sum(turns),
        "commands": commands,
        "seconds": round(elapsed, 3),
        "turns_per_second": round(sum(turns) / elapsed, 1) if elapsed else None,
        "turns_per_game": {"mean": round(statistics.fmean(turns), 2), "min": min(turns), "max": max(turns)},
        "winning_score": {
            "mean": round(statistics.fmean(winning), 2),
            "min": min(winning),
            "max": max(winning),
        },
        "score": {
            "mean": round(statistics.fmean(all_scores), 2),
            "stdev": round(statistics.pstdev(all_scores), 2),
        },
        "shared_wins": shared,
    }


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        print("--games must be at least 1")
        return 2
    config = GameConfig(Mode(args.mode), Profile(args.profile), first=FirstStoryteller(args.first))
    try:
        result = simulate(config, args.players, args.games, args.seed, args.deck)
    except (RuleError, ValueError) as err:
        print(f"dixit-tui simulate: {err}")
        return 2
    if args.json:
        print(json.dumps(result))
        return 0
    print(
        f"{result['mode']}/{result['profile']}, {args.players} players: {args.games} games, {result['turns']} turns "
        f"in {result['seconds']} s = {result['turns_per_second']} turns/s"
    )
    tpg, win, score = result["turns_per_game"], result["winning_score"], result["score"]
    print(f"turns per game: mean {tpg['mean']} (min {tpg['min']}, max {tpg['max']})")
    print(
        f"winning score: mean {win['mean']} (min {win['min']}, max {win['max']}); "
        f"all scores: mean {score['mean']}, stdev {score['stdev']}; shared wins: {result['shared_wins']}"
    )
    return 0
