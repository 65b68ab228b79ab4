"""The Textual app of one player: a lobby, a table, and the help. One instance per SSH session.

The coordinator reaches the app only through `post_message` (see NOTES.md: code run in the caller's context would
see the caller's app as the active one). Player text is never put into markup anywhere in the UI.
"""

from __future__ import annotations

import asyncio
import bisect
import inspect
import time
from collections.abc import Awaitable, Callable, Sequence
from functools import cache
from pathlib import Path, PurePath
from typing import Any, ClassVar

from textual import events
from textual.app import App
from textual.binding import Binding, BindingType
from textual.filter import LineFilter
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import AwaitMount

from dixit_tui.coordinator import (
    ChatUpdate,
    Coordinator,
    Identity,
    LobbyUpdate,
    NoticeUpdate,
    OverUpdate,
    PlayerSession,
    QueueUpdate,
    RevealUpdate,
    StateUpdate,
    TableSummary,
    TableView,
    Update,
    VoidedUpdate,
)
from dixit_tui.counts import COUNTS
from dixit_tui.decks import DeckError
from dixit_tui.engine import RuleError
from dixit_tui.textual_host.hosted import CastRole, HostedDriver
from dixit_tui.textual_host.key_order import KeyGate
from dixit_tui.textual_host.screen_mount import get_screen_laid_out_once
from dixit_tui.textual_host.screen_patches import install_screen_patches, mark_styled_at_mount
from dixit_tui.textual_host.shared_css import share_parsed_css
from dixit_tui.textual_host.shared_styles import share_computed_styles
from dixit_tui.tui.capabilities import FULL, Capabilities
from dixit_tui.tui.css_variables import css_variables
from dixit_tui.tui.line_filters import shared_line_filters
from dixit_tui.tui.lobby import LobbyScreen
from dixit_tui.tui.name_note import name_note
from dixit_tui.tui.same_size_resize import DefaultScreen
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.table_words import voided_notice
from dixit_tui.tui.update_pacing import UpdatePacing, supersedes
from dixit_tui.tui.watch_cast import cast_key, quiet_left
from dixit_tui.tui.widgets.confirm import ConfirmScreen, SeatPicker
from dixit_tui.tui.widgets.too_small import MIN_HEIGHT, MIN_WIDTH, TooSmall

NAME_NOTE_SECONDS = 15.0  # a shortened or cleaned name is said this long (longer than other notices)
CAST_HELD_MAX = 200
"""Updates a session holds at most while it follows another's drawing (chat lines, reveals: kept, in order): beyond,
it leaves its cast, takes them and draws (and joins again once it may)."""
_TYPED_AT = "_dixit_typed_at"  # the screen on top when a key arrived (an attribute set on the Key event)
_TYPED_FOR = "_dixit_typed_for"  # what it acted on then at the table (TableScreen.key_role), or None


class CoordinatorUpdate(Message):
    """An update from the coordinator, delivered on this app's own message queue (`order`: the app's count of
    updates delivered when it came)."""

    def __init__(self, update: Update, order: int = 0) -> None:
        super().__init__()
        self.update = update
        self.order = order

    def can_replace(self, message: Message) -> bool:
        """True when `message`, queued right behind this one, makes it moot (a newer view of the same table, a newer
        lobby listing): a busy session draws the latest state, not every step to it."""
        return isinstance(message, CoordinatorUpdate) and supersedes(message.update, self.update)


class CastRoleChanged(Message):
    """The app's role in a cast changed (`DixitApp.cast_role_changed`), handled on its own message queue."""

    def __init__(self, role: CastRole) -> None:
        super().__init__()
        self.role = role


@cache
def _all_css_paths() -> tuple[Path, ...]:
    """The app's CSS files and its screens', read from the start (a screen bringing a new one makes Textual parse every
    source again and restyle every widget of every screen), in the order they were read in before."""
    paths: list[Path] = []
    for owner in (DixitApp, LobbyScreen, TableScreen):
        css_path = owner.CSS_PATH
        for path in [css_path] if isinstance(css_path, str | PurePath) else list(css_path or ()):
            resolved = (
                Path(path) if Path(path).is_absolute() else (Path(inspect.getfile(owner)).parent / path).resolve()
            )
            if resolved not in paths:
                paths.append(resolved)
    return tuple(paths)


def breakpoint_classes(dimension: int, breakpoints: list[tuple[int, str]]) -> set[str]:
    """The class of the largest breakpoint `dimension` reaches (as Textual picks a screen's breakpoint classes on a
    Resize; its own helper for that is private and not in every Textual 8 release)."""
    for start, name in sorted(breakpoints, reverse=True):
        if dimension >= start:
            return {name}
    return set()


class DixitApp(App[int]):
    CSS_PATH = "dixit.tcss"
    _get_screen = get_screen_laid_out_once  # a new screen laid out once, not again after mounting (textual_host)
    TITLE = "dixit-tui"
    ENABLE_COMMAND_PALETTE = False
    # Below MIN_WIDTH x MIN_HEIGHT every screen shows the "terminal too small" notice (screens with breakpoints
    # of their own start theirs with the same two classes).
    HORIZONTAL_BREAKPOINTS = [(0, "-too-narrow"), (MIN_WIDTH, "-fits-width")]
    VERTICAL_BREAKPOINTS = [(0, "-too-short"), (MIN_HEIGHT, "-fits-height")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
        Binding("f1", "help", "Help"),
        Binding("question_mark", "help", "Help", show=False),  # "?" too, unless a text box has the keys
    ]

    def __init__(
        self,
        coordinator: Coordinator,
        identity: Identity,
        *,
        command: str | None = None,
        ssh_host: str | None = None,
        ssh_port: int | None = None,
        capabilities: Capabilities = FULL,
        screen_cast: bool = True,
    ) -> None:
        self.capabilities = capabilities  # (before Textual's __init__: it asks for the CSS variables)
        share_parsed_css()
        share_computed_styles()
        install_screen_patches()
        super().__init__(css_path=list[str | PurePath](_all_css_paths()))
        self._disable_tooltips = True  # no widget here has a tooltip: no Tooltip widget composed into every screen
        self.ssh_host = ssh_host  # for the "join straight from your shell" hints, when known
        self.ssh_port = ssh_port
        self.coordinator = coordinator
        self.identity = identity
        self.command = command
        self.session: PlayerSession | None = None
        self.tables: tuple[TableSummary, ...] = ()
        self.table_view: TableView | None = None
        self._key_gate = KeyGate(self)
        self.update_pacing = UpdatePacing(self, self._take_update, self._opens_a_screen)
        """Coordinator updates held while this session watches (`paced_by`), taken at most once per interval."""
        self._driver_hosted: HostedDriver | None = None  # the driver, when it is one that may share frames
        self.screen_cast = screen_cast
        """Whether this session may share a drawing with other spectators (`serve --no-screen-cast`: never)."""
        self._delivered = 0  # coordinator updates delivered so far (their order, for the ones held)
        self._cast_following = False  # another session's app draws this one's picture (tui/watch_cast.py)
        self._cast_held: list[tuple[int, Update, float]] = []  # updates held meanwhile (order, update, when held)
        self._cast_taking = False  # taking them (no joining meanwhile)
        self._quiet_timer: Timer | None = None  # waiting out its quiet time to join a cast (`_join_when_quiet`)
        self._notice_until = 0.0  # when (monotonic) the notice shown goes (see notify)
        self.cast_updates_held = 0
        """Coordinator updates this app held while following another session's drawing (each taken, merged, later)."""
        self.taken_while_following = 0
        """Coordinator updates this app took (drew) while following: none (it holds them)."""

    def get_css_variables(self) -> dict[str, str]:
        """As Textual's, with what a terminal of few colours or none needs (`css_variables`: once per process)."""
        variables = css_variables(self.current_theme, self.capabilities, super().get_css_variables)
        self.theme_variables = variables
        return variables

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """One notice at a time, the newest in place of any still shown (a second one, stacked on the top line,
        covered the status line)."""
        if self.screen_stack:
            self.screen.query("ToastHolder").remove()  # (clearing leaves each toast's holder: a blank row on top)
        self.clear_notifications()
        shown = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        self._notice_until = time.monotonic() + shown  # (a notice is the session's own: see watch_cast)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def get_key_display(self, binding: Binding) -> str:
        """As Textual's, but a terminal without UTF-8 (`LANG=C`) or with a console's font (`TERM=linux`) reads "Enter"
        where the key bar draws a "⏎" (whose one-cell ASCII form, "<", read as a key of its own)."""
        display = super().get_key_display(binding)
        plain = not self.capabilities.utf8 or self.capabilities.console
        return display.replace("⏎", "Enter") if plain else display

    # --- lifecycle -------------------------------------------------------------------------------------------

    async def on_mount(self) -> None:
        self.screen_change_signal.subscribe(self, self._screen_changed)
        self.session = session = await self.coordinator.connect(self.identity, self._deliver, shows_reveal=True)
        kept = self.seat_kept() if not self.command else None
        if kept is not None and await self.act(session.join(kept)):
            # back with your key, back at your seat: the game went on, and its table opens at once
            self.notify(f"Welcome back: you are at your seat at table {kept} again.", markup=False)
        elif not self.command:
            # The lobby opens with the open tables and the session's name: drawn once, not drawn empty and then again
            # (laid out again) when the first lobby update arrives (it then changes nothing). It opens once the app has
            # started: opened during its mount, it was drawn whole in Textual's startup batch, which drops that frame,
            # and drawn whole again after it (3.4k of its 55.8k Python calls, tests/tui/patch_cost.py).
            self.tables = self.coordinator.summaries()
            self.call_later(self._show_lobby)
        elif not await self._run_command(self.command):
            await self._show_lobby()
        note = name_note(self.identity.name, session.name)
        if note is not None:  # a shortened or cleaned name is said, once
            self.notify(note, severity="warning", timeout=NAME_NOTE_SECONDS, markup=False)

    async def _show_lobby(self) -> LobbyScreen:
        """The lobby, under any table (a session started with `join CODE` or `watch CODE` opens it only once it
        leaves the table, or when the command did not work: it is not built, styled and laid out unseen)."""
        lobby = next((s for s in self.screen_stack if isinstance(s, LobbyScreen)), None)
        if lobby is None:
            lobby = LobbyScreen(self)
            await self.push_screen(lobby)
        return lobby

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's, with its ANSI-to-truecolor filter shared by every session (`line_filters.py`)."""
        return shared_line_filters(super().get_line_filters(), self.ansi_theme)

    def get_default_screen(self) -> Screen[Any]:
        """Textual's default screen, prepared as every screen is (see push_screen), but with its "terminal too small"
        notice only if it ever shows (`_screen_changed`): the lobby or the table goes on it before the first frame."""
        screen = DefaultScreen(id="_default")
        self._prepare_screen(screen, notice=False)
        return screen

    def _base_depth(self) -> int:
        """How many screens stay when the table closes: the app's default screen, and the lobby once it exists."""
        return 2 if any(isinstance(s, LobbyScreen) for s in self.screen_stack) else 1

    async def on_unmount(self) -> None:
        self._key_gate.close()
        if self.session is not None:
            await self.session.close()

    def _screen_changed(self, screen: Screen[Any]) -> None:
        """A screen shown while the terminal is too small gets the "terminal too small" notice (its CSS shows it only
        below the minimum size; once mounted, it stays). A session in a cast whose table screen is covered or left
        leaves it (its source: the whole cast breaks up, as each member gets the same change)."""
        driver = self._driver_hosted
        if driver is not None and driver.in_cast and screen is not self._table_screen():
            driver.leave_cast(everyone=not driver.following)
        if self._too_small(self.size):
            self._add_notice(screen)

    def _add_notice(self, screen: Screen[Any]) -> None:
        if screen not in self.screen_stack or screen.query_children(TooSmall):
            return
        if not (screen.is_mounted and screen.is_attached):  # pushed this instant (Esc then a key): add it later
            self.call_after_refresh(self._add_notice, screen)
            return
        screen.mount(TooSmall())

    @staticmethod
    def _too_small(size: Any) -> bool:
        width, height = size
        return bool(width and height) and (width < MIN_WIDTH or height < MIN_HEIGHT)

    async def on_event(self, event: events.Event) -> None:
        """While the "terminal too small" notice shows (the screen's breakpoint classes, not the size just reported),
        keys are dropped but Ctrl+C: nothing is played blind. A session's own input also takes it out of any cast (it
        may have joined again since the driver took it out: what the input changes must be drawn for this terminal)."""
        if isinstance(event, events.Key | events.Paste | events.MouseEvent) and not event.is_forwarded:
            driver = self._driver_hosted
            if driver is not None and driver.in_cast:
                driver.leave_cast()
            self._join_when_quiet(0.0)  # (a key that draws nothing: no frame comes to join at)
        if isinstance(event, events.Key | events.Paste) and not event.is_forwarded:
            await self._typed(event)
            return
        if isinstance(event, events.Key) and event.key != "ctrl+c" and self._too_small_shown():
            event.stop()
            return
        await super().on_event(event)

    async def _typed(self, event: events.Key | events.Paste) -> None:
        """A key or paste from the terminal goes on once the one before it is done (see key_order.py), and only to
        the screen it was typed at; Ctrl+C goes at once."""
        if isinstance(event, events.Key) and event.key == "ctrl+c":
            await super().on_event(event)  # (a priority binding: quits, whatever waits)
            return
        gate = self._key_gate
        if not self.screen_stack:  # (the app is closing, its last screen gone: nothing left to type at)
            event.stop()
            return
        if getattr(event, _TYPED_AT, None) is None:
            setattr(event, _TYPED_AT, self.screen)  # see _on_key
            setattr(event, _TYPED_FOR, self._key_role(event, arriving=True))
        if not gate.admit(event):
            return
        typed_at = getattr(event, _TYPED_AT)
        if typed_at is not self.screen or (isinstance(event, events.Key) and self._too_small_shown()):
            event.stop()
            gate.done()
            dialog = self.screen
            below = typed_at is not dialog and typed_at in self.screen_stack
            if isinstance(event, events.Key) and isinstance(dialog, ConfirmScreen) and below:
                dialog.typed_before_shown(event.key)  # typed behind the key that opened it: it says so, once
            return
        typed_for = getattr(event, _TYPED_FOR)
        now_for = self._key_role(event, arriving=False, typed_for=typed_for)
        if typed_for is not None and now_for is not None and typed_for != now_for:
            # typed for a phase (or role) of the table that has ended: it never acts in the next one (a key that
            # goes into a text box, as the Enter behind a clue typed ahead, is the box's)
            event.stop()
            gate.done()
            screen = self.screen
            if isinstance(event, events.Key) and isinstance(screen, TableScreen):
                screen.key_dropped(event)
            return
        await super().on_event(event)
        if event.is_forwarded:
            gate.follow(event, self.focused or self.screen)
        else:
            gate.done()  # (a priority binding had it)

    def _key_role(
        self, event: events.Key | events.Paste, *, arriving: bool, typed_for: object | None = None
    ) -> object | None:
        """What a key acts on at the table (see TableScreen.key_role); None elsewhere, and for pastes."""
        screen = self.screen if self.screen_stack else None
        if isinstance(event, events.Key) and isinstance(screen, TableScreen):
            return screen.key_role(event, arriving=arriving, typed_for=typed_for)
        return None

    def on_resize(self, event: events.Resize) -> None:
        if self._too_small(event.size) and self.screen_stack:
            self._add_notice(self.screen)  # (mounted as the terminal becomes too small)

    def _too_small_shown(self) -> bool:
        if not self.screen_stack:
            return False
        return self.screen.has_class("-too-narrow") or self.screen.has_class("-too-short")

    def _deliver(self, update: Update) -> None:
        """An update from the coordinator (in the coordinator's context: only posted here, or held, with no Textual
        work, while this session follows another's drawing: see `_hold_for_cast`)."""
        self._delivered += 1
        if self._cast_following:
            self._hold_for_cast(self._delivered, update)
            return
        self.post_message(CoordinatorUpdate(update, self._delivered))

    async def _run_command(self, command: str) -> bool:
        """`ssh -t host join K7QF`, `watch K7QF` or `reconnect ABC-DEF-GHJ-KMN` go straight there. False if it did
        not work (then the lobby opens, and says why or asks, as if it had been typed there)."""
        verb, _, arg = command.strip().partition(" ")
        arg = arg.strip()
        session = self.session
        assert session is not None
        if verb == "join" and arg:
            try:
                await session.join(arg)
            except RuleError as err:
                lobby = await self._show_lobby()
                lobby.join_refused(err, arg)  # the lobby's path: a name clash prompts for another name
                return False
            return True
        if verb == "watch" and arg:
            return await self.act(session.watch(arg))
        if verb == "reconnect" and arg:
            return await self.act(session.reclaim(arg))
        if verb in ("replay", "tables"):  # plain commands: they answer without a terminal
            self.notify(
                f"{verb} answers without a terminal: ssh HOST {verb}{' CODE' if verb == 'replay' else ''} (no -t).",
                severity="warning",
                markup=False,
            )
            return False
        self.notify("Unknown command. Try: join CODE, watch CODE or reconnect CODE.", severity="warning", markup=False)
        return False

    async def _on_key(self, event: events.Key) -> None:
        """A key acts only on the screen it was typed at (its bindings are looked up once it has bubbled up, perhaps on
        a screen opened since: the `y` typed behind an Enter answered "Give this card?" before it was drawn)."""
        typed_at = getattr(event, _TYPED_AT, None)
        if typed_at is not None and typed_at is not self.screen:
            event.prevent_default()  # App._on_key (the bindings) is not run

    def push_screen(
        self, screen: Any, callback: Any = None, wait_for_dismiss: bool = False, *, mode: str | None = None
    ) -> Any:
        """While quitting, open nothing new (it would look for widgets being torn down); a question never stacks on
        another (while a confirmation or a picker is open, a second one is not opened)."""
        dialogs = (ConfirmScreen, SeatPicker)
        if isinstance(screen, Screen) and not screen.is_mounted and not screen.is_attached:
            self._prepare_screen(screen)
        if self._exit or (isinstance(screen, dialogs) and any(isinstance(s, dialogs) for s in self.screen_stack)):
            if wait_for_dismiss:
                done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
                done.set_result(None)
                return done
            return AwaitMount(self.screen, [])
        return super().push_screen(screen, callback, wait_for_dismiss, mode=mode)  # type: ignore[call-overload]

    def _prepare_screen(self, screen: Screen[Any], *, notice: bool = True) -> None:
        """A new screen gets, before it shows, what would otherwise cost a restyle or relayout once shown: the "terminal
        too small" notice (when already too small) and its breakpoint classes for the current size."""
        if (
            notice
            and self._too_small(self.size)
            and not any(isinstance(child, TooSmall) for child in screen._pending_children)
        ):
            screen._pending_children.append(TooSmall())
        width, height = self.size
        if width and height:
            horizontal = (
                self.HORIZONTAL_BREAKPOINTS if screen.HORIZONTAL_BREAKPOINTS is None else screen.HORIZONTAL_BREAKPOINTS
            ) or []
            vertical = (
                self.VERTICAL_BREAKPOINTS if screen.VERTICAL_BREAKPOINTS is None else screen.VERTICAL_BREAKPOINTS
            ) or []
            reached = breakpoint_classes(width, horizontal) | breakpoint_classes(height, vertical)
            screen.remove_class(*{name for _, name in [*horizontal, *vertical]} - reached, update=False)
            screen.add_class(*reached, update=False)
            mark_styled_at_mount(screen)

    def after_typed(self, callback: Callable[[], object]) -> bool:
        """Whether keys typed at this terminal are still on their way (then `callback` runs once they are done)."""
        gate = self._key_gate
        if not gate.busy:
            return False
        gate.when_done(callback)
        return True

    def motd(self) -> str:
        """The server's message of the day ("" for none), shown in the lobby."""
        return self.coordinator.moderation.motd

    def seat_kept(self) -> str | None:
        """The code of a running game where this player's seat (taken with their SSH key) is kept, if any."""
        return self.coordinator.seat_kept_for(self.identity.key)

    def deck_sizes(self) -> dict[str, int]:
        """The server's decks (the built-in ones and any given with --deck), each with its number of cards; a deck
        not playable here is not offered."""
        sizes: dict[str, int] = {}
        for name in self.coordinator.deck_names:
            try:
                sizes[name] = len(self.coordinator.resolve_cards((name,)))
            except DeckError:
                continue
        return sizes

    async def act(self, call: Awaitable[object]) -> bool:
        """Run a session call; a refusal is shown as a short message and changes nothing. True if it worked."""
        try:
            await call
        except RuleError as err:
            COUNTS.refused(err.code)
            self.notify(err.message, severity="error", markup=False)
            return False
        return True

    # --- updates ---------------------------------------------------------------------------------------------

    def paced_by(self, driver: HostedDriver) -> None:
        """Driven by `driver` (a session over SSH): coordinator updates are taken at most once per its interval while
        the session watches (`update_pacing`); a spectator may share its drawing with others (`watch_cast`)."""
        self.update_pacing.interval = driver.watcher_interval
        self._driver_hosted = driver

    async def on_coordinator_update(self, message: CoordinatorUpdate) -> None:
        if self._cast_following:  # (posted before it followed)
            self._hold_for_cast(message.order, message.update)
            return
        await self.update_pacing.offer(message.update)

    # --- a drawing shared with the other spectators (tui/watch_cast.py) ----------------------------------------

    def _hold_for_cast(self, order: int, update: Update) -> None:
        """Hold `update` while following (merged as the pacing merges: a newer view of the table replaces the one held
        right before it); one that opens another screen or is this session's own notice makes it leave the cast."""
        self.cast_updates_held += 1
        held = self._cast_held
        at = bisect.bisect(held, order, key=lambda entry: entry[0])
        if at < len(held) and supersedes(held[at][1], update):
            pass  # (a newer one came first: posted before it followed, handled after)
        elif at > 0 and supersedes(update, held[at - 1][1]):
            held[at - 1] = (order, update, time.monotonic())
        else:
            held.insert(at, (order, update, time.monotonic()))
        if isinstance(update, NoticeUpdate | QueueUpdate) or self._opens_a_screen(update) or len(held) > CAST_HELD_MAX:
            driver = self._driver_hosted
            if driver is not None:
                driver.leave_cast()  # (it is told `left`: it takes what it held, this one with them)

    def cast_role_changed(self, role: CastRole) -> None:
        """Told by the driver, from any session's context: noted, and handled on this app's queue."""
        self._cast_following = role == "follower"
        self.post_message(CastRoleChanged(role))

    async def on_cast_role_changed(self, message: CastRoleChanged) -> None:
        table = self._table_screen()
        if message.role == "follower":
            if self._cast_following and table is not None:
                table.follow(True)
            return
        if self._cast_following:  # (followed again since)
            return
        self._cast_taking = True
        try:
            held, self._cast_held = self._cast_held, []
            now = time.monotonic()
            for _, update, held_at in held:
                if isinstance(update, VoidedUpdate) and now - held_at > self.NOTIFICATION_TIMEOUT:
                    continue  # (its notice, shown by the drawing followed then, would be gone by now)
                await self._take_update(update)
        finally:
            self._cast_taking = False
        table = self._table_screen()
        if table is not None:
            table.follow(False)
        if self.screen_stack:  # sent whole: to every member as their source, else to its own terminal
            screen = self.screen
            if isinstance(screen, TableScreen):
                screen.redraw_whole()
            else:
                screen.refresh()

    def post_display_hook(self) -> None:
        """A frame was written: a session not in a cast joins one if it may now (once what its app has due is drawn,
        so that what its app drew for it is on its terminal before its frames come from another app); the source of a
        cast files it under what it shows now."""
        if self._driver_hosted is not None:
            self._check_cast()

    def _check_cast(self, *, drawn: bool = False) -> None:
        """Join a cast when this session may (`watch_cast.cast_key`), once what its app has due is drawn (`drawn`:
        it is; a frame a new table screen had due, or an update taken as it joined, was drawn for nobody). A member
        stays until its own input, a notice of its own, or a screen over its table or instead of it (what the table
        changes, it changes for every member). A cast's source files it under the key of what it shows now (a table
        update moves the focus to the board, as at every member's screen: a session quiet again, whose key is of its
        screen now, must find the cast)."""
        if not self.screen_cast:  # (`serve --no-screen-cast`)
            return
        driver = self._driver_hosted
        if driver is None or driver.following or self._cast_taking or self._cast_following or self._exit:
            return
        if not self.screen_stack:
            return
        quiet_for = time.monotonic() - driver.last_input
        key = cast_key(
            self.table_view,
            self.screen,
            capabilities=self.capabilities,
            theme=self.theme,
            quiet_for=quiet_for,
            notice_shown=time.monotonic() < self._notice_until,
        )
        if key is None:
            if not driver.in_cast:
                self._join_when_quiet(quiet_for)
            return
        if driver.in_cast:
            driver.rekey_cast(key)
        elif self.update_pacing.held:
            return
        elif drawn:
            driver.join_cast(key)
        else:
            self.call_after_refresh(self._check_cast, drawn=True)

    def _join_when_quiet(self, quiet_for: float) -> None:
        """A spectator's session not quiet long enough yet (`quiet_for` seconds) looks again once it is: at a timer,
        if no frame comes first (a still table draws none); it draws nothing for that."""
        view, driver = self.table_view, self._driver_hosted
        if driver is None or not self.screen_cast or self._quiet_timer is not None or self._exit:
            return
        wait = quiet_left(quiet_for)
        if wait > 0 and view is not None and view.you is None:
            # (a little past it: Textual's timers may wake a little early, and a look too early waits again)
            self._quiet_timer = self.set_timer(wait + 0.01, self._quiet_passed, name="cast quiet")

    def _quiet_passed(self) -> None:
        self._quiet_timer = None
        self._check_cast()

    def _opens_a_screen(self, update: Update) -> bool:
        """Whether `update` opens another screen (a table, or the lobby after one): taken at once, never paced."""
        if not isinstance(update, StateUpdate):
            return False
        table = self._table_screen()
        if update.view is None:
            return table is not None
        return table is None or table.code != update.view.code

    async def _take_update(self, update: Update) -> None:
        if self._exit or not self.is_running:  # quitting: no new screens (they would query widgets being torn down)
            return
        if self._cast_following:
            self.taken_while_following += 1
        driver = self._driver_hosted
        if driver is not None and driver.in_cast and not driver.following:
            if isinstance(update, NoticeUpdate | QueueUpdate):
                driver.leave_cast()  # (a notice is this session's own: not drawn for the others)
            elif self._opens_a_screen(update):
                driver.leave_cast(everyone=True)  # (every member gets it: each draws its own screen)
        await self._take(update)

    async def _take(self, update: Update) -> None:
        match update:
            case LobbyUpdate(tables=tables):
                self.tables = tables
                for screen in self.screen_stack:
                    if isinstance(screen, LobbyScreen):
                        screen.show_tables(tables)
            case StateUpdate(view=None):
                self.table_view = None
                base = self._base_depth()
                while isinstance(self.screen, TableScreen) or len(self.screen_stack) > base:
                    self.pop_screen()
                await self._show_lobby()
            case StateUpdate(view=view):
                assert view is not None
                self.table_view = view
                table = self._table_screen()
                if table is None or table.code != view.code:
                    base = self._base_depth()
                    while len(self.screen_stack) > base:  # a new table: close the old one and anything above the lobby
                        self.pop_screen()
                    await self.push_screen(TableScreen(view, self))
                else:
                    table.show_view(view)
            case RevealUpdate():
                if (table := self._table_screen()) is not None:
                    table.show_reveal(update)
            case VoidedUpdate(turn=turn):
                self.notify(voided_notice(turn), markup=False)
            case OverUpdate():
                if (table := self._table_screen()) is not None:
                    table.show_over(update)
            case ChatUpdate(line=line):
                if (table := self._table_screen()) is not None:
                    table.add_chat(line)
            case NoticeUpdate(text=text) | QueueUpdate(text=text):
                self.notify(text, markup=False)
                if isinstance(update, QueueUpdate):
                    for screen in self.screen_stack:
                        if isinstance(screen, LobbyScreen):
                            screen.show_queue(update)

    def _table_screen(self) -> TableScreen | None:
        return next((s for s in self.screen_stack if isinstance(s, TableScreen)), None)

    def action_help(self) -> None:
        from dixit_tui.tui.help import HelpScreen

        view = self.table_view
        mode = view.options.label() if view is not None else None
        self.push_screen(HelpScreen(mode, view.reconnect_code if view is not None else None))
