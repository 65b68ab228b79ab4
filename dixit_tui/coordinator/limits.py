"""The coordinator's own limits (tables, bots, reconnect tries), and the guard that meters reconnect-code tries.

Each limit is a `dixit-tui serve --limit NAME=VALUE` beside the SSH server's (docs/operations.md)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from dixit_tui.addresses import address_of
from dixit_tui.addresses import network_of as _network_of


@dataclass(frozen=True)
class TableLimits:
    """Caps on what the sessions of one server may open, and on guessing reconnect codes."""

    max_tables: int = 200
    """Open tables in all (lobby, playing or over); `create` is refused beyond it."""
    max_tables_per_player: int = 3
    """Open tables one player hosts: counted by SSH key, or by name for players without one."""
    max_tables_per_ip: int = 10
    """Open tables created from one address."""
    abandoned_per_player: int = 2
    """Running games one player created (by SSH key, or by name without one) that have no person connected: past it
    they open no new table until they go back to one or it closes."""
    abandoned_per_ip: int = 3
    """Running games created from one address that have no person connected (the same rule, per address)."""
    abandoned_per_network: int = 10
    """Running games created from one network (IPv4 /24, IPv6 /64) that have no person connected."""
    make_room_after: float = 60.0
    """Seconds a running game with no person connected keeps its table slot once all `max_tables` are open: after
    that, someone who is here and wants a table gets it, and that game closes (it stays replayable)."""
    creates_per_player: int = 30
    """Tables one player (by SSH key, or by name without one) may create in `create_window`."""
    creates_per_ip: int = 60
    """Tables created from one address in `create_window`."""
    creates_per_network: int = 240
    """Tables created from one network (IPv4 /24, IPv6 /64) in `create_window`."""
    create_window: float = 3600.0
    """Seconds a created table counts against its creator, address and network."""
    code_reuse_after: float = 86400.0
    """Seconds after its table closed that a table code may be given to a new table (the old game is then replayed
    by its game id, which stays unique)."""
    lobby_interval: float = 0.25
    """Seconds the lobby's listing changes are gathered into one listing for the sessions in the lobby (the first
    change after a quiet interval is sent at once)."""
    keep_finished_days: float = 90.0
    """Days a finished game stays in the store after its table closed (replays, transcripts); then it is pruned.
    Its result stays: the ratings are folded from the results."""
    keep_abandoned_days: float = 14.0
    """Days a game that did not finish (abandoned, closed idle, never started) stays in the store after it closed."""
    max_bots_per_table: int = 11
    """Built-in bots at one table (a person and 11 bots fill the largest table); lower it on a busy server."""
    reconnect_tries_per_connection: int = 10
    """Wrong reconnect codes one connection may send; after that it is refused until it reconnects."""
    reconnect_tries_per_ip: int = 30
    """Wrong reconnect codes per address (and 4 times as many per /24 or /64 network) in `reconnect_window`."""
    reconnect_tries_total: int = 36_000
    """Wrong reconnect codes from everyone together in `reconnect_window` (10 a second on average)."""
    reconnect_window: float = 3600.0
    """Seconds a wrong reconnect code counts against its connection's address, network and the server."""
    reconnect_delay: float = 0.5
    """Seconds a wrong code waits before its answer after the first 3 of a connection; doubles with each one, up
    to 16 times this, which is also what every refused try waits."""


DEFAULT_TABLE_LIMITS = TableLimits()
FREE_TRIES = 3  # wrong codes a connection may send before its answers are delayed (typos happen)


def network_of(address: str | None) -> str | None:
    """The address's network for the per-network count: IPv4 /24, IPv6 /64; None if it is not an address."""
    return _network_of(address) if address else None


def address_key(address: str | None) -> str | None:
    """What a per-address limit counts: an IPv4 address, an IPv6 address's /64 (`dixit_tui.addresses`)."""
    return address_of(address) if address else None


class CreateMeter:
    """Counts the tables created per creator, address and network in a sliding window (`create_window`): each
    create is charged to whoever made it, with the lobby listings it causes (docs/operations.md)."""

    def __init__(self, limits: TableLimits, clock: Callable[[], float]) -> None:
        self.limits = limits
        self.clock = clock
        self.recent: dict[str, deque[float]] = {}

    def keys(self, owner: str, address: str | None) -> list[tuple[str, int]]:
        """What a create counts against, with each one's cap."""
        limits = self.limits
        keys = [(f"create:{owner}", limits.creates_per_player)]
        if address:
            keys.append((f"create:ip:{address_of(address)}", limits.creates_per_ip))
            network = network_of(address)
            if network is not None:
                keys.append((f"create:net:{network}", limits.creates_per_network))
        return keys

    def charge(self, owner: str, address: str | None) -> str | None:
        """Count one create; returns the key that is full (nothing counted then), or None."""
        now = self.clock()
        keys = self.keys(owner, address)
        for key, cap in keys:
            times = self.recent.get(key)
            if times is None:
                continue
            while times and now - times[0] > self.limits.create_window:
                times.popleft()
            if not times:
                del self.recent[key]
            elif len(times) >= cap:
                return key
        for key, _cap in keys:
            self.recent.setdefault(key, deque()).append(now)
        if len(self.recent) > 4 * self.limits.creates_per_network:  # many sources: drop the ones out of the window
            for key in [k for k, t in self.recent.items() if now - t[-1] > self.limits.create_window]:
                del self.recent[key]
        return None


@dataclass
class ReconnectGuard:
    """Counts reconnect tries per connection, per address, per network and in all. A try is counted when it is made
    (so tries sent at once cannot slip past the count) and forgiven when the code was right."""

    limits: TableLimits = DEFAULT_TABLE_LIMITS
    clock: Callable[[], float] = time.monotonic
    per_connection: dict[object, int] = field(default_factory=dict)
    recent: dict[str, deque[float]] = field(default_factory=dict)  # "ip:..", "net:..", "all" -> try times

    def keys(self, address: str | None) -> list[tuple[str, int]]:
        """What a try from `address` counts against, with each one's cap: everyone's, the address's, its network's."""
        return self._keys(address)

    def from_here(self) -> str:
        """Why a try is refused when its address (or network, or everyone) made too many."""
        minutes = max(1, round(self.limits.reconnect_window / 60))
        return f"Too many wrong reconnect codes from here: try again within {minutes} minutes."

    def _keys(self, address: str | None) -> list[tuple[str, int]]:
        limits = self.limits
        keys = [("all", limits.reconnect_tries_total)]
        if address:
            keys.append((f"ip:{address_of(address)}", limits.reconnect_tries_per_ip))
            network = network_of(address)
            if network is not None:
                keys.append((f"net:{network}", 4 * limits.reconnect_tries_per_ip))
        return keys

    def _window(self, key: str) -> deque[float]:
        times = self.recent.setdefault(key, deque())
        now = self.clock()
        while times and now - times[0] > self.limits.reconnect_window:
            times.popleft()
        return times

    def attempt(self, connection: object, address: str | None) -> str | None:
        """Count one try. Returns why it is refused without looking at the code, or None to go on."""
        if self.per_connection.get(connection, 0) >= self.limits.reconnect_tries_per_connection:
            return (
                "Too many wrong reconnect codes from this connection. "
                "Check the code where you wrote it down, then connect again."
            )
        keys = self._keys(address)
        for key, cap in keys:
            if len(self._window(key)) >= cap:
                return self.from_here()
        now = self.clock()
        self.per_connection[connection] = self.per_connection.get(connection, 0) + 1
        for key, _cap in keys:
            self.recent[key].append(now)
        return None

    def forgive(self, connection: object, address: str | None) -> None:
        """The code was right: this try does not count."""
        count = self.per_connection.get(connection, 0)
        if count <= 1:
            self.per_connection.pop(connection, None)
        else:
            self.per_connection[connection] = count - 1
        for key, _cap in self._keys(address):
            times = self.recent.get(key)
            if times:
                times.pop()

    def delay(self, connection: object) -> float:
        """Seconds to wait before answering a wrong code: none for the first few, then doubling, capped."""
        wrong = self.per_connection.get(connection, 0)
        if wrong <= FREE_TRIES:
            return 0.0
        return min(self.longest_delay(), self.limits.reconnect_delay * 2 ** (wrong - FREE_TRIES - 1))

    def longest_delay(self) -> float:
        """What a refused try waits before its answer: the longest delay of a wrong code."""
        return self.limits.reconnect_delay * 2**4

    def forget(self, connection: object) -> None:
        """The connection ended (its address's count stays)."""
        self.per_connection.pop(connection, None)
