"""The plain line mode, for screen readers and dumb terminals (`ssh -t HOST plain`, or any terminal with TERM=dumb):
each change at the table is said as a sentence on a line of its own, and the player types commands as words ("vote
3", "give 2", "clue 4 the quiet sea", "join K7QF", "create", "start", "help").

No Textual here: the table's sentences are its log (the same lines the full-screen app shows) and the pure words of
`tui.table_words`; what the player may do now is said in this mode's own commands. A player's session is an ordinary
`PlayerSession` of the coordinator, like the app's and the JSON protocol's."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Callable
from typing import Any, Protocol

from dixit_tui.coordinator import (
    ChatUpdate,
    Coordinator,
    Identity,
    LobbyUpdate,
    NoticeUpdate,
    OverUpdate,
    PlayerSession,
    RevealUpdate,
    StateUpdate,
    TableOptions,
    TableView,
    Update,
    VoidedUpdate,
)
from dixit_tui.coordinator.models import TableStatus, host_text, mode_text, takes_new_players
from dixit_tui.engine import ErrorCode, Mode, Phase, RuleError
from dixit_tui.sanitize import clean_name
from dixit_tui.ssh.glyph_forms import in_glyphs
from dixit_tui.ssh.terminal import Glyphs
from dixit_tui.tui import table_words as words

log = logging.getLogger(__name__)

MAX_PENDING = 2000
"""Lines waiting for a client that does not read; beyond it the session ends."""
# Words typed as commands (a namespace of their own: "vote" the command, not Phase.VOTE)
LOBBY_VERBS = frozenset({"tables", "lobby"})
CLUE_VERB = "clue"
VOTE_VERB = "vote"

HELP = """Commands (type them and press Enter):
  tables              list the open tables
  create [MODE] [N]   open a table (MODE: standard, party or team; N: points to win)
  join CODE           take a seat at a table
  reconnect CODE      get your seat back with your reconnect code (no SSH key)
  watch CODE          watch a table
  start               start the game (host); practice: start with a practice turn
  bots N              seat N built-in bots (host, before the start)
  hand                your cards, numbered
  board               the cards on the board, numbered
  card N              choose card N of your hand for your clue
  clue [N] WORDS      give your clue (N: your card, unless you chose it with card N)
  give N [M]          give card N of your hand (two numbers when you give two cards)
  vote N [M] [red K]  vote for card N on the board (M: a second vote; red K: the red marker, party mode)
  say WORDS           say something to the table
  status              what is happening now, and the time left when there is a limit
  leave               back to the lobby
  quit                end the session
"""


class Lines(Protocol):
    async def readline(self) -> bytes: ...


class LinePlayer:
    """One player in line mode: sentences out through `say`, commands in through `command`."""

    def __init__(self, say: Callable[[str], None], clock: Callable[[], float] = time.time) -> None:
        self.say = say
        self.clock = clock  # epoch seconds, as the view's deadlines are (the coordinator's clock)
        self.session: PlayerSession | None = None
        self.view: TableView | None = None
        self.lobby: tuple[Any, ...] = ()
        self.chosen: str | None = None  # the card chosen for the clue (`card N`)
        self._told: dict[str, object] = {}  # what was last said of each kind (said again only when it changes)
        self._reveals: list[str] = []  # a reveal's sentence, said after the log lines of its change, before the end
        self._after: list[str] = []  # the end's sentences, said after the log lines of their change

    # --- sentences out -----------------------------------------------------------------------------------------

    def deliver(self, update: Update) -> None:
        match update:
            case StateUpdate(view=view):
                self._show(view)
            case LobbyUpdate(tables=tables):
                self.lobby = tables  # said once on coming to the lobby (a busy server changes it all the time)
                if self.view is None and self._changed("lobby", True):
                    self.say(tables_sentence(tables))
            case ChatUpdate(line=chat):
                team = " to the team" if chat.team is not None else ""
                self.say(f"{chat.name} says{team}: {chat.text}")
            case NoticeUpdate(text=text):
                self.say(text)
            case RevealUpdate(reveal=reveal) if self.view is not None:
                view = self.view
                line = words.reveal_line(reveal, lambda seat: words.seat_name(view, seat), view.you).plain
                self._reveals.append(line.replace(" (r: recap)", ""))
            case OverUpdate() as over if self.view is not None and self.view.game is not None:
                for line in words.over_text(self.view, over).plain.splitlines():
                    if line.strip() and "Press " not in line and line.strip() != "★ winner":
                        self._after.append(line.strip())
            case VoidedUpdate(turn=turn):
                self.say(words.voided_notice(turn))

    def _changed(self, kind: str, value: object) -> bool:
        if self._told.get(kind) == value:
            return False
        self._told[kind] = value
        return True

    def _show(self, view: TableView | None) -> None:
        old, self.view = self.view, view
        if view is None:
            if old is not None:
                self.say("You are back in the lobby.")  # (the tables follow, with the lobby's next listing)
                self._told.clear()
            return
        if old is None or old.code != view.code:
            self._told.clear()
            where = "You are watching" if view.you is None else "You are at"
            self.say(f"{where} table {view.code}: {mode_text(view.options.label())}.")
            if view.reconnect_code:
                self.say(f"Your reconnect code is {view.reconnect_code}: it gets your seat back if you drop out.")
            fresh = list(view.log[-3:])
        else:
            fresh = new_lines(old.log, view.log)
        # the turn's reveal comes right after the log's "Turn N revealed." (it came after "ana tells next.", and after
        # "Game over": found playing over OpenSSH), else before the end's notes
        end = next((i for i, line in enumerate(fresh) if line.startswith(END_NOTES)), len(fresh))
        end = next((i + 1 for i, line in enumerate(fresh[:end]) if REVEALED.match(line)), end)
        for line in [*fresh[:end], *self._reveals, *fresh[end:], *self._after]:
            self.say(line)
        self._reveals.clear()
        self._after.clear()
        if view.game is None:
            seated = [s.name for s in view.seats if not s.removed]
            if self._changed("seated", tuple(seated)):
                self.say(f"At the table: {', '.join(seated)}.")
        self._prompt(view)

    def _prompt(self, view: TableView) -> None:
        """What this player may do now, said once each time it changes."""
        game = view.game
        text: str | None = None
        cards: list[str] = []  # said before the prompt: the hand or the board, a card a line
        if game is None:
            if view.is_host:
                text = (
                    "You are the host: type start when everyone is here (bots N adds bots)."
                    if view.start_problem is None
                    else f"You are the host. Not ready to start. {view.start_problem}"
                )
            elif view.start_problem is not None:
                text = f"Not ready to start. {view.start_problem}"
            else:
                text = f"Waiting for {words.seat_name(view, view.host)} (host) to start."
        elif game.phase == Phase.OVER or view.status == TableStatus.OVER:
            text = "The game is over: type leave to go back to the lobby."
        elif game.phase == Phase.CLUE and game.can_clue:
            if game.hand_hidden or not game.clue_needs_card:
                text = "Your turn to tell: type clue and your words."
            else:
                cards = hand_lines(view)
                text = "Your turn to tell: type clue, a card's number from your hand and your words."
            if game.storyteller is None:
                text = "Anyone may give the first clue. " + text
        elif game.phase == Phase.SUBMIT and game.submit_count:
            count = game.submit_count
            some = "a card" if count == 1 else f"{count} cards"
            numbers = "a number" if count == 1 else f"{count} numbers"
            cards = hand_lines(view)
            text = f"Your turn: give {some} for the clue “{game.clue}”: type give and {numbers} from your hand."
        elif game.phase == Phase.VOTE and game.can_vote and not game.your_votes:
            allowed = ", ".join(str(s) for s in game.vote_slots)
            cards = board_lines(view)
            text = f"Your turn to vote for the clue “{game.clue}”: type vote and a number: {allowed}."
            if game.places_red:
                text = text[:-1] + "; add red and a number for the red marker."
        else:
            status = words.status(view, words.Choices()).plain
            text = status if not status.startswith(("Press", "Vote:")) else None
        if text is not None and self._changed("prompt", (text, game.phase if game else None, game.turn if game else 0)):
            for line in cards:
                self.say(line)
            self.say(text)
        self._clocks(view)

    def _clocks(self, view: TableView) -> None:
        """The phase's time left when its clock starts, and when a stand-in will play for a player who dropped out
        each time that changes (`status` says both again): said once, never a line a second."""
        now = self.clock()
        left = words.phase_clock(view, now)
        if left is not None and self._changed("clock", (view.phase_deadline, view.game.turn if view.game else 0)):
            self.say(PHASE_CLOCK.format(left=left))
        away = words.away(view, now)
        if self._changed("away", view.stand_ins if away is not None else ()) and away is not None:
            self.say(away.plain)

    # --- commands in -------------------------------------------------------------------------------------------

    async def command(self, line: str) -> bool:
        """Run one typed line. False when the player asked to quit."""
        verb, _, rest = line.strip().partition(" ")
        verb, rest = verb.lower(), rest.strip()
        session = self.session
        assert session is not None
        if not verb:
            return True
        if verb in ("quit", "exit", "bye"):
            return False
        try:
            await self._run(session, verb, rest)
        except RuleError as err:
            self.say(err.message)
            if err.code == ErrorCode.RECONNECT_NEEDED:
                self.say("Type reconnect and your code.")
        except ValueError as err:
            self.say(str(err))
        return True

    async def _run(self, session: PlayerSession, verb: str, rest: str) -> None:
        view = self.view
        game = view.game if view is not None else None
        if verb in ("help", "?"):
            for line in HELP.splitlines():
                self.say(line)
        elif verb in LOBBY_VERBS:
            self.say(tables_sentence(await session.tables()))
        elif verb == "create":
            await session.create(create_options(rest))
        elif verb in ("join", "watch") and rest:
            await (session.join(rest.split()[0]) if verb == "join" else session.watch(rest.split()[0]))
        elif verb == "reconnect" and rest:
            await session.reclaim(rest)  # as typed: normalize_code takes spaces, dashes, lower case
        elif verb in ("start", "practice"):
            await session.start(practice=verb == "practice")
        elif verb == "bots":
            count = await session.add_bots(_number(rest.split()[0] if rest else "1"))
            self.say(f"{words.plural(count, 'bot')} sat down.")
        elif verb == "leave":
            await session.leave()
        elif verb in ("say", "chat") and rest:
            await session.chat(rest)
        elif verb in ("status", "look"):
            for kind in ("prompt", "clock", "away"):
                self._told.pop(kind, None)
            if view is None:
                self.say(tables_sentence(self.lobby))
            else:
                self._prompt(view)
        elif verb == "hand":
            for line in hand_lines(view) if view is not None else ["You have no cards now."]:
                self.say(line)
        elif verb == "board":
            for line in board_lines(view) if view is not None else ["The board is empty."]:
                self.say(line)
        elif verb == "card" and game is not None and view is not None:
            self.chosen = _card(view, rest)
            self.say(f"Card {rest.strip()} chosen for your clue: type clue and your words.")
        elif verb == CLUE_VERB and game is not None and view is not None:
            await self._clue(session, view, rest)
        elif verb == "give" and game is not None and view is not None:
            await session.submit([_card(view, n) for n in rest.split()])
        elif verb == VOTE_VERB and game is not None:
            numbers, _, red = rest.lower().partition("red")
            slots = [_number(n) for n in numbers.split()]
            await session.vote(slots, _number(red) if red.strip() else None)
        else:
            self.say(f"Unknown command {verb[:20]!r}. Type help for the commands.")

    async def _clue(self, session: PlayerSession, view: TableView, rest: str) -> None:
        game = view.game
        assert game is not None
        first, _, after = rest.partition(" ")
        card = self.chosen
        text = rest
        if game.clue_needs_card and not game.hand_hidden and first.isdigit() and after.strip():
            card, text = _card(view, first), after
        if game.clue_needs_card and not game.hand_hidden and card is None:
            raise ValueError("Say which card: clue, a card's number from your hand, then your words.")
        await session.clue(text, card if game.clue_needs_card and not game.hand_hidden else None)
        self.chosen = None


PHASE_CLOCK = "Time left: {left}, then a stand-in plays for the late."
"""The phase's time left (the lobby's words for a time limit: `table_words.lobby_info`)."""
NO_FREE_SEAT = "No table here takes new players: type create to make one."
"""The table list's end when no table takes new players (every one full, or playing, or over)."""
END_NOTES = ("Game over", "The practice ended")
"""How the table's log notes of a game's end begin (dixit_tui/coordinator/table.py)."""
REVEALED = re.compile(r"(Turn \d+|Practice turn) revealed\b")
"""The table's log note of a turn's reveal (dixit_tui/coordinator/table.py)."""


def new_lines(old: tuple[str, ...], new: tuple[str, ...]) -> list[str]:
    """The lines of the log `new` that `old` (the same log, earlier; its first lines may have gone) did not have."""
    for start in range(len(old) + 1):
        overlap = old[start:]
        if new[: len(overlap)] == overlap:
            return list(new[len(overlap) :])
    return list(new)


def tables_sentence(tables: Any) -> str:
    if not tables:
        return "No tables are open. Type create to open one."
    parts = [
        f"{t.code} ({mode_text(t.label)}, {t.status}, {t.players} of {t.seats} players, "
        f"{host_text(f'host {t.host}', t.bots_only)})"
        for t in tables
    ]
    what = "Type join and a code." if any(takes_new_players(t) for t in tables) else NO_FREE_SEAT
    return f"{words.plural(len(parts), 'table')} open: " + "; ".join(parts) + ". " + what


def hand_lines(view: TableView) -> list[str]:
    """Your hand, a card a line, numbered as `give` and `clue` take them."""
    game = view.game
    if game is None or not game.hand:
        return ["You have no cards now."]
    if game.hand_hidden:
        return ["Your hand is hidden until the clue is given."]
    return ["Your hand:", *(f"{i}. {card.text}" for i, card in enumerate(game.hand, 1))]


def board_lines(view: TableView) -> list[str]:
    """The board, a card a line, numbered as `vote` takes them; your own cards say so."""
    game = view.game
    if game is None or not game.board:
        return ["The board is empty."]
    yours = set(game.forbidden_slots)
    return ["The board:", *(f"{s.slot}. {s.text}{' (yours)' if s.slot in yours else ''}" for s in game.board)]


def create_options(rest: str) -> TableOptions:
    mode, target = Mode.STANDARD.value, None
    for word in rest.lower().split():
        if word in {m.value for m in Mode}:
            mode = word
        elif word.isdigit():
            target = int(word)
        elif word not in ("points", "to"):
            raise ValueError(f"create takes a mode (standard, party, team) and points to win, not {word[:20]!r}.")
    return TableOptions(mode=mode) if target is None else TableOptions(mode=mode, target=target)


def _number(text: str) -> int:
    text = text.strip()
    if not text.isdigit():
        raise ValueError(f"{text[:20] or 'That'!r} is not a number.")
    return int(text)


def _card(view: TableView, number: str) -> str:
    game = view.game
    assert game is not None
    index = _number(number)
    if not 1 <= index <= len(game.hand):
        raise ValueError(f"Your hand has cards 1 to {len(game.hand)}.")
    return game.hand[index - 1].card


async def play_lines(
    coordinator: Coordinator,
    identity: Identity,
    lines: Lines,
    write: Callable[[bytes], Any],
    drain: Any = None,
    *,
    first: str = "",
    glyphs: Glyphs = "unicode",
) -> int:
    """Serve one player in line mode until they quit or their input ends; returns the exit status. `first`: a
    command to run first (`ssh -t HOST plain join K7QF`). `glyphs` "ascii" (the client's locale is `LANG=C`): every
    line is sent in its ASCII forms (curly quotes, stars, arrows; what players typed: `zoé` -> `zoe`), "console"
    (`ssh -t HOST plain` from `TERM=linux`): in its console forms, as the full-screen app is."""
    outbox: asyncio.Queue[str | None] = asyncio.Queue()
    overflow = asyncio.Event()

    def say(text: str) -> None:
        if outbox.qsize() >= MAX_PENDING:
            overflow.set()
            return
        outbox.put_nowait(text)

    player = LinePlayer(say, coordinator.clock)

    async def pump() -> None:
        while (text := await outbox.get()) is not None:
            write((in_glyphs(text, glyphs) + "\n").encode("utf-8", "replace"))
            if drain is not None:
                await drain()

    pumping = asyncio.create_task(pump())
    say(f"Welcome to dixit-tui, {clean_name(identity.name) or 'guest'}. Type help for the commands.")
    if coordinator.moderation.motd:
        say(f"Notice: {coordinator.moderation.motd}")
    player.session = await coordinator.connect(identity, player.deliver)
    try:
        if first.strip():
            await player.command(first)
        while not overflow.is_set():
            raw = await lines.readline()
            if not raw:
                break
            if not await player.command(raw.decode("utf-8", "replace")[:1000]):
                say("Bye.")
                break
        return 0 if not overflow.is_set() else 1
    finally:
        await player.session.close()
        outbox.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(pumping, 5)
        pumping.cancel()
