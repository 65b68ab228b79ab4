"""`dixit-tui league`: many games between bot strategies, in this process through a coordinator (as the server plays
them), and each strategy's rating, win rate and mean points (its command line: league_cli.py).

    dixit-tui league --strategies random,smart,shrewd --games 2000 --players 4-8 --seed 1
    dixit-tui league --strategies random,smart --games 20 --host game.example --port 2222   # over SSH (league_ssh.py)

Every game seats between the smallest and the biggest number of players, each seat a strategy drawn at random (so a
strategy may sit twice at a table), as agents with keys of their own (`league:STRATEGY:N`): the coordinator rates
them per key as it rates people, and records each game's result in its store like any game. The strategies' ratings
are folded here from the same results with openskill's Plackett-Luce, a strategy's seats at one table each ranked by
their score and its rating moved by the mean of their updates. Deterministic under `--seed`: the tables, the draws
and every bot's choices come from it.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from dixit_tui.bots.player import BotPlayer
from dixit_tui.bots.strategy_names import strategy_named
from dixit_tui.coordinator import Coordinator, PlayerSession, TableOptions, TableView
from dixit_tui.coordinator.limits import DEFAULT_TABLE_LIMITS
from dixit_tui.engine import Mode, Profile
from dixit_tui.ratings import MODEL, Ratings
from dixit_tui.store import NullStore, Store

Z95 = 1.959964


class _Recording(Ratings):
    """The coordinator's ratings, keeping each result it folds for the league too."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[dict[str, Any]] = []

    def add(self, result: dict[str, Any]) -> None:
        self.seen.append(result)
        super().add(result)


@dataclass
class StrategyStats:
    name: str
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    seats: int = 0
    wins: int = 0
    points: list[float] = field(default_factory=list)  # each seat's final score
    above: list[float] = field(default_factory=list)  # each seat's score less its table's mean

    @property
    def win_rate(self) -> float:
        return self.wins / self.seats if self.seats else 0.0

    @property
    def mean_points(self) -> float:
        return sum(self.points) / len(self.points) if self.points else 0.0

    def interval(self) -> tuple[float, float]:
        """The 95% interval of the strategy's skill: mu -+ 1.96 sigma."""
        return self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma


@dataclass
class League:
    strategies: tuple[str, ...]
    stats: dict[str, StrategyStats]
    games: int = 0
    void: int = 0
    seconds: float = 0.0
    results: list[dict[str, Any]] = field(default_factory=list)
    coordinator: Coordinator | None = None

    def rate(self, seats: Sequence[str], result: dict[str, Any]) -> None:
        """Fold one game in: each seat ranked by score, each strategy moved by the mean of its seats' updates."""
        self.games += 1
        players = result["players"]
        if not result["winners"]:
            self.void += 1
            return
        scores = [p["score"] for p in players]
        table_mean = sum(scores) / len(scores)
        for seat, strategy in enumerate(seats):
            stats = self.stats[strategy]
            stats.seats += 1
            stats.wins += seat in result["winners"]
            stats.points.append(scores[seat])
            stats.above.append(scores[seat] - table_mean)
        order = sorted(set(scores), reverse=True)
        ranks = [float(order.index(score) + 1) for score in scores]
        teams = [[MODEL.create_rating([self.stats[s].mu, self.stats[s].sigma])] for s in seats]
        rated = MODEL.rate(teams, ranks=ranks)
        moved: dict[str, list[tuple[float, float]]] = {}
        for strategy, (after,) in zip(seats, rated, strict=True):
            moved.setdefault(strategy, []).append((after.mu, after.sigma))
        for strategy, updates in moved.items():
            stats = self.stats[strategy]
            stats.mu = sum(mu for mu, _ in updates) / len(updates)
            stats.sigma = sum(sigma for _, sigma in updates) / len(updates)

    def margin(self, a: str, b: str) -> tuple[float, float, float]:
        """Points above the table's mean, strategy `a` less strategy `b`, with its 95% interval (low, high)."""
        xa, xb = self.stats[a].above, self.stats[b].above
        if len(xa) < 2 or len(xb) < 2:
            return math.nan, math.nan, math.nan
        mean_a, mean_b = sum(xa) / len(xa), sum(xb) / len(xb)
        var_a = sum((x - mean_a) ** 2 for x in xa) / (len(xa) - 1)
        var_b = sum((x - mean_b) ** 2 for x in xb) / (len(xb) - 1)
        diff = mean_a - mean_b
        half = Z95 * math.sqrt(var_a / len(xa) + var_b / len(xb))
        return diff, diff - half, diff + half

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "games": self.games,
            "void": self.void,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 3) if self.seconds else None,
            "strategies": [],
        }
        for stats in sorted(self.stats.values(), key=lambda s: -s.mu):
            low, high = stats.interval()
            out["strategies"].append(
                {
                    "strategy": stats.name,
                    "mu": round(stats.mu, 3),
                    "sigma": round(stats.sigma, 3),
                    "interval95": [round(low, 3), round(high, 3)],
                    "seats": stats.seats,
                    "win_rate": round(stats.win_rate, 4),
                    "mean_points": round(stats.mean_points, 3),
                }
            )
        margins = []
        names = [s.name for s in sorted(self.stats.values(), key=lambda s: -s.mu)]
        for better, worse in itertools.pairwise(names):
            diff, low, high = self.margin(better, worse)
            margins.append(
                {"a": better, "b": worse, "points": round(diff, 3), "interval95": [round(low, 3), round(high, 3)]}
            )
        out["margins"] = margins
        return out

    def text(self) -> str:
        data = self.as_json()
        rate = data["games_per_second"]
        lines = [
            f"{self.games} games ({self.void} void) in {self.seconds:.1f} s: {rate} games per second",
            "",
            f"{'strategy':<10} {'rating (mu)':>11} {'95% interval':>17} {'win rate':>9} {'mean points':>12} "
            f"{'seats':>6}",
        ]
        for s in data["strategies"]:
            low, high = s["interval95"]
            lines.append(
                f"{s['strategy']:<10} {s['mu']:>11.2f} {f'{low:.2f} .. {high:.2f}':>17} {s['win_rate']:>9.1%} "
                f"{s['mean_points']:>12.2f} {s['seats']:>6}"
            )
        lines.append("")
        for m in data["margins"]:
            low, high = m["interval95"]
            lines.append(
                f"{m['a']} over {m['b']}: {m['points']:+.2f} points a game above the table's mean "
                f"(95% interval {low:+.2f} .. {high:+.2f})"
            )
        return "\n".join(lines) + "\n"


async def play_one(
    coordinator: Coordinator, seats: Sequence[str], options: TableOptions, rng: random.Random
) -> dict[str, Any]:
    """One game of bots playing `seats` (strategy names) at a new table; returns its result record."""
    assert isinstance(coordinator.ratings, _Recording)
    before = len(coordinator.ratings.seen)
    bots: list[BotPlayer] = []
    code = ""
    for index, strategy in enumerate(seats):
        bot = BotPlayer(
            strategy_named(strategy), random.Random(rng.randrange(2**63)), (0.0, 0.0), leave_when_alone=False
        )
        name = f"{strategy[:12]}{index + 1}"
        key = f"league:{strategy}:{index + 1}"
        here = code

        async def take(session: PlayerSession, here: str = here) -> TableView:
            return await (session.join(here) if here else session.create(options))

        await bot._sit(coordinator, name, take, key=key, builtin=False)
        if index == 0:
            assert bot.view is not None
            code = bot.view.code
        bots.append(bot)
    host = bots[0].session
    assert host is not None
    await host.start()
    for bot in bots:
        await bot.finished.wait()
    seen = coordinator.ratings.seen[before:]
    if not seen:
        raise RuntimeError(f"league table {code} ended without a result")
    return seen[-1]


async def run_league(
    strategies: Sequence[str],
    games: int,
    players: tuple[int, int],
    *,
    mode: Mode = Mode.STANDARD,
    profile: Profile = Profile.REFRESH,
    seed: int = 1,
    target: int = 30,
    store: Store | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> League:
    """Play `games` games in this process and fold them (see the module's docstring)."""
    rng = random.Random(seed)
    coordinator = Coordinator(
        rng=random.Random(rng.randrange(2**63)),
        allow_seeded_tables=True,
        store=store or NullStore(),
        first_clue_grace=0.0,
        # one key creates every table of its seat: the server's metering of new tables does not apply here
        limits=replace(DEFAULT_TABLE_LIMITS, creates_per_player=games + 1, creates_per_ip=games + 1),
    )
    coordinator.ratings = _Recording()
    league = League(tuple(strategies), {s: StrategyStats(s) for s in strategies}, coordinator=coordinator)

    async def play(seats: list[str]) -> tuple[dict[str, Any], Sequence[str]]:
        options = TableOptions(mode=mode.value, profile=profile.value, target=target, seed=rng.randrange(2**31))
        return await play_one(coordinator, seats, options, rng), seats

    return await play_games(league, games, players, mode, rng, play, progress)


PlayGame = Callable[[list[str]], Awaitable[tuple[dict[str, Any], Sequence[str]]]]


async def play_games(
    league: League,
    games: int,
    players: tuple[int, int],
    mode: Mode,
    rng: random.Random,
    play: PlayGame,
    progress: Callable[[int, int], None] | None,
) -> League:
    """The league's games, in this process or at a server alike: each seats a random number of random strategies,
    has `play` play them (it returns the result and the strategies in seat order) and folds the result in."""
    sizes = [n for n in range(players[0], players[1] + 1) if mode is not Mode.TEAM or n % 2 == 0]
    started = time.perf_counter()
    for number in range(games):
        seats = [rng.choice(list(league.strategies)) for _ in range(rng.choice(sizes))]
        result, rated = await play(seats)
        league.results.append(result)
        league.rate(rated, result)
        if progress is not None:
            progress(number + 1, games)
    league.seconds = time.perf_counter() - started
    return league
