"""How strong the smart bot is: smart and random players at one table, many games through the engine directly.

    python -m dixit_tui.bots.bench_strength --games 200 --players 5

Each game seats about half smart and half random players (with an odd count the extra seat alternates between
the two), rotated one seat further every game, on the real base deck. Prints, per strategy, the mean final score
and the win rate (a shared win counts as a share) with 95% confidence intervals over games, and the mean per-game
difference between the two. Everything is seeded: the same arguments print the same figures.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from dixit_tui.bots.strategy import RandomStrategy, SmartStrategy, Strategy, decide, to_command
from dixit_tui.bots.view import BotView
from dixit_tui.engine import Card, GameConfig, GameState, Mode, Phase, Profile, fold, new_game, view_for
from dixit_tui.engine import decide as engine_decide

Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class GameResult:
    strategies: tuple[str, ...]  # per seat
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    turns: int
    outcomes: tuple[tuple[str, str], ...]  # (storyteller's strategy, "some" | "all" | "none" | "party") per turn


@dataclass(frozen=True, slots=True)
class Interval:
    mean: float
    low: float
    high: float
    n: int

    def __str__(self) -> str:
        return f"{self.mean:.3f} [{self.low:.3f}, {self.high:.3f}]"

    def to_dict(self) -> dict[str, float | int]:
        return {"mean": round(self.mean, 4), "low": round(self.low, 4), "high": round(self.high, 4), "n": self.n}


def interval(values: Sequence[float]) -> Interval:
    """Mean and normal-approximation 95% confidence interval."""
    n = len(values)
    mean = statistics.fmean(values) if values else 0.0
    half = Z95 * statistics.stdev(values) / math.sqrt(n) if n > 1 else 0.0
    return Interval(mean, mean - half, mean + half, n)


@dataclass
class BenchResult:
    games: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0

    def per_game(self, name: str) -> tuple[list[float], list[float]]:
        """Per game: the mean score of the seats playing `name`, and their mean win share."""
        scores, wins = [], []
        for g in self.games:
            seats = [s for s, n in enumerate(g.strategies) if n == name]
            if not seats:
                continue
            scores.append(statistics.fmean(g.scores[s] for s in seats))
            share = 1 / len(g.winners) if g.winners else 0.0
            wins.append(sum(share for s in seats if s in g.winners) / len(seats))
        return scores, wins

    def score(self, name: str) -> Interval:
        return interval(self.per_game(name)[0])

    def win_rate(self, name: str) -> Interval:
        return interval(self.per_game(name)[1])

    def score_gap(self, a: str = "smart", b: str = "random") -> Interval:
        """Mean over games of (mean score of `a` seats - mean score of `b` seats)."""
        sa, sb = self.per_game(a)[0], self.per_game(b)[0]
        return interval([x - y for x, y in zip(sa, sb, strict=True)])

    def outcomes(self, name: str) -> Counter[str]:
        return Counter(o for g in self.games for teller, o in g.outcomes if teller == name)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"games": len(self.games), "seconds": round(self.seconds, 3)}
        for name in ("smart", "random"):
            out[name] = {
                "score": self.score(name).to_dict(),
                "win_rate": self.win_rate(name).to_dict(),
                "telling": dict(self.outcomes(name)),
            }
        out["score_gap"] = self.score_gap().to_dict()
        return out


def seat_strategies(players: int, game: int, mode: Mode = Mode.STANDARD) -> list[str]:
    """Which strategy each seat plays in game number `game`: half smart, rotated; teams share a strategy."""
    if mode is Mode.TEAM:
        teams = players // 2
        smart = teams // 2 if game % 2 == 0 else teams - teams // 2
        per_team = ["smart" if (t + game) % teams < smart else "random" for t in range(teams)]
        return [per_team[s % teams] for s in range(players)]
    smart = players // 2 if game % 2 == 0 else players - players // 2
    return ["smart" if (s + game) % players < smart else "random" for s in range(players)]


def play_game(
    config: GameConfig,
    cards: Sequence[Card],
    strategies: Sequence[Strategy],
    seed: int,
    *,
    max_commands: int = 20_000,
) -> GameResult:
    """One game through the engine: whoever the phase waits for acts (in random order), each with its strategy."""
    names = [f"p{i}" for i in range(len(strategies))]
    state, _ = new_game(config, names, cards, seed=seed)
    order = random.Random(f"order:{seed}")
    rngs = [random.Random(f"seat:{seed}:{i}") for i in range(len(strategies))]
    labels = tuple(s.name for s in strategies)
    outcomes: list[tuple[str, str]] = []
    for _ in range(max_commands):
        if state.phase is Phase.OVER:
            break
        seat = order.choice(state.waiting_for())
        action = decide(BotView.from_player_view(view_for(state, seat)), strategies[seat], rngs[seat])
        if action is None:
            raise AssertionError(f"seat {seat} owes an action in phase {state.phase} but found none")
        before = state.last_reveal
        state = fold(engine_decide(state, to_command(action, seat)), state)
        reveal = state.last_reveal
        if reveal is not None and reveal is not before:
            outcomes.append((labels[reveal.storyteller], reveal.outcome))
    if state.phase is not Phase.OVER:
        raise AssertionError(f"game {seed} did not end within {max_commands} commands")
    return _result(state, labels, tuple(outcomes))


def _result(state: GameState, labels: tuple[str, ...], outcomes: tuple[tuple[str, str], ...]) -> GameResult:
    return GameResult(labels, tuple(state.scores), tuple(state.winners), state.turn.number, outcomes)


def bench(
    games: int,
    players: int,
    *,
    mode: Mode = Mode.STANDARD,
    profile: Profile = Profile.REFRESH,
    seed: int = 0,
    cards: Sequence[Card] | None = None,
) -> BenchResult:
    if cards is None:
        from dixit_tui.decks import resolve_decks

        cards = resolve_decks(["base"])
    config = GameConfig(mode, profile)
    made: dict[str, Strategy] = {"smart": SmartStrategy(), "random": RandomStrategy()}
    result = BenchResult()
    started = time.perf_counter()
    for g in range(games):
        seats = [made[name] for name in seat_strategies(players, g, config.normalized().mode)]
        result.games.append(play_game(config, cards, seats, seed=seed * 1_000_003 + g))
    result.seconds = time.perf_counter() - started
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dixit_tui.bots.bench_strength", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--mode", choices=[m.value for m in Mode], default="standard")
    parser.add_argument("--profile", choices=[p.value for p in Profile], default="refresh")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error("--games must be at least 2 (a confidence interval needs two games)")
    try:
        result = bench(args.games, args.players, mode=Mode(args.mode), profile=Profile(args.profile), seed=args.seed)
    except Exception as err:  # a bad player count for the mode, mostly
        print(f"bench_strength: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.to_dict()))
        return 0
    label = args.mode if args.mode != Mode.STANDARD else args.profile
    print(
        f"{label}, {args.players} players, {args.games} games (seed {args.seed}) in {result.seconds:.1f} s; "
        f"95% confidence intervals over games"
    )
    fair = 1 / args.players
    for name in ("smart", "random"):
        told = result.outcomes(name)
        total = sum(told.values()) or 1
        telling = ", ".join(f"{k} {v / total:.0%}" for k, v in sorted(told.items()))
        print(
            f"  {name:<6}  mean score {result.score(name)}   win rate {result.win_rate(name)} "
            f"(even: {fair:.3f})   telling: {telling}"
        )
    print(f"  smart - random, mean score per game: {result.score_gap()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
