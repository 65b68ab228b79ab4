"""Crash test: bot games on a real `dixit-tui serve`, SIGKILLed at random moments and restarted on its data dir.

The server runs as a subprocess. Headless clients (protocol v1, JSON lines over SSH) play standard games, each
client with its own ed25519 key, so that after a restart `{"cmd":"join","table":CODE}` puts it back in its seat.
The games are driven one action at a time over every table: an action is *acknowledged* once the acting client
receives a state that reflects it, and the next one is sent only after every client's view has caught up. The
harness keeps a model of every table (the engine folded over the same seed and the same commands) so it knows
what each view must be at every moment.

A kill comes either between two actions, or 0-20 ms after an action was sent (that action is then "in flight":
it may or may not have been committed), or during the reconnect wave that follows a restart. After each restart
every client reconnects and rejoins its table; the first view it gets must equal its last view before the kill,
except that the in-flight action may be present (committed, not yet seen) or absent (killed before its commit).
Anything a client saw before the kill, the in-flight action included, must be present, and all clients must
agree on whether the in-flight action happened. The run stops at the first loss or difference and says exactly
where (seed, kill number, action, both views).

    python -m dixit_tui.bench.killtest --kills 300
    dixit-tui killtest --start-redis --workers 2 --kill-workers --kills 200   # one worker of two killed each time

The parts: killtest_harness.py (the run: play, kill, recover), killtest_checks.py (the views around a kill),
killtest_moves.py (the groups and their actions), killtest_model.py and killtest_views.py (what each view must be),
killtest_client.py, killtest_server.py, killtest_store.py, killtest_config.py, killtest_report.py and
killtest_failure.py; this module is its command line.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from dixit_tui.bench.killtest_config import KillConfig
from dixit_tui.bench.killtest_harness import KillTest
from dixit_tui.bench.killtest_report import KillReport
from dixit_tui.bench.local_redis import LocalRedis, RedisStartError


async def run_killtest(cfg: KillConfig, workdir: Path) -> KillReport:
    """Run the crash test in `workdir` (host key in keys/, the store in data/); the report says what happened."""
    workdir.mkdir(parents=True, exist_ok=True)
    return await KillTest(cfg, workdir).run()


async def _with_own_redis(cfg: KillConfig, workdir: Path) -> KillReport:
    """The crash test on a redis-server started for it in `workdir`/redis (stopped at the end)."""
    redis = LocalRedis(workdir / "redis")
    await redis.start()
    print(f"killtest: redis-server pid {redis.pid} at {redis.url} (appendonly yes, appendfsync always)", flush=True)
    try:
        return await run_killtest(replace(cfg, redis=redis.url), workdir)
    finally:
        await redis.stop()


# --- command line ---------------------------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kills", type=int, default=300, help="server kills (default: %(default)s)")
    parser.add_argument("--tables", default="3,4,5", help="players per table, comma-separated (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=None, help="seed of every random choice (default: random)")
    parser.add_argument("--max-between", type=int, default=6, help="most actions between two kills (default: 6)")
    parser.add_argument("--inflight", type=float, default=0.5, help="share of kills with an action in flight")
    parser.add_argument("--during-recovery", type=float, default=0.1, help="chance a restart is killed mid-reconnect")
    parser.add_argument(
        "--snapshot-every", type=int, default=None, help="run the server with snapshots every N records (default: 100)"
    )
    parser.add_argument("--timeout", type=float, default=15.0, help="seconds for any single wait (default: 15)")
    parser.add_argument("--workdir", type=Path, default=None, help="folder for keys/ and data/ (default: a temp dir)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder even when the run passes")
    parser.add_argument("--verbose", action="store_true", help="print every step")
    parser.add_argument("--redis", metavar="URL", default=None, help="run the server with its tables in this Redis")
    parser.add_argument(
        "--start-redis",
        action="store_true",
        help="start a redis-server of the run's own (a free loopback port, the work folder, append-only with fsync "
        "always) and keep the tables there",
    )
    parser.add_argument("--workers", type=int, default=None, help="with --redis: the server's worker processes")
    parser.add_argument(
        "--kill-workers", action="store_true", help="with --redis: kill one worker at a time, not the whole server"
    )


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    cfg = KillConfig(
        kills=args.kills,
        tables=tuple(int(n) for n in str(args.tables).split(",") if n.strip()),
        seed=seed,
        max_actions_between_kills=args.max_between,
        inflight=args.inflight,
        during_recovery=args.during_recovery,
        timeout=args.timeout,
        snapshot_every=args.snapshot_every,
        redis=args.redis,
        workers=args.workers,
        kill_workers=args.kill_workers,
        log=print if args.verbose else None,
    )
    if args.start_redis and args.redis:
        print("killtest: give --redis URL or --start-redis, not both", file=sys.stderr)
        return 2
    if args.kill_workers and not (args.redis or args.start_redis):
        print("killtest: --kill-workers needs --redis URL or --start-redis", file=sys.stderr)
        return 2
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="dixit-killtest-"))
    print(f"killtest: {cfg.kills} kills, tables {list(cfg.tables)}, seed {seed}, work folder {workdir}", flush=True)
    try:
        report = asyncio.run(_with_own_redis(cfg, workdir) if args.start_redis else run_killtest(cfg, workdir))
    except RedisStartError as error:
        print(f"killtest: {error}", file=sys.stderr)
        return 1
    print(report.figures())
    if report.ok and not args.keep and args.workdir is None:
        shutil.rmtree(workdir, ignore_errors=True)
    elif not report.ok:
        print(f"data kept in {workdir}; rerun with --seed {seed} to repeat the same choices")
    return 0 if report.ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m dixit_tui.bench.killtest",
        description="Kill a real dixit-tui server at random moments during bot games; check nothing acknowledged "
        "is lost and every view is the same after each restart.",
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
