"""`dixit-tui prune`: delete the saved games past their retention from the data folder (or, with `--redis URL`, from
the Redis that `serve --redis` keeps its tables in). `serve` does the same at start-up and once a day, with its
`keep_finished_days` and `keep_abandoned_days` limits (docs/operations.md); the game results stay (the ratings)."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import time
from pathlib import Path

from dixit_tui.coordinator.limits import DEFAULT_TABLE_LIMITS
from dixit_tui.store import SqliteStore, Store, StoreError
from dixit_tui.store.sqlite import FILENAME
from dixit_tui.usage import UsageError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", type=Path, default=Path("data"), help="the server's data folder")
    parser.add_argument("--redis", metavar="URL", help="prune this Redis (serve --redis), not the folder")
    for option, days, games in (
        ("--keep-finished", DEFAULT_TABLE_LIMITS.keep_finished_days, "finished games"),
        ("--keep-abandoned", DEFAULT_TABLE_LIMITS.keep_abandoned_days, "games that did not finish"),
    ):
        text = f"keep {games} this many days after their table closed (default: %(default)s)"
        parser.add_argument(option, type=float, metavar="DAYS", default=days, help=text)
    parser.add_argument("--dry-run", action="store_true", help="only count the games that would be deleted")


async def _prune(args: argparse.Namespace) -> int:
    if args.redis:
        from dixit_tui.store.redis_store import RedisStore  # (the redis package: the [redis] extra)

        store: Store = await RedisStore.open(args.redis)
    else:
        store = await SqliteStore.open(args.data_dir)
    now = time.time()
    try:
        return await store.prune(
            now - args.keep_finished * 86400, now - args.keep_abandoned * 86400, dry_run=args.dry_run
        )
    finally:
        await store.close()


def run(args: argparse.Namespace) -> int:
    if args.keep_finished < 0 or args.keep_abandoned < 0:
        raise UsageError("--keep-finished and --keep-abandoned take a number of days, 0 or more")
    if args.redis and importlib.util.find_spec("redis") is None:
        raise UsageError("--redis needs the redis package: pip install 'dixit-tui[redis]'")
    if not args.redis and not (args.data_dir / FILENAME).exists():
        print(f"dixit-tui prune: no saved games in {args.data_dir}/")
        return 1
    try:
        count = asyncio.run(_prune(args))
    except StoreError as err:
        print(f"dixit-tui prune: {err}")
        return 1
    games = "game" if count == 1 else "games"
    print(f"{'would delete' if args.dry_run else 'deleted'} {count} {games} past their retention")
    return 0
