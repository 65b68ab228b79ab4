"""Tables never stall: when a phase's time limit passes, or a disconnected player's grace runs out, a stand-in
plays for them. The stand-in decides from that player's own view only, like any client would.

`Timers` keeps every table's clocks for the coordinator: the phase's deadline and the stand-ins it promises, the
grace of disconnected players, the pause of a table nobody is connected to, the close of a running game everyone
left, and the "writing a clue" marks that go by themselves. It arms and cancels the timers; what a timer does when
it fires (play the stand-ins' moves, close the table, show the new writers) goes back to the coordinator through the
callbacks it was given, under the table's lock."""

from __future__ import annotations

import logging
import random
import weakref
from collections.abc import Callable

from dixit_tui.coordinator import detached
from dixit_tui.coordinator.models import StandInReason, TableStatus, Update
from dixit_tui.coordinator.table import Table
from dixit_tui.engine import Command, GiveClue, Mode, Phase, PlayerView, RuleError, Submit, Vote, view_for

log = logging.getLogger(__name__)

StandIn = Callable[[PlayerView, random.Random], Command | None]

STALL = 1.0
"""Seconds late a deadline may fire before the server counts it as stalled (the process stopped, or its loop blocked):
moves players sent before the deadline may then still wait, unread, in their sockets."""
STALL_GRACE = 2.0
"""Seconds a stalled deadline is put off, once, so that what players sent in time is read before a stand-in plays."""

STAND_IN_CLUES = ("a long way home", "almost", "quiet", "once upon a time", "the other side", "too late", "echo")


def random_stand_in(view: PlayerView, rng: random.Random) -> Command | None:
    """A legal move for `view.you` chosen at random from what its view shows."""
    seat = view.you
    if seat is None:
        return None
    if view.can_clue:
        card = rng.choice(view.clue_cards) if view.clue_needs_card and view.clue_cards else None
        return GiveClue(seat, rng.choice(STAND_IN_CLUES), card)
    if view.submit_count:
        return Submit(seat, tuple(c.card for c in rng.sample(view.hand, view.submit_count)))
    if view.can_vote and view.vote_slots:
        red = rng.choice(view.board).slot if view.places_red else None
        return Vote(seat, (rng.choice(view.vote_slots),), red)
    return None


TableCallback = Callable[[Table], None]


class Timers:
    """The clocks of the coordinator's tables. `on_due(table)`: a deadline passed (the coordinator takes the table's
    lock and calls `stand_in_moves`); `on_idle(table)`: a running game nobody human is connected to has waited
    `close_idle_after` seconds; `on_typing(table)`: a "writing a clue" mark went by itself."""

    def __init__(
        self,
        *,
        stand_in: StandIn,
        disconnect_grace: float,
        typing_timeout: float,
        close_idle_after: float,
        close_empty_lobby_after: float = 180.0,
        clock: Callable[[], float],
        on_due: TableCallback,
        on_idle: TableCallback,
        on_typing: TableCallback,
        on_reveal: TableCallback | None = None,
    ) -> None:
        self.stand_in = stand_in
        self.disconnect_grace = disconnect_grace
        self.typing_timeout = typing_timeout  # a "writing a clue" mark lasts this long after the last report
        self.close_idle_after = close_idle_after
        self.close_empty_lobby_after = close_empty_lobby_after  # a lobby no person sits at closes after this long
        self.clock = clock
        self.on_due = on_due
        self.on_idle = on_idle
        self.on_typing = on_typing
        self.on_reveal = on_reveal  # a held reveal's time is up (the coordinator schedules the table again)
        self._graced: weakref.WeakKeyDictionary[Table, float] = weakref.WeakKeyDictionary()
        self._fired_late: weakref.WeakKeyDictionary[Table, float] = weakref.WeakKeyDictionary()
        # when each table's timer is due to go off: its deadline, or the moment it was armed for one already past
        self._due_at: weakref.WeakKeyDictionary[Table, float] = weakref.WeakKeyDictionary()

    # --- turn timers -----------------------------------------------------------------------------------------

    def schedule(self, table: Table) -> None:
        """Set the table's deadline for the phase in progress and arm one timer for it."""
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        table.stand_ins = {}
        game = table.game
        if game is None or table.status != TableStatus.PLAYING:
            table.deadline = table.shown_deadline = table.shown_phase_deadline = table.phase_key = None
            table.idle_since = None
            self.end_hold(table)  # a game that ended (or was taken back to its lobby) holds no reveal
            return
        now = self.clock()
        if self.holding(table, now):
            # the next phase's clock starts when the reveal is over
            table.deadline = table.shown_deadline = table.shown_phase_deadline = None
            return
        if not table.humans_connected() or table.unattended:
            # nobody is here (or nobody played for two whole turns): the table waits for its players instead of
            # playing itself, and its clocks stop
            if table.idle_since is None:
                table.idle_since = now
            table.deadline = table.shown_deadline = table.shown_phase_deadline = None
            return
        if table.idle_since is not None:
            self._resume(table, now)
        for seat, record in enumerate(table.seats):
            if record.session is None and not record.removed:
                table.away_since.setdefault(seat, now)  # a seat nobody came to (a rematch's): away from now on
        key = (game.state.turn.number, game.state.phase.value)
        if key != table.phase_key:
            table.phase_key = key
            table.phase_deadline = now + table.options.turn_seconds if table.options.turn_seconds else None
            table.typing.clear()  # a clue was given (or the turn moved on): nobody is writing one anymore
        for seat in self._blocking(table):
            due_at = table.away_since[seat] + self.disconnect_grace
            table.stand_ins[seat] = due_at if table.phase_deadline is None else min(due_at, table.phase_deadline)
        due = [] if table.phase_deadline is None else [table.phase_deadline]
        due += table.stand_ins.values()
        table.shown_deadline = min(due) if due else None  # the host's handover below is no countdown of the players'
        table.shown_phase_deadline = table.phase_deadline  # the phase's own clock, whoever is offline
        host_due = table.host_away_until(self.disconnect_grace)
        if host_due is not None and host_due > now:  # then someone else takes over as host (`Coordinator.changed`)
            due.append(host_due)
        table.deadline = min(due) if due else None
        if table.deadline is not None:
            delay = max(0.0, table.deadline - now)
            self._due_at[table] = now + delay
            table.timer = detached.call_later(delay, lambda: self.fire(table))

    # --- the reveal, held for the people to read -----------------------------------------------------------------

    def holding(self, table: Table, now: float) -> bool:
        """Whether the turn just scored is still held on screen: bots, stand-ins and the next phase's clock wait.
        A hold starts when a vote's turn is scored (not at the game's end) with the table's `reveal_seconds`, for the
        people connected to a screen that shows it (`Table.reveal_readers`); it ends when that time is up, or once
        each of them moved on (`seen`) or left. Nobody to read it: no hold."""
        game = table.game
        assert game is not None
        state = game.state
        last, before = state.last_reveal, table.phase_key
        if (
            last is not None
            and table.options.reveal_seconds > 0
            and before is not None
            and before == (last.turn, Phase.VOTE.value)
            and table.reveal_turn != last.turn
        ):
            table.reveal_turn = last.turn
            table.reveal_waits = table.reveal_readers() - table.reveal_seen.get(last.turn, set())
            if table.reveal_waits:
                table.reveal_until = now + table.options.reveal_seconds
                self._arm_reveal(table, table.options.reveal_seconds)
        if table.reveal_until is None:
            return False
        if now < table.reveal_until - 0.01 and table.reveal_waits & table.reveal_readers():
            if table.reveal_timer is None:  # its timer went off early by this clock: set again for what is left
                self._arm_reveal(table, table.reveal_until - now)
            return True
        self.end_hold(table)
        return False

    def seen(self, table: Table, turn: int, seat: int) -> bool:
        """Seat `seat`'s person moved on from turn `turn`'s reveal (pressed the key, or their client is not a
        screen). Returns whether that ended the hold (then the table is to be scheduled and shown again)."""
        table.reveal_seen = {turn: table.reveal_seen.get(turn, set()) | {seat}}  # only the latest turn is kept
        if table.reveal_until is None or table.reveal_turn != turn:
            return False
        table.reveal_waits.discard(seat)
        return not table.reveal_waits & table.reveal_readers()

    @staticmethod
    def end_hold(table: Table) -> None:
        table.reveal_until = None
        table.reveal_waits = set()
        if table.reveal_timer is not None:
            table.reveal_timer.cancel()
            table.reveal_timer = None

    def _arm_reveal(self, table: Table, delay: float) -> None:
        if table.reveal_timer is not None:
            table.reveal_timer.cancel()

        def over() -> None:
            table.reveal_timer = None
            if self.on_reveal is not None:
                self.on_reveal(table)

        table.reveal_timer = detached.call_later(delay, over)

    @staticmethod
    def _resume(table: Table, now: float) -> None:
        """A person is back at a table that was paused since `table.idle_since`: its clocks go on where they stopped.
        The phase's time limit and each absent player's grace are pushed on by the time nobody was there."""
        assert table.idle_since is not None
        idle_since, table.idle_since = table.idle_since, None
        if table.phase_deadline is not None:
            table.phase_deadline += max(0.0, now - idle_since)
        for seat, since in table.away_since.items():
            table.away_since[seat] = since + max(0.0, now - max(since, idle_since))

    @staticmethod
    def _blocking(table: Table) -> list[int]:
        """Disconnected seats the phase cannot go on without (when another player can act instead, nobody blocks)."""
        assert table.game is not None
        state = table.game.state
        waiting = state.waiting_for()
        away = [s for s in waiting if table.seats[s].session is None]
        if state.phase is Phase.CLUE and state.turn.storyteller is None:
            return away[:1] if len(away) == len(waiting) else []
        if state.config.mode is Mode.TEAM and state.phase is Phase.SUBMIT:
            return [s for s in away if not any(m in waiting and m not in away for m in state.teammates(s) if m != s)]
        return away

    def due(self, table: Table) -> bool:
        """Whether the table's deadline has come (none is set while the table waits for its players)."""
        return table.deadline is not None and self.clock() >= table.deadline - 0.01

    def fire(self, table: Table) -> None:
        """The table's timer went off (the event loop calls this): how late, by the clock, is noted for
        `put_off_after_a_stall`, and the coordinator is told (`on_due`)."""
        if table.deadline is not None:
            self._fired_late[table] = self.clock() - self._due_at.get(table, table.deadline)
        self.on_due(table)

    def put_off_after_a_stall(self, table: Table) -> bool:
        """The table's timer went off: if it did more than `STALL` seconds after its deadline, the server was not
        running (a SIGSTOP, a frozen VM, a loop blocked) and moves sent in time may still wait unread in the players'
        sockets. Then every clock of the table is pushed on so that the deadline is `STALL_GRACE` seconds from now
        (once per deadline), the timer re-armed, and True returned: nobody is played for yet. Called under the
        table's lock, after catching up (a deadline found passed any other way is played as it is)."""
        deadline = table.deadline
        late = self._fired_late.pop(table, None)
        if deadline is None or late is None:
            return False
        late = max(late, self.clock() - max(deadline, self._due_at.get(table, deadline)))
        if late <= STALL or self._graced.get(table) == deadline:
            return False
        shift = late + STALL_GRACE
        if table.phase_deadline is not None:
            table.phase_deadline += shift
        for seat in table.away_since:
            table.away_since[seat] += shift
        log.warning(
            "table %s: its deadline fired %.1fs late (the server was stalled); %gs more for moves sent in time",
            table.code,
            late,
            STALL_GRACE,
        )
        self.schedule(table)
        if table.deadline is not None:
            self._graced[table] = table.deadline
        return True

    def stand_in_moves(self, table: Table) -> list[Update]:
        """A deadline passed: a stand-in plays, from their own view, for each player the phase still waits for.
        Called under the table's lock; returns the updates of the moves made (the caller commits and shows them)."""
        game = table.game
        updates: list[Update] = []
        if game is None:
            return updates
        expired = (game.state.turn.number, game.state.phase)
        for _ in range(4 * len(table.seats)):
            if table.status != TableStatus.PLAYING or (game.state.turn.number, game.state.phase) != expired:
                break  # only the phase whose time ran out; the next one gets its own deadline
            now = self.clock()
            kind = StandInReason.TIME
            if table.phase_deadline is not None and now >= table.phase_deadline - 0.01:
                seats = list(game.state.waiting_for())[:1]
            else:
                kind = StandInReason.AWAY
                seats = [
                    s
                    for s in self._blocking(table)
                    if now >= table.away_since.setdefault(s, now) + self.disconnect_grace - 0.01
                ]
            if not seats:
                break
            seat = seats[0]
            command = self.stand_in(view_for(game.state, seat), table.rng)
            if command is None:
                break
            try:
                updates += table.execute(command, stand_in=kind)
            except RuleError:
                log.exception("the stand-in's move for seat %d was refused", seat)
                break
        return updates

    # --- idle tables -----------------------------------------------------------------------------------------

    def watch_idle(self, table: Table, *, open_here: bool) -> None:
        """A running game with no person connected closes after `close_idle_after` seconds, unless one returns.
        Meanwhile its timers wait (see `schedule`) and its bots hold (they act only with a person connected).
        `open_here`: the table is among the coordinator's open tables (one taken out of play is not watched).
        A table not yet started that nobody sits at while spectators remain (its people left) closes
        after `close_empty_lobby_after` seconds, counted on the coordinator's clock from `table.empty_since`."""
        status = table.status
        if status is TableStatus.LOBBY:  # (one nobody watches either is closed at once; after a restart, later)
            idle = open_here and not table.seated_connected() and table.watchers() > 0
        else:
            idle = status is TableStatus.PLAYING and not table.humans_connected() and open_here
        if not idle:
            if table.idle_timer is not None:
                table.idle_timer.cancel()
                table.idle_timer = None
            table.empty_since = None
            return
        if status is TableStatus.LOBBY and table.empty_since is None:
            table.empty_since = self.clock()
        if table.idle_timer is None:
            after = self.close_idle_after if status is TableStatus.PLAYING else self.close_empty_lobby_after
            table.idle_timer = detached.call_later(after, lambda: self.on_idle(table))

    def idle_fired(self, table: Table) -> None:
        """The idle timer went off (the coordinator is closing the table, or finds it no longer idle)."""
        table.idle_timer = None

    # --- who is writing a clue ---------------------------------------------------------------------------------

    def set_typing(self, table: Table, seat: int, active: bool) -> bool:
        """Seat `seat` started (or stopped) writing a clue. Returns whether the seats shown writing changed (then
        everyone at the table is to be told); a mark not renewed within `typing_timeout` seconds goes by itself."""
        before = table.typing_seats()
        if active and table.game is not None and seat in before:
            table.typing[seat] = self.clock()  # still writing: renew quietly
            self._arm_typing(table)
            return False
        if active and (table.game is None or seat not in _clue_writers(table)):
            return False  # only a seat that may give the clue now can be writing one
        if not active and seat not in table.typing:
            return False
        if not table.typing_limiter.allow(seat):
            return False  # a flood of start/stop: ignored (a stale mark goes by itself)
        if active:
            table.typing[seat] = self.clock()
        else:
            table.typing.pop(seat, None)
        self._arm_typing(table)
        return table.typing_seats() != before

    def _arm_typing(self, table: Table) -> None:
        if table.typing_timer is not None:
            table.typing_timer.cancel()
            table.typing_timer = None
        if table.typing:
            delay = max(0.0, min(table.typing.values()) + self.typing_timeout - self.clock())
            table.typing_timer = detached.call_later(delay, lambda: self._expire_typing(table))

    def _expire_typing(self, table: Table) -> None:
        table.typing_timer = None
        before = table.typing_seats()
        now = self.clock()
        for seat, since in list(table.typing.items()):
            if now >= since + self.typing_timeout - 0.01:
                del table.typing[seat]
        self._arm_typing(table)
        if table.typing_seats() != before:
            self.on_typing(table)


def _clue_writers(table: Table) -> tuple[int, ...]:
    """The seats that may give the clue now (anyone in the first-clue race, else the storyteller)."""
    game = table.game
    if game is None or game.state.phase is not Phase.CLUE or table.status != TableStatus.PLAYING:
        return ()
    return game.state.waiting_for()
