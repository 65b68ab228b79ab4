"""`dixit-tui replay CODE`: print the transcript of a game kept in the data folder (or, with `--redis URL`, in the
Redis that `serve --redis` shares its tables through)."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dixit_tui.coordinator.codes import normalize_code
from dixit_tui.engine import Event, event_from_dict, fold, view_for
from dixit_tui.protocol.messages import replay_json
from dixit_tui.store import SqliteStore, Store, StoreError
from dixit_tui.store.sqlite import FILENAME
from dixit_tui.transcript import stand_in_moves, transcript_of
from dixit_tui.usage import UsageError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "code",
        help="the table's code, e.g. K7QF (its latest game), or a game's id, e.g. K7QF-X2M9PQRT (a table's code is "
        "given to a new table a while after it closed; the game id stays the game's)",
    )
    parser.add_argument("--data-dir", type=Path, default=Path("data"), help="the server's data folder")
    parser.add_argument("--redis", metavar="URL", help="read the game from this Redis (serve --redis), not the folder")
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the game as one JSON object: its players, each scored turn as the protocol's reveal message, "
        "the winners (docs/protocol.md)",
    )


async def _history(data_dir: Path, code: str, redis: str | None = None) -> list[dict[str, Any]]:
    if redis:
        from dixit_tui.store.redis_store import RedisStore  # (the redis package: the [redis] extra)

        store: Store = await RedisStore.open(redis)
    else:
        store = await SqliteStore.open(data_dir)
    try:
        return await store.history(code)
    finally:
        await store.close()


def game_name(records: Sequence[dict[str, Any]], code: str) -> str:
    """The game's id as people type it (`K7QF-X2M9PQRT`), from its first record; the code for an older game."""
    game = str(records[0].get("game") or code) if records else code
    return f"{game[:4]}-{game[4:]}" if len(game) > 4 else game


def game_events(records: Sequence[dict[str, Any]]) -> list[Event]:
    """The game's events among a table's records."""
    return [event_from_dict(e) for record in records if record["t"] == "events" for e in record["events"]]


def run(args: argparse.Namespace) -> int:
    redis = getattr(args, "redis", None)
    if redis and importlib.util.find_spec("redis") is None:
        raise UsageError("--redis needs the redis package: pip install 'dixit-tui[redis]'")
    if not redis and not (args.data_dir / FILENAME).exists():
        print(f"dixit-tui replay: no saved games in {args.data_dir}/")
        return 1
    code = normalize_code(args.code)
    try:
        records = asyncio.run(_history(args.data_dir, code, redis))
    except StoreError as err:
        print(f"dixit-tui replay: {err}")
        return 1
    events = game_events(records)
    if not events:
        print(f"dixit-tui replay: no game was played at table {code}.")
        return 1
    view = view_for(fold(events), None)
    if getattr(args, "json", False):
        print(json.dumps({**replay_json(code[:4], view), "game": game_name(records, code)}, ensure_ascii=False))
        return 0
    print(f"Table {code[:4]}, game {game_name(records, code)}")
    print("\n".join(transcript_of(view, stand_in_moves(records))))
    return 0
