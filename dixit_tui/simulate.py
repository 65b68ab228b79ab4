"""`dixit-tui simulate`: play random legal games through the engine and print how fast and how they score."""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from dixit_tui.engine import (
    FirstStoryteller,
    GameConfig,
    GameState,
    GiveClue,
    Mode,
    Phase,
    Profile,
    RuleError,
    Submit,
    Vote,
    new_game,
)
from dixit_tui.engine.random_play import play_out, random_command
from dixit_tui.store.base import NullStore


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--mode", choices=[m.value for m in Mode], default="standard", help="game mode (default: %(default)s)"
    )
    parser.add_argument(
        "--profile",
        choices=[p.value for p in Profile],
        default="refresh",
        help="rule profile of the standard mode (default: %(default)s)",
    )
    parser.add_argument("--players", type=int, default=5, help="players at each table (default: %(default)s)")
    parser.add_argument("--games", type=int, default=100, help="how many games to play (default: %(default)s)")
    parser.add_argument(
        "--seed", type=int, default=0, help="game g is dealt from seed + g, so a run repeats (default: %(default)s)"
    )
    parser.add_argument(
        "--first",
        choices=[f.value for f in FirstStoryteller],
        default="first_clue",
        help="who tells the first story (default: %(default)s)",
    )
    parser.add_argument("--deck", action="append", default=None, help="deck name or TOML file (repeatable)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--through-coordinator",
        action="store_true",
        help="also play the same games through the coordinator (a session per seat, every view built, each record "
        "JSON-encoded for an in-memory store) and print both speeds",
    )


def simulate(
    config: GameConfig,
    players: int,
    games: int,
    seed: int,
    decks: list[str] | None = None,
    *,
    through_coordinator: bool = False,
) -> dict[str, Any]:
    """Play `games` random games (game g: seed + g, moves from random.Random(seed * 1_000_003 + g)). With
    `through_coordinator`, the same games are played through a Coordinator instead of the bare engine."""
    from dixit_tui.decks import resolve_decks

    cards = resolve_decks(decks or ["base"])
    names = [f"p{i}" for i in range(players)]
    turns: list[int] = []
    winning: list[int] = []
    all_scores: list[int] = []
    shared = 0
    commands = 0
    finals: list[GameState] = []
    started = time.perf_counter()
    if through_coordinator:
        finals, commands = asyncio.run(_through_coordinator(config, names, decks or ["base"], games, seed))
    for g in range(games):
        if through_coordinator:
            state = finals[g]
        else:
            state, _ = new_game(config, names, cards, seed=seed + g)
            state, n = play_out(state, random.Random(seed * 1_000_003 + g))
            commands += n
        assert state.phase is Phase.OVER
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
        "through": "coordinator" if through_coordinator else "engine",
    }


class _JsonMemoryStore(NullStore):
    """Encodes every record as the SQLite store does (its cost per command), and keeps the text in memory."""

    def __init__(self) -> None:
        self.rows: list[str] = []

    async def append(self, code: str, records: Sequence[dict[str, Any]]) -> None:
        self.rows.extend(json.dumps(r, separators=(",", ":")) for r in records)

    async def snapshot(self, code: str, data: dict[str, Any]) -> None:
        self.rows.append(json.dumps(data, separators=(",", ":")))


async def _through_coordinator(
    config: GameConfig, names: list[str], decks: list[str], games: int, seed: int
) -> tuple[list[GameState], int]:
    """The games of `simulate`, each at a fresh coordinator's table: one session per seat (every change builds
    every seat's view), moves chosen exactly as the engine run chooses them. Returns the final states and the
    number of commands."""
    from dixit_tui.coordinator import Coordinator, Identity, TableOptions, Update

    def sink(update: Update) -> None:
        return None

    from dixit_tui.decks import resolve_decks

    cards = resolve_decks(decks)  # once: a server resolves a table's decks once per game, not per command
    config = config.normalized()
    finals: list[GameState] = []
    commands = 0
    for g in range(games):
        coordinator = Coordinator(
            allow_seeded_tables=True, store=_JsonMemoryStore(), rng=random.Random(g), cards=lambda _decks: cards
        )
        sessions = [await coordinator.connect(Identity(name), sink) for name in names]
        options = TableOptions(
            mode=config.mode.value,
            profile=config.profile.value,
            decks=tuple(decks),
            target=config.target,
            storytells=config.storytells,
            first=config.first.value,
            seed=seed + g,
        )
        view = await sessions[0].create(options)
        for session in sessions[1:]:
            await session.join(view.code)
        await sessions[0].start()
        table = coordinator.table(view.code)
        rng = random.Random(seed * 1_000_003 + g)
        while table.game is not None and table.game.state.phase is not Phase.OVER:
            command = random_command(table.game.state, rng)
            assert command is not None, "a running game always waits for someone"
            session = sessions[command.seat]
            match command:
                case GiveClue(text=text, card=card):
                    await session.clue(text, card)
                case Submit(cards=given):
                    await session.submit(given)
                case Vote(slots=slots, red=red):
                    await session.vote(slots, red)
            commands += 1
        assert table.game is not None
        finals.append(table.game.state)
        for session in sessions:
            await session.close()
    return finals, commands


def _outcome(result: dict[str, Any]) -> tuple[Any, ...]:
    return (result["turns"], result["commands"], result["turns_per_game"], result["winning_score"], result["score"])


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        print("--games must be at least 1")
        return 2
    config = GameConfig(Mode(args.mode), Profile(args.profile), first=FirstStoryteller(args.first))
    try:
        result = simulate(config, args.players, args.games, args.seed, args.deck)
        through = None
        if args.through_coordinator:
            through = simulate(config, args.players, args.games, args.seed, args.deck, through_coordinator=True)
    except (RuleError, ValueError) as err:
        print(f"dixit-tui simulate: {err}")
        return 2
    if args.json:
        print(json.dumps(result if through is None else {**result, "through_coordinator": through}))
        return 0
    print(
        f"{result['mode']}/{result['profile']}, {args.players} players: {args.games} games, {result['turns']} turns "
        f"in {result['seconds']} s = {result['turns_per_second']} turns/s"
    )
    if through is not None:
        same = "same games" if _outcome(through) == _outcome(result) else "DIFFERENT games"
        print(
            f"through the coordinator ({args.players} sessions, {through['commands']} commands): {through['turns']} "
            f"turns in {through['seconds']} s = {through['turns_per_second']} turns/s "
            f"({1000 * through['seconds'] / max(1, through['commands']):.3f} ms a command; {same})"
        )
    tpg, win, score = result["turns_per_game"], result["winning_score"], result["score"]
    print(f"turns per game: mean {tpg['mean']} (min {tpg['min']}, max {tpg['max']})")
    print(
        f"winning score: mean {win['mean']} (min {win['min']}, max {win['max']}); "
        f"all scores: mean {score['mean']}, stdev {score['stdev']}; shared wins: {result['shared_wins']}"
    )
    return 0
