"""`dixit-tui serve`: run the SSH game server until SIGINT/SIGTERM."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import functools
import importlib.util
import logging
import random
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dixit_tui.coordinator import Coordinator, Identity
from dixit_tui.coordinator.limits import TableLimits
from dixit_tui.coordinator.moderation import ModerationSettings
from dixit_tui.coordinator.sharing import Sharing
from dixit_tui.decks import DeckError
from dixit_tui.engine import Card, Command, PlayerView
from dixit_tui.log_setup import FORMATS, configure_logging
from dixit_tui.ssh.keys import HostKeyError, allowed_fingerprints
from dixit_tui.ssh.server import Gate, Limits, freeze_startup_objects, start_server
from dixit_tui.ssh.session_runner import AppFactory, CommandHandler, SessionIdentity
from dixit_tui.ssh.terminal import TerminalInfo
from dixit_tui.store import SqliteStore, StoreError
from dixit_tui.store.base import Store
from dixit_tui.store.lock import DataDirLock
from dixit_tui.textual_host.check import InternalsReport, installed_internals
from dixit_tui.usage import UsageError

logger = logging.getLogger(__name__)

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
DEFAULT_KEYS = Path("keys")
DEFAULT_DATA = Path("data")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "Every option may also come from a TOML file (--config FILE, or DIXIT_TUI_CONFIG) and from DIXIT_TUI_* "
        "variables (DIXIT_TUI_PORT=2222, DIXIT_TUI_DATA=DIR, DIXIT_TUI_LIMIT_LOGIN_TIMEOUT=20); flags win over "
        "variables, which win over the file. See docs/operations.md."
    )
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: %(default)s)")
    parser.add_argument("--port", type=int, default=2222, help="port to listen on, 0 for any (default: %(default)s)")
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="take any of these options from a TOML file (flags win over DIXIT_TUI_* variables, which win over it; "
        "see docs/operations.md)",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="the server's folder: its saved games, and its host key in DATA_DIR/keys (default: the games in data/ "
        "and the key in keys/, in the current folder)",
    )
    parser.add_argument(
        "--keys-dir",
        type=Path,
        default=None,
        help="host key folder (default: DATA_DIR/keys, or keys/ without --data-dir)",
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        help="keep the tables in Redis or Valkey (redis://HOST:PORT/DB) instead of SQLite in --data-dir; "
        "see docs/operations.md for the settings it needs",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="with --redis: N server processes on the same port, sharing the tables through Redis "
        "(default: one per core)",
    )
    parser.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)  # one worker of several
    parser.add_argument(
        "--deck", action="append", type=Path, default=[], metavar="FILE", help="extra deck file (repeatable)"
    )
    parser.add_argument(
        "--allow-seeded-tables",
        action="store_true",
        help="let `create` take a seed (tests and benchmarks only: a known seed reveals every hand)",
    )
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one server limit, e.g. --limit login_timeout=20 (repeatable; see docs/operations.md)",
    )
    parser.add_argument(
        "--disconnect-grace",
        type=float,
        default=60.0,
        help="seconds before a stand-in plays for a disconnected player the table waits for (default: %(default)s)",
    )
    parser.add_argument(
        "--first-clue-grace",
        type=float,
        default=25.0,
        help="seconds built-in bots leave the first clue (and a team's card) to the people (default: %(default)s)",
    )
    parser.add_argument(
        "--close-idle-after",
        type=float,
        default=600.0,
        help="seconds before a running game no person is connected to closes; it stays replayable "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--snapshot-every",
        type=int,
        default=100,
        help="save a whole-table snapshot after this many changes, for fast restarts (default: %(default)s)",
    )
    parser.add_argument(
        "--no-screen-cast",
        action="store_true",
        help="every terminal draws its own screen: spectators of a table that sit still at the same size and "
        "terminal no longer share one drawing (a screen cast; on by default, see docs/operations.md)",
    )
    parser.add_argument(
        "--log-level",
        type=str.upper,
        choices=LOG_LEVELS,
        default="INFO",
        help="the least important log lines shown (default: %(default)s)",
    )
    parser.add_argument(
        "--admin-key",
        action="append",
        default=[],
        metavar="FINGERPRINT",
        help="a key (SHA256:... as ssh-keygen -lf shows it) that may run `ssh HOST admin ...` (repeatable)",
    )
    parser.add_argument(
        "--private",
        action="store_true",
        help="only invited players get in: keys in --allow-keys or allowed by an admin, admins, and people without "
        "a key who give --invite-code",
    )
    parser.add_argument(
        "--allow-keys",
        type=Path,
        metavar="FILE",
        help="an authorized_keys-style file of the keys a private server lets in (implies --private)",
    )
    parser.add_argument(
        "--invite-code",
        metavar="CODE",
        help="people without a key are asked for this code when they log in (implies --private)",
    )
    parser.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        metavar="PORT",
        help="serve Prometheus metrics at /metrics and a health check at /health on this port (needs the "
        "[metrics] extra; with --workers N, worker K takes PORT+K-1)",
    )
    parser.add_argument(
        "--metrics-host",
        default="127.0.0.1",
        help="address of the metrics port (default: %(default)s: only this machine may read it)",
    )
    parser.add_argument(
        "--allow-textual-mismatch",
        action="store_true",
        help="start even when a private part of Textual, asyncssh or asyncio the server relies on is gone from the "
        "installed version (a part that only changed is a warning; see docs/operations.md)",
    )
    parser.add_argument("--worker-index", type=int, default=0, help=argparse.SUPPRESS)  # (set by the supervisor)
    parser.add_argument(
        "--log-format",
        default="text",
        choices=FORMATS,
        help="text lines, or JSON lines for log shippers (default: %(default)s)",
    )


def configure(parser: argparse.ArgumentParser, argv: Sequence[str]) -> None:
    """Every option from a config file and DIXIT_TUI_* variables as well (see ssh/settings.py)."""
    from dixit_tui.ssh.settings import configure

    configure(parser, argv)


def build_coordinator(
    args: argparse.Namespace,
    *,
    store: Store | None = None,
    sharing: Sharing[Coordinator] | None = None,
    rng: random.Random | None = None,
) -> Coordinator:
    """The one coordinator every session of this server shares, saving its tables in `store` (None: nowhere) and
    sharing them through `sharing` (None: this process alone); `rng` makes its table codes and each game's shuffle
    (None: the system's random source)."""
    return coordinator_settings(args)(store=store, sharing=sharing, rng=rng)


def coordinator_settings(args: argparse.Namespace) -> functools.partial[Coordinator]:
    """The coordinator `serve`'s options ask for, to be made (in the event loop) with its store and its sharing.
    Deck files, the table limits and the allowed keys are checked here, before anything is opened or listens
    (DeckError, ValueError). Its built-in bots are `dixit_tui.bots.player`'s (the coordinator itself knows no bots)."""
    from dixit_tui.bots.player import seat_bots
    from dixit_tui.decks import builtin_deck_names, load_builtin, load_deck

    decks = {name: load_builtin(name) for name in builtin_deck_names()}
    for path in args.deck:
        deck = load_deck(path)
        if deck.name in decks:
            raise DeckError(f"{path}: a deck named {deck.name!r} is already loaded; rename it in its [deck] table.")
        decks[deck.name] = deck

    def cards(names: Sequence[str]) -> tuple[Card, ...]:
        unknown = [n for n in names if n not in decks]
        if unknown:
            raise DeckError(f"Unknown deck {unknown[0]!r}. Decks here: {', '.join(decks)}.")
        return tuple(card for n in dict.fromkeys(names) for card in decks[n].cards)

    return functools.partial(
        Coordinator,
        moderation=moderation_settings(args),
        cards=cards,
        allow_seeded_tables=args.allow_seeded_tables,
        deck_names=tuple(decks),
        disconnect_grace=getattr(args, "disconnect_grace", 60.0),
        stand_in=smart_stand_in,
        bots=seat_bots,
        snapshot_every=max(1, getattr(args, "snapshot_every", 100)),
        first_clue_grace=max(0.0, getattr(args, "first_clue_grace", 25.0)),
        close_idle_after=max(1.0, getattr(args, "close_idle_after", 600.0)),
        limits=parse_table_limits(getattr(args, "limit", [])),
    )


def moderation_settings(args: argparse.Namespace) -> ModerationSettings:
    """The admins and the private mode from `serve`'s options (bans and the message of the day are in the store)."""
    allow_file = getattr(args, "allow_keys", None)
    invite = getattr(args, "invite_code", None)
    return ModerationSettings(
        admins=frozenset(getattr(args, "admin_key", None) or ()),
        private=bool(getattr(args, "private", False) or allow_file or invite),
        allowed_keys=allowed_fingerprints(Path(allow_file)) if allow_file else frozenset(),
        invite_code=invite or None,
    )


def smart_stand_in(view: PlayerView, rng: random.Random) -> Command | None:
    """When time runs out, the built-in bot's strategy plays for the missing player, from their own view."""
    from dixit_tui.bots.strategy import SmartStrategy, decide, to_command

    action = decide(view, SmartStrategy(), rng)
    return None if action is None or view.you is None else to_command(action, view.you)


def parse_limits(items: Sequence[str]) -> Limits:
    """`NAME=VALUE` pairs over the defaults; a bad name or value raises ValueError with the reason. The
    coordinator's limits (`TableLimits`) are read by `parse_table_limits` and skipped here."""
    return _parse_limits(Limits(), items, TableLimits)


def parse_table_limits(items: Sequence[str]) -> TableLimits:
    """The coordinator's limits (tables, bots, reconnect tries) among the same `NAME=VALUE` pairs."""
    return _parse_limits(TableLimits(), items, Limits)


def _parse_limits(limits: Any, items: Sequence[str], other: type) -> Any:
    known = {f.name: f for f in dataclasses.fields(limits)}
    others = {f.name for f in dataclasses.fields(other)}
    changes: dict[str, Any] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        name = name.strip().replace("-", "_")
        if sep and name in others:
            continue
        if not sep or name not in known:
            raise ValueError(f"unknown limit {item!r}; limits: {', '.join([*known, *others])}")
        current = getattr(limits, name)
        try:
            if isinstance(current, tuple):
                cols, rows = raw.lower().split("x")
                value: Any = (int(cols), int(rows))
            else:
                value = type(current)(raw)
        except ValueError as err:
            raise ValueError(f"bad value for {name}: {raw!r}") from err
        if (value if not isinstance(value, tuple) else min(value)) <= 0:
            raise ValueError(f"{name} must be positive")
        changes[name] = value
    return dataclasses.replace(limits, **changes)


def build_app_factory(args: argparse.Namespace, coordinator: Coordinator) -> AppFactory:
    """The one place that decides which app each PTY session gets: the lobby, attached to the shared coordinator.
    Its spectators may share one drawing (a screen cast) unless `--no-screen-cast`."""
    from dixit_tui.tui.app import DixitApp
    from dixit_tui.tui.capabilities import capabilities_for

    screen_cast = not getattr(args, "no_screen_cast", False)

    def factory(identity: SessionIdentity, terminal: TerminalInfo) -> DixitApp:
        who = Identity(identity.username, identity.key_fingerprint, identity.peer_ip)
        listen = getattr(args, "host", None)
        host = None if listen in (None, "0.0.0.0", "::", "") else listen
        port = getattr(args, "port", None) or None
        return DixitApp(
            coordinator,
            who,
            command=terminal.command,
            ssh_host=host,
            ssh_port=port,
            screen_cast=screen_cast,
            capabilities=capabilities_for(
                terminal.color_system,
                no_color=terminal.no_color,
                utf8=terminal.utf8,
                console=terminal.glyphs == "console",
            ),
        )

    return factory


def build_command_handler(args: argparse.Namespace, coordinator: Coordinator) -> CommandHandler:
    """Sessions without a terminal: the headless JSON protocol and the plain commands."""
    from dixit_tui.plain_commands import handle_plain

    idle = parse_limits(getattr(args, "limit", [])).json_idle_timeout

    async def handler(identity: SessionIdentity, command: str | None, reader: Any, writer: Any) -> int:
        who = Identity(identity.username, identity.key_fingerprint, identity.peer_ip)
        return await handle_plain(coordinator, who, command, reader, writer, idle_timeout=idle)

    return handler


def run(
    args: argparse.Namespace,
    app_factory: AppFactory | None = None,
    command_handler: CommandHandler | None = None,
) -> int:
    """Serve until SIGINT/SIGTERM. Options that cannot work raise UsageError before anything is created; a Redis
    that does not answer, a data folder another server holds, a host key or a port that cannot be used are
    logged as errors (status 1)."""
    redis_url = getattr(args, "redis", None)
    workers = getattr(args, "workers", None)
    check_usage(args)
    args.data_dir, args.keys_dir = data_folders(args)
    configure_logging(str(getattr(args, "log_level", "INFO")), str(getattr(args, "log_format", "text")))
    if not getattr(args, "reuse_port", False):  # (said once, by the supervisor, not by each worker)
        config = getattr(args, "config", None)
        where = f"tables in Redis at {redis_url}" if redis_url else f"data folder {Path(args.data_dir).resolve()}"
        logger.info(
            "config file: %s; %s; host key folder %s",
            Path(config).resolve() if config else "none",
            where,
            Path(args.keys_dir).resolve(),
        )
    if not check_internals_at_start(args):
        return 1
    if redis_url:
        try:
            _check_redis(redis_url)
        except StoreError as error:
            logger.error("%s", error)
            return 1
    if redis_url and (workers or _default_workers()) > 1 and app_factory is None:
        from dixit_tui.ssh.workers import supervise

        try:
            return supervise(sys.argv[1:], args.host, args.port, Path(args.keys_dir), workers or _default_workers())
        except HostKeyError as error:
            logger.error("%s", error)
            return 1
        except OSError as error:
            logger.error("cannot listen on %s:%s: %s", args.host, args.port, error)
            return 1
    freeze_startup_objects()
    try:
        settings = coordinator_settings(args)
        limits = parse_limits(getattr(args, "limit", []))
    except (DeckError, ValueError) as error:
        raise UsageError(str(error)) from error
    lock: DataDirLock | None = None
    try:
        if not redis_url:
            lock = DataDirLock.hold(Path(args.data_dir))
        return asyncio.run(_serve(args, settings, app_factory, command_handler, limits))
    except (HostKeyError, StoreError) as error:
        logger.error("%s", error)
        return 1
    except OSError as error:  # e.g. the port is taken
        logger.error("cannot listen on %s:%s: %s", args.host, args.port, error)
        return 1
    finally:
        if lock is not None:
            lock.release()


def check_internals_at_start(args: argparse.Namespace, report: InternalsReport | None = None) -> bool:
    """The private parts of Textual, asyncssh and asyncio the server relies on, checked against the installed versions
    (`dixit_tui.textual_host.check`): a WARNING per part that changed, and the server starts; a part that is gone
    altogether is an ERROR and the server does not start (False), unless --allow-textual-mismatch. A worker started
    by the supervisor (--reuse-port) logs nothing: its supervisor said it. (`report`: the installed versions'.)"""
    report = report or installed_internals()
    quiet = bool(getattr(args, "reuse_port", False))
    allowed = bool(getattr(args, "allow_textual_mismatch", False))
    for difference in report.differences:
        if quiet:
            continue
        level = logging.ERROR if difference.gone and not allowed else logging.WARNING
        logger.log(level, "%s", difference.describe())
    if report.gone and not allowed:
        if not quiet:
            logger.error(
                "not starting: %d private part(s) the server relies on are gone from the installed version (%s); "
                "install the version checked, or start with --allow-textual-mismatch to serve anyway",
                len(report.gone),
                report.summary(),
            )
        return False
    return True


def check_usage(args: argparse.Namespace) -> None:
    """UsageError for options that cannot work, before anything is created: `--workers` without `--redis`, an
    unknown limit or a bad value, a deck file that is missing or not a deck, `--redis` without the redis package."""
    from dixit_tui.decks import load_deck

    workers = getattr(args, "workers", None)
    if workers is not None and workers < 1:
        raise UsageError("--workers takes a number of processes, 1 or more")
    if workers is not None and workers > 1 and not getattr(args, "redis", None):
        raise UsageError("--workers needs --redis: several processes share their tables through Redis")
    if getattr(args, "redis", None) and importlib.util.find_spec("redis") is None:
        raise UsageError("--redis needs the redis package: pip install 'dixit-tui[redis]'")
    for key in getattr(args, "admin_key", None) or ():
        if not key.startswith("SHA256:"):
            raise UsageError(f"--admin-key takes a key's fingerprint (SHA256:..., as ssh-keygen -lf shows it): {key!r}")
    allow_file = getattr(args, "allow_keys", None)
    if allow_file is not None:
        try:
            allowed_fingerprints(Path(allow_file))
        except (OSError, ValueError) as error:
            raise UsageError(f"--allow-keys: {error}") from error
    if getattr(args, "metrics_port", None) is not None and importlib.util.find_spec("prometheus_client") is None:
        raise UsageError("--metrics-port needs the prometheus-client package: pip install 'dixit-tui[metrics]'")
    try:
        parse_limits(getattr(args, "limit", []))
        parse_table_limits(getattr(args, "limit", []))
        for path in getattr(args, "deck", []):
            load_deck(path)
    except (DeckError, ValueError) as error:
        raise UsageError(str(error)) from error


def data_folders(args: argparse.Namespace) -> tuple[Path, Path]:
    """(games folder, host key folder): `--data-dir D` holds both (the key in D/keys unless `--keys-dir` says
    otherwise); without it, data/ and keys/ in the current folder, as `./dev serve` has always made them."""
    data_dir = getattr(args, "data_dir", None)
    keys_dir = getattr(args, "keys_dir", None)
    if keys_dir is None:
        keys_dir = DEFAULT_KEYS if data_dir is None else Path(data_dir) / "keys"
    return Path(data_dir if data_dir is not None else DEFAULT_DATA), Path(keys_dir)


def _check_redis(url: str) -> None:
    """StoreError unless Redis answers at `url`: checked before the host key is made or a worker is started."""
    from dixit_tui.store.redis_store import RedisStore

    async def ping() -> None:
        store = await RedisStore.open(url)
        await store.close()

    asyncio.run(ping())


async def _serve(
    args: argparse.Namespace,
    settings: functools.partial[Coordinator],
    app_factory: AppFactory | None,
    handler: CommandHandler | None,
    limits: Limits,
) -> int:
    redis_url = getattr(args, "redis", None)
    if redis_url:
        return await _serve_redis(args, redis_url, settings, app_factory, handler, limits)
    store = await SqliteStore.open(Path(args.data_dir))
    try:
        coordinator = settings(store=store)
        restored = await coordinator.restore()
        if restored:
            logger.info("restored %d table(s) from %s", restored, store.path)
            from dixit_tui.bots.player import revive_bots

            bots = await revive_bots(coordinator, rng=random.Random())
            if bots:
                logger.info("%d built-in bot(s) back at their tables", len(bots))
        return await _listen(args, app_factory, handler, coordinator, limits)
    finally:
        await store.close()


def _default_workers() -> int:
    from dixit_tui.ssh.workers import default_workers

    return default_workers()


async def _serve_redis(
    args: argparse.Namespace,
    url: str,
    settings: functools.partial[Coordinator],
    app_factory: AppFactory | None,
    handler: CommandHandler | None,
    limits: Limits,
) -> int:
    """The tables in Redis, shared with every other server process (worker) on the same Redis: see
    `coordinator.shared`. Several of them on one machine share the port (`--reuse-port`, started by
    `ssh.workers`); several machines need only the same Redis and host key."""
    from dixit_tui.bots.player import revive_bot
    from dixit_tui.coordinator.shared import SharedTables
    from dixit_tui.store.redis_store import RedisStore

    async def revive(coordinator: Coordinator, seat_code: str, name: str) -> object:
        return await revive_bot(coordinator, seat_code, name, rng=random.Random())

    store = await RedisStore.open(url)
    shared = SharedTables(store, revive=revive)  # (the built-in bots of a worker that died are brought back)
    coordinator = settings(store=shared.saving, sharing=shared)
    try:
        await shared.start()
        if coordinator.tables:
            logger.info("restored %d table(s) from %s", len(coordinator.tables), url)
        return await _listen(args, app_factory, handler, coordinator, limits)
    finally:
        await shared.stop()
        await store.close()


async def _listen(
    args: argparse.Namespace,
    app_factory: AppFactory | None,
    handler: CommandHandler | None,
    coordinator: Coordinator,
    limits: Limits,
) -> int:
    """Serve `coordinator`'s tables: `app_factory` and `handler` (None: `serve`'s own) get its sessions."""
    from dixit_tui.tui.shared_work import share_per_process_work

    app_factory = app_factory or build_app_factory(args, coordinator)
    handler = handler or build_command_handler(args, coordinator)

    acceptor = await start_server(
        args.host,
        args.port,
        args.keys_dir,
        app_factory,
        command_handler=handler,
        limits=limits,
        reuse_port=bool(getattr(args, "reuse_port", False)),
        gate=session_gate(coordinator),
        ask_invite=coordinator.moderation.settings.invite_code is not None,
        app_setup=(share_per_process_work,),
    )
    metrics = await _start_metrics(args, coordinator, acceptor)
    enforcing = asyncio.create_task(_enforce_moderation(coordinator, acceptor, limits.moderation_refresh))
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):  # before "listening on": a stop right after it is clean too
        loop.add_signal_handler(signum, stop.set)
    try:
        print(f"host key fingerprint: {acceptor.host_key_fingerprint} (ED25519)", flush=True)
        print(installed_internals().summary(), flush=True)
        print(f"listening on {args.host}:{acceptor.port}", flush=True)
        await stop.wait()
        logger.info("shutting down")
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        enforcing.cancel()
        if metrics is not None:
            metrics.close()
        await acceptor.shutdown(timeout=5.0)
    return 0


async def _enforce_moderation(coordinator: Coordinator, acceptor: Any, interval: float) -> None:
    """Sessions a ban (or a key no longer allowed in) now refuses are ended: at once when it is made at this worker,
    and within `interval` seconds when made at another (each worker reads the store's bans that often)."""
    moderation = coordinator.moderation

    def end() -> None:
        acceptor.end_refused(lambda who: moderation.check(who.key_fingerprint, who.peer_ip, who.invite))

    moderation.on_change.append(end)
    try:
        while True:
            await asyncio.sleep(interval)
            await moderation.refresh()
    finally:
        moderation.on_change.remove(end)


def session_gate(coordinator: Coordinator) -> Gate:
    """Bans and the private mode, asked once per session before it starts (see coordinator/moderation.py)."""

    async def gate(identity: SessionIdentity) -> str | None:
        return await coordinator.moderation.refusal(identity.key_fingerprint, identity.peer_ip, identity.invite)

    return gate


async def _start_metrics(args: argparse.Namespace, coordinator: Coordinator, acceptor: Any) -> asyncio.Server | None:
    """`--metrics-port`: /metrics and /health on their own port (worker K of several: the port + K - 1)."""
    port = getattr(args, "metrics_port", None)
    if port is None:
        return None
    from dixit_tui.metrics import start_metrics_server

    index = getattr(args, "worker_index", 0)
    host = getattr(args, "metrics_host", "127.0.0.1")
    port = port + index if port else 0
    server = await start_metrics_server(
        host, port, coordinator, lambda: acceptor.connection_count, lambda: acceptor.session_kinds
    )
    bound = server.sockets[0].getsockname()[1]
    print(f"metrics on http://{host}:{bound}/metrics", flush=True)
    return server
