"""Ratings per SSH key: a fold of the stored game results (the tables' "result" records, `coordinator/results.py`)
with openskill's Plackett-Luce model, made for N-player finishing orders with ties.

Who is rated, and how a game counts (docs/operations.md, "Ratings"):

- only players with an SSH key: guests (no key) and the built-in bots are left out, and the others are ranked among
  themselves; a game with fewer than two rated players changes nothing;
- the finishing order is the final score (equal scores tie; in team mode teammates share their team's score);
- a game that ended with no winner (too few players left, or during the practice turn) is void: it counts for nobody;
- a player removed from the game, or whose moves were mostly made by a stand-in, finishes last (tied with any others
  like them), whatever their score: leaving a game never protects a rating.

Live ratings (`Ratings.add`, as each result is committed) and `dixit-tui ratings --rebuild` (`rebuild`, from the
store) fold the same results in the same order, (time of the result, table code), so they are equal.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from openskill.models import PlackettLuce

if TYPE_CHECKING:
    from dixit_tui.store import Store

MODEL = PlackettLuce()  # mu 25, sigma 25/3; the conservative rating mu - 3 sigma starts at 0


@dataclass(slots=True)
class Rating:
    key: str  # who: an SSH key's fingerprint (the league: a strategy's name)
    name: str  # the name they played under last
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: what the leaderboard ranks by (a new player starts at 0 and earns their place)."""
        return self.mu - 3 * self.sigma


Placing = tuple[str, str, int]  # (key, name, place): place 1 is first; equal places tie


def placings(result: dict[str, Any]) -> list[Placing]:
    """The rated players of one game's result and their places, or [] if it counts for nobody."""
    if not result.get("winners"):
        return []  # void: nobody won
    rated = [p for p in result["players"] if p.get("key") and not p.get("builtin")]
    if len(rated) < 2:
        return []

    def left(player: dict[str, Any]) -> bool:
        return bool(player.get("removed")) or 2 * player.get("stand_ins", 0) > player.get("moves", 0)

    def standing(player: dict[str, Any]) -> tuple[bool, int]:
        return (False, 0) if left(player) else (True, player["score"])

    order = sorted({standing(p) for p in rated}, reverse=True)
    place = {key: index + 1 for index, key in enumerate(order)}
    return [(p["key"], p["name"], place[standing(p)]) for p in rated]


class Ratings:
    """Every rating, folded from results in their order; `add` keeps it so as they come."""

    def __init__(self) -> None:
        self.players: dict[str, Rating] = {}
        self.results: list[tuple[tuple[float, str], list[Placing]]] = []  # (order, placings), in order

    def rate(self, game: Sequence[Placing]) -> None:
        """Fold one game's placings in (the league calls this with its strategies as keys)."""
        if len(game) < 2:
            return
        ratings = []
        for key, name, _ in game:
            rating = self.players.setdefault(key, Rating(key, name))
            rating.name = name
            ratings.append([MODEL.create_rating([rating.mu, rating.sigma])])
        rated = MODEL.rate(ratings, ranks=[float(place) for _, _, place in game])
        for (key, _, _), (after,) in zip(game, rated, strict=True):
            rating = self.players[key]
            rating.mu, rating.sigma, rating.games = after.mu, after.sigma, rating.games + 1

    def add(self, result: dict[str, Any]) -> None:
        """A result committed now: folded in; one that sorts before those folded already refolds them all."""
        game = placings(result)
        if not game:
            return
        order = (float(result.get("at", 0.0)), str(result.get("code", "")))
        if not self.results or order >= self.results[-1][0]:
            self.results.append((order, game))
            self.rate(game)
            return
        bisect.insort(self.results, (order, game), key=lambda entry: entry[0])
        self.players = {}
        for _, folded in self.results:
            self.rate(folded)

    def leaderboard(self, limit: int | None = None) -> list[Rating]:
        board = sorted(self.players.values(), key=lambda r: (-r.conservative, -r.games, r.name, r.key))
        return board[:limit] if limit is not None else board

    def as_rows(self) -> list[tuple[str, str, float, float, int]]:
        """(key, name, mu, sigma, games) per player, sorted by key: for comparing two foldings."""
        return sorted((r.key, r.name, r.mu, r.sigma, r.games) for r in self.players.values())


def fold(results: Iterable[dict[str, Any]]) -> Ratings:
    ratings = Ratings()
    for result in sorted(results, key=lambda r: (float(r.get("at", 0.0)), str(r.get("code", "")))):
        ratings.add(result)
    return ratings


async def stored_results(store: Store) -> list[dict[str, Any]]:
    """Every game result in the store (kept apart from the games' records, so pruned games still count)."""
    kept = getattr(store, "results", None)
    if kept is not None:
        return cast(list[dict[str, Any]], await kept())
    results = []
    for stored in await store.load():
        for record in await store.history(stored.code):
            if record.get("t") == "result":
                results.append(record)
    return results


async def rebuild(store: Store) -> Ratings:
    """The ratings folded afresh from the store's results: equal to the live ones."""
    return fold(await stored_results(store))


def leaderboard_text(ratings: Ratings, limit: int = 50) -> str:
    """The leaderboard as plain text: rank, name, conservative rating, games."""
    board = ratings.leaderboard(limit)
    if not board:
        return "No rated games yet: play with an SSH key to be rated.\n"
    width = max(len(r.name) for r in board)
    lines = [f"{'rank':>4}  {'name':<{width}}  {'rating':>6}  {'games':>5}"]
    lines += [f"{i:>4}  {r.name:<{width}}  {r.conservative:>6.1f}  {r.games:>5}" for i, r in enumerate(board, 1)]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of the lobby's leaderboard page: `mine` marks the row of the player who asked."""

    rank: int
    name: str
    conservative: float
    games: int
    mine: bool


def standings(ratings: Ratings, key: str | None, limit: int = 50) -> tuple[Standing, ...]:
    """The best `limit` players, best first; the asker's own row (by SSH key) is marked, and added at the end with
    its rank when it is not among them."""
    board = ratings.leaderboard()
    rows = [
        Standing(rank, r.name, r.conservative, r.games, key is not None and r.key == key)
        for rank, r in enumerate(board, 1)
    ]
    shown = rows[:limit]
    own = next((row for row in rows[limit:] if row.mine), None)
    return tuple(shown + ([own] if own is not None else []))


def leaderboard_rows(ratings: Ratings, limit: int = 50) -> tuple[tuple[str, float, float, float, int], ...]:
    """(name, conservative rating, mu, sigma, games) of the best `limit` players, best first."""
    return tuple((r.name, r.conservative, r.mu, r.sigma, r.games) for r in ratings.leaderboard(limit))
