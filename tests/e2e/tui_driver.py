"""Drive the real dixit-tui screens over SSH: keys go to a `PtyClient`, checks read its pyte screen.

Every step sends keys only once the screen shows that the app is ready for them (a status line, a footer binding
that appears only when the right widget has the focus), and every wait is bounded. Nothing here talks to the
coordinator on a player's behalf: the tests may read the coordinator's state to decide WHICH card or slot to pick,
but every action goes through the keyboard.

    client = await open_lobby(port, "ana", key)
    code = await create_table(client, target=10)
    await join_by_code(other, code)
    await start_game(client)
    await give_clue(client, 2, "moon")
    await submit_cards(other, [1, 2])
    await cast_vote(other, 3)
    await close_recap(client, turn=1)
"""

from __future__ import annotations

import asyncio
import re
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import asyncssh
from textual.app import App

from dixit_tui.coordinator import Coordinator
from dixit_tui.coordinator.table import Table
from dixit_tui.decks import builtin_deck_names
from dixit_tui.engine.state import GameState
from tests.e2e.harness import TIMEOUT, PtyClient, RawPty, wait_for

SIZE = (100, 30)
ESC_DELAY = 0.15  # a lone Esc is a key only after the parser's escape delay (about 100 ms)

KEYS = {
    "enter": "\r",
    "tab": "\t",
    "shift+tab": "\x1b[Z",
    "escape": "\x1b",
    "up": "\x1b[A",
    "down": "\x1b[B",
    "right": "\x1b[C",
    "left": "\x1b[D",
    "space": " ",
    "ctrl+c": "\x03",
    "f2": "\x1bOQ",
}

RECAP_CLOSE = "Close (Enter)"
RECAP_FINAL = "Final standings (Enter)"  # the last turn's, opened by itself over the game's end
RECAP_NEXT = "Next turn (Enter)"  # the recap the table holds for you to read: Enter moves on
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"


# --- reading the screen ----------------------------------------------------------------------------------------


_TEXT: weakref.WeakKeyDictionary[PtyClient, tuple[tuple[int, int, int], str]] = weakref.WeakKeyDictionary()


def text(client: PtyClient) -> str:
    """The screen as text; cached until more bytes arrive (pyte builds it cell by cell: the waits ask often)."""
    key = (len(client.raw), client.screen.columns, client.screen.lines)
    cached = _TEXT.get(client)
    if cached is None or cached[0] != key:
        cached = _TEXT[client] = (key, client.screen_text())
    return cached[1]


def row(client: PtyClient, index: int) -> str:
    line = client.screen.buffer[index]
    return "".join(line[x].data for x in range(client.screen.columns)).rstrip()


def footer(client: PtyClient) -> str:
    """The last row: Textual's footer with the key bindings that apply to the focused widget."""
    return row(client, client.screen.lines - 1)


def status(client: PtyClient) -> str:
    """The table screen's "what you should do now" line (`▶ ...`), '' if not shown."""
    for line in client.screen.display[:4]:
        stripped = line.strip()
        if stripped.startswith("▶ "):
            return stripped[2:]
    return ""


def find(client: PtyClient, needle: str) -> tuple[int, int] | None:
    """(x, y) of the first occurrence of `needle` on the screen."""
    for y, line in enumerate(client.screen.display):
        x = line.find(needle)
        if x >= 0:
            return x, y
    return None


def is_reverse(client: PtyClient, x: int, y: int) -> bool:
    char = client.screen.buffer[y][x]
    return bool(char.reverse)


_SEAT = re.compile(r"│ [1-9A-C] (?P<sym>[ ✎][ ◷✍][ ♛][ ✗⚙-])\s+(?P<name>.+?)(?: \(you\))?\s+(?P<score>\d+)? │")


def seat_rows(client: PtyClient) -> dict[str, tuple[str, int | None]]:
    """The narrow seats panel: {name: (symbols, score)} (names as shown, maybe cut with `…`)."""
    out: dict[str, tuple[str, int | None]] = {}
    inside = False
    for line in client.screen.display:
        if "╭─ Seats" in line:
            inside = True
            continue
        if inside and line.startswith("╰"):
            break
        match = _SEAT.match(line) if inside else None
        if match:
            score = match.group("score")
            out[match.group("name").strip()] = (match.group("sym"), int(score) if score else None)
    return out


# --- waiting ---------------------------------------------------------------------------------------------------


async def wait_text(client: PtyClient, *needles: str, timeout: float = TIMEOUT) -> None:
    """Until every one of `needles` is on the screen at once."""
    await client.wait_until(lambda: all(n in text(client) for n in needles), timeout, f"all of {needles!r}")


async def wait_any(client: PtyClient, *needles: str, timeout: float = TIMEOUT) -> str:
    """Until one of `needles` is on the screen; returns it."""
    await client.wait_until(lambda: any(n in text(client) for n in needles), timeout, f"one of {needles!r}")
    return next(n for n in needles if n in text(client))


async def wait_gone(client: PtyClient, needle: str, timeout: float = TIMEOUT) -> None:
    await client.wait_until(lambda: needle not in text(client), timeout, f"{needle!r} to go away")


async def wait_status(client: PtyClient, start: str, timeout: float = TIMEOUT) -> None:
    await client.wait_until(lambda: status(client).startswith(start), timeout, f"status starting {start!r}")


async def wait_footer(client: PtyClient, binding: str, timeout: float = TIMEOUT) -> None:
    """Until the footer shows `binding` (e.g. "⏎ Vote": the dial has the focus)."""
    await client.wait_until(lambda: binding in footer(client), timeout, f"footer binding {binding!r}")


async def wait_all(clients: Iterable[PtyClient], *needles: str, timeout: float = TIMEOUT) -> None:
    await asyncio.gather(*(wait_text(c, *needles, timeout=timeout) for c in clients))


# --- acting ----------------------------------------------------------------------------------------------------


async def press(client: PtyClient, *keys: str) -> None:
    """Send named keys (see KEYS) or literal text. A lone Esc waits out the escape delay."""
    for key in keys:
        client.send(KEYS.get(key, key))
        if key == "escape":
            await asyncio.sleep(ESC_DELAY)


async def settle_screen(client: PtyClient, still: float = 0.3) -> None:
    """Until the screen stops changing for `still` seconds (the keys sent have all been handled and drawn), looked
    at every 50 ms (new output restarts the count)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 100 * still
    size, since = len(client.raw), loop.time()
    while loop.time() < deadline:
        await asyncio.sleep(0.05)
        if len(client.raw) != size:
            size, since = len(client.raw), loop.time()
        elif loop.time() - since >= still:
            return
    raise AssertionError("the screen never settled")


def paste(client: PtyClient, payload: str) -> None:
    """A bracketed paste: one Paste event, control characters (ESC too) removed by the server's driver."""
    client.send(PASTE_START + payload + PASTE_END)


_KEYS: dict[str, asyncssh.SSHKey] = {}


def key_of(name: str) -> asyncssh.SSHKey:
    """Each player name has its own client key (made once per test process)."""
    if name not in _KEYS:
        _KEYS[name] = asyncssh.generate_private_key("ssh-ed25519")
    return _KEYS[name]


async def open_lobby(
    port: int,
    name: str,
    key: asyncssh.SSHKey | None = None,
    *,
    size: tuple[int, int] = SIZE,
    command: str | None = None,
    welcome: str | None = None,
) -> PtyClient:
    """Connect with a PTY; without a command, wait for the lobby's welcome line."""
    client = await PtyClient.connect(port, name, client_key=key, size=size, command=command)
    if command is None:
        await wait_text(client, welcome or f"Welcome, {name}!")
    return client


async def lobby_client(port: int, apps: Mapping[str, App[Any]], name: str) -> RawPty:
    """A keyless terminal (raw bytes kept, screen read lazily) once its app shows the lobby screen."""
    client = await RawPty.connect(port, name, size=SIZE)
    await client.wait_for_text("Welcome", TIMEOUT)
    await wait_for(lambda: type(apps[name].screen).__name__ == "LobbyScreen", TIMEOUT, "the lobby")
    return client


def _reverse_at(client: PtyClient, needle: str) -> bool:
    spot = find(client, needle)
    return spot is not None and is_reverse(client, *spot)


def field_focused(client: PtyClient, label: str, offset: int = 14, width: int = 6) -> bool:
    """A number field of the create dialog shows the focus: its selected value or cursor differ in background."""
    spot = find(client, label + " ")
    if spot is None:
        return False
    x, y = spot
    line = client.screen.buffer[y]
    return len({line[x + offset + i].bg for i in range(width)}) > 1


# The create dialog's focus order from its first field (Mode): Rules, one tick per deck, Seats, Target score.
# (The label of the row with the focus turns reverse.)
CREATE_DECKS = tuple(builtin_deck_names())
CREATE_TABS = {"Seats": 2 + len(CREATE_DECKS), "Target score": 3 + len(CREATE_DECKS)}


async def create_table(client: PtyClient, *, target: int | None = None, seats: int | None = None) -> str:
    """Create a standard table from the lobby through the dialog; returns the table code read from the screen."""
    await lobby_keys(client)
    await press(client, "c")
    await wait_text(client, "Create a table", "Target score")
    # The dialog focuses its first field (Mode) a moment after it shows: the Mode label turns reverse then.
    await client.wait_until(lambda: _reverse_at(client, "Mode "), TIMEOUT, "the Mode field to get the focus")
    tabs = 0
    for label, value in (("Seats", seats), ("Target score", target)):
        if value is None:
            continue
        # Keys go to the widget focused when they arrive: Tabs may go together (the app moves the focus for each),
        # but the digits only once the field shows its focus. It selects its value then: typing replaces it.
        await press(client, KEYS["tab"] * (CREATE_TABS[label] - tabs))
        tabs = CREATE_TABS[label]
        await client.wait_until(partial(field_focused, client, label), TIMEOUT, f"the {label} field to get the focus")
        await press(client, str(value))
        await wait_text(client, f"{label:<14}{value} ")
    await press(client, "f2")
    await wait_text(client, "Friends join with the code")
    return table_code(client)


def table_code(client: PtyClient) -> str:
    match = re.search(r"Dixit · table (\w+) ·", text(client))
    assert match, text(client)
    return match.group(1)


async def lobby_keys(client: PtyClient) -> None:
    """In the lobby, until its own keys work: Esc first if a code field has the focus (typing would go there)."""
    await wait_text(client, "Open tables")
    if "q Quit" not in footer(client):
        await press(client, "escape")
    await wait_footer(client, "q Quit")


async def join_by_code(client: PtyClient, code: str) -> None:
    """From the lobby: j, the code, Enter; waits for the table screen."""
    await lobby_keys(client)
    await press(client, "j")
    await wait_footer(client, "esc Back to the list")  # the code field has the focus (its key bar)
    await press(client, code, "enter")
    await wait_text(client, f"Dixit · table {code}")


async def start_game(host: PtyClient) -> None:
    await wait_status(host, "Press s to start the game")
    await press(host, "s")
    await wait_text(host, "Start the game with")  # starting asks first (the guarded dialog)
    await press(host, "y")
    await wait_text(host, "turn 1 ·")


async def add_bot(host: PtyClient) -> None:
    """In the table's lobby: b asks "Add a bot?" (the guarded dialog), y adds it."""
    await press(host, "b")
    await wait_text(host, "Add a bot?")
    await press(host, "y")
    await wait_gone(host, "Add a bot?")


async def rematch(host: PtyClient) -> None:
    """At game over: m asks "Start a rematch?" (the guarded dialog), y starts it."""
    await press(host, "m")
    await wait_text(host, "Start a rematch?")
    await press(host, "y")


async def give_clue(client: PtyClient, card: int, clue: str) -> None:
    """The storyteller: the hand's card number `card`, Enter, then the clue and Enter."""
    await wait_footer(client, "⏎ Choose card")
    # A number key moves the hand's highlight when the hand receives it; Enter is a binding, run once the key has
    # bubbled back up to the app, so it picks whatever is highlighted by then. One digit + Enter may go together;
    # "1⏎2⏎" at once would pick card 2 twice. Picking moves the focus later (call_later): wait for it.
    await press(client, str(card), "enter")
    await wait_text(client, f"Card {card} chosen")
    await wait_footer(client, "esc Back to the table")  # the clue field has the focus
    await press(client, clue, "enter")
    await wait_text(client, f"Clue: “{clue}”")


async def submit_cards(client: PtyClient, cards: Sequence[int]) -> None:
    """Mark `cards` (hand numbers) with Enter; the confirmation comes at the last one; y gives them."""
    await wait_status(client, "Choose ")
    await wait_footer(client, "⏎ Choose card")
    for index, card in enumerate(cards, start=1):
        # One number key and Enter at a time: a second pair sent at once would be misapplied (see give_clue).
        await press(client, str(card), "enter")
        if index < len(cards):
            await wait_text(client, f"✓ marked {index}/{len(cards)}")
    await wait_text(client, "Give these cards?" if len(cards) > 1 else "Give this card?", "cannot be taken back")
    await press(client, "y")
    await wait_any(client, "are in. Waiting for", "is in. Waiting for", "Vote: turn the dial", "Waiting for votes")


async def cast_vote(client: PtyClient, slot: int) -> None:
    """Turn the dial to `slot` with its number key and press Enter."""
    await wait_status(client, "Vote: turn the dial")
    await wait_footer(client, "⏎ Vote")
    await press(client, str(slot), "enter")  # the number turns the dial at once; Enter votes where it points
    await wait_any(client, f"Your vote: {slot}", "revealed", "(r: recap)")


async def wait_revealed(client: PtyClient, turn: int) -> None:
    """`turn` is revealed on this screen: its line in the log, or the outcome in the clue line of the next turn."""
    await wait_any(client, f"Turn {turn} revealed", f"Turn {turn} (r: recap)")


async def close_recap(client: PtyClient, turn: int) -> None:
    """Read the recap of `turn` as a player would: when the table holds the reveal it opens by itself (its title and
    "Next turn" button on screen, or "Final standings" after the last turn) and Enter moves on; otherwise (a table
    that holds nothing) r opens it (its Close button) and Enter closes it."""
    from tests.e2e.watched import drawn  # (watched.py imports this module)

    await wait_revealed(client, turn)
    # The held recap opens a moment after the outcome shows in the clue line (another update: the view that holds the
    # reveal): once the session has drawn all it was sent, it is on the screen or it will not open. (A quiet screen
    # was taken as proof before: on a loaded machine the recap could come after 0.3 s of quiet, and `r` went to it.)
    await drawn(client)
    for label in (RECAP_NEXT, RECAP_FINAL):
        if label in text(client):
            await press(client, "enter")
            await wait_gone(client, label)
            return
    await press(client, "r")
    # r's recap, or (on two workers the view that holds the reveal may come later than the reveal, through Redis) the
    # held one, opened before the r came: the r did nothing then, and Enter moves on from it
    label = await wait_any(client, RECAP_CLOSE, RECAP_NEXT, RECAP_FINAL)
    await wait_text(client, f"Turn {turn} revealed")
    await press(client, "enter")
    await wait_gone(client, label)


async def quit_from_lobby(client: PtyClient) -> int | None:
    """q in the lobby (after Esc if a code field has the focus, as after leaving a table joined by code)."""
    await lobby_keys(client)
    await press(client, "q")
    return await client.wait_closed(TIMEOUT)


async def leave_table(client: PtyClient) -> None:
    """l, then y in the confirmation: back in the lobby."""
    await press(client, "l")
    await wait_text(client, "Leave table")
    await press(client, "y")
    await wait_text(client, "Open tables")


# --- whole turns and games -------------------------------------------------------------------------------------


@dataclass
class Player:
    name: str
    client: PtyClient
    key: asyncssh.SSHKey | None = None


@dataclass
class Seen:
    """Card ids seen in each seat's hand and on any board, over a game (for the hidden-information checks)."""

    hands: dict[int, set[str]] = field(default_factory=dict)
    boards: set[str] = field(default_factory=set)

    def note_hands(self, state: GameState) -> None:
        for seat, hand in enumerate(state.hands):
            self.hands.setdefault(seat, set()).update(hand)

    def hidden_from(self, seat: int) -> set[str]:
        """Cards of other hands that were never on a board nor ever in this seat's hand."""
        mine = self.hands.get(seat, set())
        return {c for s, cards in self.hands.items() if s != seat for c in cards} - self.boards - mine


def state_of(table: Table) -> GameState:
    assert table.game is not None
    return table.game.state


def board_slots(state: GameState) -> dict[int, int]:
    """slot -> owner seat, for the turn being voted on."""
    owners = {slot: state.owner_of(card) for slot, card in enumerate(state.turn.board, start=1)}
    return {slot: owner for slot, owner in owners.items() if owner is not None}


async def play_turn(
    table: Table,
    players: Sequence[Player],
    *,
    star: int = 0,
    first_teller: int = 1,
    seen: Seen | None = None,
    spectators: Sequence[PtyClient] = (),
    before_reveal: Callable[[], None] | None = None,
) -> int:
    """One whole turn through the UI. The storyteller gives card 1; everyone else gives cards 1 (and 2). Votes make
    `star` (or, when `star` tells, the seat after the storyteller) the one finder and the others vote for the
    finder's card, so games end quickly. `before_reveal` runs just before the last vote is sent. Returns the turn
    number played."""
    state = state_of(table)
    turn = state.turn.number
    teller = state.turn.storyteller if state.turn.storyteller is not None else first_teller
    clients = [p.client for p in players]
    if seen is not None:
        seen.note_hands(state)
    clue = f"clue {turn}"
    await give_clue(players[teller].client, 1, clue)
    await wait_all([*clients, *spectators], f"Clue: “{clue}”")
    count = state_of(table).rules.submit_count
    givers = [seat for seat in range(len(players)) if seat != teller]
    await asyncio.gather(*(submit_cards(players[seat].client, list(range(1, count + 1))) for seat in givers))
    state = state_of(table)
    assert state.phase == "vote", state.phase
    if seen is not None:
        seen.boards.update(state.turn.board)
    # every voter's dial turns over this turn's board, shown whole (no key acts on cards a player did not see)
    marks = card_marks(table, set(state.turn.board)).values()
    await asyncio.gather(*(wait_text(players[seat].client, *marks) for seat in givers))
    owners = board_slots(state)
    teller_slot = state.turn.board.index(state.turn.clue_card) + 1 if state.turn.clue_card else 0
    finder = star if star != teller else (teller + 1) % len(players)
    finder_slot = min(slot for slot, owner in owners.items() if owner == finder)
    slot_for = {seat: teller_slot if seat == finder else finder_slot for seat in givers}
    *early, last = givers
    await asyncio.gather(*(cast_vote(players[seat].client, slot_for[seat]) for seat in early))
    if before_reveal is not None:
        before_reveal()
    await cast_vote(players[last].client, slot_for[last])
    await asyncio.gather(*(wait_revealed(client, turn) for client in [*clients, *spectators]))
    await asyncio.gather(*(close_recap(client, turn) for client in clients))
    return turn


def scores_shown(client: PtyClient) -> dict[str, int | None]:
    return {name: score for name, (_, score) in seat_rows(client).items()}


def expected_scores(table: Table) -> Mapping[str, int]:
    state = state_of(table)
    return {name: state.scores[seat] for seat, name in enumerate(state.names)}


async def seat_players(
    port: int, coord: Coordinator, names: Sequence[str], *, target: int | None = 10
) -> tuple[list[Player], Table]:
    """Everyone connects with their own key to the lobby; the first creates a table in the dialog, the others join
    it by code, in order (player i sits in seat i). Not started yet."""
    players = [Player(name, await open_lobby(port, name, key_of(name)), key_of(name)) for name in names]
    code = await create_table(players[0].client, target=target)
    for player in players[1:]:  # one after another: seats follow the order of `names`
        await join_by_code(player.client, code)
    await wait_all([p.client for p in players], f"{len(names)} seated")
    table = coord.tables[code]
    assert [seat.name for seat in table.seats] == list(names)
    return players, table


async def check_scores(table: Table, clients: Sequence[PtyClient]) -> None:
    """Every seats panel shows the scores the game has."""
    want = dict(expected_scores(table))
    for client in clients:
        await client.wait_until(partial(_shows_scores, client, want), TIMEOUT, f"the seats panel to show {want}")


def _shows_scores(client: PtyClient, want: dict[str, int]) -> bool:
    return scores_shown(client) == want


def offline(client: PtyClient, name: str) -> bool:
    row = seat_rows(client).get(name)
    return row is not None and "✗" in row[0] and "✗ offline" in text(client)


def online(client: PtyClient, name: str) -> bool:
    row = seat_rows(client).get(name)
    return row is not None and "✗" not in row[0]


# --- what reached a terminal ------------------------------------------------------------------------------------

_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def printed(client: PtyClient, upto: int | None = None) -> str:
    """The text sent to a client (its first `upto` bytes), escape sequences removed."""
    return _ESCAPES.sub("", bytes(client.raw[:upto]).decode("utf-8", "replace"))


def card_marks(table: Table, cards: set[str]) -> dict[str, str]:
    """A distinctive piece of each card's text: its first 24 characters (always on one line of a card list)."""
    texts = state_of(table).cards
    return {card: texts[card].text[:24] for card in cards}
