"""The table: seats, score track, clue, your hand, the board with its vote dial, the log and chat, host controls.

The app hands it every `TableView` (`show_view`), reveal, end and chat line; the screen turns keys into calls of the
player's session through its `Host` (`host.act(...)` shows a refusal). What it says is written in `table_words`.
Player text never goes into markup: widgets are fed `Content` or `Text` built from plain strings.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.reactive import Reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, Static

from dixit_tui.coordinator import ChatLine, OverUpdate, RevealUpdate, TableOptions, TableView
from dixit_tui.coordinator.models import TableStatus
from dixit_tui.engine import Mode, Phase, PlayerView, WrongPhase
from dixit_tui.sanitize import CLUE_MAX
from dixit_tui.textual_host.process_caches import forget_with_shared
from dixit_tui.textual_host.quiet_focus import quiet_focus
from dixit_tui.textual_host.row_compositor import LaidOutOnce, RowCompositor
from dixit_tui.tui import table_words as words
from dixit_tui.tui.capabilities import FULL
from dixit_tui.tui.host import Host, Session
from dixit_tui.tui.main_modes import MainMode
from dixit_tui.tui.same_size_resize import SameSizeResize
from dixit_tui.tui.seat_rows import seat_marker
from dixit_tui.tui.table_words import Choices, Question, Words
from dixit_tui.tui.vote_dial import Ballot, Cast, Refused, VoteDial
from dixit_tui.tui.wall_picture import final_reveal_due, wall_wanted
from dixit_tui.tui.widgets.cards import CardItem, CardList
from dixit_tui.tui.widgets.chat import ChatPanel, feed_order
from dixit_tui.tui.widgets.clue_line import ClueLine
from dixit_tui.tui.widgets.confirm import ConfirmScreen, SeatPicker
from dixit_tui.tui.widgets.kept_lines import KeptLines
from dixit_tui.tui.widgets.keybar import KeyBar
from dixit_tui.tui.widgets.main_view import MainView
from dixit_tui.tui.widgets.recap import CLOSING_KEYS, RecapScreen
from dixit_tui.tui.widgets.side_panel import SidePanel
from dixit_tui.tui.widgets.text_field import RoomLeft, TextField
from dixit_tui.tui.widgets.too_small import MIN_HEIGHT, MIN_WIDTH
from dixit_tui.tui.widgets.top_lines import TopLines
from dixit_tui.tui.widgets.wall import Wall

if TYPE_CHECKING:
    from collections.abc import Awaitable


TYPING_RENEW = 3.0  # seconds between "still writing a clue" reports (the coordinator's mark lasts about 10)

REACTION = 0.5
"""Seconds after the phase (or what you may do in it) changed during which an Enter or Space that comes in counts as
typed for the step before: a person's key already on its way as the screen changed (see `TableScreen.key_role`)."""

TYPING_PAUSE = 2.0
"""Seconds without a key after which a person whose keyboard is in an empty text box (the line just sent, the box just
opened) counts as no longer typing: a reveal that waited for them opens then (at the once-a-second tick)."""

ACTING_KEYS = frozenset({"enter", "space"})  # the keys that give, mark or vote at the hand and the dial


@dataclass(frozen=True)
class TypedInBox:
    """The role of a key that came while a text box had the keyboard: `closes` is the screen's count of boxes the
    table closed under you then (`TableScreen._box_closes`)."""

    closes: int


BOX_CLOSED = "box closed"  # the role of a key typed into a box the table has closed since: it acts on nothing


@dataclass(frozen=True)
class TypedAtRecap:
    """The role of an Enter, Space or Esc within `REACTION` seconds of a held recap closing by itself: typed for its
    "Next turn (Enter)", it acts on nothing at the table. `closes`: the screen's count of such closings."""

    closes: int


RECAP_CLOSED = "recap closed"  # the role such a key has when its turn comes: never its role as it came

clock: Callable[[], float] = time.monotonic
"""The clock of `REACTION` (tests set their own)."""

epoch: Callable[[], float] = time.time
"""The clock the countdowns count by, in epoch seconds as the view's deadlines are (tests set their own)."""


CONTENTS_MAX = 4096
"""Words turned into Content kept process-wide (emptied when full)."""

_contents: dict[Words, Content] = forget_with_shared({})


def content(text: Words) -> Content:
    """Words as Textual shows them: the same Content object for the same words in every session (a line that did not
    change is told apart by identity)."""
    found = _contents.get(text)
    if found is None:
        if len(_contents) >= CONTENTS_MAX:
            _contents.clear()
        found = _contents[text] = Content.assemble(*text.parts)
    return found


BLANK = Content("")  # a note's row kept, blank

CROWDED = 8  # more cards than this on the board: see -crowded in table.tcss


class Row(Horizontal, LaidOutOnce, KeptLines):
    """The body: side and main columns (see LaidOutOnce)."""


def _new_turn(before: TableView, now: TableView) -> bool:
    """Whether `now` plays a turn other than `before`'s: the next turn, or a new game's."""
    game, was = now.game, before.game
    if now.status != TableStatus.PLAYING or game is None:
        return False
    return before.status != TableStatus.PLAYING or was is None or was.turn != game.turn


class ClueRow(Horizontal, LaidOutOnce, KeptLines):
    """The clue's label and box, one row (see LaidOutOnce: shown the first time, it laid the screen out twice)."""


class ClueLabel(Static, LaidOutOnce):
    """The clue box's label, of a fixed width (see LaidOutOnce)."""


class Column(Vertical, LaidOutOnce, KeptLines):
    """The main column (see LaidOutOnce)."""


class TableScreen(SameSizeResize, Screen[None], KeptLines):
    focused: Reactive[Widget | None] = quiet_focus()  # the focus moves without repainting the whole table screen
    CSS_PATH = "table.tcss"
    AUTO_FOCUS = ""  # no automatic focus (None would fall back to the app's "*": the first widget, even hidden)
    HORIZONTAL_BREAKPOINTS = [(0, "-too-narrow"), (MIN_WIDTH, "-narrow"), (110, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-too-short"), (MIN_HEIGHT, "-short"), (34, "-tall")]
    CRAMPED = 28  # under this many rows (and -short) the screen is also -cramped: see table.tcss
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "start", "Start"),
        Binding("p", "practice", "Practice"),
        Binding("b", "add_bot", "Add a bot"),
        Binding("t", "transcript", "Transcript"),
        Binding("c", "chat", "Chat"),
        Binding("T", "team_chat", "Team chat"),
        Binding("r", "recap", "Recap"),
        Binding("v", "void", "Void turn"),
        Binding("x", "remove", "Remove player"),  # the host: anyone (and, in a game, themselves)
        Binding("x", "leave_game", "Leave for good"),  # anyone else, in a game: x is only for leaving (one is shown)
        Binding("k", "lock", "Lock"),
        Binding("o", "options", "Options"),
        Binding("l", "leave", "Leave"),
        Binding("m", "rematch", "Rematch"),
        Binding("enter", "type_clue", "Type your clue"),
        # Priority: checked when the key arrives, before the next key is handed on (keys typed at once, Esc then 3,
        # would otherwise put the 3 in the text box: a bubbling binding runs after the box took the next key).
        Binding("escape", "back", "Back to the table", priority=True),
    ]

    def __init__(self, view: TableView, host: Host) -> None:
        super().__init__()
        self.host = host  # the player's session, and how a refusal is shown
        self._compositor = RowCompositor()  # a row the terminal shows already is not sent again
        self.view = view
        self.code = view.code
        self.chosen: str | None = None  # the card chosen for your clue
        self.marked: list[str] = []  # cards marked for submission (two at three players)
        self.last_reveal: RevealUpdate | None = None
        self._bindings_state: tuple[bool | None, ...] | None = None  # the keys' states the footer shows
        # the keys' states worked out for (view, focus, last reveal)
        self._states_kept: tuple[TableView, Widget | None, RevealUpdate | None, dict[str, bool | None]] | None = None
        self.over: OverUpdate | None = None
        self._phase_key: tuple[object, ...] | None = None
        self._topbar_key: tuple[object, ...] | None = None  # what the top bar shown was worked out from
        self._displayed: dict[int, bool] = {}  # the display the screen set, by widget (see _show)
        self._hand_key: tuple[object, ...] | None = None  # what the hand shown was made from
        self._clue_key: tuple[object, ...] | None = None  # what the clue line shown was worked out from
        self._shown: TableView | None = None  # the last view rendered
        self._reveal_held: int | None = None  # the turn whose held reveal opened by itself (once a turn)
        self._recap_waits = False  # ... a reveal came while you typed: it opens once you are done (`_typing_now`)
        self._last_key: float | None = None  # when the last key came in at this screen (`clock`)
        self._focus_seen: Widget | None = None  # where the keyboard last went while the terminal had the focus
        game = view.game  # the last turn this screen showed in its vote (its reveal is news here)
        self._voting_seen: int | None = game.turn if game is not None and game.phase == Phase.VOTE else None
        self._typing_told: float | None = None  # when the table was last told you are writing a clue
        self._dial_hint: tuple[object, str] | None = None  # a dial refusal's hint shown, and the board it speaks of
        self._clue_label = "Clue:"
        self._found: dict[tuple[object, object], Widget] = {}  # query_one's answers
        self._clock: Timer | None = None  # the once-a-second tick, while there is a clock to count down
        self._role: tuple[object, ...] = words.role_key(view)  # what a key at the hand or dial acts on now
        self._role_before = self._role  # ... before its last change
        self._role_since: float | None = None  # when it last changed (None: not since the screen opened)
        self._wall: Wall | None = None  # a spectator's big screen (tui/wall_picture.py), mounted when first shown
        self._mode: MainMode = self._mode_now()  # the main region's mode
        self._clue_row: ClueRow | None = None  # the clue box's row, mounted the first time you can give a clue
        self._clue_box: TextField | None = None
        self._box_closes = 0  # how many times the table took the keyboard out of a text box (see key_role)
        self._box_closed_at: float | None = None  # ... when it last did
        self._dropping_from: int | None = None  # the box closing a key being dropped was typed before
        self._box_told: int | None = None  # the last box closing whose dropped keys were told of
        self._recap_closes = 0  # how many times a held recap closed by itself (see key_role)
        self._recap_closed_at: float | None = None  # ... when it last did
        self._dropping_recap: int | None = None  # the recap closing a key being dropped was typed at
        self._recap_told: int | None = None  # the last recap closing whose dropped keys were told of
        self._clue_label_box: ClueLabel | None = None
        self._focus_kept: Widget | None = None  # the focus it comes back with from under a screen (on_screen_resume)

    if not TYPE_CHECKING:  # (the type checker sees Textual's overloads)

        def query_one(self, selector, expect_type=None):
            """The table's widgets stay as composed: each is looked up once (lookups were a good part of an update's
            cost); one removed all the same (closing or closed) is looked up again."""
            key = (selector, expect_type)
            widget = self._found.get(key)
            if widget is None or widget._closing or widget._closed:
                widget = super().query_one(selector, expect_type)
                self._found[key] = widget
            return widget

    # --- layout --------------------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TopLines(id="top")
        with Row(id="body"):
            yield SidePanel(id="side")
            with Column(id="main"):
                yield ClueLine(id="clue")
                # the lobby, the hand, the board (with the vote dial while you vote) or the game's end; the clue box
                # under it, hidden until used (never at a spectator's screen: built if a spectator takes a seat)
                yield MainView(self._mode, id="main-view")
                if self.view.you is not None:
                    yield self._new_clue_row()
                yield ChatPanel(id="chat")
        yield KeyBar()

    def _mode_now(self) -> MainMode:
        """The main region's mode for the view."""
        view, game = self.view, self.game
        if view.status == TableStatus.LOBBY or game is None:
            return MainMode.LOBBY
        if view.status == TableStatus.OVER or game.phase == Phase.OVER:
            return MainMode.OVER
        return MainMode.VOTE if game.phase == Phase.VOTE else MainMode.HAND

    def on_mount(self) -> None:
        self._render_view()
        self._clock = self.set_interval(1.0, self._tick, pause=not self._clock_needed())

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.height < self.CRAMPED, "-cramped")
        self._render_topbar()  # the top bar picks its words by width
        self._render_wall()

    def _clock_needed(self) -> bool:
        """Whether the view has a clock to count down (else the once-a-second tick sleeps: an idle session does not
        wake up every second for nothing)."""
        return self.view.phase_deadline is not None or bool(self.view.stand_ins) or self._recap_waits

    def _tick(self) -> None:
        """The countdowns, once a second while there is one (nothing else re-renders): the phase's time in the top
        bar, the stand-ins' in the status line."""
        if self.view.phase_deadline is not None:
            self._render_topbar()
        if self.view.stand_ins:
            self._render_status()
        self._box_left()  # a reveal waiting for you to pause opens once you have

    def key_role(self, key: events.Key, *, arriving: bool, typed_for: object | None = None) -> object | None:
        """What `key` acts on (`words.role_key`), stamped as it comes in (`arriving`) and checked at its turn: a key
        whose role changed in between is dropped (`key_dropped`); None for keys that act alike in every phase. A key
        within `REACTION` seconds of a change counts for the step before; one typed into a text box the table closed
        before its turn (`typed_for`) acts on nothing (the rest of a chat line must not mark cards), nor does an
        Enter, Space or Esc within `REACTION` seconds of a held recap closing by itself (`TypedAtRecap`)."""
        if arriving:
            self._last_key = clock()  # (see `_typing_now`)
        if isinstance(typed_for, TypedAtRecap):
            self._dropping_recap = typed_for.closes
            return RECAP_CLOSED
        if isinstance(self.focused, Input):  # typed into a box: the box's, unless the table closes the box meanwhile
            return TypedInBox(self._box_closes) if arriving else None
        if isinstance(typed_for, TypedInBox):  # the box is no longer focused: by your Esc, or closed by the table
            if typed_for.closes == self._box_closes:
                return None
            self._dropping_from = typed_for.closes
            return BOX_CLOSED
        closed_at = self._box_closed_at
        if arriving and closed_at is not None and clock() - closed_at < REACTION:
            self._box_closed_at = clock()  # keys that keep coming, each within REACTION of the last, are the line's
            return TypedInBox(self._box_closes - 1)  # on its way to the box the table just closed
        recap_at = self._recap_closed_at
        if arriving and key.key in CLOSING_KEYS and recap_at is not None and clock() - recap_at < REACTION:
            return TypedAtRecap(self._recap_closes)
        if key.key not in ACTING_KEYS:
            return None
        if arriving and self._role_since is not None and clock() - self._role_since < REACTION:
            return self._role_before
        return self._role

    def key_dropped(self, key: events.Key) -> None:
        recap, self._dropping_recap = self._dropping_recap, None
        if recap is not None:
            if recap != self._recap_told:  # (once for the keys typed as the recap closed)
                self._recap_told = recap
                self.notify(words.key_dropped(key.key), severity="warning", markup=False)
            return
        closes, self._dropping_from = self._dropping_from, None
        if closes is None:
            self.notify(words.key_dropped(key.key), severity="warning", markup=False)
        elif closes != self._box_told:  # (once for the keys typed into a box as it closed)
            self._box_told = closes
            self.notify(words.BOX_KEYS_DROPPED, severity="warning", markup=False)

    def refresh_bindings_if_changed(self) -> None:
        """Rebuilding the footer is the costliest part of a re-render: do it only when a key's state changed.
        (Textual refreshes the bindings itself when the focus moves.)"""
        states = self._action_states()
        state = tuple([states.get(action, True) for action in _ACTIONS])
        if state != self._bindings_state:
            self._bindings_state = state
            self.refresh_bindings()

    # --- the app's entry points ---------------------------------------------------------------------------------

    def show_view(self, view: TableView) -> None:
        self.view = view
        self.code = view.code
        if self.is_mounted:
            self._render_view()
            self._hold_reveal()
            if self._clock is not None:
                if self._clock_needed():
                    self._clock.resume()
                else:
                    self._clock.pause()

    def show_reveal(self, update: RevealUpdate) -> None:
        """The turn's outcome shows in the clue line (`reveal_line`); the full recap opens on `r` (opened for everyone
        it repainted every screen twice a turn), and one open already shows the new turn."""
        self.last_reveal = update
        if self.is_mounted:
            self._render_clue()
        if isinstance(self.app.screen, RecapScreen):
            self._open_recap(update)

    def show_over(self, update: OverUpdate) -> None:
        self.over = update
        if self.is_mounted:
            self._render_over()

    def add_chat(self, line: ChatLine) -> None:
        if self.is_mounted:
            self.query_one(ChatPanel).add_chat(line)

    # --- helpers ------------------------------------------------------------------------------------------------

    @property
    def game(self) -> PlayerView | None:
        return self.view.game

    def _session(self) -> Session | None:
        return self.host.session

    async def _act(self, call: Awaitable[object]) -> bool:
        return await self.host.act(call)

    def choices(self) -> Choices:
        """What the words depend on beyond the view: your choices, where the keyboard is, the end of the game."""
        focused, dial = self.focused, self._dial()
        box = self._typing_in()
        return Choices(
            chosen=self.chosen,
            marked=tuple(self.marked),
            in_clue_box=isinstance(focused, Input) and focused.id == "clue-input",
            writing_clue=box is not None and box.id == "clue-input",
            placing_red=dial is not None and dial.stage == "red",
            over=self.over,
        )

    def _main(self) -> MainView:
        """The main region: the lobby, the hand, the board or the game's end."""
        return self.query_one(MainView)

    def _dial(self) -> VoteDial | None:
        """The vote dial, while you vote (the board holds it; not the last vote's, at the hand)."""
        main = self._main()
        return main.dial if main.mode == MainMode.VOTE else None

    def _new_clue_row(self) -> ClueRow:
        """The clue box's row (hidden), with its label, the box and the room left."""
        box = self._clue_box = TextField(
            placeholder="type your clue, Enter sends",
            id="clue-input",
            compact=True,
            limit=CLUE_MAX,
            what="Your clue",
            counter="clue-left",
        )
        label = self._clue_label_box = ClueLabel(Content(self._clue_label), id="clue-label", markup=False)
        row = self._clue_row = ClueRow(label, box, RoomLeft(id="clue-left", markup=False), id="clue-row")
        row.display = False
        self._displayed[id(row)] = False
        return row

    def _ask(
        self,
        question: Question,
        answer: Callable[[bool | None], Awaitable[None]],
        stale: Callable[[], str | None] | None = None,
    ) -> None:
        """Ask `question` in the guarded dialog; `stale` says why it no longer stands once the table moved past it."""
        dialog = ConfirmScreen(question.title, content(question.body), yes=question.yes, no=question.no, stale=stale)
        self.app.push_screen(dialog, answer)

    # --- rendering ----------------------------------------------------------------------------------------------

    def _render_view(self) -> None:
        view, previous = self.view, self._shown
        self._shown = view
        role = words.role_key(view)
        role_changed = role != self._role
        if role_changed:
            self._role_before, self._role, self._role_since = self._role, role, clock()
        game = view.game
        key: tuple[object, ...] = (view.status, game.turn if game else None, game.phase if game else None)
        phase_changed = key != self._phase_key
        if phase_changed:
            self._phase_key = key
            self.chosen = None
            self.marked = []
            if previous is not None:
                self._keep_typed_clue(previous)  # a clue being typed when the turn moved on stays, not sent
        if game is not None:
            hand_ids = {c.card for c in game.hand}
            if self.chosen not in hand_ids:
                self.chosen = None
            self.marked = [c for c in self.marked if c in hand_ids]

        self._render_topbar()
        wall = wall_wanted(view, self.size.width, self.size.height)
        if not wall:  # (the wall hides the seats and the main region: drawn when it gives way, not at each move)
            self._render_side()
        self._render_feed(previous)
        self._render_clue()
        mode, self._mode = self._mode, self._mode_now()
        if not wall:
            self._render_pane()
        # a board of 9 to 12 cards: on a cramped screen the feed and the board's frame give it their rows
        self.set_class(game is not None and game.phase == Phase.VOTE and len(game.board) > CROWDED, "-crowded")
        self._render_status()
        if phase_changed and self._mode != mode:  # a layout comes with the new mode anyway (not every phase)
            self.query_one(TopLines).fit()
        if phase_changed or role_changed:  # (a new phase, or what you may do in it: the keyboard goes there)
            self._focus_for_phase()
        self._close_stale_dialogs()
        self.refresh_bindings_if_changed()
        self._render_wall()

    def _render_side(self) -> None:
        """The seats, the score track (or the practice turn's help) beside the main region."""
        self.query_one(SidePanel).show(self.view)

    def _render_pane(self) -> None:
        """The main region in the mode of the phase: the lobby, the hand, the vote or the game over; the clue box
        and the dial under it only in their phase."""
        mode, main = self._mode, self._main()
        main.set_mode(mode)
        if mode == MainMode.LOBBY:
            main.show_lobby(self.view)
        elif mode == MainMode.OVER:
            self._render_over()
        elif mode == MainMode.VOTE:
            self._render_vote()
        else:
            self._render_hand()
        if mode != MainMode.HAND and self._clue_row is not None:
            self._show(self._clue_row, False)

    def _render_wall(self) -> None:
        """A spectator's screen of at least 160x48 shows the table as the wall (in place of the seats, the clue and
        the main region; the log and chat stay under it), and the usual table below that size."""
        on = wall_wanted(self.view, self.size.width, self.size.height)
        if on and self._wall is None:
            self._wall = Wall(id="wall")
            self.query_one("#main").mount(self._wall, before=0)
        if on != self.has_class("-wall"):
            self.set_class(on, "-wall")
            self._clue_key = None
            self._render_clue()
            if not on:  # (not drawn under the wall)
                self._render_side()
                self._render_pane()
            self._focus_for_phase()  # none on the wall; the hand or the board again below it
        if on and self._wall is not None:
            app = self.host
            self._wall.show(
                self.view, getattr(self.app, "capabilities", FULL), ssh_host=app.ssh_host, ssh_port=app.ssh_port
            )

    def _show(self, widget: Widget, shown: bool) -> None:
        """`widget.display = shown`, only when that changes what the screen set last (setting it restyles the widget
        through several calls even when it is the same; nothing else sets these widgets' display)."""
        shown = bool(shown)
        if self._displayed.get(id(widget)) is not shown:
            self._displayed[id(widget)] = shown
            widget.display = shown

    def _render_topbar(self) -> None:
        """One line; when it does not fit, the less useful parts get shorter or go first (see `words.topbar`)."""
        view, width, now = self.view, self.size.width - 2, epoch()
        key = words.topbar_key(view, width, now)
        if key == self._topbar_key:
            return  # (the same words: an ordinary move, a tick that leaves the clock's text as it was)
        self._topbar_key = key
        self.query_one(TopLines).show_bar(words.topbar(view, width, now))

    def _render_feed(self, previous: TableView | None) -> None:
        chat = self.query_one(ChatPanel)
        view = self.view
        if previous is None:
            for part in feed_order(view.log, view.log_total, view.chat):  # each chat line where it was said
                if isinstance(part, ChatLine):
                    chat.add_chat(part)
                else:
                    chat.add_log(part)
        elif view.version != previous.version:
            new = max(0, min(len(view.log), view.version - previous.version))
            if new:
                chat.add_log(view.log[-new:])
        chat.set_paused(view.chat_paused, words.team_chat_mate(view))

    def _render_clue(self) -> None:
        view, reveal = self.view, self.last_reveal.reveal if self.last_reveal is not None else None
        key = words.clue_line_key(view, reveal)
        if key == self._clue_key:
            return  # (the same words: an ordinary move)
        self._clue_key = key
        clue = self.query_one(ClueLine)
        line = words.clue_line(view, reveal)
        wall = self.has_class("-wall")
        self._show(clue, line is not None and not wall)
        if line is not None and not wall:  # (under the wall it is hidden: its words would ask for a layout)
            clue.show(line)

    def _hand(self) -> MainView:
        """Your hand (and the note under it): the main region in its hand mode."""
        hand = self._main()
        hand.pick = self._pick_now
        return hand

    def _clue_input(self) -> Input:
        """The clue box (its row built under the main region if it was not)."""
        box = self._clue_box
        if box is None:
            self.query_one(Column).mount(self._new_clue_row(), after=self._main())
            box = self._clue_box
            assert box is not None
        return box

    def _hand_items(self, game: PlayerView) -> list[CardItem]:
        items = []
        for i, card in enumerate(game.hand, start=1):
            tags = words.hand_tags(game, card.card, self.chosen, self.marked)
            items.append(CardItem(card.card, i, card.text, tags))
        return items

    def _render_hand(self) -> None:
        game = self.game
        assert game is not None
        hand = self._hand()
        # what the cards shown are made of (`_hand_items`): an ordinary move changes none of it
        key = (game.hand, game.voided_card, game.can_clue, game.submit_count, self.chosen, tuple(self.marked))
        if key != self._hand_key:
            self._hand_key = key
            hand.show_items(self._hand_items(game))
        if game.hand:
            can_choose = (
                self.view.you is not None
                and not game.hand_hidden
                and (
                    (game.phase == Phase.CLUE and game.can_clue and game.clue_needs_card)
                    or (game.phase == Phase.SUBMIT and game.submit_count > 0)
                )
            )
            if hand.can_choose != can_choose:
                hand.can_choose = can_choose
                self.refresh_bindings()
        clue_now = self._can_clue_now()
        if clue_now or self._clue_box is not None:  # (built the first time you can give a clue)
            box = self._clue_input()
            # a clue typed when the turn moved on stays on screen, as typed, until you send or clear it
            kept = bool(box.value) and self.view.you is not None
            row, shown = self._clue_row, clue_now or kept
            assert row is not None
            self._show(row, shown)
            # under a hand shown bare (the blind clue's: no cards, its note alone) the row comes right after the note
            bare = not hand.items
            row.set_class(bare, "-fill")
            hand.set_class(bare and shown, "-above-clue")
            label = words.clue_label(self.view)
            if label != self._clue_label:
                self._clue_label = label
                if self._clue_label_box is not None:
                    self._clue_label_box.update(Content(label))
        self._render_hand_note()

    def _render_hand_note(self) -> None:
        if self.game is None or self._mode != MainMode.HAND:
            return  # (the board's note is the vote's)
        text = words.hand_note(self.view, self.choices())
        # the row stays, blank when there is nothing to say (the cards keep their rows as the phases go)
        self._hand().show_note(content(text) if text is not None else BLANK)

    def _board_items(self, game: PlayerView, dial: VoteDial | None) -> list[CardItem]:
        items = []
        marked = dial.marks if dial is not None else ()
        green = dial.green if dial is not None and dial.stage == "red" else None
        for slot in game.board:
            tags = words.board_tags(game, slot.slot, marked, green)
            items.append(CardItem(f"slot-{slot.slot}", slot.slot, slot.text, tags, slot.slot in game.forbidden_slots))
        return items

    def _render_vote(self) -> None:
        game = self.game
        assert game is not None
        board = self._main()
        # the dial under the board's cards while you vote; who does not vote moves the board's highlight, to read
        # each card whole (its `▶` points at no vote)
        ballot = None
        if game.can_vote:
            ballot = Ballot(
                len(game.board),
                open_slots=game.vote_slots,
                votes_allowed=game.votes_allowed,
                places_red=game.places_red,
                voted=game.your_votes,
                voted_red=game.your_red,
                board=(game.turn, tuple(s.card for s in game.board)),
            )
        dial = board.vote(ballot)
        highlight = f"slot-{dial.pointer}" if dial is not None else None
        board.show_items(self._board_items(game, dial), highlight=highlight)
        self._render_vote_note()

    def _render_vote_note(self) -> None:
        """The line between the board and the dial: a dial refusal's hint while it holds (it speaks of where the dial
        is, on this board), else the note for whoever does not vote."""
        game, dial, hint = self.game, self._dial(), self._dial_hint
        if game is None or self._main().mode != MainMode.VOTE:
            return  # (drawn when the board shows)
        if hint is not None and not (game.can_vote and dial is not None and dial.board == hint[0]):
            hint = self._dial_hint = None  # (a new board, or your vote is in: it no longer says what a key does)
        text = Words.of(hint[1]) if hint is not None else words.vote_note(self.view)
        self._main().show_note(content(text) if text is not None else None, hint=hint is not None)

    def _render_over(self) -> None:
        main = self._main()
        if self.game is None or main.mode != MainMode.OVER:
            return  # (rendered when the game's end shows)
        main.show_over(words.over_text(self.view, self.over))

    def _render_status(self) -> None:
        line = words.status_line(self.view, self.choices(), epoch())
        self.query_one(TopLines).show_status(line)

    def status_text(self) -> Content:
        """What you should do now, in one sentence (player names as plain text)."""
        return content(words.status(self.view, self.choices()))

    def _can_clue_now(self) -> bool:
        return words.can_clue_now(self.view)

    def _keyboard_at(self) -> Widget | None:
        """Where your keyboard is: the focused widget, or, while the terminal has lost the focus (Textual then takes
        it out of every widget, and puts it back as the terminal reports it is back), the one it was in: a focus-out
        report is not you leaving a text box."""
        return self.focused if self.app.app_focus else self._focus_seen

    def _typing_in(self) -> Input | None:
        """The text box you are typing in (focused, not empty, on screen), if any."""
        focused = self._keyboard_at()
        if not isinstance(focused, Input) or not focused.value:
            return None
        row = self._clue_row
        if focused.id == "clue-input" and not (row is not None and row.display and self._mode == MainMode.HAND):
            return None
        return focused

    def _box_open(self, box: Input) -> bool:
        """Whether `box` takes what you type now: the clue box while you may give the clue, the chat box while the
        chat it sends to is open (the table's, or your team's)."""
        if box.id == "clue-input":
            return self._can_clue_now()
        if box.id == "chat-input":
            chat = self.query_one(ChatPanel)
            return not chat.paused or chat.to_team
        return True

    def _focus_for_phase(self, *, force: bool = False) -> None:
        """Put the keyboard where this phase is played (the hand, the dial); never into a text box (you open one
        yourself), nor away from one that takes your text (unless `force`: Esc). A box that takes none in this phase
        gives the keyboard back, its text kept unsent (keys on their way into it act on nothing: `key_role`)."""
        box = self._typing_in()
        if not force and box is not None and self._box_open(box):
            return  # never steal the keyboard from someone typing
        if not force and self.view.you is None and isinstance(self.focused, Input):
            return  # a spectator plays nothing: the chat box it opened keeps the keyboard, paused or not
        if not force and isinstance(self.focused, Input):
            self._box_closes += 1  # the table, not you, took the keyboard out of the box
            self._box_closed_at = clock()
        target: Widget | None = None
        view, game = self.view, self.game
        if wall_wanted(view, self.size.width, self.size.height):
            target = None  # the wall hides the hand and the board (and focusing them restyled the screen each turn)
        elif view.status == TableStatus.LOBBY or game is None:
            target = None  # not the Start button: typing there would start the game (s, p, Enter all act on it)
        elif view.you is None and game.phase in (Phase.CLUE, Phase.SUBMIT, Phase.VOTE):
            # a spectator's main region keeps the keyboard through the turn: its bare hand (no cards: no keys, looks
            # the same focused) and the board's cursor (moving the focus between them restyled the region twice a
            # turn, a sixth of a phase change)
            target = self._main()
        elif game.phase == Phase.CLUE:
            if game.can_clue and (game.hand_hidden or not game.clue_needs_card):
                target = None  # the blind clue: Enter opens the clue box (the status line says so)
            elif game.hand:
                target = self._hand()
        elif game.phase == Phase.SUBMIT:
            if game.hand:
                target = self._hand()
        elif game.phase == Phase.VOTE:
            target = self._main()  # the vote dial's keys while you vote, else the cursor to read the cards
        self.set_focus(target)
        self._focus_kept = self.focused  # (also while a screen is over this one: it comes back with the phase's focus)

    def _keep_typed_clue(self, previous: TableView) -> None:
        """The turn moved on while you typed a clue: the text stays unsent, with a notice (once). A new turn or game
        empties the box, so it never starts a clue for another card unseen ("reflect", kept from a lost race for the
        first clue, was sent as "reflecttick tock" a turn later)."""
        box = self._clue_box
        if box is None or not box.value:
            return  # no clue box yet, or nothing typed
        if _new_turn(previous, self.view):
            box.value = ""
            return
        could = words.can_clue_now(previous)
        if could and box.value and not self._can_clue_now() and self.view.you is not None:
            self.notify(words.clue_kept(self.view), markup=False)

    def _close_stale_dialogs(self) -> None:
        """Close each open question the table has moved past (Give this card? in the vote...), saying why."""
        for screen in list(self.app.screen_stack):
            if isinstance(screen, ConfirmScreen) and screen.stale is not None:
                reason = screen.stale()
                if reason is not None:
                    screen.withdraw(reason)

    def _hold_reveal(self) -> None:
        """The table holds the turn's reveal for its people to read: the recap opens by itself, once per turn (Enter
        tells the table you moved on), or, over a line you are typing, once you leave or empty its box (`_box_left`:
        not if the hold ended meanwhile); when the hold ends (its time is up, or everyone moved on) it closes itself,
        unless you are reading it (scrolled it just now): then it stays open as a recap opened with r."""
        game = self.game
        reveal = game.last_reveal if game is not None else None
        self._recap_waits = False
        if game is not None and game.phase == Phase.VOTE:
            self._voting_seen = game.turn
        if reveal is not None and self._final_reveal_due(reveal.turn):
            # the game ended with this vote: the table holds no reveal then (its agents and bots go straight to the
            # standings), but the people who played the turn see its reveal before the standings (Enter moves on)
            if self._typing_now():
                return
            self._reveal_held = reveal.turn
            self._open_recap(RevealUpdate(reveal), final=True)
            return
        if self.view.reveal_until is not None and reveal is not None:
            if self.has_class("-wall"):
                return  # the wall shows the reveal in full
            if self._reveal_held != reveal.turn and not self._typing_now():
                self._reveal_held = reveal.turn
                self._open_recap(RevealUpdate(reveal), held=True)
            return
        for screen in self.app.screen_stack:
            if isinstance(screen, RecapScreen) and screen.held:
                if screen.reading and screen.is_current:  # you are reading it: not pulled away from you
                    screen.table_moved_on(game.turn if game is not None else None)
                    continue
                screen.held = False  # closed by the table, not by you: nothing to tell it
                if self.app.screen is screen:  # (the keys typed for its "Next turn" now act on nothing: key_role)
                    self._recap_closes += 1
                    self._recap_closed_at = clock()
                screen.action_close()

    def _typing_now(self) -> bool:
        """Whether you are typing at this screen: keys you typed are still on their way (a recap opened now would
        take them, typed at the table before it was drawn: it waits until they are done), or the keyboard is in a
        text box with words in it, or in one you typed at within `TYPING_PAUSE` seconds (a line just sent, the box
        just opened with c or Tab: the next line's letters follow). A reveal that opened by itself now would take the
        rest of your keys, so it waits (`_recap_waits`) until you are done: `_box_left`."""
        if not self.is_current:
            return False
        if self.host.after_typed(self._box_left) or self._typing_in() is not None or self._typed_in_box_now():
            if not self._recap_waits and self._clock is not None:
                self._clock.resume()  # (the tick sees your pause)
            self._recap_waits = True
            return True
        return False

    def _typed_in_box_now(self) -> bool:
        """Whether the keyboard is in a text box (while this terminal has the focus: Textual takes it out of the box
        as the terminal reports it lost it, and puts it back as it is back), with a key typed within `TYPING_PAUSE`."""
        at = self._last_key
        return isinstance(self._keyboard_at(), Input) and at is not None and clock() - at < TYPING_PAUSE

    def _box_left(self) -> None:
        """You left or emptied the box (the line sent, Esc), the keys on their way are done, or the tick came: the
        reveal that came while you typed opens now if you are done typing (`_typing_now`: after the line sent, once
        you pause), and if the table still holds it (else the status line's "r: recap" shows it)."""
        if self._recap_waits and not self._typing_now():
            self._hold_reveal()

    def _final_reveal_due(self, turn: int) -> bool:
        """Whether the last turn's reveal opens by itself over the game's end: the table holds its reveals, this
        screen showed that turn's vote (not a player back after the end) and has not opened it yet."""
        return (
            final_reveal_due(self.view)
            and not self.has_class("-wall")
            and self._voting_seen == turn
            and self._reveal_held != turn
        )

    async def _recap_closed(self, _: None = None) -> None:
        """A recap closed: if the table held it for you, it is told you moved on."""
        if self.view.reveal_until is None or self._reveal_held is None:
            return
        session = self._session()
        if session is not None:
            await session.reveal_seen()

    def _open_recap(self, update: RevealUpdate, *, held: bool = False, final: bool = False) -> None:
        """The recap of `update`'s turn: asked for with r, or opened by itself (`held`: the table holds the reveal;
        `final`: the game's last turn, before the standings); one opened by itself ignores a closing key that comes
        within `REACTION` seconds, typed for the table before it (the Enter after the vote's)."""
        game = self.game
        names = [s.name for s in self.view.seats]
        teams: dict[int, int | None] = {}
        if game is not None:
            teams = {p.seat: p.team for p in game.players}
        mode = game.mode if game is not None else Mode.STANDARD
        guard = REACTION if held or final else 0.0
        if isinstance(self.app.screen, RecapScreen):  # an unread recap of an earlier turn: the new one replaces it
            shown = self.app.screen
            shown.show(
                update.reveal, names, mode=mode, teams=teams, you=self.view.you, held=held, final=final, guard=guard
            )
            return
        recap = RecapScreen(
            update.reveal, names, mode=mode, teams=teams, you=self.view.you, held=held, final=final, guard=guard
        )
        self.app.push_screen(recap, callback=self._recap_closed)

    # --- the hand, the clue, the board and the dial ------------------------------------------------------------

    @on(CardList.Picked, "#main-view")
    def card_picked(self, event: CardList.Picked) -> None:
        """A card of the hand clicked (Enter at the hand calls `_pick` itself: see `Hand.pick`). (A card of the board
        clicked while you vote points the dial: the board's own; else it only moves the cursor.)"""
        event.stop()
        if not event.key.startswith("slot-"):
            self._pick(event.key)

    def _pick_now(self, card: str) -> Widget | None:
        """Enter at the hand (`Hand.pick`): a card for your clue is picked at once, and the clue box it opens takes
        the letters typed right behind the Enter (returned); any other pick comes as a click's does (None: a
        question's dialog opens after the keys typed ahead, which then answer nothing)."""
        game = self.game
        if game is None or not (game.phase == Phase.CLUE and game.can_clue and game.clue_needs_card):
            return None
        if self._question_open() or card == game.voided_card:
            return None
        self._pick(card)
        box = self._clue_input()
        return box if self.chosen == card else None

    def _pick(self, card: str) -> None:
        game = self.game
        if game is None:
            return
        if self._question_open():
            return  # a question is open: Enter typed ahead at the hand opens no second one
        if game.phase == Phase.CLUE and game.can_clue and game.clue_needs_card:
            if card == game.voided_card:
                self.notify(words.VOIDED_CARD, markup=False)
                return
            self.chosen = card
            self._render_hand()
            self._render_status()
            self._clue_input().focus()
        elif game.phase == Phase.SUBMIT and game.submit_count:
            if game.submit_count == 1:
                self._confirm_submit([card])
                return
            if card in self.marked:
                self.marked.remove(card)
            else:
                self.marked.append(card)
            self._render_hand()
            if len(self.marked) >= game.submit_count:
                self._confirm_submit(list(self.marked[: game.submit_count]))
        else:
            self.notify(self.status_text().plain, title=words.NOTHING_TO_CHOOSE, markup=False)

    def _question_open(self) -> bool:
        return any(isinstance(s, (ConfirmScreen, SeatPicker)) for s in self.app.screen_stack)

    def _confirm_submit(self, cards: list[str]) -> None:
        game = self.game
        assert game is not None
        turn = game.turn
        many = len(cards) > 1

        async def answer(ok: bool | None) -> None:
            if not ok:
                if many and self.marked:
                    self.marked.pop()
                    self._render_hand()
                return
            session = self._session()
            if session is not None and await self._act(session.submit(cards)):
                self.marked = []

        self._ask(
            words.submit_question(game, cards), answer, stale=lambda: words.submit_stale(self.view, turn, many=many)
        )

    @on(Input.Changed, "#clue-input")
    async def clue_typed(self, event: Input.Changed) -> None:
        """Tell the table you are writing a clue (at most every few seconds), or that you stopped."""
        game, session = self.game, self._session()
        if session is None:
            return
        now = time.monotonic()
        if event.value.strip() and game is not None and game.can_clue:
            if self._typing_told is None or now - self._typing_told >= TYPING_RENEW:
                self._typing_told = now
                await session.typing(True)
        elif self._typing_told is not None:
            self._typing_told = None
            await session.typing(False)

    @on(Input.Submitted, "#clue-input")
    async def clue_sent(self, event: Input.Submitted) -> None:
        event.stop()
        game, session = self.game, self._session()
        text = event.value.strip()
        if game is None or session is None:
            return
        if not self._can_clue_now():
            self.notify(words.clue_kept(self.view), markup=False)
            return
        if not text:
            self.notify(words.CLUE_EMPTY, markup=False)
            return
        card = None
        if game.clue_needs_card and not game.hand_hidden:
            if self.chosen is None:
                self.notify(words.CLUE_NEEDS_CARD, severity="warning", markup=False)
                self._hand().focus()
                return
            card = self.chosen
        if await self._act(session.clue(text, card)):
            event.input.value = ""

    @on(MainView.Dialled, "#main-view")
    async def dialled(self, event: MainView.Dialled) -> None:
        """A key, click or wheel turn at the dial: a refusal's hint shows under the board; a vote goes to the table;
        the board's tags and the status line follow the dial."""
        done, game = event.outcome, self.game
        if isinstance(done, Refused):
            self._dial_hint = (event.dial.board, done.reason)  # the new refusal replaces the last
            self._render_vote_note()
            return
        self._drop_dial_hint()
        if isinstance(done, Cast):
            session = self._session()
            if session is not None:
                await self._act(self._vote(session, done))
        elif game is not None and game.phase == Phase.VOTE and self._main().mode == MainMode.VOTE:
            event.board.show_items(self._board_items(game, event.dial), highlight=f"slot-{done.pointer}")
            self._render_status()

    async def _vote(self, session: Session, cast: Cast) -> None:
        """Cast the dial's vote, unless this screen already shows the table past it: a vote that comes too late (Enter
        Right Enter in one send) is told as a key the table moved past (`key_dropped`), not as a refused vote."""
        game = self.game
        if game is not None and game.phase == Phase.VOTE:
            try:
                await session.vote(list(cast.slots), red=cast.red)
                return
            except WrongPhase:
                pass
        self.notify(words.key_dropped("enter"), severity="warning", markup=False)

    def _drop_dial_hint(self) -> None:
        """A refusal's hint ("The dial is on 2: press Enter again to vote for 2") goes once the dial moves or a vote
        is cast ("1 Enter 5 Enter" left it on screen). It is the table's own line, not a toast: a toast of its length
        covered the key bar at 100 columns."""
        if self._dial_hint is not None:
            self._dial_hint = None
            self._render_vote_note()

    # --- chat ---------------------------------------------------------------------------------------------------

    async def on_chat_panel_send(self, event: ChatPanel.Send) -> None:
        if event.team:
            team_session = self._session()
            if team_session is not None and await self._act(team_session.chat(event.text, team=True)):
                event.sent()
            return
        if self.view.chat_paused:
            self.notify(words.CHAT_PAUSED, markup=False)
            return
        session = self._session()
        if session is not None and await self._act(session.chat(event.text)):
            event.sent()

    # --- buttons ------------------------------------------------------------------------------------------------

    async def on_main_view_pressed(self, event: MainView.Pressed) -> None:
        """A button of the lobby clicked: what its key does."""
        if event.action == "start":
            await self.action_start()
        elif event.action == "practice":
            await self.action_practice()
        elif event.action == "leave":
            self.action_leave()

    # --- actions ------------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self._action_states().get(action, True)

    def _action_states(self) -> dict[str, bool | None]:
        """Whether each key works now (True), shows dimmed (None) or is hidden (False), worked out once for each view,
        focus and reveal (every update asks for all of them, to tell whether the key bar changed)."""
        view, focused, reveal = self.view, self.focused, self.last_reveal
        kept = self._states_kept
        if kept is not None and kept[0] is view and kept[1] is focused and kept[2] is reveal:
            return kept[3]
        game = view.game
        lobby = view.status == TableStatus.LOBBY or game is None
        host = view.is_host
        typing = isinstance(focused, Input)
        leaving = view.status == TableStatus.PLAYING and view.you is not None  # may leave the game for good
        states: dict[str, bool | None] = {
            # offered only when the table can start; the status line says what is missing
            "start": lobby and host and view.start_problem is None,
            "practice": (True if view.start_problem is None else None) if lobby and host else False,
            "rematch": view.status == TableStatus.OVER and host,
            "add_bot": lobby and host and len(view.seats) < view.options.max_seats(),
            "team_chat": words.team_chat_mate(view) is not None,
            "transcript": view.status == TableStatus.OVER or bool(game is not None and game.history),
            "void": bool(
                host and game is not None and view.status == TableStatus.PLAYING and game.phase in words.VOID_PHASES
            ),
            "lock": lobby and host,
            "options": lobby and host,  # mode, rules, decks, timer: before the start (a rematch's lobby too)
            "remove": host
            and (
                (view.status != TableStatus.OVER and any(s.seat != view.you and not s.removed for s in view.seats))
                or leaving  # the host picks themselves to leave the game for good
            ),
            "leave_game": leaving and not host,  # one who is not the host: x is leaving the game for good
            "back": typing,  # Esc leaves a text box (clue, chat) for the hand, board or dial
            # the blind clue (no card to choose first): Enter opens the clue box
            "type_clue": bool(
                self._can_clue_now()
                and game is not None
                and (game.hand_hidden or not game.clue_needs_card)
                and not typing
            ),
            "recap": reveal is not None or (game is not None and game.last_reveal is not None),
        }
        self._states_kept = (view, focused, reveal, states)
        return states

    async def action_start(self) -> None:
        await self._confirm_start(practice=False)

    async def _confirm_start(self, *, practice: bool) -> None:
        """Starting cannot be undone: ask first, in the guarded dialog (a burst of chat typed without `c` first
        must not start the game). A table that cannot start says why at once."""
        session = self._session()
        if session is None or self._question_open():
            return
        view = self.view
        if view.start_problem is not None:
            await self._act(session.practice() if practice else session.start())
            return
        question = words.start_question(view, practice=practice)
        players = words.seated(view)

        async def answer(ok: bool | None) -> None:
            session = self._session()
            if ok and session is not None:
                await self._act(session.practice() if practice else session.start())

        self._ask(question, answer, stale=lambda: words.start_stale(self.view, players))

    async def action_add_bot(self) -> None:
        """Adding a bot asks first, in the guarded dialog: plain typing ("brb") must not fill the seats."""
        if self._session() is None or self._question_open():
            return
        seats = len(self.view.seats)

        async def answer(ok: bool | None) -> None:
            session = self._session()
            if ok and session is not None:
                await self._act(session.add_bots(1))

        self._ask(words.ADD_BOT, answer, stale=lambda: words.add_bot_stale(self.view, seats))

    async def action_transcript(self) -> None:
        from dixit_tui.transcript import transcript_of
        from dixit_tui.tui.widgets.transcript import TranscriptScreen

        game, session = self.game, self._session()
        if game is None:
            return
        stand_ins = await session.stand_in_moves() if session is not None else frozenset()  # (marked as such)
        if self.game is game and self.app.screen is self:  # (nothing moved on while the records were read)
            self.app.push_screen(TranscriptScreen(self.view.code, transcript_of(game, stand_ins)))

    async def action_practice(self) -> None:
        await self._confirm_start(practice=True)

    async def action_rematch(self) -> None:
        """A rematch moves everyone: ask first, in the guarded dialog (typing "more?" without `c` must not)."""
        if self._session() is None or self._question_open():
            return

        async def answer(ok: bool | None) -> None:
            session = self._session()
            if ok and session is not None:
                await self._act(session.rematch())

        self._ask(words.REMATCH, answer, stale=lambda: words.rematch_stale(self.view))

    def action_chat(self) -> None:
        """`c`: the chat box, aimed at the table whenever the table's chat is open (T aims it at the team)."""
        chat = self.query_one(ChatPanel)
        if not chat.paused and chat.to_team and not chat.input.value:
            chat.set_to_team(False)
        chat.input.focus()

    def action_team_chat(self) -> None:
        chat = self.query_one(ChatPanel)
        chat.set_to_team(True)
        chat.input.focus()

    def action_back(self) -> None:
        self._focus_for_phase(force=True)
        self._render_status()

    def on_screen_suspend(self) -> None:
        cast(RowCompositor, self._compositor).forget_rows()  # the screen on top draws over this one's rows
        self._focus_kept = self.focused

    # --- a drawing shared with the other spectators (tui/watch_cast.py) ------------------------------------------

    def cast_state(self) -> tuple[object, ...] | None:
        """What this screen's own choices add to its picture, beyond what the table sets for every spectator alike:
        the focus, the main region's cursor and every region's scroll (they follow the phase, the same at every
        spectator's screen, until moved by keys or the wheel: that input leaves the cast, but its session joins one
        again once quiet, and a cursor moved or a region scrolled must not join a drawing where they are elsewhere, nor
        bring its own to the others), the feed scrolled back, the chat box aimed at the team; None while a text box
        has the keyboard or holds text (the picture is the typist's own)."""
        chat = self.query_one(ChatPanel)
        focused = self.focused
        if isinstance(focused, Input) or chat.input.value:
            return None
        focus = None if focused is None else (type(focused).__name__, focused.id)
        widgets = enumerate(self.query(Widget))
        scrolled = tuple((at, tuple(widget.scroll_offset)) for at, widget in widgets if any(widget.scroll_offset))
        return (chat.feed.back, chat.to_team, focus, self._main().place(), scrolled)

    def follow(self, following: bool) -> None:
        """Another session's app draws this screen's picture (`following`): the once-a-second clock sleeps; it
        wakes again, if there is a clock to count down, when this screen draws for itself again."""
        if self._clock is None:
            return
        if following:
            self._clock.pause()
        elif self._clock_needed():
            self._clock.resume()

    def redraw_whole(self) -> None:
        """The terminal shows something else (another session's frames): every row is sent at the next frame."""
        cast(RowCompositor, self._compositor).forget_rows()
        self.refresh()

    def on_screen_resume(self) -> None:
        self.refresh_bindings()  # the keys may have changed while a recap or a question was on top
        if self.view.you is None and self.focused is not self._focus_kept:
            # A spectator's table comes back as it was, or where the phase put the keyboard meanwhile: as every other
            # spectator's (its picture is theirs: `cast_state`). Its first resume, as it opens, keeps the phase's.
            self.set_focus(self._focus_kept)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._focus_seen = event.widget  # (kept as Textual takes the focus away with the terminal's: `_keyboard_at`)
        if self.game is not None:
            self._render_status()  # "press Enter to type it", "type your clue", "your text is kept"
            self._render_hand_note()  # "type your clue below" only while the box has the keyboard

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if not self.app.app_focus:  # the terminal lost the focus (a focus-out report): you did not leave the box
            return
        if self._focus_seen is event.widget:
            self._focus_seen = None
        if self.game is not None:
            self._render_status()
            self._render_hand_note()
        self._box_left()

    @on(Input.Changed)
    def box_changed(self) -> None:
        self._box_left()

    def action_type_clue(self) -> None:
        if self._can_clue_now():
            self._clue_input().focus()
            self._render_status()

    def action_recap(self) -> None:
        if self.last_reveal is not None:
            self._open_recap(self.last_reveal)
        elif self.game is not None and self.game.last_reveal is not None:
            self._open_recap(RevealUpdate(self.game.last_reveal))

    def action_void(self) -> None:
        game = self.game
        if game is None:
            return
        turn = game.turn

        async def answer(ok: bool | None) -> None:
            session = self._session()
            if ok and session is not None:
                await self._act(session.void())

        self._ask(
            words.void_question(self.view), answer, stale=lambda: words.moved_on(self.view, turn, words.VOID_PHASES)
        )

    def action_remove(self) -> None:
        seats = [(seat, content(label)) for seat, label in words.remove_choices(self.view, seat_marker)]
        if not seats:
            return

        def picked(seat: int | None) -> None:
            if seat is not None:
                self._confirm_remove(seat)

        self.app.push_screen(SeatPicker(words.REMOVE_TITLE, seats), picked)

    def action_leave_game(self) -> None:
        """One who is not the host leaves the game for good: the question at once (a pick of one, yourself, said
        "Remove which player?")."""
        you = self.view.you
        if you is not None and self.view.status == TableStatus.PLAYING:
            self._confirm_remove(you)

    def _confirm_remove(self, seat: int) -> None:
        name = words.seat_name(self.view, seat)

        async def answer(ok: bool | None) -> None:
            session = self._session()
            if ok and session is not None:
                await self._act(session.remove(seat))

        self._ask(
            words.remove_question(self.view, seat), answer, stale=lambda: words.remove_stale(self.view, seat, name)
        )

    def action_options(self) -> None:
        """The host changes the table's options before the start: the create dialog, filled in with them."""
        from dixit_tui.tui.create import OptionsScreen

        if self._session() is None or self._question_open():
            return

        async def chosen(options: TableOptions | None) -> None:
            session = self._session()
            if options is not None and session is not None:
                await self._act(session.change_options(options))

        dialog = OptionsScreen(self.view.options, self.host.deck_sizes())
        self.app.push_screen(dialog, chosen)

    def action_lock(self) -> None:
        """The host chooses who may join: anyone, people with the code, or those invited; or invites someone."""
        if self._session() is None or self._question_open():
            return
        choices = [(index, content(label)) for index, label in enumerate(words.lock_choices(self.view))]

        async def picked(choice: int | None) -> None:
            session = self._session()
            if choice is None or session is None:
                return
            if choice < len(words.LOCKS):
                await self._act(session.lock(words.LOCKS[choice]))
            else:
                self._invite()

        self.app.push_screen(SeatPicker(words.LOCK_TITLE, choices), picked)

    def _invite(self) -> None:
        from dixit_tui.tui.lobby import NamePrompt

        async def invited(name: str | None) -> None:
            session = self._session()
            if name and session is not None:
                await self._act(session.invite(name))

        prompt = NamePrompt(words.INVITE_TEXT, "", title="Invite a player", placeholder="their name", ok="Invite")
        self.app.push_screen(prompt, invited)

    def action_leave(self) -> None:
        async def answer(ok: bool | None) -> None:
            session = self._session()
            if ok and session is not None:
                await self._act(session.leave())

        self._ask(words.leave_question(self.view, with_key=self.host.identity.key is not None), answer)


_ACTIONS = tuple(b.action if isinstance(b, Binding) else b[1] for b in TableScreen.BINDINGS)
