"""The table: seats, score track, clue, your hand, the board with its vote dial, the log and chat, host controls.

The app hands this screen every `TableView` (`show_view`), each reveal (`show_reveal`), the end of the game
(`show_over`) and each chat line (`add_chat`). The screen turns keys into session calls through `app.act(...)`,
which shows a refusal as a notification. A status line always says what YOU should do now.

Player text (names, clue, chat, card text) never goes into markup: every widget here is fed `Content` or rich
`Text` built from plain strings, and widgets that could parse markup are created with `markup=False`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, ContentSwitcher, Input, OptionList, Static

from dixit_tui.coordinator import ChatLine, OverUpdate, RevealUpdate, TableView
from dixit_tui.engine import PlayerView, Reveal
from dixit_tui.sanitize import CLUE_MAX
from dixit_tui.tui.compositor import LaidOutOnce, RowCompositor
from dixit_tui.tui.panes import Backdrop
from dixit_tui.tui.panes import Panes as LazyPanes
from dixit_tui.tui.practice import practice_help
from dixit_tui.tui.widgets.cards import Board, CardItem, Hand
from dixit_tui.tui.widgets.chat import ChatPanel
from dixit_tui.tui.widgets.confirm import ConfirmScreen, SeatPicker
from dixit_tui.tui.widgets.dial import Dial
from dixit_tui.tui.widgets.keybar import KeyBar
from dixit_tui.tui.widgets.recap import RecapScreen
from dixit_tui.tui.widgets.score_track import ScoreTrack
from dixit_tui.tui.widgets.seats import SeatsPanel, seat_marker
from dixit_tui.tui.widgets.textbox import TextBox
from dixit_tui.tui.widgets.too_small import MIN_HEIGHT, MIN_WIDTH

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from dixit_tui.coordinator import PlayerSession

Part = str | tuple[str, str] | Content


TYPING_RENEW = 3.0  # seconds between "still writing a clue" reports (the coordinator's mark lasts about 10)


def name_list(names: Sequence[str], limit: int = 4) -> Content:
    """`ana`, `ana and ben`, `ana, ben and cara`, `ana, ben, cara and 3 others`; names in bold, as plain text."""
    names = list(names)
    if not names:
        return Content("nobody")
    shown = names if len(names) <= limit else names[: limit - 1]
    rest = len(names) - len(shown)
    parts: list[Part] = []
    for i, name in enumerate(shown):
        if i:
            last = i == len(shown) - 1 and not rest
            parts.append(" and " if last else ", ")
        parts.append((name, "bold"))
    if rest:
        parts.append(f" and {rest} other{'s' if rest > 1 else ''}")
    return Content.assemble(*parts)


def reveal_line(reveal: Reveal, name_of: Callable[[int], str], you: int | None) -> Content:
    """A turn's outcome in one line: whose card it was, who found it, and how to see the whole recap."""
    what = "Practice turn" if reveal.turn == 0 else f"Turn {reveal.turn}"
    teller = reveal.storyteller
    whose: Part = "your card" if teller == you else Content.assemble((name_of(teller), "bold"), "'s card")
    slot = next((s for s in reveal.slots if s.owner == teller), None)
    parts: list[Part] = [(what, "bold"), (" (r: recap)", "dim"), ": ", whose]
    if slot is not None:
        parts.append(f" was {slot.slot}")
        if reveal.outcome == "party":  # matching votes score, not finding the storyteller's card
            pass
        elif reveal.outcome == "all":
            parts.append(", everyone found it")
        elif not slot.votes:
            parts.append(", nobody found it")
        else:
            finders = ["you" if seat == you else name_of(seat) for seat in slot.votes]
            parts.extend([", found by ", name_list(finders, 3)])
    parts.append(".")
    return Content.assemble(*parts)


CROWDED = 8  # more cards than this on the board: see -crowded in table.tcss


class Pane(Vertical, LaidOutOnce, Backdrop):
    """A phase's pane (see LaidOutOnce and Backdrop)."""


class Panes(LazyPanes, LaidOutOnce):
    """The phases' panes, one shown at a time, each built when first shown (see LazyPanes and LaidOutOnce)."""


class Row(Horizontal, LaidOutOnce, Backdrop):
    """The body: side and main columns (see LaidOutOnce and Backdrop)."""


class Column(Vertical, LaidOutOnce, Backdrop):
    """The main column (see LaidOutOnce and Backdrop)."""


class SideColumn(VerticalScroll, LaidOutOnce, Backdrop):
    """The side column: seats, score track (see LaidOutOnce and Backdrop; its scroll bar still follows its size)."""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


class TableScreen(Screen[None]):
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
        Binding("x", "remove", "Remove player"),
        Binding("l", "leave", "Leave"),
        Binding("m", "rematch", "Rematch"),
        Binding("enter", "type_clue", "Type your clue"),
        # Priority: checked when the key arrives, before the next key is handed on (keys typed at once, Esc then 3,
        # would otherwise put the 3 in the text box: a bubbling binding runs after the box took the next key).
        Binding("escape", "back", "Back to the table", priority=True),
    ]

    # Textual's Screen repaints all of itself when the focus moves (a reactive with repaint): the table moves the
    # focus at every phase change (hand, dial, nothing). The widgets that gain or lose :focus restyle themselves.
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    def __init__(self, view: TableView) -> None:
        super().__init__()
        self._compositor = RowCompositor()  # a move changes a few scattered rows: draw only those
        self.view = view
        self.code = view.code
        self.chosen: str | None = None  # the card chosen for your clue
        self.marked: list[str] = []  # cards marked for submission (two at three players)
        self.last_reveal: RevealUpdate | None = None
        self._bindings_state: tuple[bool | None, ...] | None = None  # the keys' states the footer shows
        self.over: OverUpdate | None = None
        self._phase_key: tuple[object, ...] | None = None
        self._shown: TableView | None = None  # the last view rendered
        self._typing_told: float | None = None  # when the table was last told you are writing a clue
        self._clue_label = "Clue:"
        self._found: dict[tuple[object, object], Widget] = {}  # query_one's answers

    if not TYPE_CHECKING:  # (the type checker sees Textual's overloads)

        def query_one(self, selector, expect_type=None):
            """The table's widgets stay as composed: each is looked up once (the lookups were a good part of the
            cost of an update)."""
            key = (selector, expect_type)
            widget = self._found.get(key)
            if widget is None or not widget.is_attached:
                widget = super().query_one(selector, expect_type)
                self._found[key] = widget
            return widget

    # --- layout --------------------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TextBox(id="topbar")
        yield TextBox(id="status", keep_height=True)
        with Row(id="body"):
            with SideColumn(id="side", can_focus=False):
                yield SeatsPanel(id="seats")
                yield ScoreTrack(id="track")
                yield TextBox(id="practice-help")
            with Column(id="main"):
                yield TextBox(id="clue")
                with Panes(id="panes", initial=self._first_pane()):  # the others are built when first shown
                    with VerticalScroll(id="lobby-pane", can_focus=False):
                        yield TextBox(id="lobby-info")
                        with Horizontal(id="lobby-buttons"):
                            yield Button(Content("Start (s)"), id="start-btn", variant="primary", compact=True)
                            yield Button(Content("Practice (p)"), id="practice-btn", compact=True)
                            yield Button(Content("Leave (l)"), id="leave-btn", compact=True)
                    with Pane(id="hand-pane"):
                        yield Hand(id="hand")
                        yield TextBox(id="hand-note")
                        with Horizontal(id="clue-row"):
                            yield Static(Content("Clue:"), id="clue-label", markup=False)
                            yield Input(
                                placeholder="type your clue, Enter sends",
                                id="clue-input",
                                compact=True,
                                max_length=CLUE_MAX,
                            )
                    with Pane(id="vote-pane"):
                        yield Board(id="board")
                        yield TextBox(id="vote-note")
                        yield Dial(id="dial")
                    with VerticalScroll(id="over-pane", can_focus=False):
                        yield TextBox(id="over-body")
                yield ChatPanel(id="chat")
        yield KeyBar()

    def _first_pane(self) -> str:
        """The pane the first view shows (as `_render_view` picks it)."""
        view, game = self.view, self.game
        if view.status == "lobby" or game is None:
            return "lobby-pane"
        if view.status == "over" or game.phase == "over":
            return "over-pane"
        return "vote-pane" if game.phase == "vote" else "hand-pane"

    def on_mount(self) -> None:
        self._render_view()
        self.set_interval(1.0, self._tick)

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.height < self.CRAMPED, "-cramped")
        self._render_topbar()  # the top bar picks its words by width

    def _tick(self) -> None:
        """The countdown to the deadline, once a second while there is one (nothing else re-renders)."""
        if self.view.deadline is not None:
            self._render_topbar()
        if self.view.stand_ins:
            self._render_status()

    def refresh_bindings_if_changed(self) -> None:
        """Rebuilding the footer is the costliest part of a re-render: do it only when a key's state changed.
        (Textual refreshes the bindings itself when the focus moves.)"""
        state = tuple(self.check_action(action, ()) for action in _ACTIONS)
        if state != self._bindings_state:
            self._bindings_state = state
            self.refresh_bindings()

    # --- the app's entry points ---------------------------------------------------------------------------------

    def show_view(self, view: TableView) -> None:
        self.view = view
        self.code = view.code
        if self.is_mounted:
            self._render_view()

    def show_reveal(self, update: RevealUpdate) -> None:
        """The turn's outcome shows in the clue line (`reveal_line`); the full recap opens on `r`. Opening it for
        everyone at every reveal repainted every screen at the table twice a turn. A recap open already (asked for
        with r) shows the new turn."""
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

    def _session(self) -> PlayerSession | None:
        return cast("PlayerSession | None", getattr(self.app, "session", None))

    async def _act(self, call: Awaitable[Any]) -> bool:
        act = getattr(self.app, "act", None)
        if act is None:  # a host app without `act` (tests): run it bare
            await call
            return True
        return bool(await act(call))

    def seat_name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.view.seats):
            return "?"
        return self.view.seats[seat].name

    def _names(self, seats: Sequence[int], *, skip_you: bool = True) -> list[str]:
        return [self.seat_name(s) for s in seats if not (skip_you and s == self.view.you)]

    def _teammate(self, seat: int | None) -> int | None:
        game = self.game
        if game is None or seat is None or seat >= len(game.players):
            return None
        team = game.players[seat].team
        if team is None:
            return None
        return next((p.seat for p in game.players if p.team == team and p.seat != seat and p.active), None)

    # --- rendering ----------------------------------------------------------------------------------------------

    def _render_view(self) -> None:
        view, previous = self.view, self._shown
        self._shown = view
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
        self.query_one(SeatsPanel).show(view)
        help_box = self.query_one("#practice-help", TextBox)
        help_text = practice_help(view)
        help_box.display = help_text is not None
        if help_text is not None:
            help_box.show(help_text)
        track = self.query_one(ScoreTrack)
        track.display = game is not None and help_text is None  # all at 0 during the practice turn
        if game is not None:
            goal = game.target if game.mode == "standard" else None  # party and team games end by storytelling
            track.show([(p.seat, p.score) for p in game.players if p.active], goal)
        self._render_feed(previous)
        self._render_clue()
        switcher = self.query_one(ContentSwitcher)
        if view.status == "lobby" or game is None:
            switcher.current = "lobby-pane"
            self._render_lobby()
        elif view.status == "over" or game.phase == "over":
            switcher.current = "over-pane"
            self._render_over()
        elif game.phase == "vote":
            switcher.current = "vote-pane"
            self._render_vote()
        else:
            switcher.current = "hand-pane"
            self._render_hand()
        # a board of 9 to 12 cards: on a cramped screen the feed and the board's frame give it their rows
        self.set_class(game is not None and game.phase == "vote" and len(game.board) > CROWDED, "-crowded")
        self._render_status()
        if phase_changed:
            self.query_one("#status", TextBox).fit_height()  # a layout comes with the new phase anyway
            self._focus_for_phase()
        self._close_stale_dialogs()
        self.refresh_bindings_if_changed()

    def _render_topbar(self) -> None:
        """One line; when it does not fit, the less useful parts get shorter or go first (never the code, the
        timer or who is watching)."""
        view, game = self.view, self.game
        # (full text, short text or None to drop it), in the order they are given up
        brand: tuple[Part, Part | None] = (("Dixit", "bold"), None)
        code: tuple[Part, Part | None] = (f"table {view.code}", (view.code, "bold"))
        parts: list[tuple[Part, Part | None]] = [brand, code, (view.options.label(), view.options.label())]
        pile = -1
        if game is None:
            seated = sum(not s.removed for s in view.seats)
            parts.append(("lobby", "lobby"))
            parts.append((f"{seated} seated", f"{seated} seated"))
        else:
            if game.mode == "standard":
                parts.append((f"to {game.target} points", f"to {game.target}"))
            else:
                tells = game.storytells
                parts.append((f"each tells {_plural(tells, 'time')}", f"{_plural(tells, 'tell')} each"))
            if game.practice:
                parts.append(("practice turn", "practice"))
                pile = len(parts)
                parts.append((f"pile {game.draw_pile}", None))
            elif game.phase != "over":
                parts.append((f"turn {game.turn}", f"turn {game.turn}"))
                pile = len(parts)
                parts.append((f"pile {game.draw_pile}", None))
            else:
                parts.append(("game over", "game over"))
        if view.deadline is not None and game is not None and game.phase != "over":
            left = max(0, int(view.deadline - time.time()))
            clock = f"⏱ {left // 60}:{left % 60:02d}"
            parts.append(((f"{clock} left", "bold"), (clock, "bold")))
        if view.you is None:
            parts.append(("you are watching", "you are watching"))
        if view.spectators:
            parts.append((f"{view.spectators} watching", f"{view.spectators} watching"))
        width = self.size.width - 2
        short: set[int] = set()
        line = Content("")
        # first the pile, then shorter words, then the name of the game, last "table" before the code
        for step in [-1, pile, *range(2, len(parts)), 0, 1]:
            short.add(step)
            shown = [(p[1] if i in short else p[0]) for i, p in enumerate(parts)]
            line = Content(" · ").join(Content.assemble(part) for part in shown if part is not None)
            if width <= 0 or line.cell_length <= width:
                break
        self.query_one("#topbar", TextBox).show(line)

    def _render_feed(self, previous: TableView | None) -> None:
        chat = self.query_one(ChatPanel)
        view = self.view
        if previous is None:
            chat.add_log(view.log)
            for line in view.chat:
                chat.add_chat(line)
        elif view.version != previous.version:
            new = max(0, min(len(view.log), view.version - previous.version))
            if new:
                chat.add_log(view.log[-new:])
        chat.set_paused(view.chat_paused, self._team_chat_mate())

    def _render_clue(self) -> None:
        game = self.game
        clue = self.query_one("#clue", TextBox)
        if game is None or game.phase == "over":
            clue.display = False
            return
        clue.display = True
        if game.clue is not None:
            teller = self.seat_name(game.storyteller)
            you = " (you)" if game.storyteller == self.view.you else ""
            content = Content.assemble(
                ("Clue: ", "bold"), (f"“{game.clue}”", "bold italic"), f" — told by {teller}{you}"
            )
        elif game.storyteller is None:
            content = Content("No clue yet: anyone may give the first clue.")
        else:
            content = Content.assemble(
                "No clue yet: ", (self.seat_name(game.storyteller), "bold"), " is the storyteller."
            )
        writers = self._names(self.view.typing) if game.clue is None else []
        if writers:  # in one line, also at 80 columns
            verb = " is" if len(writers) == 1 else " are"
            content = Content.assemble("No clue yet: ", name_list(writers), (f"{verb} writing a clue…", "italic"))
        # until the next clue: how the last turn went (the practice turn's too, though its reveal is gone from the game)
        last = game.last_reveal or (self.last_reveal.reveal if self.last_reveal is not None else None)
        if game.phase == "clue" and last is not None and last.turn == game.turn - 1:
            content = Content.assemble(content, "\n", reveal_line(last, self.seat_name, self.view.you))
        clue.show(content)

    def _render_lobby(self) -> None:
        view = self.view
        seated = sum(not s.removed for s in view.seats)
        options = view.options
        lines: list[Content] = [
            Content.assemble(
                ("Table ", "bold"),
                (view.code, "bold"),
                f" · {options.label()} · {seated} of {options.seats or options.max_seats()} seats taken",
            ),
            Content(f"Friends join with the code {view.code}."),
        ]
        if options.mode == "standard":
            lines.append(Content(f"The first player to reach {options.target} points wins."))
        else:
            lines.append(Content(f"The game ends when everyone has told {_plural(options.storytells, 'time')}."))
        if options.chat_pause:
            lines.append(Content("Chat pauses from the clue until the reveal, so nobody can hint at a card."))
        if view.reconnect_code:
            lines.append(Content(f"Your reconnect code: {view.reconnect_code} (it gets your seat back; F1 shows it)."))
        elif view.you is not None:  # a seat taken with an SSH key has no code: the key is what brings you back
            lines.append(Content("Your SSH key gets your seat back if you drop out: connect with it again."))
        lines.append(Content(""))
        if view.is_host:
            if view.start_problem is None:
                lines.append(Content.styled("You are the host: press s to start the game.", "bold"))
            else:
                lines.append(Content.assemble(("Not ready to start: ", "bold"), view.start_problem))
            lines.append(Content("Press p to start with a practice turn: one turn played that does not count."))
        elif view.you is None:
            lines.append(Content("You are watching this table."))
        else:
            lines.append(Content.assemble("Waiting for the host, ", (self.seat_name(view.host), "bold"), ", to start."))
        self.query_one("#lobby-info", TextBox).show(Content("\n").join(lines))
        start = self.query_one("#start-btn", Button)
        start.display = view.is_host
        start.disabled = view.start_problem is not None
        self.query_one("#practice-btn", Button).display = view.is_host

    def _hand_items(self, game: PlayerView) -> list[CardItem]:
        items = []
        for i, card in enumerate(game.hand, start=1):
            tags: tuple[str, ...] = ()
            if card.card == self.chosen:
                tags = ("✓ chosen",)
            elif card.card in self.marked:
                tags = (f"✓ marked {self.marked.index(card.card) + 1}/{game.submit_count}",)
            items.append(CardItem(card.card, i, card.text, tags))
        return items

    def _render_hand(self) -> None:
        game = self.game
        assert game is not None
        hand = self.query_one(Hand)
        hand.show_items(self._hand_items(game))
        hand.display = bool(game.hand)
        can_choose = (
            self.view.you is not None
            and not game.hand_hidden
            and (
                (game.phase == "clue" and game.can_clue and game.clue_needs_card)
                or (game.phase == "submit" and game.submit_count > 0)
            )
        )
        if hand.can_choose != can_choose:
            hand.can_choose = can_choose
            self.refresh_bindings()
        note = self.query_one("#hand-note", TextBox)
        clue_row = self.query_one("#clue-row")
        # a clue typed when the turn moved on stays on screen, as typed, until you send or clear it
        kept = bool(self.query_one("#clue-input", Input).value) and self.view.you is not None
        clue_row.display = self._can_clue_now() or kept
        label = "Clue:" if self._can_clue_now() else "Kept:"
        if label != self._clue_label:
            self._clue_label = label
            self.query_one("#clue-label", Static).update(Content(label))
        text: Content | None = None
        if game.hand_hidden:
            if game.can_clue:
                text = Content(
                    "Party rule: you give the clue before you see your hand. It refers to no card: press Enter, "
                    "type it, press Enter."
                )
            else:
                text = Content("Your hand is hidden until the clue is given (party rule).")
        elif self.view.you is None:
            text = Content("You are watching: hands stay hidden.")
        elif game.phase == "clue" and game.can_clue and game.clue_needs_card:
            if self.chosen is None:
                text = Content(f"Choose the card for your clue: ↑↓ or 1-{len(game.hand)}, then Enter.")
            else:
                number = self._hand_number(self.chosen)
                text = Content(f"Card {number} chosen: type your clue below and press Enter (Esc: back to the table).")
        elif game.phase == "submit" and game.submit_count:
            count = game.submit_count
            marked = ", ".join(str(self._hand_number(c)) for c in self.marked) or "none"
            if count == 1:
                text = Content("Enter on a card gives it; you confirm first, then it is final.")
            else:
                text = Content(
                    f"Enter marks or unmarks a card (marked: {marked}); at {count} marked you confirm, "
                    "then they are final."
                )
        note.display = text is not None
        if text is not None:
            note.show(text)

    def _hand_number(self, card: str) -> int:
        game = self.game
        assert game is not None
        return next((i for i, c in enumerate(game.hand, start=1) if c.card == card), 0)

    def _board_items(self, game: PlayerView, dial: Dial) -> list[CardItem]:
        items = []
        for slot in game.board:
            tags: list[str] = []
            if slot.slot in game.forbidden_slots:
                tags.append("yours")
            if slot.slot in game.your_votes:
                tags.append("your vote")
            if game.your_red == slot.slot:
                tags.append("● red")
            if dial.display and slot.slot in dial.marks:
                tags.append("✓ marked")
            if dial.display and dial.stage == "red" and slot.slot == dial.green:
                tags.append("✓ green")
            items.append(
                CardItem(f"slot-{slot.slot}", slot.slot, slot.text, tuple(tags), slot.slot in game.forbidden_slots)
            )
        return items

    def _render_vote(self) -> None:
        game = self.game
        assert game is not None
        dial = self.query_one(Dial)
        dial.display = game.can_vote
        if game.can_vote:
            dial.configure(
                len(game.board),
                forbidden=game.forbidden_slots,
                votes_allowed=game.votes_allowed,
                places_red=game.places_red,
                voted=game.your_votes,
                voted_red=game.your_red,
                board=(game.turn, tuple(s.card for s in game.board)),
            )
        board = self.query_one(Board)
        board.show_items(self._board_items(game, dial), highlight=f"slot-{dial.pointer}" if game.can_vote else None)
        if not game.can_vote:
            board.highlighted = None  # no pointer: you do not vote
        note = self.query_one("#vote-note", TextBox)
        text: Content | None = None
        if not game.can_vote:
            if self.view.you is None:
                text = Content("You are watching the vote.")
            elif game.storyteller == self.view.you:
                text = Content("You are the storyteller: you do not vote. Your card is on the board.")
            elif game.mode == "team":
                text = Content("You do not vote this turn: your team's card is on the board.")
            else:
                text = Content("You do not vote this turn.")
        note.display = text is not None
        if text is not None:
            note.show(text)

    def _render_over(self) -> None:
        game = self.game
        if game is None or not self.query_one(Panes).is_built("over-pane"):
            return  # (rendered when the pane is first shown)
        body = self.query_one("#over-body", TextBox)
        if self.over is not None:
            scores = list(self.over.scores)
            winners = self.over.winners
        else:
            scores = [(p.seat, p.score) for p in game.players if p.active]
            winners = game.winners
        lines: list[Content] = []
        names = [self.seat_name(w) + (" (you)" if w == self.view.you else "") for w in winners]
        if game.mode == "team" and winners:
            teams = sorted({t for w in winners if w < len(game.players) and (t := game.players[w].team) is not None})
            label = " and ".join(f"team {t + 1}" for t in teams)
            lines.append(Content.assemble(("★ Game over: ", "bold"), (label, "bold"), " (", name_list(names), ") won."))
        elif len(winners) > 1:
            lines.append(Content.assemble(("★ Game over: ", "bold"), name_list(names, 12), " share the win."))
        elif winners:
            lines.append(Content.assemble(("★ Game over: ", "bold"), name_list(names), " won."))
        elif game.turn == 0:
            lines.append(Content.styled("The practice ended: too few players are left to play, so nobody won.", "bold"))
        else:
            lines.append(Content.styled("Game over: too few players are left to play, so nobody won.", "bold"))
        lines.append(Content(""))
        lines.append(Content.styled("Final scores", "bold underline"))
        for rank, (seat, score) in enumerate(sorted(scores, key=lambda p: (-p[1], p[0])), start=1):
            star = "★" if seat in winners else " "
            you = " (you)" if seat == self.view.you else ""
            team = ""
            if game.mode == "team" and seat < len(game.players) and game.players[seat].team is not None:
                team = f" (team {cast(int, game.players[seat].team) + 1})"
            lines.append(
                Content.assemble(
                    f"{rank:>2}. {star} ",
                    (f"{score:>3}", "bold"),
                    "  ",
                    (self.seat_name(seat), "bold" if seat == self.view.you else ""),
                    f"{you}{team}",
                )
            )
        if winners:
            lines.append(Content.styled("★ winner", "dim"))
        lines.append(Content(""))
        if self.view.is_host:
            lines.append(Content("Press m for a rematch: same seats and options, everyone moves to its lobby."))
        elif self.view.status == "over":
            lines.append(
                Content.assemble(
                    "The host, ",
                    (self.seat_name(self.view.host), "bold"),
                    ", can start a rematch: you would move there.",
                )
            )
        lines.append(Content("Press r to see the last turn's recap, l to leave the table."))
        body.show(Content("\n").join(lines))

    def _render_status(self) -> None:
        content = self.status_text()
        away = self.away_text()
        if away is not None:
            game, you = self.game, self.view.you
            others = [] if game is None else [s for s in game.waiting_for if s != you]
            only_away = all(seat in dict(self.view.stand_ins) for seat in others)
            idle = game is not None and you not in game.waiting_for
            # Nothing for you to do and only offline players awaited: say who and when, in a line that fits.
            content = away if idle and only_away else Content.assemble(content, " ", away)
        self.query_one("#status", TextBox).show(Content.assemble(("▶ ", "bold"), content))

    def away_text(self) -> Content | None:
        """Who the table waits for although they are offline, and when a stand-in plays for them."""
        view = self.view
        if not view.stand_ins or view.status != "playing":
            return None
        parts: list[Content] = []
        for seat, at in view.stand_ins:
            left = max(0, int(at - time.time()))
            when = f"{left // 60}:{left % 60:02d}"
            name = (self.seat_name(seat), "bold")
            parts.append(Content.assemble(name, f" is offline; a stand-in plays for them in {when}."))
        return Content(" ").join(parts)

    def status_text(self) -> Content:
        """What you should do now, in one sentence (player names as plain text)."""
        view, game = self.view, self.game
        if view.status == "lobby" or game is None:
            if view.you is None:
                return Content.assemble(
                    "You are watching. Waiting for ", (self.seat_name(view.host), "bold"), " to start."
                )
            if view.is_host:
                if view.start_problem is None:
                    return Content("Press s to start the game (p: practice turn first).")
                return Content.assemble("Waiting for players: ", view.start_problem)
            return Content.assemble("Waiting for ", (self.seat_name(view.host), "bold"), " (host) to start the game.")
        if game.phase == "over" or view.status == "over":
            winners = self.over.winners if self.over is not None else game.winners
            names = [self.seat_name(w) for w in winners]
            keys = "m: rematch · r: recap · l: leave." if view.is_host else "r: last recap · l: leave the table."
            if not names:
                over = "The practice ended, nobody won. " if game.turn == 0 else "Game over, nobody won. "
                return Content.assemble(over, keys)
            return Content.assemble("Game over: ", name_list(names, 12), " won. ", keys)
        waiting = self._names(game.waiting_for)
        you = view.you
        watching = "You are watching. " if you is None else ""
        box = self._typing_in()
        if box is not None and box.id == "clue-input" and not self._can_clue_now():
            return Content(f"{self._why_no_clue()}: your text is kept, not sent. Esc: your hand.")
        if game.phase == "clue":
            if game.can_clue and (game.hand_hidden or not game.clue_needs_card):
                if isinstance(self.focused, Input) and self.focused.id == "clue-input":
                    return Content("Type your clue and press Enter (your hand stays hidden until then).")
                if game.storyteller is None:
                    return Content("Anyone may give the first clue: press Enter to type it (hands stay hidden).")
                return Content("You are the storyteller: press Enter to type your clue (your hand is hidden).")
            if game.can_clue:
                first = "Anyone may give the first clue: " if game.storyteller is None else ""
                if self.chosen is None:
                    todo = "choose a card (↑↓, Enter), then type your clue."
                else:
                    todo = f"type your clue for card {self._hand_number(self.chosen)} and press Enter."
                return Content(first + todo if first else todo[0].upper() + todo[1:])
            if game.storyteller is None:
                return Content(watching + "Waiting for the first clue.")
            return Content.assemble(
                watching, "Waiting for ", (self.seat_name(game.storyteller), "bold"), " to give the clue."
            )
        if game.phase == "submit":
            if game.submit_count:
                count = game.submit_count
                cards = "a card" if count == 1 else f"{count} cards"
                if game.mode == "team":
                    mate = self._teammate(you)
                    if mate is not None and mate == game.storyteller:
                        return Content.assemble(
                            "Your teammate ",
                            (self.seat_name(mate), "bold"),
                            " is telling: give the card that best fits.",
                        )
                    if mate is not None:
                        return Content.assemble(
                            "Your team gives one card: you or ",
                            (self.seat_name(mate), "bold"),
                            ". The first to give it submits; the other votes.",
                        )
                if game.mode == "party":
                    return Content("Everyone gives a card, the storyteller too: choose one that fits the clue.")
                fit = "fits" if count == 1 else "fit"
                return Content(f"Choose {cards} that {fit} the clue (Enter), then confirm.")
            lead = watching
            if you is not None and you == game.storyteller:
                lead = "Your card is in. "
            elif you is not None and game.your_cards:
                lead = "Your card is in. " if len(game.your_cards) == 1 else "Your cards are in. "
            elif you is not None and game.mode == "team":
                lead = "You vote this turn. "
            per = 2 if game.mode == "standard" and sum(p.active for p in game.players) == 3 else 1
            cards = "a card" if per == 1 else "two cards"
            each = " each" if len(waiting) > 1 else ""
            return Content.assemble(lead, "Waiting for ", name_list(waiting), f" to give {cards}{each}.")
        # vote
        if game.can_vote:
            dial = self.query_one(Dial)
            if game.your_votes:
                votes = " and ".join(map(str, game.your_votes))
                red = f", red marker on {game.your_red}" if game.your_red is not None else ""
                return Content.assemble(
                    f"Your vote: {votes}{red} (you can change it until everyone has voted). Waiting for ",
                    name_list(waiting),
                    ".",
                )
            if game.places_red:
                if dial.stage == "red":
                    return Content("Place the red marker: turn the dial, Enter sends both votes (Esc: back).")
                return Content("Vote: turn the dial to your green vote and press Enter; then place the red marker.")
            if game.votes_allowed > 1:
                return Content("Vote: turn the dial, Space marks one or two cards, Enter votes.")
            return Content("Vote: turn the dial and press Enter.")
        if you is not None and you == game.storyteller:
            return Content.assemble("You are the storyteller. Waiting for votes from ", name_list(waiting), ".")
        return Content.assemble(watching, "Waiting for votes from ", name_list(waiting), ".")

    def _can_clue_now(self) -> bool:
        game = self.game
        return bool(self.view.status == "playing" and game is not None and game.phase == "clue" and game.can_clue)

    def _typing_in(self) -> Input | None:
        """The text box you are typing in (focused, not empty, on screen), if any."""
        focused = self.focused
        if not isinstance(focused, Input) or not focused.value:
            return None
        if focused.id == "clue-input" and not (
            self.query_one("#clue-row").display and self.query_one(ContentSwitcher).current == "hand-pane"
        ):
            return None
        return focused

    def _focus_for_phase(self, *, force: bool = False) -> None:
        """Put the keyboard where this phase is played: the hand, the dial (nothing in the lobby). Never into a text
        box (you open one yourself: Enter on a card, Enter for a blind clue, c for the chat), and never away from
        one you are typing in (unless `force`: Esc)."""
        if not force and self._typing_in() is not None:
            return  # never steal the keyboard from someone typing
        target: Widget | None = None
        view, game = self.view, self.game
        if view.status == "lobby" or game is None:
            target = None  # not the Start button: typing there would start the game (s, p, Enter all act on it)
        elif game.phase == "clue":
            if game.can_clue and (game.hand_hidden or not game.clue_needs_card):
                target = None  # the blind clue: Enter opens the clue box (the status line says so)
            elif game.hand:
                target = self.query_one(Hand)
        elif game.phase == "submit":
            if game.hand:
                target = self.query_one(Hand)
        elif game.phase == "vote" and game.can_vote:
            target = self.query_one(Dial)
        self.set_focus(target)

    def _why_no_clue(self) -> str:
        """Why the clue box cannot send now, in a few words (the notice adds "your text is kept")."""
        view, game = self.view, self.game
        if view.status == "over" or (game is not None and game.phase == "over"):
            return "The game is over"
        if game is None or view.status != "playing":
            return "The game has not started"
        if game.phase == "clue":
            return "" if game.can_clue else "It is not your turn to tell"
        teller = self.seat_name(game.storyteller)
        if game.storyteller == view.you:
            return "Your clue is already given"
        if game.turn == 1 and game.storyteller is not None:
            return f"{teller} gave the first clue"
        return f"{teller} gave the clue" if game.storyteller is not None else "The clue is given"

    def _keep_typed_clue(self, previous: TableView) -> None:
        """The turn moved on while you were typing a clue: the text stays in the box (not sent), with a notice
        (once: when the clue could be given before and cannot now)."""
        if not self.query_one(Panes).is_built("hand-pane"):
            return  # no clue box yet: nothing typed
        box = self.query_one("#clue-input", Input)
        before = previous.game
        could = previous.status == "playing" and before is not None and before.phase == "clue" and before.can_clue
        if could and box.value and not self._can_clue_now() and self.view.you is not None:
            self.notify(f"{self._why_no_clue()}; your text is kept, not sent.", markup=False)

    def _close_stale_dialogs(self) -> None:
        """Close each open question the table has moved past (Give this card? in the vote...), saying why."""
        for screen in list(self.app.screen_stack):
            if isinstance(screen, ConfirmScreen) and screen.stale is not None:
                reason = screen.stale()
                if reason is not None:
                    screen.withdraw(reason)

    def _moved_on(self, turn: int, phases: tuple[str, ...]) -> str | None:
        """None while the table is still in `turn`, in one of `phases`; else what happened, in a few words."""
        view, game = self.view, self.game
        if view.status == "over" or (game is not None and game.phase == "over"):
            return "the game is over"
        if view.status != "playing" or game is None:
            return "the game has ended"
        if game.turn == turn and game.phase in phases:
            return None
        if game.turn == turn and game.phase == "clue":
            return "the turn was voided"
        if game.turn != turn:
            return "the turn is over"
        return "the vote has begun" if game.phase == "vote" else "the turn moved on"

    def _open_recap(self, update: RevealUpdate) -> None:
        game = self.game
        names = [s.name for s in self.view.seats]
        teams: dict[int, int | None] = {}
        if game is not None:
            teams = {p.seat: p.team for p in game.players}
        mode = game.mode if game is not None else "standard"
        if isinstance(self.app.screen, RecapScreen):  # an unread recap of an earlier turn: the new one replaces it
            self.app.screen.show(update.reveal, names, mode=mode, teams=teams, you=self.view.you)
            return
        self.app.push_screen(RecapScreen(update.reveal, names, mode=mode, teams=teams, you=self.view.you))

    # --- the hand, the clue, the board and the dial ------------------------------------------------------------

    @on(OptionList.OptionSelected, "#hand")
    async def hand_picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        game = self.game
        card = event.option.id
        if game is None or card is None:
            return
        if self._question_open():
            return  # a question is open: Enter typed ahead at the hand opens no second one
        if game.phase == "clue" and game.can_clue and game.clue_needs_card:
            self.chosen = card
            self._render_hand()
            self._render_status()
            self.query_one("#clue-input", Input).focus()
        elif game.phase == "submit" and game.submit_count:
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
            self.notify(self.status_text().plain, title="Nothing to choose now", markup=False)

    def _question_open(self) -> bool:
        return any(isinstance(s, (ConfirmScreen, SeatPicker)) for s in self.app.screen_stack)

    def _confirm_submit(self, cards: list[str]) -> None:
        game = self.game
        assert game is not None
        turn = game.turn
        texts = {c.card: c.text for c in game.hand}
        parts: list[Part] = ["Clue: ", (f"“{game.clue or ''}”", "bold"), "\n\n"]
        for card in cards:
            parts.extend([(f"{self._hand_number(card)}. ", "bold"), texts.get(card, ""), "\n"])
        parts.append("\nOnce given, a card cannot be taken back.")
        many = len(cards) > 1

        def stale() -> str | None:
            moved = self._moved_on(turn, ("submit",))
            if moved is None and self.game is not None and not self.game.submit_count:
                if self.game.mode == "team":
                    return "your team's card is in"
                return "your cards are already in" if many else "your card is already in"
            return moved

        async def answer(ok: bool | None) -> None:
            if not ok:
                if many and self.marked:
                    self.marked.pop()
                    self._render_hand()
                return
            session = self._session()
            if session is not None and await self._act(session.submit(cards)):
                self.marked = []

        self.app.push_screen(
            ConfirmScreen(
                "Give these cards?" if many else "Give this card?",
                Content.assemble(*parts),
                yes="Give them" if many else "Give it",
                no="Not yet",
                stale=stale,
            ),
            answer,
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
            self.notify(f"{self._why_no_clue()}; your text is kept, not sent.", markup=False)
            return
        if not text:
            self.notify("Type a clue first: a word, a sound, a line of a song...", markup=False)
            return
        card = None
        if game.clue_needs_card and not game.hand_hidden:
            if self.chosen is None:
                self.notify("Choose the card for your clue first: ↑↓ then Enter.", severity="warning", markup=False)
                self.query_one(Hand).focus()
                return
            card = self.chosen
        if await self._act(session.clue(text, card)):
            event.input.value = ""

    def on_dial_changed(self, event: Dial.Changed) -> None:
        game = self.game
        if game is None or game.phase != "vote":
            return
        dial = event.dial
        self.query_one(Board).show_items(self._board_items(game, dial), highlight=f"slot-{event.pointer}")
        self._render_status()

    async def on_dial_cast(self, event: Dial.Cast) -> None:
        session = self._session()
        if session is not None:
            await self._act(session.vote(list(event.slots), red=event.red))

    def on_dial_refused(self, event: Dial.Refused) -> None:
        self.notify(event.reason, severity="warning", markup=False)

    @on(OptionList.OptionSelected, "#board")
    def board_clicked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        dial = self.query_one(Dial)
        if dial.display and event.option.id is not None:
            dial.focus()
            dial.select(int(event.option.id.removeprefix("slot-")))

    # --- chat ---------------------------------------------------------------------------------------------------

    def _team_chat_mate(self) -> str | None:
        """Team mode, once the game runs: your teammate's name (team chat is open with them), else None."""
        game, you = self.game, self.view.you
        if game is None or you is None or not 0 <= you < len(game.players) or not game.players[you].active:
            return None
        if game.players[you].team is None:
            return None
        mate = self._teammate(you)
        return self.seat_name(mate) if mate is not None else "your team"

    async def on_chat_panel_send(self, event: ChatPanel.Send) -> None:
        if event.team:
            team_session = self._session()
            if team_session is not None and await self._act(team_session.chat(event.text, team=True)):
                event.panel.input.value = ""
            return
        if self.view.chat_paused:
            self.notify("Chat is paused until the reveal, so nobody can hint at a card.", markup=False)
            return
        session = self._session()
        if session is not None and await self._act(session.chat(event.text)):
            event.panel.input.value = ""

    # --- buttons ------------------------------------------------------------------------------------------------

    @on(Button.Pressed, "#start-btn")
    async def start_pressed(self) -> None:
        await self.action_start()

    @on(Button.Pressed, "#practice-btn")
    async def practice_pressed(self) -> None:
        await self.action_practice()

    @on(Button.Pressed, "#leave-btn")
    def leave_pressed(self) -> None:
        self.action_leave()

    # --- actions ------------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        view, game = self.view, self.game
        lobby = view.status == "lobby" or game is None
        if action == "start":  # offered only when the table can start; the status line says what is missing
            return lobby and view.is_host and view.start_problem is None
        if action == "practice":
            if not (lobby and view.is_host):
                return False
            return True if view.start_problem is None else None
        if action == "rematch":
            return view.status == "over" and view.is_host
        if action == "add_bot":
            return lobby and view.is_host and len(view.seats) < view.options.max_seats()
        if action == "team_chat":
            return self._team_chat_mate() is not None
        if action == "transcript":
            return view.status == "over" or bool(game is not None and game.history)
        if action == "void":
            return bool(
                view.is_host and game is not None and view.status == "playing" and game.phase in ("submit", "vote")
            )
        if action == "remove":
            return (
                view.is_host and view.status != "over" and any(s.seat != view.you and not s.removed for s in view.seats)
            )
        if action == "back":  # Esc leaves a text box (clue, chat) for the hand, board or dial
            return isinstance(self.focused, Input)
        if action == "type_clue":  # the blind clue (no card to choose first): Enter opens the clue box
            return bool(
                self._can_clue_now()
                and game is not None
                and (game.hand_hidden or not game.clue_needs_card)
                and not isinstance(self.focused, Input)
            )
        if action == "recap":
            return self.last_reveal is not None or (game is not None and game.last_reveal is not None)
        return True

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
        n = len([s for s in view.seats if not s.removed])
        if practice:
            title = f"Start with a practice turn, {n} players?"
            body = Content(
                "You tell the practice turn's clue. It is played like any turn but counts for nothing; then every "
                "card is dealt again and the game begins.\n\nNobody can join as a player once it has started."
            )
        else:
            title = f"Start the game with {n} players?"
            body = Content("Nobody can join as a player once it has started.")

        def stale() -> str | None:
            if self.view.status != "lobby":
                return "the game has started"
            if not (self.view.is_host and self.view.start_problem is None):
                return "the table cannot start now"
            now = len([s for s in self.view.seats if not s.removed])
            return None if now == n else f"the table now has {now} players"

        async def answer(ok: bool | None) -> None:
            session = self._session()
            if ok and session is not None:
                await self._act(session.practice() if practice else session.start())

        self.app.push_screen(
            ConfirmScreen(title, body, yes="Start", no="Not yet", stale=stale),
            answer,
        )

    async def action_add_bot(self) -> None:
        """Adding a bot asks first, in the guarded dialog: plain typing ("brb") must not fill the seats."""
        if self._session() is None or self._question_open():
            return
        seats = len(self.view.seats)

        def stale() -> str | None:
            view = self.view
            if view.status != "lobby" or self.game is not None:
                return "the game has started"
            if not view.is_host or len(view.seats) >= view.options.max_seats():
                return "no seat is free now"
            return None if len(view.seats) == seats else "the seats changed"

        async def answer(ok: bool | None) -> None:
            session = self._session()
            if ok and session is not None:
                await self._act(session.add_bots(1))

        body = Content("A bot takes a free seat and plays its own cards. You can remove it with x before the start.")
        self.app.push_screen(ConfirmScreen("Add a bot?", body, yes="Add", no="Cancel", stale=stale), answer)

    def action_transcript(self) -> None:
        from dixit_tui.transcript import transcript_of
        from dixit_tui.tui.widgets.transcript import TranscriptScreen

        if self.game is not None:
            self.app.push_screen(TranscriptScreen(self.view.code, transcript_of(self.game)))

    async def action_practice(self) -> None:
        await self._confirm_start(practice=True)

    async def action_rematch(self) -> None:
        """A rematch moves everyone: ask first, in the guarded dialog (typing "more?" without `c` must not)."""
        if self._session() is None or self._question_open():
            return

        def stale() -> str | None:
            return None if self.view.status == "over" and self.view.is_host else "the table has moved on"

        async def answer(ok: bool | None) -> None:
            session = self._session()
            if ok and session is not None:
                await self._act(session.rematch())

        body = Content("Everyone here moves to a new table with the same seats.")
        self.app.push_screen(ConfirmScreen("Start a rematch?", body, yes="Rematch", no="Not now", stale=stale), answer)

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

    def on_screen_resume(self) -> None:
        self.refresh_bindings()  # the keys may have changed while a recap or a question was on top

    def on_descendant_focus(self) -> None:
        if self.game is not None:
            self._render_status()  # "press Enter to type it", "type your clue", "your text is kept"

    def on_descendant_blur(self) -> None:
        if self.game is not None:
            self._render_status()

    def action_type_clue(self) -> None:
        if self._can_clue_now():
            self.query_one("#clue-input", Input).focus()
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
        teller = self.seat_name(game.storyteller)
        body = Content.assemble(
            f"Void {'the practice turn' if game.turn == 0 else f'turn {game.turn}'}? Every card given this turn goes "
            "back to its owner, scores stay as they are, and ",
            (teller, "bold"),
            " gives a new card and clue.\n\nEveryone at the table sees the void in the log and as a notice.",
        )

        async def answer(ok: bool | None) -> None:
            session = self._session()
            if ok and session is not None:
                await self._act(session.void())

        self.app.push_screen(
            ConfirmScreen(
                "Void this turn?",
                body,
                yes="Void the turn",
                no="Keep playing",
                stale=lambda: self._moved_on(turn, ("submit", "vote")),
            ),
            answer,
        )

    def action_remove(self) -> None:
        view = self.view
        seats = []
        for info in view.seats:
            if info.seat == view.you or info.removed:
                continue
            state = "" if info.connected else " (offline)"
            seats.append((info.seat, Content.assemble((seat_marker(info.seat), "bold"), "  ", info.name, state)))
        if not seats:
            return

        def picked(seat: int | None) -> None:
            if seat is not None:
                self._confirm_remove(seat)

        self.app.push_screen(SeatPicker("Remove which player?", seats), picked)

    def _confirm_remove(self, seat: int) -> None:
        name = self.seat_name(seat)
        if self.view.status == "lobby":
            body = Content.assemble("Remove ", (name, "bold"), " from the table? Their seat is freed.")
        else:
            body = Content.assemble(
                "Remove ",
                (name, "bold"),
                " from the game for good? They cannot come back. If a turn is under way it is voided first: "
                "every card returns to its owner.",
            )

        async def answer(ok: bool | None) -> None:
            session = self._session()
            if ok and session is not None:
                await self._act(session.remove(seat))

        def stale() -> str | None:
            view = self.view
            if view.status == "over":
                return "the game is over"
            if seat >= len(view.seats) or view.seats[seat].removed:
                return f"{name} has already left"
            return None

        self.app.push_screen(ConfirmScreen("Remove a player?", body, yes="Remove", no="Cancel", stale=stale), answer)

    def _come_back_text(self) -> str:
        """How to get your seat back after leaving a game, as it really works: with your SSH key, join the table
        again; without one, join it under your name and type your reconnect code (or type the code after r)."""
        view = self.view
        code, rc = view.code, view.reconnect_code
        identity = getattr(self.app, "identity", None)
        if getattr(identity, "key", None) is not None:
            also = f", or use your reconnect code {rc}" if rc else ""
            return f"Your seat is kept: join {code} again with the same SSH key{also}."
        if rc is None:
            return f"Your seat is kept: join {code} again to get it back."
        name = self.seat_name(view.you)
        return (
            f"Your seat is kept. Your reconnect code is {rc}: write it down. To come back, join {code} as {name} "
            "and type the code, or press r in the lobby and type it."
        )

    def action_leave(self) -> None:
        view = self.view
        if view.status == "playing" and view.you is not None:
            body = Content(self._come_back_text() + " While you are away, the game may wait for you.")
        elif view.status == "lobby" and view.you is not None:
            body = Content("Your seat is freed.")
        else:
            body = Content("Back to the lobby.")

        async def answer(ok: bool | None) -> None:
            session = self._session()
            if ok and session is not None:
                await self._act(session.leave())

        self.app.push_screen(ConfirmScreen(f"Leave table {view.code}?", body, yes="Leave", no="Stay"), answer)


_ACTIONS = tuple(b.action if isinstance(b, Binding) else b[1] for b in TableScreen.BINDINGS)
