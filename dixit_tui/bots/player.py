"""`BotPlayer`: a bot that plays through a coordinator `PlayerSession`, exactly like a human client does.

    bot = await BotPlayer.join(coordinator, "K7QF", "Oneiros", SmartStrategy(), random.Random())
    ...
    await bot.stop()            # or let it stop by itself when the game is over

    bots = await add_bots(coordinator, "K7QF", 3)     # the host's "add bots": free names, smart strategy

    Coordinator(bots=seat_bots)     # the coordinator's bot factory: the host's "add bots" and a rematch's bots

The sink only records what arrives and wakes the bot's task; the task waits a small random "think" delay (longer in
the open race for the first clue, so that people tell first), looks at the freshest view, and acts when its seat is
waited for and can act. People come first: with a person connected, a bot leaves the open first clue to the people
for the coordinator's `first_clue_grace` seconds and never takes it while a person is writing one (the view says who
is); in team mode it leaves its team's card to its human teammate for as long. A bot added by the host holds while no
person is connected to a seat at its table, even with spectators watching (nothing runs at a table every player has
left). Nothing ever raises out of the sink:
errors are logged. A bot leaves a table that has not started once no person or agent (a `json bot` client: not one of
the built-in bots) is connected to it, so an abandoned table can be forgotten, and closes its session when the game is
over or its seat is removed. The bots `add_bots` seats sit down in one change (`Coordinator.sit_bots`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
from collections.abc import Awaitable, Callable, Sequence
from enum import StrEnum

from dixit_tui.bots.brain import Brain
from dixit_tui.bots.strategy import (
    Action,
    ClueAction,
    SmartStrategy,
    Strategy,
    SubmitAction,
    VoteAction,
)
from dixit_tui.bots.strategy_names import strategy_named
from dixit_tui.bots.view import BotView
from dixit_tui.coordinator import (
    Coordinator,
    Identity,
    OverUpdate,
    PlayerSession,
    StateUpdate,
    TableError,
    TableView,
    Update,
    VoidedUpdate,
    detached,
)
from dixit_tui.coordinator.models import TableStatus
from dixit_tui.engine import Mode, Phase, RuleError

log = logging.getLogger(__name__)

DEFAULT_DELAY = (0.2, 1.0)
MAX_HOLD = 30.0  # a hold is looked at again at least this often, whatever it waits for


class Hold(StrEnum):
    """Why a bot holds back (see `BotPlayer.hold`)."""

    ALONE = "alone"
    GRACE = "grace"
    TYPING = "typing"
    TEAM = "team"
    REVEAL = "reveal"


# Names for bots added by the host (the first free one at the table is used).
BOT_NAMES = (
    "Oneiros",
    "Morpheus",
    "Hypnos",
    "Nyx",
    "Selene",
    "Somnus",
    "Reverie",
    "Fable",
    "Murmur",
    "Wisp",
    "Lullaby",
    "Nimbus",
    "Zephyr",
    "Moth",
)


class BotPlayer:
    """One bot seat. Create it with `await BotPlayer.join(...)` (or `add_bots`)."""

    def __init__(
        self,
        strategy: Strategy | None = None,
        rng: random.Random | None = None,
        delay: tuple[float, float] = DEFAULT_DELAY,
        *,
        leave_when_alone: bool = True,
        first_clue_grace: float = 0.0,
    ) -> None:
        self.strategy: Strategy = strategy or SmartStrategy()
        self.first_clue_grace = first_clue_grace  # seconds people have for the first clue (and a team's card)
        self.holds: dict[str, int] = {}  # why the bot held back (a Hold), and how often
        self._seen_at: dict[tuple[int, int, str], float] = {}  # decision -> when the bot first saw it was owed
        self.rng = rng or random.Random()
        self.delay = delay
        self.leave_when_alone = leave_when_alone
        self.session: PlayerSession | None = None
        self.view: TableView | None = None
        self.actions = 0  # commands the coordinator accepted
        self.errors = 0  # commands it refused (races, mostly)
        self.finished = asyncio.Event()  # set once the bot has stopped, for whatever reason
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.brain = Brain(self.strategy, self.rng)
        self._stopping = False

    # --- lifecycle -------------------------------------------------------------------------------------------

    @classmethod
    async def join(
        cls,
        coordinator: Coordinator,
        table_code: str,
        name: str,
        strategy: Strategy | None = None,
        rng: random.Random | None = None,
        delay: tuple[float, float] = DEFAULT_DELAY,
        *,
        leave_when_alone: bool = True,
        first_clue_grace: float | None = None,
    ) -> BotPlayer:
        """Connect as a bot called `name` and take a seat at `table_code`. Raises TableError if it cannot sit.
        `first_clue_grace` defaults to the coordinator's (for bots that sit with people, `leave_when_alone`)."""
        if first_clue_grace is None:
            first_clue_grace = coordinator.first_clue_grace if leave_when_alone else 0.0
        bot = cls(strategy, rng, delay, leave_when_alone=leave_when_alone, first_clue_grace=first_clue_grace)
        return await bot._sit(coordinator, name, lambda session: session.join(table_code, name))

    async def _sit(
        self,
        coordinator: Coordinator,
        name: str,
        take: Callable[[PlayerSession], Awaitable[TableView]],
        *,
        key: str | None = None,
        builtin: bool = True,
    ) -> BotPlayer:
        """Connect as a bot called `name` (a built-in one, or with `key` and not `builtin` an agent like any
        `json bot` client: the league's), take a seat with `take(session)`, and start playing."""
        session = await self._connect(coordinator, name, key=key, builtin=builtin)
        try:
            self.view = await take(session)
        except BaseException:
            await session.close()
            raise
        self._play()
        return self

    async def _connect(
        self, coordinator: Coordinator, name: str, *, key: str | None = None, builtin: bool = True
    ) -> PlayerSession:
        """Connect as a bot called `name`, at no table yet."""
        identity = Identity(name, key, bot=True)
        self.session = await coordinator.connect(identity, self._sink, builtin_bot=builtin)
        return self.session

    def _play(self) -> None:
        """Seated: start playing."""
        assert self.session is not None
        if self.view is None:
            self.view = self.session.view()
        self._task = detached.spawn(self._run(), name=f"bot {self.session.name}")
        self._changed.set()

    @property
    def name(self) -> str:
        return self.session.name if self.session is not None else ""

    @property
    def seat(self) -> int | None:
        return self.view.you if self.view is not None else None

    async def stop(self) -> None:
        """Stop acting and close the session (the seat is kept in a running game, freed in a lobby)."""
        self._stopping = True
        task, self._task = self._task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self._close()

    async def _close(self) -> None:
        session = self.session
        try:
            if session is not None and not session.closed:
                await session.close()
        except Exception:
            log.exception("bot %s: closing its session failed", self.name)
        finally:
            self.finished.set()

    # --- receiving ----------------------------------------------------------------------------------------

    def _sink(self, update: Update) -> None:
        try:
            self._receive(update)
        except Exception:  # never raise into the coordinator
            log.exception("bot %s: handling %s failed", self.name, type(update).__name__)

    def _receive(self, update: Update) -> None:
        match update:
            case StateUpdate(view=None):
                if self.view is not None:  # we were at a table and are not anymore (removed, moved)
                    self.view = None
                    self._stopping = True
                self._changed.set()
            case StateUpdate(view=view):
                self.view = view
                self._changed.set()
            case VoidedUpdate(turn=turn):
                self.brain.voided(turn)
                self._changed.set()
            case OverUpdate():
                self._stopping = True
                self._changed.set()

    # --- acting -------------------------------------------------------------------------------------------

    def bot_view(self) -> BotView | None:
        view = self.view
        if view is None or view.game is None:
            return None
        return self.brain.prepare(BotView.from_player_view(view.game))

    def _should_stop(self) -> bool:
        view = self.view
        if self._stopping or view is None:
            return True
        if view.status == TableStatus.OVER:
            return True
        if view.you is not None and view.you < len(view.seats) and view.seats[view.you].removed:
            return True  # removed from the game for good
        if view.status == TableStatus.LOBBY and self.leave_when_alone:
            return not any(s.connected and not s.builtin for s in view.seats)
        return False

    async def _run(self) -> None:
        try:
            while True:
                await self._changed.wait()
                self._changed.clear()
                if self._should_stop():
                    break
                view = self.bot_view()
                if view is None or view.needed() is None:
                    continue
                hold = self.hold(view, asyncio.get_running_loop().time())
                if hold is not None:
                    reason, seconds = hold
                    self.holds[reason] = self.holds.get(reason, 0) + 1
                    # until the view changes or the hold is over; alone, only a person coming back wakes it (no CPU)
                    timeout = None if reason == Hold.ALONE else min(seconds, MAX_HOLD)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), timeout)
                    self._changed.set()  # look again
                    continue
                pause = self.brain.think_time(view, self.delay)
                if pause > 0:
                    await asyncio.sleep(pause)
                if self._should_stop():
                    break
                await self._act()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot %s stopped on an error", self.name)
        await self._close()

    def hold(self, view: BotView, now: float) -> tuple[Hold, float] | None:
        """Why and how long (seconds) to hold back from what `view` owes, or None to go ahead. People first:

        - "alone": a bot the host added holds while no person is connected to a seat of the running game (as the
          coordinator's timers do: spectators alone do not keep a game going);
        - "grace": the open first clue is the people's for `first_clue_grace` seconds after the bot saw it open;
        - "typing": and never while a person is writing a clue (the mark goes by itself when they stop);
        - "team": a team's card is left to the bot's connected human teammate for the grace period;
        - "reveal": the table holds the turn's reveal for its people to read (the view that ends it wakes the bot)."""
        table = self.view
        need = view.needed()
        if table is None or need is None:
            return None
        if table.reveal_until is not None:
            return Hold.REVEAL, math.inf
        # a person or an agent (`json bot`) plays here; spectators do not count (nor for timers)
        alone = not any(s.connected and not s.builtin for s in table.seats)
        if alone and self.leave_when_alone and table.status == TableStatus.PLAYING:
            return Hold.ALONE, math.inf  # nobody to play for: wait until a person is back
        people = [s for s in table.seats if s.connected and not s.bot and not s.removed and s.seat != view.you]
        if not people:
            return None
        key = (view.turn, self.brain.voids, need)
        seen = self._seen_at.setdefault(key, now)
        left = seen + self.first_clue_grace - now
        if need == Phase.CLUE and view.storyteller is None:
            if any(seat in table.typing for seat in (s.seat for s in people)):
                return Hold.TYPING, math.inf
            return (Hold.GRACE, left) if left > 0 else None
        if need == Phase.SUBMIT and view.mode == Mode.TEAM and table.game is not None and left > 0:
            players = table.game.players
            mine = players[view.you].team if view.you is not None and view.you < len(players) else None
            mates = {p.seat for p in players if mine is not None and p.team == mine and p.seat != view.you}
            if any(s.seat in mates and s.seat in view.waiting_for for s in people):
                return Hold.TEAM, left
        return None

    async def _act(self) -> None:
        """Decide on the freshest view and send the command; after a refusal look again (the brain retries)."""
        view = self.bot_view()
        session = self.session
        if view is None or session is None:
            return
        decided = self.brain.next_action(view)
        if decided is None:
            return
        key, action = decided
        try:
            await self._send(session, action)
        except RuleError as err:  # a race (someone else gave the first clue) or a rule the view cannot show
            self.errors += 1
            log.info("bot %s: %s refused (%s): %s", self.name, key[2], err.code, err.message)
            self.brain.refused(key, action, err.code)
            self._changed.set()
            return
        self.actions += 1
        self.brain.accepted(key)

    @staticmethod
    async def _send(session: PlayerSession, action: Action) -> None:
        match action:
            case ClueAction(text=text, card=card):
                await session.clue(text, card)
            case SubmitAction(cards=cards):
                await session.submit(list(cards))
            case VoteAction(slots=slots, red=red):
                await session.vote(list(slots), red)


async def add_bots(
    coordinator: Coordinator,
    code: str,
    count: int,
    *,
    strategy: str | Strategy = "smart",
    rng: random.Random | None = None,
    delay: tuple[float, float] = DEFAULT_DELAY,
    names: Sequence[str] = BOT_NAMES,
    leave_when_alone: bool = True,
    first_clue_grace: float | None = None,
) -> list[BotPlayer]:
    """Seat `count` bots at table `code` in one change (`Coordinator.sit_bots`), each under the first of `names`
    nobody at the table has, as far as seats allow. Raises the TableError if none could sit (table full, game
    started, no such table)."""
    base = rng or random.Random()
    if first_clue_grace is None:
        first_clue_grace = coordinator.first_clue_grace if leave_when_alone else 0.0
    bots: list[BotPlayer] = []
    for _ in range(count):
        chosen = strategy_named(strategy) if isinstance(strategy, str) else strategy
        bot = BotPlayer(
            chosen,
            random.Random(base.randrange(2**63)),
            delay,
            leave_when_alone=leave_when_alone,
            first_clue_grace=first_clue_grace,
        )
        await bot._connect(coordinator, "bot")
        bots.append(bot)
    sessions = [bot.session for bot in bots if bot.session is not None]
    candidates = [*names, *(f"{n}{round_}" for round_ in range(2, 5) for n in names)]
    try:
        seated = await coordinator.sit_bots(code, sessions, candidates)
    except BaseException:
        for bot in bots:
            await bot.stop()
        raise
    playing = [bot for bot in bots if bot.session in seated]
    for bot in bots:
        if bot in playing:
            bot._play()
        else:
            await bot.stop()
    if len(playing) < count:
        log.info("add_bots: %d of %d seated", len(playing), count)
    return playing


async def revive_bots(coordinator: Coordinator, *, rng: random.Random) -> list[BotPlayer]:
    """After a restart of a one-process server: the built-in bots of every running game take their seats back
    (`revive_bot`), so that the game goes on without waiting for a stand-in at each of their turns."""
    if coordinator.bots is None:
        return []
    revived: list[BotPlayer] = []
    for table in list(coordinator.tables.values()):
        if table.status != TableStatus.PLAYING:
            continue
        for seat in list(table.seats):
            if not seat.builtin or seat.removed or seat.session is not None:
                continue
            try:
                revived.append(await revive_bot(coordinator, seat.code, seat.name, rng=random.Random(rng.random())))
            except TableError as err:
                log.info("bot %s at table %s could not come back: %s", seat.name, table.code, err.message)
    return revived


async def revive_bot(coordinator: Coordinator, reconnect_code: str, name: str, *, rng: random.Random) -> BotPlayer:
    """A built-in bot takes its seat back by the seat's reconnect code, after the server process it ran in died
    (tables shared by several workers: the table's new owner runs it). TableError if the seat cannot be taken."""
    bot = BotPlayer(SmartStrategy(), rng, leave_when_alone=True, first_clue_grace=coordinator.first_clue_grace)
    return await bot._sit(coordinator, name, lambda session: session.reclaim(reconnect_code))


async def seat_bots(
    coordinator: Coordinator, code: str, count: int, *, names: Sequence[str] | None, rng: random.Random
) -> int:
    """The coordinator's bot factory (`Coordinator(bots=seat_bots)`): `add_bots` with the smart strategy, under
    `names` (None: `BOT_NAMES`). Returns how many sat down."""
    bots = await add_bots(coordinator, code, count, rng=rng, names=BOT_NAMES if names is None else names)
    return len(bots)
