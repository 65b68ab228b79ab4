"""`dixit-tui ratings --rebuild`: the ratings folded afresh from the game results kept in the data folder (or, with
`--redis URL`, in the Redis that `serve --redis` keeps its tables in), printed as the leaderboard."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
from pathlib import Path

from dixit_tui.ratings import Ratings, leaderboard_text, rebuild
from dixit_tui.store import SqliteStore, Store, StoreError
from dixit_tui.store.sqlite import FILENAME
from dixit_tui.usage import UsageError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rebuild", action="store_true", help="fold every stored game result again (the ratings are such a fold)"
    )
    parser.add_argument("--data-dir", type=Path, default=Path("data"), help="the server's data folder")
    parser.add_argument("--redis", metavar="URL", help="read the results from this Redis (serve --redis)")
    parser.add_argument("--limit", type=int, default=50, help="how many players to print (default 50)")
    parser.add_argument(
        "--json", action="store_true", help="one JSON object: every rated player's key, name, mu, sigma and games"
    )


async def _rebuild(data_dir: Path, redis: str | None) -> Ratings:
    if redis:
        from dixit_tui.store.redis_store import RedisStore  # (the redis package: the [redis] extra)

        store: Store = await RedisStore.open(redis)
    else:
        store = await SqliteStore.open(data_dir)
    try:
        return await rebuild(store)
    finally:
        await store.close()


def run(args: argparse.Namespace) -> int:
    if not args.rebuild:
        raise UsageError("say --rebuild: the ratings are folded from the stored game results")
    redis = getattr(args, "redis", None)
    if redis and importlib.util.find_spec("redis") is None:
        raise UsageError("--redis needs the redis package: pip install 'dixit-tui[redis]'")
    if not redis and not (args.data_dir / FILENAME).exists():
        print(f"dixit-tui ratings: no saved games in {args.data_dir}/")
        return 1
    try:
        ratings = asyncio.run(_rebuild(args.data_dir, redis))
    except StoreError as err:
        print(f"dixit-tui ratings: {err}")
        return 1
    if args.json:
        rows = [
            {"key": key, "name": name, "mu": mu, "sigma": sigma, "games": games}
            for key, name, mu, sigma, games in ratings.as_rows()
        ]
        print(json.dumps({"players": rows}, ensure_ascii=False))
        return 0
    print(leaderboard_text(ratings, args.limit), end="")
    return 0
