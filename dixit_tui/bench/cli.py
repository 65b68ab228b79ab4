"""`dixit-tui bench`: its options, and the load run or the comparison of worker counts they ask for.

    python -m dixit_tui.bench.cli --sessions 50 --tables 5

(what each run measures: dixit_tui/bench/load.py and dixit_tui/bench/compare.py; the report: report.py)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence

import asyncssh

from dixit_tui.bench import compare, load, report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sessions", type=int, default=50, help="SSH sessions in all: bots + watchers (default 50)")
    parser.add_argument("--tables", type=int, default=5, help="tables to split them across (default 5)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of play to measure (default 30)")
    parser.add_argument("--host", help="drive this server instead of starting one (needs --port)")
    parser.add_argument("--port", type=int, help="its port")
    parser.add_argument("--pid", type=int, help="with --host/--port: the server's process id, for memory and CPU")
    parser.add_argument("--json", action="store_true", help="print one JSON object with every figure")
    parser.add_argument("--concurrency", type=int, default=20, help="connections opened at once (default 20)")
    parser.add_argument("--handshakes", type=int, help="connections of the handshake probe (default min(N, 100))")
    parser.add_argument("--term-size", default="100x30", help="watchers' terminal size (default 100x30)")
    parser.add_argument("--target", type=int, help="points that end a game (default 30; 100 with --compare-workers)")
    parser.add_argument(
        "--decks",
        help="the tables' decks, comma-separated (default base; base,atlas with --compare-workers: longer games)",
    )
    parser.add_argument(
        "--strategy", choices=["random", "smart"], default="random", help="the bots' strategy (default random)"
    )
    parser.add_argument(
        "--settle",
        type=float,
        help="quiet seconds between two actions of a table (default 0.2; 0.05 with --compare-workers)",
    )
    parser.add_argument(
        "--action-timeout", type=float, default=30.0, help="seconds to wait for every screen (default 30)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the tables and the bots (default 1)")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="mean pause before each bot action, drawn uniformly from 0.5x-1.5x (seeded); 0 (default): act as soon "
        "as the table's screens settled",
    )
    parser.add_argument(
        "--terminals-share",
        type=float,
        metavar="F",
        help="share of each table's sessions that are terminals (spectators), the rest bots (at least 3); "
        "default: 3 to 5 bots per table, the rest terminals",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="measure the floor instead: the same SSH server and driver, every terminal showing a one-line app, "
        "each action changing that line on every terminal of its table",
    )
    parser.add_argument(
        "--with-floor", action="store_true", help="run the normal benchmark, then the floor with the same options"
    )
    parser.add_argument(
        "--no-screen-cast",
        action="store_true",
        help="start the server with `serve --no-screen-cast`: every terminal drawn for itself (by default the "
        "terminals, idle spectators of one size, share one drawing per table)",
    )
    parser.add_argument(
        "--spectator-cost",
        action="store_true",
        help="then the cost of one more spectator: one table played with 10 spectators for --duration, then with 1 "
        "for as many actions; (CPU per action with 10 - with 1) / 9 (dixit_tui/bench/spectator_cost.py)",
    )
    parser.add_argument(
        "--spectator-size",
        metavar="COLSxROWS",
        help="the spectators' terminal size for --spectator-cost (default --term-size; e.g. 200x60 for the wall "
        "picture of a spectator from 160x48)",
    )
    parser.add_argument(
        "--joins",
        type=int,
        default=10,
        metavar="N",
        help="sequential joins (and lobby openings) measured after play for server CPU per join (default 10; "
        "--joins 0 --join-burst 0 --lobby-burst 0 skip the joining section)",
    )
    parser.add_argument(
        "--join-burst", type=int, default=20, metavar="N", help="players joining tables at once (default 20)"
    )
    parser.add_argument(
        "--lobby-burst", type=int, default=8, metavar="N", help="players opening the lobby at once (default 8)"
    )
    parser.add_argument(
        "--compare-workers",
        metavar="N,M",
        help="start a redis-server (append-only, fsync always) and run the saturated load against "
        "`serve --redis URL --workers N`, then --workers M (and so on), one after the other; print for each the "
        "terminal updates per second, the CPU of each worker, of Redis, of this client and of the rest of the "
        "machine, Redis round trips per action, and the ratio (dixit_tui/bench/compare.py)",
    )
    parser.add_argument(
        "--no-balance",
        action="store_true",
        help="with --compare-workers: leave each connection on the worker the kernel picked (default: each table's "
        "terminals and bots are spread evenly over the workers, as a least-connections balancer would)",
    )
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="run `py-spy record --format raw` on the server during play, write FILE and list the hotspots",
    )


def run(args: argparse.Namespace) -> int:
    if args.sessions < 4 * args.tables or args.tables < 1:
        print("dixit-tui bench: every table needs at least 4 sessions (3 bots and a terminal)", file=sys.stderr)
        return 2
    if (args.host is None) != (args.port is None):
        print("dixit-tui bench: give both --host and --port, or neither", file=sys.stderr)
        return 2
    if args.with_floor and args.host is not None:
        print("dixit-tui bench: --with-floor starts its own servers (no --host)", file=sys.stderr)
        return 2
    if args.spectator_cost and args.host is not None:
        print("dixit-tui bench: --spectator-cost starts its own servers (no --host)", file=sys.stderr)
        return 2
    if args.no_screen_cast and args.host is not None:
        print("dixit-tui bench: --no-screen-cast is for the servers it starts (no --host)", file=sys.stderr)
        return 2
    if args.spectator_size is not None and not valid_size(args.spectator_size):
        print("dixit-tui bench: --spectator-size is COLSxROWS, e.g. 200x60", file=sys.stderr)
        return 2
    if args.think < 0 or not (args.terminals_share is None or 0 < args.terminals_share < 1):
        print("dixit-tui bench: --think must be >= 0 and --terminals-share between 0 and 1", file=sys.stderr)
        return 2
    try:
        import pyte  # noqa: F401
    except ImportError:
        print("dixit-tui bench: needs the pyte package: pip install 'dixit-tui[bench]'", file=sys.stderr)
        return 2
    if args.compare_workers:
        return compare.run(args)
    if args.target is None:
        args.target = 30
    if args.settle is None:
        args.settle = 0.2
    try:
        result = asyncio.run(load.bench(args))
    except KeyboardInterrupt:
        return 130
    except (RuntimeError, OSError, asyncssh.Error) as error:
        print(f"dixit-tui bench: {error}", file=sys.stderr)
        return 1
    print(json.dumps(result) if args.json else report.render(result), flush=True)
    return 0 if not result["failures"] else 1


def valid_size(text: str) -> bool:
    cols, x, rows = text.lower().partition("x")
    return bool(x) and cols.isdigit() and rows.isdigit() and int(cols) >= 20 and int(rows) >= 5


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dixit-tui bench", description=(load.__doc__ or "").split("\n")[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
