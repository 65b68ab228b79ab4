"""`dixit-tui league`'s command line: its options, and the league run in this process (league.py) or over SSH at
a server (league_ssh.py)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable, Coroutine
from functools import partial
from pathlib import Path
from typing import Any

from dixit_tui.bots.strategy_names import STRATEGY_NAMES
from dixit_tui.engine import Mode, Profile, player_range, profile_for
from dixit_tui.league import League, run_league
from dixit_tui.usage import UsageError


def _players(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    try:
        span = (int(low), int(high or low))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: a size or a range, like 4-8") from None
    return span


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--strategies", default="random,smart,shrewd", help=f"comma-separated, of: {', '.join(STRATEGY_NAMES)}"
    )
    parser.add_argument("--games", type=int, default=200, help="how many games (default 200)")
    parser.add_argument("--players", type=_players, default=(4, 8), help="players a table, a size or a range (4-8)")
    parser.add_argument("--mode", choices=[m.value for m in Mode], default="standard")
    parser.add_argument("--profile", choices=[p.value for p in Profile], default="refresh")
    parser.add_argument("--target", type=int, default=30, help="the points that end a game (default 30)")
    parser.add_argument("--seed", type=int, default=1, help="the same seed plays the same league")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--host", help="play over SSH at this dixit-tui server (JSON protocol, a key per seat: rated)")
    parser.add_argument("--port", type=int, default=2222, help="with --host: the server's port (default 2222)")
    parser.add_argument(
        "--known-hosts", type=Path, metavar="FILE", help="with --host: known hosts file (default ~/.ssh/known_hosts)"
    )
    parser.add_argument("--insecure", action="store_true", help="with --host: do not check the server's host key")
    parser.add_argument("--timeout", type=float, default=15.0, help="with --host: seconds to connect (default 15)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _bar(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    strategies = tuple(s.strip() for s in args.strategies.split(",") if s.strip())
    for name in strategies:
        if name not in STRATEGY_NAMES:
            raise UsageError(f"unknown strategy {name!r}; choose from {', '.join(STRATEGY_NAMES)}")
    if len(set(strategies)) != len(strategies) or not strategies:
        raise UsageError("name each strategy once")
    mode = Mode(args.mode)
    profile = profile_for(mode, Profile(args.profile))
    low, high = player_range(mode, profile)
    if not low <= args.players[0] <= args.players[1] <= high:
        raise UsageError(f"a {mode.value} ({profile.value}) table seats {low} to {high} players")
    if mode is Mode.TEAM and args.players[0] % 2:
        raise UsageError("a team table seats an even number of players")
    if args.games < 1:
        raise UsageError("play at least one game")
    progress = None if args.quiet else _bar
    play: Callable[..., Coroutine[Any, Any, League]] = run_league
    failed: tuple[type[Exception], ...] = ()  # what a run may fail with, said in a line (not a traceback)
    if args.host:
        from dixit_tui.league_ssh import LeagueError, Server, run_league_ssh  # (asyncssh only when asked)

        if args.known_hosts is not None and not args.known_hosts.is_file():
            raise UsageError(f"no known hosts file at {args.known_hosts}")
        known_hosts: Any = None if args.insecure else (str(args.known_hosts) if args.known_hosts else ())
        play, failed = partial(run_league_ssh, Server(args.host, args.port, known_hosts, args.timeout)), (LeagueError,)
    try:
        league = asyncio.run(
            play(
                strategies,
                args.games,
                args.players,
                mode=mode,
                profile=profile,
                seed=args.seed,
                target=args.target,
                progress=progress,
            )
        )
    except failed as err:
        print(f"\ndixit-tui league: {err}", file=sys.stderr)
        return 1
    print(json.dumps(league.as_json()) if args.json else league.text(), end="\n" if args.json else "")
    return 0
