"""The recap after each reveal: every card with who gave it and who voted for it, and everyone's points by pass.
A modal over the table (Enter or Esc closes it); player text is rich `Text` from plain strings, never markup.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button

from dixit_tui.engine import Mode, Points, Reveal
from dixit_tui.engine.reveal import Outcome
from dixit_tui.tui.same_size_resize import SameSizeResize
from dixit_tui.tui.table_words import key_dropped
from dixit_tui.tui.widgets.keybar import KeyBar
from dixit_tui.tui.widgets.snapshot import RichSnapshot

CLOSING_KEYS = frozenset({"enter", "space", "escape"})
SCROLL_KEYS = frozenset({"up", "down", "left", "right", "pageup", "pagedown", "home", "end"})

READING = 3.0
"""Seconds after you last scrolled a recap during which you count as reading it: a held recap then outlives its hold."""

clock: Callable[[], float] = time.monotonic
"""The clock of a recap's `guard` (tests set their own)."""


def _name(names: Sequence[str], seat: int | None, you: int | None) -> str:
    if seat is None or not 0 <= seat < len(names):
        return "?"
    return names[seat] + (" (you)" if seat == you else "")


def outcome_sentence(reveal: Reveal, names: Sequence[str], mode: str, you: int | None) -> Text:
    """The outcome of the turn in one friendly paragraph (plain Text)."""
    mine = you is not None and reveal.storyteller == you
    teller = _name(names, reveal.storyteller, None)
    team = mode == Mode.TEAM
    if mine:  # "your card", "you score 0": never "ana (you)'s card"
        whose = Text("your")
        who, scores = ("your team", "scores") if team else ("you", "score")
    else:
        whose = Text.assemble((teller, "bold"), "'s")
        who, scores = (f"{teller}'s team" if team else teller), "scores"
    others = "every other team" if team else "everyone else"
    bonus = (
        "Every submitted card also scores 1 per vote for its team"
        if team
        else "Everyone but the storyteller also scores 1 per vote on their own card"
    )
    if reveal.outcome == Outcome.PARTY:
        return Text(
            "Party scoring: each player scores the number of players (themselves included) whose green vote is on "
            "the same card as theirs, at most 5. A vote on the card with the red marker scores 0, and so does a "
            "vote alone on a card."
        )
    if reveal.outcome == Outcome.ALL:
        first = Text.assemble("Everyone found ", whose, " card, so the clue was too obvious: ")
        first.append(f"{who} {scores} 0 and {others} scores 2. ")
    elif reveal.outcome == Outcome.NONE:
        first = Text.assemble("Nobody found ", whose, " card, so the clue was too obscure: ")
        first.append(f"{who} {scores} 0 and {others} scores 2. ")
    else:
        first = Text.assemble("Some players found ", whose, " card, but not everyone: ")
        first.append(f"{who} and each voter who found it score 3, the others 0. ")
    first.append(bonus + ".")
    return first


def _slot_lines(
    reveal: Reveal, names: Sequence[str], teams: Mapping[int, int | None], you: int | None
) -> list[RenderableType]:
    grid = Table.grid(padding=(0, 1), expand=True)
    grid.add_column(width=2, no_wrap=True, justify="right")
    grid.add_column(ratio=1)
    for slot in reveal.slots:
        text = slot.text or "(card text not available)"
        owner = _name(names, slot.owner, you)
        details = Text(style="italic")
        if slot.owner == reveal.storyteller:
            details.append("✎ storyteller's card", "bold")
            # "(yours)", never "(ana (you))"
            details.append(" (yours)" if slot.owner == you else f" ({owner})")
        else:
            details.append("given by ")
            details.append(owner, "bold")
        team = teams.get(slot.owner)
        if team is not None:
            details.append(f", team {team + 1}")
        if slot.votes:
            details.append(" · votes: ")
            for i, seat in enumerate(slot.votes):
                if i:
                    details.append(", ")
                details.append(_name(names, seat, you))
        else:
            details.append(" · no votes")
        if slot.red:
            details.append(" · ● red marker", "bold")
        grid.add_row(Text(str(slot.slot), style="bold"), Text.assemble(text, "\n", details))
    return [Text("Cards", style="bold underline"), grid]


def _bonus_cell(p: Points) -> Text:
    if p.bonus_raw != p.bonus:
        return Text(f"{p.bonus_raw}→{p.bonus} capped")
    return Text(str(p.bonus))


def points_table(
    reveal: Reveal, names: Sequence[str], mode: str, teams: Mapping[int, int | None], you: int | None
) -> Table:
    party = reveal.outcome == Outcome.PARTY
    extra = any(p.extra for p in reveal.points)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False)
    table.add_column(Text("Player" if mode != Mode.TEAM else "Team"), no_wrap=False)
    if party:
        table.add_column(Text("Party"), justify="right")
    else:
        table.add_column(Text("Pass 1"), justify="right")
        table.add_column(Text("Pass 2"), justify="right")
        if extra:
            table.add_column(Text("Extra"), justify="right")
    table.add_column(Text("Turn"), justify="right")
    table.add_column(Text("Total"), justify="right")
    seen_teams: set[int] = set()
    rows = reveal.points
    if mode == Mode.TEAM:  # team 1 first (a team whose first seat left came last: seen playing)
        rows = tuple(sorted(rows, key=lambda p: (teams.get(p.seat) is None, teams.get(p.seat) or 0)))
    for p in rows:
        if mode == Mode.TEAM:
            team = teams.get(p.seat)
            if team is None or team in seen_teams:
                continue
            seen_teams.add(team)
            members = [s for s, t in teams.items() if t == team]
            label = Text(f"Team {team + 1}: ")
            for i, seat in enumerate(sorted(members)):
                if i:
                    label.append(" & ")
                label.append(_name(names, seat, you))
            if reveal.storyteller in members:  # (the legend explains ✎: the teller's team row had none)
                label.append(" ✎")
        else:
            label = Text(_name(names, p.seat, you), style="bold" if p.seat == you else "")
            if p.seat == reveal.storyteller:
                label.append(" ✎")
        cells: list[Text] = [label]
        if party:
            cells.append(Text(str(p.party)))
        else:
            cells.extend([Text(str(p.pass1)), _bonus_cell(p)])
            if extra:
                cells.append(Text(str(p.extra)))
        cells.extend([Text(f"+{p.delta}" if p.delta > 0 else str(p.delta)), Text(str(p.score), style="bold")])
        table.add_row(*cells)
    return table


def legend(reveal: Reveal, mode: str) -> Text:
    if reveal.outcome == Outcome.PARTY:
        return Text("Party: matching green votes, at most 5; 0 on the red card or alone.", style="dim")
    parts = ["Pass 1: storyteller found or not", "Pass 2: decoy bonus, 1 per vote on your card"]
    if any(p.bonus_raw != p.bonus for p in reveal.points) or mode == Mode.TEAM:
        parts[-1] += " (at most 3)"
    if any(p.extra for p in reveal.points):
        parts.append("Extra: found it with a single vote")
    parts.append("✎ storyteller")
    return Text(" · ".join(parts) + ".", style="dim")


def red_line(reveal: Reveal, names: Sequence[str], you: int | None) -> Text | None:
    """Party: where the storyteller put the red marker (votes on that card score 0). None without a red marker."""
    red = next((slot for slot in reveal.slots if slot.red), None)
    if red is None:
        return None
    line = Text.assemble(("● Red marker", "bold"), f" on card {red.slot}, placed by ")
    line.append(_name(names, reveal.storyteller, you), "bold")
    line.append(": a green vote on it scores 0.")
    return line


def recap_renderable(
    reveal: Reveal,
    names: Sequence[str],
    mode: str,
    teams: Mapping[int, int | None],
    you: int | None,
) -> Group:
    """Points first (table, legend, red marker), then the cards: at 80x24 everything but the cards fits unscrolled."""
    clue = Text.assemble("Clue: ", (f"“{reveal.clue}”", "bold"), " told by ", _name(names, reveal.storyteller, you))
    parts: list[RenderableType] = [clue, outcome_sentence(reveal, names, mode, you), Text("")]
    parts.extend([points_table(reveal, names, mode, teams, you), legend(reveal, mode)])
    red = red_line(reveal, names, you)
    if red is not None:
        parts.append(red)
    parts.append(Text(""))
    parts.extend(_slot_lines(reveal, names, teams, you))
    return Group(*parts)


def moved_on_line(turn: int | None) -> Content:
    """The line of a held recap kept open past its hold because you were reading it."""
    if turn is None:
        return Content("The table moved on: Enter closes this.")
    return Content(f"The table moved on: Enter closes this and shows turn {turn}.")


class RecapScroll(VerticalScroll):
    """The recap's scrolling part: a turn of the mouse wheel over it counts as reading (see `RecapScreen.reading`)."""

    def on_mouse_scroll_down(self) -> None:
        self._read()

    def on_mouse_scroll_up(self) -> None:
        self._read()

    def _read(self) -> None:
        screen = self.screen
        if isinstance(screen, RecapScreen):
            screen.read_now()


class RecapScreen(SameSizeResize, ModalScreen[None]):
    """The recap of one scored turn. Enter or Esc closes it; arrows scroll. `held`: opened while the table holds the
    reveal (`reveal_seconds`): closing it tells the table you moved on, and it closes when the hold ends, unless you
    are reading it (scrolled within `READING` seconds: it stays, `moved_on`). `final`: the last turn's, over the
    game's end. `guard`: seconds in which Enter, Space or Esc (typed for the table before it) do not close it."""

    DEFAULT_CSS = """
    RecapScreen {
        align: center middle;
        background: $background 60%;
    }
    RecapScreen > Vertical {
        width: 100;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: thick $primary;
        border-title-align: center;
        border-title-style: bold;
        border-subtitle-align: center;
        border-subtitle-style: bold;
        border-subtitle-color: $warning;
        background: $panel;
        padding: 0 1;
    }
    RecapScreen VerticalScroll {
        height: auto;
        max-height: 1fr;
    }
    RecapScreen Button {
        dock: bottom;
        margin: 0 1;
        width: 100%;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "next", "Next turn", priority=True),  # the held reveal (see `check_action`)
        Binding("enter,escape", "close", "Close", priority=True),
        Binding("enter,escape", "standings", "Final standings", priority=True),  # the last turn's: as its button says
    ]

    def __init__(
        self,
        reveal: Reveal,
        names: Sequence[str],
        *,
        mode: str = "standard",
        teams: Mapping[int, int | None] | None = None,
        you: int | None = None,
        held: bool = False,
        final: bool = False,
        guard: float = 0.0,
    ) -> None:
        super().__init__()
        self.held = held
        self.final = final
        self.guard = guard
        self._opened = clock()
        self._told = False  # a key typed before it could be seen was said to do nothing (see on_key)
        self._read_at: float | None = None
        self.moved_on = False  # the table's hold ended while you read it: it stays open, opened by hand
        self._next_turn: int | None = None  # ... the turn the table moved on to
        self._keep(reveal, names, mode, teams, you)

    def _keep(
        self,
        reveal: Reveal,
        names: Sequence[str],
        mode: str,
        teams: Mapping[int, int | None] | None,
        you: int | None,
    ) -> None:
        self.reveal, self.names = reveal, tuple(names)
        self.mode, self.teams, self.you = mode, dict(teams or {}), you

    def _title(self) -> Content:
        if self.reveal.turn == 0:
            return Content("Practice turn revealed: these points do not count")
        return Content(f"Turn {self.reveal.turn} revealed")

    def _close_label(self) -> Content:
        if self.final:
            return Content("Final standings (Enter)")
        return Content("Next turn (Enter)" if self.held else "Close (Enter)")

    def _subtitle(self) -> Content | None:
        return moved_on_line(self._next_turn) if self.moved_on else None

    def _body(self) -> RenderableType:
        return recap_renderable(self.reveal, self.names, self.mode, self.teams, self.you)

    def compose(self) -> ComposeResult:
        with Vertical(id="recap-box") as box:
            box.border_title = self._title()
            box.border_subtitle = self._subtitle()
            with RecapScroll(id="recap-scroll"):
                yield RichSnapshot(self._body(), id="recap-body")
            yield Button(self._close_label(), id="recap-close", compact=True)
        yield KeyBar()

    def on_mount(self) -> None:
        # Queried, not assumed: an Enter typed with the key that opened the recap may have closed it already.
        for scroll in self.query("#recap-scroll"):
            scroll.focus()
        if not self.ready:
            self.set_timer(self.guard + 0.01, self.refresh_bindings)  # its keys work from then on

    def show(
        self,
        reveal: Reveal,
        names: Sequence[str],
        *,
        mode: str = "standard",
        teams: Mapping[int, int | None] | None = None,
        you: int | None = None,
        held: bool = False,
        final: bool = False,
        guard: float = 0.0,
    ) -> None:
        """Show another turn's recap in this screen (cheaper than closing it and opening a new one)."""
        self.held, self.final, self.guard, self._opened, self._told = held, final, guard, clock(), False
        self._read_at, self.moved_on, self._next_turn = None, False, None
        self._keep(reveal, names, mode, teams, you)
        if not self.query("#recap-body"):  # not composed yet (compose draws what was kept) or already closed
            return
        self.query_one("#recap-box").border_title = self._title()
        self.query_one("#recap-box").border_subtitle = self._subtitle()
        self.query_one("#recap-close", Button).label = self._close_label()
        self.refresh_bindings()
        if not self.ready:
            self.set_timer(self.guard + 0.01, self.refresh_bindings)
        self.query_one("#recap-body", RichSnapshot).show(self._body())
        scroll = self.query_one("#recap-scroll")
        scroll.scroll_home(animate=False)
        scroll.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A held reveal says "Next turn" (Enter or Space); a recap opened with r says "Close"; the game's last turn's
        says "Final standings" (the key bar says what its button says)."""
        if action in ("next", "close", "standings") and not self.ready:
            return None  # shown dimmed until ready: the key goes on to `on_key`, which says why it did nothing
        if action == "next":
            return self.held and not self.final
        if action == "close":
            return not self.held and not self.final
        if action == "standings":
            return self.final
        return True

    @property
    def ready(self) -> bool:
        """May a key close it now: `guard` seconds since it opened, and since the last key typed before it could be seen
        (keys that keep coming without a pause are typed blind: see `on_key`)."""
        return self.guard <= 0 or clock() - self._opened >= self.guard

    @property
    def reading(self) -> bool:
        """Whether you scrolled it (a scroll key or the wheel) within `READING` seconds."""
        return self._read_at is not None and clock() - self._read_at < READING

    def read_now(self) -> None:
        self._read_at = clock()

    def table_moved_on(self, turn: int | None) -> None:
        """The table's hold ended while you read (`reading`): it stays open as a recap opened with r ("Close (Enter)"),
        saying the table moved on to `turn`; Enter or Esc closes it."""
        self.held, self.moved_on, self._next_turn = False, True, turn
        if not self.query("#recap-body"):
            return
        self.query_one("#recap-box").border_subtitle = self._subtitle()
        self.query_one("#recap-close", Button).label = self._close_label()
        self.refresh_bindings()

    def on_key(self, event: events.Key) -> None:
        # Runs before the bindings (checked when the key has bubbled up to the app), as ConfirmScreen's guard.
        if event.key in SCROLL_KEYS:
            self.read_now()  # (scrolled or not: at its end, a Down still says you are reading)
        elif not self.ready:
            # Typed before the reveal could be seen (meant for the table: Enter, or the c and the letters of a chat
            # line): it does nothing here, and says so, once (the letters of a line were dropped without a word). The
            # guard runs again from it: keys coming on without a pause are typed blind (playtest: "c yes" 0.3 s apart,
            # its Space, 0.6 s after the recap opened, closed it unread). And it counts as reading: a held recap does
            # not close under keys typed blind as its hold ends (the rest of the line then acted on the table).
            event.stop()
            event.prevent_default()
            self._opened = clock()
            self.read_now()
            self.set_timer(self.guard + 0.01, self.refresh_bindings)  # (its keys shown working from then on)
            if not self._told:
                self._told = True
                self.app.bell()
                self.notify(key_dropped(event.key), severity="warning", markup=False)

    def action_next(self) -> None:
        self.action_close()

    def action_standings(self) -> None:
        self.action_close()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_close()

    def action_close(self) -> None:
        if self.app.screen is self:  # once: a second Enter or click must not close the table under it
            self.dismiss(None)
