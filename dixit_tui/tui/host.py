"""What the screens need from the app that shows them, as typed interfaces.

The app (`DixitApp`) hands itself to each screen it opens, as a `Host`; a screen reaches the player's session only
through `Host.session`, typed as `Session`: what screens ask of the coordinator's `PlayerSession`. So the screens
never import the app (the app imports the screens), and a test can hand a screen any object with these parts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from typing import Protocol

from dixit_tui.coordinator import Identity, TableLock, TableOptions, TableSummary, TableView


class Session(Protocol):
    """What screens ask of the player's session (the coordinator's `PlayerSession` is one). Each call either
    changes something or raises a `RuleError` that says why not."""

    @property
    def name(self) -> str: ...

    # the lobby
    async def create(self, options: TableOptions) -> TableView: ...
    async def join(self, code: str, name: str | None = None) -> TableView: ...
    async def reclaim(self, reconnect_code: str) -> TableView: ...
    async def watch(self, code: str) -> TableView: ...

    # the table
    async def leave(self) -> None: ...
    async def start(self, *, practice: bool = False) -> None: ...
    async def practice(self) -> None: ...
    async def add_bots(self, count: int) -> int: ...
    async def rematch(self) -> TableView: ...
    async def remove(self, target: int) -> None: ...
    async def lock(self, to: TableLock | str) -> None: ...
    async def invite(self, name: str) -> None: ...
    async def change_options(self, options: TableOptions) -> TableView: ...
    async def void(self) -> None: ...
    async def clue(self, text: str, card: str | None = None) -> None: ...
    async def typing(self, active: bool) -> None: ...
    async def submit(self, cards: Sequence[str]) -> None: ...
    async def vote(self, slots: Sequence[int], red: int | None = None) -> None: ...
    async def chat(self, text: str, *, team: bool = False) -> None: ...


class Host(Protocol):
    """What a screen needs from the app that shows it (`DixitApp` is one)."""

    @property
    def session(self) -> Session | None:
        """The player's session; None for the moment between the lobby's first paint and the connection."""

    @property
    def identity(self) -> Identity: ...

    @property
    def tables(self) -> tuple[TableSummary, ...]:
        """The open tables, as the last lobby update listed them."""

    @property
    def ssh_host(self) -> str | None: ...

    @property
    def ssh_port(self) -> int | None: ...

    def deck_sizes(self) -> dict[str, int]:
        """The decks a host may choose at this server, each with its number of cards."""

    def seat_kept(self) -> str | None:
        """The code of a running game where this player's seat (taken with their SSH key) is kept, if any."""

    def motd(self) -> str:
        """The server's message of the day ("" for none), shown in the lobby."""

    async def act(self, call: Awaitable[object]) -> bool:
        """Run a session call; a refusal is shown as a short message and changes nothing. True if it worked."""
