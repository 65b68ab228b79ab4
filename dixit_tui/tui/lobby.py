"""The lobby: the open tables (live), and every way to a table: create, join by code, join or watch the selected
table, reconnect with a code. Player text is shown only through `Content` built from plain strings, never markup.
"""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.style import Style as TextStyle
from textual.widgets import Button, Input, Static

from dixit_tui.coordinator import QueueUpdate, TableOptions, TableSummary
from dixit_tui.coordinator.codes import normalize_code
from dixit_tui.coordinator.models import TableStatus, host_text, mode_text, takes_new_players, timer_text
from dixit_tui.engine import ErrorCode, RuleError
from dixit_tui.sanitize import NAME_MAX, clean_name, ssh_user
from dixit_tui.tui.create import CreateScreen
from dixit_tui.tui.host import Host, Session
from dixit_tui.tui.leaderboard import LeaderboardScreen
from dixit_tui.tui.same_size_resize import SameSizeResize
from dixit_tui.tui.text_row import BOLD
from dixit_tui.tui.widgets.code_boxes import CodeBoxes
from dixit_tui.tui.widgets.keybar import KeyBar
from dixit_tui.tui.widgets.table_list import TableList


def same_content(a: Content, b: Content) -> bool:
    """Same text and same styles (Content's own `==` compares the text only)."""
    return a is b or (a.plain == b.plain and list(a.spans) == list(b.spans))


# Refusals of a seat at a table whose game is over: the lobby shows its end instead (see LobbyScreen.join).
_NO_SEAT_AFTER_THE_END = frozenset({ErrorCode.STARTED, ErrorCode.RECONNECT_NEEDED, ErrorCode.KEY_REQUIRED})
EMPTY_TEXT = "No tables yet: press c to create one."
NONE_OPEN_TEXT = "No table here takes new players: press c to create one."  # (a started one lists free seats)
# Fixed widths: the header lines up with the rows from the first paint on (auto widths left it misaligned until the
# next key), and the columns do not jump as tables come and go. Mode fits "standard (odyssey)", Host a whole name.
COLUMNS = (
    ("Code", "code", 4),
    ("Mode", "mode", 18),
    ("Seats", "seats", 5),
    ("Status", "status", 7),
    ("Timer", "timer", 5),  # each phase's time limit (then a stand-in plays); blank: none
    ("Host", "host", NAME_MAX),
)


def shell_hint(name: str, host: str | None, port: int | None, code: str | None) -> str:
    """The command that joins a table straight from the shell, e.g. `ssh -t -p 2222 ana@example.org join K7QF`."""
    user = ssh_user(name)
    port_option = "-p PORT " if port is None else ("" if port == 22 else f"-p {port} ")
    return f"ssh -t {port_option}{user}@{host or 'HOST'} join {code or 'CODE'}"


class NamePrompt(SameSizeResize, ModalScreen[str | None]):
    """Asked when the wanted name is already used at the table: returns another name, or None to give up."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", priority=True)]

    def __init__(
        self,
        message: str,
        current: str,
        *,
        title: str = "Pick another name",
        placeholder: str = "another name",
        ok: str = "Join",
    ) -> None:
        super().__init__(classes="dialog-screen")
        self.message = message
        self.current = current
        self.title_text, self.placeholder, self.ok = title, placeholder, ok

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="name-dialog") as box:
            box.border_title = self.title_text
            yield Static(Content(self.message), id="name-message", classes="dialog-text")
            yield Input(
                placeholder=self.placeholder,
                max_length=NAME_MAX,
                id="new-name",
            )
            yield Static(Content(""), id="name-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button(self.ok, variant="primary", id="name-ok")
                yield Button("Cancel", id="name-cancel")
        yield KeyBar()

    def on_mount(self) -> None:
        for box in self.query("#new-name").results(Input):  # closed already (Esc typed at once): nothing to focus
            box.focus()

    @on(Input.Submitted, "#new-name")
    @on(Button.Pressed, "#name-ok")
    def accept(self) -> None:
        raw = self.query_one("#new-name", Input).value
        name = clean_name(raw)
        if not name:
            self.query_one("#name-error", Static).update(Content("✗ A name needs at least one visible letter."))
            return
        self.dismiss(name)

    @on(Button.Pressed, "#name-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class ReconnectPrompt(SameSizeResize, ModalScreen[bool]):
    """Asked when `join CODE` finds a started game with a seat under your name: your reconnect code gets it back.
    Returns True once you are back in your seat, False if you gave up."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", priority=True)]

    def __init__(self, message: str, code: str, session: Session | None) -> None:
        super().__init__(classes="dialog-screen")
        self.message = message
        self.code = code
        self.session = session

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="reconnect-dialog") as box:
            box.border_title = f"Back to table {self.code}"
            yield Static(Content(self.message), id="reconnect-message", classes="dialog-text")
            yield Static(
                Content("The code was shown at the table, in F1 help and in the Leave dialog (e.g. ABC-DEF-GHJ-KMN)."),
                classes="dialog-text",
            )
            yield Input(placeholder="ABC-DEF-GHJ-KMN", max_length=24, id="prompt-code")
            yield Static(Content(""), id="reconnect-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Reconnect", variant="primary", id="reconnect-ok")
                yield Button("Cancel", id="reconnect-cancel")
        yield KeyBar()

    def on_mount(self) -> None:
        for box in self.query("#prompt-code").results(Input):  # closed already (Esc typed at once): nothing to focus
            box.focus()

    @on(Input.Submitted, "#prompt-code")
    @on(Button.Pressed, "#reconnect-ok")
    async def accept(self) -> None:
        code = self.query_one("#prompt-code", Input).value.strip()
        error = self.query_one("#reconnect-error", Static)
        if not code:
            error.update(Content("✗ Type your reconnect code first, e.g. ABC-DEF-GHJ-KMN."))
            return
        session = self.session
        if session is None:
            return
        try:
            await session.reclaim(code)
        except RuleError as err:
            error.update(Content(f"✗ {err.message}"))
            return
        if self.is_active:  # the table's view may have come first and replaced this prompt: `dismiss` pops the top
            self.dismiss(True)

    @on(Button.Pressed, "#reconnect-cancel")
    def action_cancel(self) -> None:
        self.dismiss(False)


class LobbyScreen(SameSizeResize, Screen[None]):
    CSS_PATH = "lobby.tcss"
    AUTO_FOCUS = "#tables"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "create", "Create table"),
        Binding("g", "quick_game", "Quick game"),
        Binding("w", "watch", "Watch"),
        Binding("j", "focus_join", "Join by code"),
        Binding("r", "focus_reconnect", "Reconnect"),
        Binding("l", "leaderboard", "Leaderboard"),
        Binding("q", "quit", "Quit"),
        Binding("escape", "focus_list", "Back to the list", show=False),
    ]

    def __init__(self, host: Host) -> None:
        super().__init__(id="lobby")
        self.host = host
        self._tables: tuple[TableSummary, ...] = ()
        self._shown: tuple[object, ...] | None = None  # what the list and the welcome line show now
        self._hint: Content | None = None
        self._kept_selected: str | None = None  # the kept seat's table, selected once when it first showed
        self._queued: str | None = None  # where you stand in the quick game's queue, while you wait in it

    # --- helpers ---------------------------------------------------------------------------------------------

    def player_name(self) -> str:
        session = self.host.session
        if session is not None:
            return session.name
        return clean_name(self.host.identity.name) or "guest"

    # --- layout ----------------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="welcome")
        table = TableList([(label, width) for label, _, width in COLUMNS], EMPTY_TEXT, id="tables")
        table.border_title = "Open tables"
        yield table
        guest = "No SSH key? Keep the reconnect code you get at a table; r here uses it."
        yield CodeBoxes(guest if self.host.identity.key is None else None, id="codes")
        yield KeyBar()

    def on_screen_resume(self) -> None:
        """Back from a table (or a dialog): the keys act on the list again, not on a code box left focused."""
        if isinstance(self.focused, Input):
            self.query_one("#tables", TableList).focus()

    def on_mount(self) -> None:
        """The list, the welcome line and the hint are filled before the first drawing (`show_tables` would wait for
        the screen to count as mounted, just after this: the lobby was drawn empty, then laid out and drawn again)."""
        self._tables = self.host.tables
        self._render_tables(self._tables)

    # --- live data -------------------------------------------------------------------------------------------

    def show_tables(self, tables: tuple[TableSummary, ...]) -> None:
        """Show the open tables (called on every lobby update), keeping the selected row when it is still there."""
        self._tables = tables
        if self.is_mounted:
            self._render_tables(tables)

    def show_queue(self, update: QueueUpdate) -> None:
        """Where you stand in the quick game's queue: said under the welcome line while you wait (only a notice said
        it, gone after a few seconds, and nothing showed you were still waiting: seen playing)."""
        self._queued = update.text if update.queued else None
        if self.is_mounted:
            self._render_tables(self._tables)

    def _render_tables(self, tables: tuple[TableSummary, ...]) -> None:
        motd = self.host.motd()
        kept = self.host.seat_kept()
        shown = (tables, self.player_name(), motd, kept, self._queued)
        if shown == self._shown:
            return  # (a lobby update that changes nothing this list shows)
        self._shown = shown
        if kept is not None:  # a seat of yours is kept in a running game: the first line says where, Enter returns
            first: tuple[str | tuple[str, TextStyle], ...] = (
                "Welcome back, ",
                (self.player_name(), BOLD),
                "! Your seat at table ",
                (kept, BOLD),
                " is kept: Enter on it returns you to your game.",
            )
        else:
            first = ("Welcome, ", (self.player_name(), BOLD), "! Join a table, watch one, or create your own.")
        queued = ("\n", (self._queued, BOLD), " Press g again to leave the queue.") if self._queued else ()
        self.query_one("#welcome", Static).update(
            Content.assemble(*first, *queued, *(("\n", ("Notice: ", BOLD), motd) if motd else ()))
        )
        table = self.query_one("#tables", TableList)
        selected = self.selected_code()
        table.list_rows(
            [
                (
                    summary.code,
                    (
                        summary.code,
                        mode_text(summary.label),
                        f"{summary.players}/{summary.seats}",
                        summary.status,
                        timer_text(summary.turn_seconds),
                        host_text(summary.host, summary.bots_only),
                    ),
                )
                for summary in tables
            ]
        )
        if kept is not None and kept in {t.code for t in tables} and kept != self._kept_selected:
            selected = self._kept_selected = kept  # your kept seat's table is the one selected (once)
        if selected is not None and selected in table.keys:
            table.move_cursor(table.keys.index(selected))
        self._update_hint()

    def selected_code(self) -> str | None:
        return self.query_one("#tables", TableList).selected

    def hint_code(self) -> str | None:
        """The table the shell hint's `join CODE` names: the selected one if a new player can sit there
        (`takes_new_players`); else the table of your kept seat; else the first listed that takes new players; or
        none (the hint then reads CODE, and says how to make a table). Never a full table, nor a started one."""
        joinable = [summary.code for summary in self._tables if takes_new_players(summary)]
        selected = self.selected_code()
        if selected in joinable:
            return selected
        return self.host.seat_kept() or (joinable[0] if joinable else None)

    def _update_hint(self) -> None:
        code = self.hint_code()
        command = shell_hint(self.player_name(), self.host.ssh_host, self.host.ssh_port, code)
        hint = Content.assemble("From your shell: ", (command, BOLD))
        if code is None and self._tables:  # (no table at all: the empty list says it)
            hint = Content.assemble(hint, "\n", NONE_OPEN_TEXT)
        if self._hint is None or not same_content(hint, self._hint):
            self._hint = hint
            self.query_one("#codes", CodeBoxes).show_hint(hint)

    @on(TableList.Highlighted)
    def _highlighted(self) -> None:
        self._update_hint()

    # --- actions ---------------------------------------------------------------------------------------------

    @on(TableList.Selected)
    async def _row_selected(self, event: TableList.Selected) -> None:
        await self.join(event.key)

    async def join(self, code: str, name: str | None = None) -> bool:
        """Take a seat at table `code`. A name already used there asks for another name, then tries again."""
        session = self.host.session
        if session is None:
            return False
        try:
            await session.join(code, name=name)
        except RuleError as err:
            if err.code in _NO_SEAT_AFTER_THE_END and self._over(code):
                return await self._watch_the_end(code)
            self.join_refused(err, code, name)
            return False
        return True

    def _over(self, code: str) -> bool:
        wanted = normalize_code(code)
        return any(t.code == wanted and t.status is TableStatus.OVER for t in self.host.tables)

    async def _watch_the_end(self, code: str) -> bool:
        """A game that is over has no seat to take (nor one worth a reconnect code: the rematch, if any, moved
        everyone on): its final scores are watched instead."""
        session = self.host.session
        if session is None or not await self.host.act(session.watch(code)):
            return False
        self.app.notify(f"The game at {normalize_code(code)} is over: here are its final scores.", markup=False)
        return True

    def join_refused(self, err: RuleError, code: str, name: str | None = None) -> None:
        """Say why joining table `code` did not work, or ask what would make it work (another name, the reconnect
        code)."""
        if err.code == ErrorCode.NAME_TAKEN:
            self.app.push_screen(NamePrompt(err.message, name or self.player_name()), partial(self._join_as, code))
        elif err.code == ErrorCode.RECONNECT_NEEDED:
            self.app.push_screen(ReconnectPrompt(err.message, normalize_code(code), self.host.session))
        elif err.code == ErrorCode.STARTED:
            hint = " Had a seat there? Press r and type your reconnect code."
            self.app.notify(err.message + hint, severity="error", markup=False)
        else:
            self.app.notify(err.message, severity="error", markup=False)

    async def _join_as(self, code: str, name: str | None) -> None:
        if name is not None:
            await self.join(code, name)

    @on(Input.Submitted, "#join-code")
    async def _join_code(self, event: Input.Submitted) -> None:
        code = event.value.strip()
        if not code:
            self.app.notify("Type the code of a table first, e.g. K7QF.", severity="warning", markup=False)
            return
        if await self.join(code):
            event.input.value = ""

    @on(Input.Submitted, "#reconnect-code")
    async def _reconnect(self, event: Input.Submitted) -> None:
        code = event.value.strip()
        session = self.host.session
        if not code:
            self.app.notify("Type your reconnect code first, e.g. ABC-DEF-GHJ-KMN.", severity="warning", markup=False)
            return
        if session is not None and await self.host.act(session.reclaim(code)):
            event.input.value = ""

    async def action_watch(self) -> None:
        code = self.selected_code()
        session = self.host.session
        if code is None:
            self.app.notify("There is no table to watch yet.", severity="warning", markup=False)
            return
        if session is not None:
            await self.host.act(session.watch(code))

    def action_create(self, initial: TableOptions | None = None) -> None:
        self.app.push_screen(CreateScreen(initial, self.host.deck_sizes()), self._create)

    async def _create(self, options: TableOptions | None) -> None:
        session = self.host.session
        if options is None or session is None:
            return
        if not await self.host.act(session.create(options)):
            self.action_create(options)  # keep what was chosen, so it can be fixed

    async def action_quick_game(self) -> None:
        """Queue for a quick game (a table of 4 to 6, started once enough wait; bots fill it after a while), or leave
        the queue: the notices say which, and the table opens by itself once it is found."""
        session = self.host.session
        if session is not None:
            await self.host.act(session.quick_game())

    def action_leaderboard(self) -> None:
        session = self.host.session
        if session is not None:
            self.app.push_screen(LeaderboardScreen(session.standings(), guest=self.host.identity.key is None))

    def action_focus_join(self) -> None:
        self.query_one("#join-code", Input).focus()

    def action_focus_reconnect(self) -> None:
        self.query_one("#reconnect-code", Input).focus()

    def action_focus_list(self) -> None:
        self.query_one("#tables", TableList).focus()

    def action_quit(self) -> None:
        self.app.exit(0)
