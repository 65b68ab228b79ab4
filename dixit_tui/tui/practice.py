"""The practice turn: an unscored, scripted turn that the host walks the whole table through before the game.

Everyone at the table sees the same step (`TableView.practice_step`); only the host moves it on. The scenario is
fixed: four made-up players and four cards of the base deck, shown face up.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Vertical, VerticalScroll
from textual.content import Content
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widgets import Static

from dixit_tui.decks import load_builtin
from dixit_tui.tui.widgets.keybar import KeyBar

if TYPE_CHECKING:
    from dixit_tui.tui.app import DixitApp

STEPS = 7
TITLES = (
    "What is Dixit?",
    "An obvious clue scores nothing",
    "A subtler clue",
    "The board and the vote",
    "Pass 1: who found it?",
    "Pass 2: votes on the decoys",
    "That's it!",
)
OBVIOUS_CLUE = "Bottled sunset"
CLUE = "Saving the best for later"
STORYTELLER = "Ana"


@dataclass(frozen=True, slots=True)
class PracticeCard:
    slot: int  # its number on the board
    owner: str
    card_id: str  # a card of the base deck
    votes: tuple[str, ...]  # who voted for it


# Ana tells; Ben and Dev find her card, Cara votes for Ben's: Ana 3, Ben 3 + 1, Cara 0, Dev 3.
BOARD = (
    PracticeCard(1, "Cara", "base-039", ()),
    PracticeCard(2, STORYTELLER, "base-029", ("Ben", "Dev")),
    PracticeCard(3, "Dev", "base-005", ()),
    PracticeCard(4, "Ben", "base-061", ("Cara",)),
)
SCORES = (("Ana", 3, None), ("Ben", 3, 1), ("Cara", 0, 0), ("Dev", 3, 0))  # name, pass 1, pass 2 (None: teller)


@cache
def card_texts() -> dict[str, str]:
    """The texts of the practice cards, from the base deck."""
    wanted = {card.card_id for card in BOARD}
    return {card.id: card.text for card in load_builtin("base").cards if card.id in wanted}


def storyteller_card() -> PracticeCard:
    return next(card for card in BOARD if card.owner == STORYTELLER)


class CardBox(Static):
    """One card face up: its text in a box, its slot (and after the reveal its owner and votes) on the border."""

    def __init__(self, card: PracticeCard, title: str, subtitle: str = "", *, known: bool = True) -> None:
        super().__init__(Content(card_texts()[card.card_id]), classes="practice-card")
        self.border_title = title
        self.border_subtitle = subtitle
        if known and card.owner == STORYTELLER:
            self.add_class("-storyteller")


def _text(*parts: str | tuple[str, str]) -> Static:
    return Static(Content.assemble(*parts), classes="practice-text")


def _clue(clue: str) -> Static:
    return Static(Content.assemble("Clue: ", (f"“{clue}”", "bold")), classes="practice-clue")


class PracticeBody(VerticalScroll, can_focus=False):
    """The content of one step; composed again whenever the step changes. Not focusable, so that the arrow keys
    (and the footer) belong to the screen; it scrolls with up/down and the mouse wheel."""

    step: reactive[int] = reactive(0, recompose=True)

    def __init__(self, step: int, is_host: bool) -> None:
        super().__init__(id="practice-body")
        self.is_host = is_host
        self.set_reactive(PracticeBody.step, step)

    def compose(self) -> ComposeResult:
        step = max(0, min(self.step, STEPS - 1))
        yield from getattr(self, f"_step_{step}")()

    def _step_0(self) -> ComposeResult:
        yield _text("Dixit is a guessing game. Every card is a short text that describes a dreamlike scene.")
        yield _text(
            "Each turn one player, the ",
            ("storyteller", "bold"),
            ", picks a card from their hand and gives a clue about it: a word, a phrase, a sound, a title. "
            "The others each add a card of their own that could fit the clue, to lure the votes. "
            "Then everyone tries to find the storyteller's card.",
        )
        yield _text(
            "Let's watch one turn with four made-up players: Ana (the storyteller), Ben, Cara and Dev. ",
            ("Nothing here is scored.", "bold"),
        )

    def _step_1(self) -> ComposeResult:
        yield _text("Ana picks this card from her hand:")
        yield CardBox(storyteller_card(), "Ana's card")
        yield _clue(OBVIOUS_CLUE)
        yield _text(
            ("Too obvious: everyone will find it. ", "bold"),
            "When every voter finds the storyteller's card (or nobody does), the storyteller scores 0 "
            "and every other player scores 2. Ana would give her points away.",
        )

    def _step_2(self) -> ComposeResult:
        yield _text("The same card, with a subtler clue:")
        yield CardBox(storyteller_card(), "Ana's card")
        yield _clue(CLUE)
        yield _text(
            "Some may think of this card, others of another one. That is what Ana wants: ",
            ("the storyteller scores only if some, but not all, find the card.", "bold"),
        )
        yield _text("Ben, Cara and Dev now each secretly give a card from their hand that could also fit the clue.")

    def _step_3(self) -> ComposeResult:
        yield _text("The four cards are shuffled onto a numbered board: nobody can tell whose card is where.")
        yield _clue(CLUE)
        with Grid(classes="practice-board"):
            for card in BOARD:
                yield CardBox(card, f"{card.slot}", known=False)
        yield _text(
            ("Ben votes 2, Cara votes 4, Dev votes 2. ", "bold"),
            "Ana, the storyteller, does not vote, and nobody may vote for their own card. "
            "Votes can change until the last one is in; then they are all shown at once.",
        )

    def _step_4(self) -> ComposeResult:
        with Grid(classes="practice-board"):
            for card in BOARD:
                owner = "Ana's, the storyteller's ✎" if card.owner == STORYTELLER else f"{card.owner}'s"
                votes = "votes: " + ", ".join(card.votes) if card.votes else "no votes"
                yield CardBox(card, f"{card.slot}: {owner}", votes)
        yield _text(
            "Card 2 was Ana's. Ben and Dev found it, Cara did not: ",
            ("some but not all found it", "bold"),
            ", so Ana +3, Ben +3, Dev +3, Cara 0.",
        )
        yield _text("Had all three found it, or none of them: Ana 0, and Ben, Cara and Dev +2 each.")

    def _step_5(self) -> ComposeResult:
        yield _text(
            "Every player except the storyteller scores ",
            ("+1 for each vote on their own card", "bold"),
            ". Cara voted 4, which was Ben's card: Ben +1. Nobody voted for Cara's card (1) or Dev's (3).",
        )
        rows = ["          pass 1   pass 2   turn"]
        for name, first, second in SCORES:
            bonus = "   -" if second is None else f"  +{second}"
            rows.append(f"{name:<8}  {f'+{first}':>6}   {bonus:>6}   {first + (second or 0):>4}")
        yield Static(Content("\n".join(rows)), classes="practice-scores")
        yield _text("With Odyssey rules this bonus is capped at +3 per player per turn.")

    def _step_6(self) -> ComposeResult:
        yield _text(
            ("That's it! ", "bold"),
            "The practice cards go back into the deck, which is reshuffled; the real game deals fresh hands.",
        )
        yield _text(
            "After each turn everyone draws back up and the next player tells. Party and team games change "
            "the scoring: press F1 at the table for the rules of yours."
        )
        if self.is_host:
            yield _text(("Press s to start the game", "bold"), ", or Esc to end the practice and wait for players.")
        else:
            yield _text("Waiting for the host to start the game. Esc hides this.")


class PracticeScreen(ModalScreen[None]):
    """One step of the practice turn. The host moves it on (→), back (←), starts the game (s, last step) or ends
    it (Esc) for the whole table; anyone else can only hide it for themselves (Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "back", "Back"),
        Binding("right", "next", "Next"),
        Binding("s", "start", "Start the game"),
        Binding("escape", "end", "End practice"),
        Binding("escape", "hide", "Hide"),
        Binding("up", "scroll(-1)", "Scroll up", show=False),
        Binding("down", "scroll(1)", "Scroll down", show=False),
        Binding("pageup", "scroll(-10)", "Page up", show=False),
        Binding("pagedown", "scroll(10)", "Page down", show=False),
    ]
    DEFAULT_CSS = """
    PracticeScreen {
        align: center middle;
    }
    """

    def __init__(self, step: int, is_host: bool) -> None:
        super().__init__(id="practice")
        self.step = step
        self.is_host = is_host
        self._closing = False

    @property
    def dixit(self) -> DixitApp:
        return cast("DixitApp", self.app)

    def compose(self) -> ComposeResult:
        with Vertical(id="practice-box"):
            yield Static(id="practice-title")
            yield PracticeBody(self.step, self.is_host)
            yield Static(id="practice-nav")
        yield KeyBar()

    def on_mount(self) -> None:
        self._show_frame()

    def _show_frame(self) -> None:
        step = max(0, min(self.step, STEPS - 1))
        self.query_one("#practice-title", Static).update(
            Content.assemble(
                ("Practice turn", "bold"), f" (not scored) · step {step + 1} of {STEPS}: ", (TITLES[step], "bold")
            )
        )
        if self.is_host:
            keys = ["← back"] if step > 0 else []
            keys += ["→ next"] if step < STEPS - 1 else ["s start the game"]
            keys.append("Esc end the practice")
            nav = "You are the host: " + " · ".join(keys)
        else:
            nav = "The host moves the practice on. Esc hides it for you."
        self.query_one("#practice-nav", Static).update(Content(nav))
        self.refresh_bindings()

    def set_step(self, step: int, is_host: bool | None = None) -> None:
        """Show step `step` (everyone at the table follows the host's step)."""
        host_changed = is_host is not None and is_host != self.is_host
        if is_host is not None:
            self.is_host = is_host
        self.step = step
        if not self.is_mounted:
            return
        body = self.query_one(PracticeBody)
        body.is_host = self.is_host
        if body.step != step:
            body.step = step
        elif host_changed:
            body.mutate_reactive(PracticeBody.step)
        self._show_frame()

    def close(self) -> None:
        """The practice is over: leave now, or as soon as whatever is on top of this screen (help) closes."""
        if self.app.screen is self:
            self.dismiss(None)
        else:
            self._closing = True

    def on_screen_resume(self) -> None:
        if self._closing:
            self.dismiss(None)

    # --- keys ------------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "back":
            return self.is_host and self.step > 0
        if action == "next":
            return self.is_host and self.step < STEPS - 1
        if action == "start":
            return self.is_host and self.step >= STEPS - 1
        if action == "end":
            return self.is_host
        if action == "hide":
            return not self.is_host
        return True

    async def _practice(self, step: int | None) -> None:
        session = self.dixit.session
        if session is not None:
            await self.dixit.act(session.practice(step))

    def action_scroll(self, lines: int) -> None:
        body = self.query_one(PracticeBody)
        body.scroll_to(y=body.scroll_y + lines, animate=False)

    async def action_back(self) -> None:
        await self._practice(self.step - 1)

    async def action_next(self) -> None:
        await self._practice(self.step + 1)

    async def action_end(self) -> None:
        await self._practice(None)

    async def action_start(self) -> None:
        session = self.dixit.session
        if session is not None:
            await self.dixit.act(session.start())

    def action_hide(self) -> None:
        self.dixit.practice_hidden = self.step
        self.dismiss(None)
