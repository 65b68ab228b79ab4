"""The help screen: the rules of the table's mode, scoring, the keys, and clue tips. Static text only.

The text follows the rules in docs/rules.md exactly; no player text ever goes in here, so Markdown is safe.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Markdown, Static

from dixit_tui.coordinator.models import Label
from dixit_tui.tui.same_size_resize import SameSizeResize
from dixit_tui.tui.widgets.keybar import KeyBar

MODE_TITLES = {
    "refresh": "Standard game, Refresh rules",
    "odyssey": "Standard game, Odyssey rules",
    "party": "Party mode",
    "team": "Team mode",
}

TURN = """\
## A turn
1. The **storyteller** picks a card from their hand and gives a **clue**: a word, a phrase, a sound, anything.
2. Every other player secretly gives a card from their hand that could match the clue. A card given is final.
3. All the cards are shuffled onto a numbered board: nobody can tell whose card is where.
4. Everyone but the storyteller **votes** for the number they think is the storyteller's card. You cannot vote
   for your own card. You may change your vote until the last vote is in; then all votes are shown at once.
5. Scoring (two passes, below), then everyone draws back up and the next seat tells.

The first storyteller is the first player to give a clue (or a random player, if the table was created so).
"""

SCORING = """\
## Scoring, in two passes
**Pass 1: who found the storyteller's card?**
- Some, but not all, voters found it: the storyteller **+3**, each voter who found it **+3**, the others 0.
- Everyone found it, or nobody did: the storyteller **0**, every other player **+2**.

**Pass 2: decoy bonus.** Every player except the storyteller scores **+1 for each vote on their own card**,
also when nobody found the storyteller's card. The storyteller never scores this bonus.

*Example, 4 players:* Ana tells. Ben and Cara vote for Ana's card, Dev votes for Ben's card.
Pass 1: Ana +3, Ben +3, Cara +3, Dev 0. Pass 2: Ben +1 (Dev's vote). Turn: Ana 3, Ben 4, Cara 3, Dev 0.

The whole turn is scored before anyone checks for the end.
"""

REFRESH = """\
## Refresh rules (3 to 8 players)
- Hand of 6 cards. **At 3 players**: hands of 7, and each player who is not the storyteller gives **two** cards
  (you still cannot vote for either of your own).
- No limit on the decoy bonus.
- The game ends after the turn in which someone reaches the **target score** (30 unless the table says
  otherwise). The highest score wins; a tie for the highest shares the win.
"""

ODYSSEY = """\
## Odyssey rules (3 to 12 players)
Like Refresh, with a board of up to 12 cards and these changes:
- Hand of 6 cards. **At 3 players**: hands of 7, and everyone but the storyteller gives **two** cards.
- The decoy bonus of pass 2 is **capped at +3** per player per turn.
- **From 7 players on**, every voter has **one or two votes**, on two different cards. You found the storyteller's
  card if either vote is on it. A voter who found it **with a single vote scores +1 more** (a reward for
  confidence), whatever happened in pass 1.
- The game ends after the turn in which someone reaches the target score (30 unless the table says
  otherwise). The highest score wins; ties share the win.
"""

PARTY = """\
## Party mode (6 to 12 players, Odyssey)
- Hand of 5. The storyteller gives the clue **before seeing their hand**: the clue is about no card.
  In the first turn every hand stays hidden until someone's clue is accepted.
- **Everyone**, storyteller included, gives one card. The cards are shuffled onto the board.
- Everyone, storyteller included, votes with one **green** vote, and **may vote for their own card**.
  The storyteller also puts a **red** mark on one card.
- **Scoring:** you score the number of players (you included) whose green vote is on the same card as yours,
  at most 5. Alone on a card: 0. Your green vote on the red-marked card: 0.
- After each turn: draw back to 5, then **everyone passes their whole hand to the next seat**. The next seat tells.
- The game ends when everyone has been storyteller as many times as the table says (once by default).
  The highest total wins; ties share.
"""

TEAM = """\
## Team mode (6, 8, 10 or 12 players, Odyssey)
- Teams of two; teammates sit opposite each other and share **one score**. Hand of 4.
- The storyteller picks a card and gives a clue. **Their teammate** gives the card from their own hand that best
  matches the clue.
- Every other team agrees which member gives a card; **the other member votes**. The storyteller and their
  teammate do not vote, and nobody may vote for their own team's card.
- **Team chat:** press **T** to talk to your teammate alone: other teams and spectators never see it, and it stays
  open while the table's chat is paused, so you can agree on your card. Team lines show as "name (team)"; in the
  chat box **ctrl+t** switches between Team and Table.
- **Scoring** as in the standard game, for teams: some but not all voters found it: the storyteller's team +3 and
  each finder's team +3; everyone or nobody: the storyteller's team 0, every other team +2. Pass 2: +1 per vote on
  a card for the team that gave it (votes on the teammate's card count for the storyteller's team),
  **at most +3 per team per turn**.
- The game ends when everyone has been storyteller as many times as the table says (once by default).
  The highest team total wins; ties share.
"""

PARTY_SCORING = """\
## Scoring example
Six players. Ana, Ben and Cara put their green votes on card 2; Dev and Eve on card 4, which the storyteller
marked red; Fay alone on card 5. Ana, Ben and Cara score 3 each; Dev, Eve and Fay score 0.
"""

MISTAKES = """\
## Mistakes
A vote can be changed until the last one is in. If something goes wrong after that, the host can **void the
turn**: scores stay as they were, every card goes back to its owner, and the same storyteller tells again.
Points are never taken away.
"""

CLUE_TIPS = """\
## Clue tips
Be **neither too precise nor too obscure**: you score only if **some but not all** players find your card.

Say your card reads: *"A lighthouse keeper knits a long scarf for the moon, one stitch a night."*
- Too obvious: **"Knitting for the moon"**: everyone finds it, you score 0.
- Too obscure: **"Tuesday"**: nobody finds it, you score 0.
- Good: **"Keeping someone warm, far away"**: some will think of it, others of a different card.

A clue can be a feeling, a song title, a proverb, a sound. Think about what the others might hold too.
"""

KEYS = """\
## Keys
- **F1** (or **?**) this help, **Esc** closes it; arrows, PgUp/PgDn and the mouse wheel scroll.
- **Lobby:** ↑/↓ pick a table, **Enter** join it, **w** watch it, **c** create a table, **g** quick game (wait
  for a table of 4 to 6 with others; bots fill it after 30 seconds; **g** again to stop waiting), **j** join by
  code, **r** reconnect with a code, **l** the leaderboard (Esc closes it), **q** quit. In the create form, **Tab**
  moves on, **Space** picks an option and **Enter** creates the table (F2 too).
- **At the table:** the footer at the bottom always lists the keys you can use right now; you can also click them.
  Your hand: ↑/↓ or a number highlight a card, **Enter** chooses it (Space and letters choose nothing). A text
  box opens only when you ask: **Enter** on your card (or, for a clue without a card, Enter), **c** for the chat;
  **Esc** leaves it. A clue you were typing when someone else gave theirs stays in its box, not sent, until the
  turn ends.
  The highlighted card is always shown whole: move the highlight to read another. When you do not vote
  (watching, telling, or voted already), ↑/↓ move it on the board. A vote, a mark or a card given always goes
  to the card highlighted: after a refused number, or a key pressed just as the table moved on, Enter and
  Space do nothing once, and say so.
  In the chat box, **PgUp**/**PgDn** scroll the log back and forth (so does the mouse wheel over it).
  After the last vote the reveal opens by itself: every card, who gave it, the votes and the points. The table
  holds it a few seconds (the table's Reveal option) and goes on once everyone pressed **Enter** or **Space**
  (a key pressed just as it closes by itself does nothing at the table, and says so).
  Then the clue line says whose card it was and who found it; **r** opens the whole recap again.
- **Questions** ("Give this card?", "Leave?") open on the safe answer: **n**, **Esc** or Enter cancel; **y**
  confirms once the question has been on screen a moment with no typing (a **y** that comes too soon says so:
  press it again). A move of the table that makes the question moot closes it, with a notice.
- **Practice turn:** the host presses **p** instead of **s** to start: the table first plays one real turn (the
  host tells) that does not count, with a few lines of help beside it. Then every card is dealt again and the
  game begins, scores at 0.
- **Who may join:** before the start the host presses **k** to keep the table to people who have its code (the
  lobby no longer lists it) or to those invited by name, or to open it again. A player the host removes with **x**
  cannot join that table again.
- **Game over:** the host presses **m**, then **y**, for a rematch: a new table with the same seats and options,
  and everyone at the table moves to its lobby.
"""

OVERVIEW = """\
## The modes
- **Standard, Refresh rules:** 3 to 8 players, the 2021 rules.
- **Standard, Odyssey rules:** 3 to 12 players; from 7 players on, one or two votes each; decoy bonus capped at 3.
- **Party:** 6 to 12 players, everyone gives a card and votes; score by voting with the crowd.
- **Team:** 6, 8, 10 or 12 players in pairs, one score per team.

Press **F1** at a table to read the full rules of its mode.
"""

INTRO = """\
# How to play Dixit
Cards are short texts describing dreamlike scenes. Each turn one player tells a clue about one of their cards;
the others try to find that card among the decoys.
"""

INTRO_PARTY = """\
# How to play Dixit: party mode
Cards are short texts describing dreamlike scenes. Each turn the storyteller gives a clue **before seeing their
hand**, so it is about no card. Everyone, storyteller included, gives the card that fits it best, then votes for
the card they think most players will pick.
"""

INTRO_TEAM = """\
# How to play Dixit: team mode
Cards are short texts describing dreamlike scenes. Each turn the storyteller tells a clue about one of their cards
and their teammate adds the card from their own hand that fits it best; the other teams try to find the
storyteller's card among the decoys.
"""


def help_text(mode: str | None) -> str:
    """The whole help as Markdown, for the table's mode label ("refresh", "odyssey", "party", "team") or None."""
    if mode == Label.PARTY:
        parts = [INTRO_PARTY, PARTY, PARTY_SCORING]
    elif mode == Label.TEAM:  # the standard turn and its per-player scoring do not apply: TEAM says how it goes
        parts = [INTRO_TEAM, TEAM]
    elif mode in (Label.REFRESH, Label.ODYSSEY):
        parts = [INTRO, TURN, SCORING, ODYSSEY if mode == Label.ODYSSEY else REFRESH]
    else:
        parts = [INTRO, TURN, SCORING, OVERVIEW]
    parts += [MISTAKES, CLUE_TIPS, KEYS]
    return "\n".join(parts)


class HelpScreen(SameSizeResize, Screen[None]):
    """The rules of one mode (or all of them, from the lobby). Scrollable; Esc, F1 or ? closes it."""

    AUTO_FOCUS = "#help-scroll"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", priority=True),
        Binding("f1,question_mark", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
    ]
    DEFAULT_CSS = """
    HelpScreen {
        #help-title {
            height: 1;
            padding: 0 1;
            text-style: bold reverse;
        }
        #help-scroll {
            height: 1fr;
            padding: 0 1;
        }
        #help-code {
            margin: 1 0 0 0;
        }
        #help-scroll > Markdown {
            margin: 0;
            padding: 0;
        }
    }
    """

    def __init__(self, mode: str | None = None, reconnect_code: str | None = None) -> None:
        super().__init__()
        self.mode = mode
        self.reconnect_code = reconnect_code  # yours, from your own view of the table: shown to you only

    def compose(self) -> ComposeResult:
        title = MODE_TITLES.get(self.mode or "", "all modes")
        yield Static(f"Help: {title}", id="help-title", markup=False)
        with VerticalScroll(id="help-scroll"):
            if self.reconnect_code:
                yield Static(
                    Content.assemble(
                        "Your reconnect code: ",
                        (self.reconnect_code, "bold"),
                        ". Keep it: after a drop, join this table again under your name and type it, "
                        "or press r in the lobby.",
                    ),
                    id="help-code",
                    markup=False,
                )
            yield Markdown(help_text(self.mode), id="help-text")
        yield KeyBar()

    def action_close(self) -> None:
        self.dismiss(None)
