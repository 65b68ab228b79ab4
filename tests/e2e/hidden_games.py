"""Whole games over real SSH in every mode, and the checks that nothing hidden reaches any client before the
reveal (tests/e2e/test_hidden_information.py says what is checked; tests/redis/test_contract.py runs it on two
workers)."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from dixit_tui.bots.cli import command_message
from dixit_tui.bots.strategy import SmartStrategy, decide
from dixit_tui.bots.view import BotView
from dixit_tui.coordinator import Coordinator, RevealUpdate
from dixit_tui.coordinator.table import Table
from dixit_tui.ssh.driver import SSHDriver
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.widgets.recap import RecapScreen
from tests.e2e.harness import TIMEOUT, PtyClient, RawPty, wait_for
from tests.e2e.json_client import JsonClient, move_done, table_of
from tests.e2e.servers import Serve, dixit_server
from tests.e2e.watched import all_drawn, session_driver

# --- what a TUI shows, from raw bytes ------------------------------------------------------------------------------

_OSC = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
_CSI = re.compile(r"\x1b\[[0-?]*[ -/]*([@-~])")
_ESC = re.compile(r"\x1b[@-Z\\-_]")
_MOVES = set("ABCDEFGHJKSTdfr")


def terminal_text(data: bytes) -> str:
    """The printable text of terminal output: escape sequences gone (cursor moves become line breaks), runs of spaces
    squeezed. Words written on one screen row stay together, so a card text shows as runs of its words."""
    text = _OSC.sub("", data.decode("utf-8", "replace"))
    text = _CSI.sub(lambda m: "\n" if m.group(1) in _MOVES else "", text)
    text = _ESC.sub("", text)
    return re.sub(r"[ \t]+", " ", text)


RECAP_WORDS = ("given by", "votes:", "storyteller's card", "no votes", "red marker", "voted for")


def shingles(cards: dict[str, str], size: int = 4) -> dict[str, list[str]]:
    """For each card, the runs of `size` words of its text that no other card contains (how the TUI would leak it)."""
    out: dict[str, list[str]] = {}
    for card, text in cards.items():
        words = text.split()
        runs = {" ".join(words[i : i + size]) for i in range(max(1, len(words) - size + 1))}
        out[card] = sorted(r for r in runs if not any(r in t for c, t in cards.items() if c != card))
        assert out[card], f"{card} has no distinctive run of words"
    return out


def json_needles(card: str, text: str) -> list[bytes]:
    """How a card would appear in a JSON line: its id, and its text as JSON encodes it."""
    return [card.encode(), json.dumps(text, ensure_ascii=False)[1:-1].encode()]


# --- snapshots of the true game at every broadcast -----------------------------------------------------------------


@dataclass
class Snap:
    turn: int
    phase: str
    storyteller: int | None
    hands: tuple[tuple[str, ...], ...]
    given: dict[int, tuple[str, ...]]
    board: tuple[str, ...]
    votes: dict[int, tuple[int, ...]]
    red: int | None
    reveal: int | None  # the turn revealed by this broadcast, if any
    offsets: dict[str, int]  # TUI client -> bytes received when this broadcast went out


@dataclass
class Recorder:
    """Wraps `coordinator.broadcast`: a Snap of the table's true state (and TUI byte counts) at each broadcast."""

    coordinator: Coordinator
    code: str = ""
    tuis: dict[str, PtyClient] = field(default_factory=dict)
    snaps: list[Snap] = field(default_factory=list)

    def install(self) -> None:
        original = self.coordinator.broadcast

        def spy(table: Table, updates: Any = (), *, first: Any = None) -> None:
            if table.code == self.code and table.game is not None:
                self.snaps.append(self.snap(table, updates))
            original(table, updates, first=first)

        self.coordinator.broadcast = spy  # type: ignore[method-assign]

    def snap(self, table: Table, updates: Iterable[Any]) -> Snap:
        assert table.game is not None
        state = table.game.state
        reveal = next((u.reveal.turn for u in updates if isinstance(u, RevealUpdate)), None)
        return Snap(
            turn=state.turn.number,
            phase=str(state.phase.value),
            storyteller=state.turn.storyteller,
            hands=tuple(tuple(h) for h in state.hands),
            given={s: tuple(state.given_by(s)) for s in state.seats},
            board=tuple(state.turn.board),
            votes={s: tuple(v) for s, v in state.turn.votes.items()},
            red=state.turn.red,
            reveal=reveal,
            offsets={name: len(c.raw) for name, c in self.tuis.items()},
        )

    def of_turn(self, turn: int) -> list[Snap]:
        return [s for s in self.snaps if s.turn == turn]

    def reveal_snap(self, turn: int) -> Snap | None:
        return next((s for s in self.snaps if s.reveal == turn), None)

    def board(self, turn: int) -> tuple[str, ...]:
        return next((s.board for s in self.of_turn(turn) if s.phase == "vote"), ())


# --- one game --------------------------------------------------------------------------------------------------------

NAMES = ["ana", "ben", "cy", "dee", "eli", "fay", "gus", "hal"]


@dataclass(frozen=True)
class Mode:
    id: str
    create: dict[str, Any]
    players: int


MODES = [
    Mode("refresh-3", {"mode": "standard", "profile": "refresh", "target": 10, "seed": 7}, 3),
    Mode("refresh-5", {"mode": "standard", "profile": "refresh", "target": 10, "seed": 52}, 5),
    Mode("odyssey-8", {"mode": "standard", "profile": "odyssey", "target": 10, "seed": 83}, 8),
    Mode("party-6", {"mode": "party", "seed": 64}, 6),
    Mode("team-6", {"mode": "team", "seed": 65}, 6),
]


@dataclass
class Game:
    coordinator: Coordinator
    code: str
    players: list[JsonClient]
    watcher: JsonClient
    tuis: dict[str, PtyClient]
    apps: Mapping[str, DixitApp]
    recorder: Recorder
    dismissed: dict[int, dict[str, int]] = field(default_factory=dict)  # turn -> TUI offsets once its recap closed
    figures: dict[str, int] = field(default_factory=dict)

    @property
    def table(self) -> Table:
        return self.coordinator.tables[self.code]

    def driver(self, name: str) -> SSHDriver:
        """The SSH driver of the terminal session called `name`."""
        return session_driver(self.apps[name])

    def synced(self) -> bool:
        """Every player has the server's latest (turn, phase, waiting_for)."""
        game = self.table.game
        assert game is not None
        state = game.state
        want = (state.turn.number, str(state.phase.value), list(state.waiting_for()))
        return all((p.state["turn"], p.state["phase"], p.state["waiting_for"]) == want for p in self.players)

    async def play(self, rng: random.Random, max_moves: int = 1_000) -> None:
        """Legal moves by the bots' strategy, one at a time, each awaited; the TUIs are synchronised around reveals.
        A game that has not ended after `max_moves` moves is a failure (however long the moves took)."""
        strategy = SmartStrategy()
        refs = 0
        while True:
            assert refs < max_moves, f"no end after {max_moves} moves"
            await wait_for(self.synced, TIMEOUT, "every player has the latest state")
            game = self.table.game
            assert game is not None
            state = game.state
            if str(state.phase.value) == "over":
                return
            waiting = state.waiting_for()
            mover: tuple[JsonClient, Any] | None = None
            for seat in waiting:
                if state.turn.storyteller is None and seat != state.host:
                    continue  # the turn-1 clue race: only the host answers it
                view = BotView.from_protocol(self.players[seat].state)
                action = decide(view, strategy, rng)
                if action is not None:
                    mover = (self.players[seat], action)
                    break
            assert mover is not None, f"nobody can move: {self.players[0].state}"
            player, action = mover
            turn = state.turn.number
            last_vote = str(state.phase.value) == "vote" and len(waiting) == 1
            if last_vote:
                await self.before_reveal(turn)
            version = state.version
            refs += 1
            ref = f"m{refs}"
            start = len(player.messages)
            player.send({**command_message(action), "ref": ref})
            await wait_for(move_done(self.table, version, player, start, ref), TIMEOUT, f"{player.name}'s {action!r}")
            errors = [m for m in player.messages[start:] if m.get("type") == "error"]
            assert not errors, errors
            if last_vote:
                await self.after_reveal(turn)

    async def before_reveal(self, turn: int) -> None:
        """Before the last vote: each TUI shows the board (the positive control), and has drawn everything."""
        snap = next(s for s in self.recorder.of_turn(turn) if s.phase == "vote")
        runs = self.runs

        async def sync(name: str, client: PtyClient) -> None:
            start = snap.offsets[name]

            def shows_board() -> bool:
                seen = terminal_text(bytes(client.raw[start:]))
                return any(run in seen for card in snap.board for run in runs[card])

            await client.wait_until(shows_board, TIMEOUT, f"turn {turn}'s board on {name}")
            await all_drawn(self.driver(name), client)

        await asyncio.gather(*(sync(name, client) for name, client in self.tuis.items()))

    async def after_reveal(self, turn: int) -> None:
        """Each TUI opens the recap (r) and closes it (Enter) before the next turn goes on, so the next window is
        clean."""
        game = self.table.game
        assert game is not None
        over = str(game.state.phase.value) == "over"
        reveal = self.recorder.reveal_snap(turn)
        assert reveal is not None

        async def sync(name: str, client: PtyClient) -> None:
            start = reveal.offsets[name]
            app = self.apps[name]

            def revealed() -> bool:  # the app has this turn's reveal: r opens its recap
                table = app._table_screen()
                if table is None or table.last_reveal is None or table.last_reveal.reveal.turn != turn:
                    return False
                # and the view that came with it, which says whether the table holds it. (The reveal comes first:
                # read from the view before it, "not held" sent r, then waited for a recap on top that the table had
                # opened itself and closed again as the hold ended, once the other worker's agents had read it.)
                game = table.view.game
                return game is not None and game.last_reveal is not None and game.last_reveal.turn == turn

            await wait_for(revealed, TIMEOUT, f"turn {turn} revealed to {name}")
            table = app._table_screen()
            held = table is not None and table.view.reveal_until is not None
            if not held:  # a held reveal opens its recap by itself (the table waits for a terminal's reader)
                client.send("r")

            def recap_shown() -> bool:
                seen = terminal_text(bytes(client.raw[start:]))
                return "given by" in seen or "storyteller's card" in seen

            await client.wait_until(recap_shown, TIMEOUT, f"turn {turn}'s recap on {name}")
            if over:
                return

            def on_top() -> bool:
                return isinstance(app.screen, RecapScreen)

            def hold_over() -> bool:
                table = app._table_screen()
                return table is None or table.view.reveal_until is None

            if held:  # Enter moves on from a held recap, unless the table closed it first (its hold ended)
                await wait_for(lambda: on_top() or hold_over(), TIMEOUT, f"{name}'s held recap")
                if on_top():
                    client.send("\r")
            else:
                await wait_for(on_top, TIMEOUT, f"{name}'s recap on top")
                client.send("\r")
            await wait_for(lambda: not isinstance(app.screen, RecapScreen), TIMEOUT, f"{name}'s recap closed")
            await all_drawn(self.driver(name), client)

        await asyncio.gather(*(sync(name, client) for name, client in self.tuis.items()))
        self.dismissed[turn] = {name: len(c.raw) for name, c in self.tuis.items()}

    @cached_property
    def runs(self) -> dict[str, list[str]]:
        return shingles(self.texts())

    def texts(self) -> dict[str, str]:
        game = self.table.game
        assert game is not None
        return {card: c.text for card, c in game.state.cards.items()}

    # --- the checks --------------------------------------------------------------------------------------------

    def check_json(self, client: JsonClient, seat: int | None) -> None:
        """Line by line, each in the turn it belongs to (the turn after the last `reveal` line received)."""
        texts = self.texts()
        game = self.table.game
        assert game is not None
        mode = game.state.config.mode.value
        last_turn = max(s.turn for s in self.recorder.snaps)
        turn, checked, own_seen = 1, 0, 0
        for line, message in zip(client.lines, client.messages, strict=True):
            kind = message.get("type")
            if kind == "reveal":
                assert message["turn"] == turn, (client.name, message["turn"], turn)
                turn += 1
                continue
            snaps = self.recorder.of_turn(min(turn, last_turn))
            if turn > last_turn:  # after the last reveal: the final hands
                snaps = snaps[-1:]
            mine: set[str] = set()
            others: set[str] = set()
            given: set[str] = set()
            votes: set[int] = set()
            reds: set[int | None] = {None}
            for snap in snaps:
                for s, hand in enumerate(snap.hands):
                    cards = set(hand) | set(snap.given.get(s, ()))
                    (mine if s == seat else others).update(cards)
                if seat is not None:
                    given |= set(snap.given.get(seat, ()))
                    votes |= set(snap.votes.get(seat, ()))
                    if snap.storyteller == seat:
                        reds.add(snap.red)
            hidden = others - mine
            public: set[str] = set()
            if kind == "state" and message.get("phase") == "vote":
                public = set(self.recorder.board(turn))
            for card in sorted(hidden - public):
                for needle in json_needles(card, texts[card]):
                    assert needle not in line, (
                        f"{client.name} got {card} of another hand in turn {turn}: {line[:300]!r}"
                    )
            for card in mine:
                if any(n in line for n in json_needles(card, texts[card])):
                    own_seen += 1
                    break
            assert b'"owner"' not in line, f"{client.name}: an owner before the reveal: {line[:300]!r}"
            assert b'"votes"' not in line, f"{client.name}: votes before the reveal: {line[:300]!r}"
            checked += len(line) + 1
            if kind != "state" or message.get("table") != self.code:
                continue
            if seat is None:
                assert message["you"] is None and message["hand"] == [] and message["your_cards"] == []
                assert message["your_votes"] == [] and message["your_red"] is None
                assert message["forbidden_slots"] == [] and message.get("reconnect_code") is None
                continue
            assert message["you"] == seat
            assert set(message["your_cards"]) <= given, (client.name, message["your_cards"], given)
            assert set(message["your_votes"]) <= votes, (client.name, message["your_votes"], votes)
            assert message["your_red"] in reds, (client.name, message["your_red"], reds)
            if message["phase"] == "vote":
                board = self.recorder.board(turn)
                team = {seat} if mode != "team" else {seat, (seat + len(self.players) // 2) % len(self.players)}
                ours = {c for snap in snaps for s in team for c in snap.given.get(s, ())}
                allowed = {i for i, card in enumerate(board, start=1) if card in ours}
                assert set(message["forbidden_slots"]) <= allowed, (client.name, message["forbidden_slots"], allowed)
            if mode == "party" and message["phase"] == "clue" and message["storyteller"] in (None, seat):
                # the storyteller tells blind (turn 1: everyone may tell, so nobody sees a hand)
                assert message["hand"] == [], f"{client.name} saw a hand while telling blind in turn {turn}"
                blind = {c for snap in snaps if snap.phase == "clue" for c in snap.hands[seat]}
                for card in blind:
                    for needle in json_needles(card, texts[card]):
                        assert needle not in line, f"{client.name} saw own hand card {card} while telling blind"
                self.figures["blind_states"] = self.figures.get("blind_states", 0) + 1
        assert turn == last_turn + 1, (client.name, turn, last_turn)
        if seat is not None:
            assert own_seen > 0, f"the detector never saw {client.name}'s own hand (broken needles?)"
        self.figures["json_bytes"] = self.figures.get("json_bytes", 0) + checked

    def check_tui(self, name: str, client: PtyClient) -> None:
        """Windows of raw bytes, cut at the server-side moments the state was broadcast."""
        runs = self.runs
        raw = bytes(client.raw)
        last_turn = max(s.turn for s in self.recorder.snaps)
        boards: set[str] = set()
        for turn in range(1, last_turn + 1):
            snaps = self.recorder.of_turn(turn)
            reveal = self.recorder.reveal_snap(turn)
            if reveal is None:  # the last turn of a game ended otherwise
                continue
            end = reveal.offsets[name]
            previous = self.recorder.reveal_snap(turn - 1)
            start = previous.offsets[name] if previous is not None else 0
            vote = next(s for s in snaps if s.phase == "vote")
            held = {c for snap in snaps for hand in snap.hands for c in hand}
            held |= {c for snap in snaps for cards in snap.given.values() for c in cards}
            before = set(self.recorder.board(turn - 1))  # the previous recap may still show these
            board = set(vote.board)
            boards |= board
            windows = [
                (start, vote.offsets[name], held - before),  # no card at all before the board
                (vote.offsets[name], end, held - before - board),  # then the board only
            ]
            for lo, hi, hidden in windows:
                seen = terminal_text(raw[lo:hi])
                for card in sorted(hidden):
                    leaked = [run for run in runs[card] if run in seen]
                    assert not leaked, f"{name} showed {card} ({leaked[0]!r}) before turn {turn}'s reveal"
                    assert card.encode() not in raw[lo:hi], f"{name} got the id {card} before turn {turn}'s reveal"
            # nobody's vote nor any owner between the previous recap's close and this reveal
            opened = self.dismissed.get(turn - 1, {}).get(name, 0)
            window = terminal_text(raw[opened:end])
            for word in RECAP_WORDS:
                assert word not in window, f"{name} showed {word!r} before turn {turn}'s reveal"
            # the positive control: the same detector sees this turn's board once it is public
            seen = terminal_text(raw[vote.offsets[name] : end])
            assert any(run in seen for card in board for run in runs[card]), f"{name}: no board card seen"
            self.figures["tui_bytes"] = self.figures.get("tui_bytes", 0) + (end - start)
            self.figures["tui_windows"] = self.figures.get("tui_windows", 0) + 1
        # over the whole game: no card that never reached a board
        never = {c for snap in self.recorder.snaps for hand in snap.hands for c in hand} - boards
        seen = terminal_text(raw)
        for card in sorted(never):
            leaked = [run for run in runs[card] if run in seen]
            assert not leaked, f"{name} showed {card} ({leaked[0]!r}), which was only ever in a hand"


@asynccontextmanager
async def game_for(tmp_path: Path, mode: Mode, serve: Serve = dixit_server) -> AsyncIterator[Game]:
    """A game of `mode` on a server `serve` starts (tests.e2e.servers.dixit_server, or two workers), its clients
    seated and watching, the recorder installed."""
    async with serve(tmp_path) as (server, coordinator):
        port = server.port
        players, code = await table_of(port, NAMES[: mode.players], mode.create)
        watcher = await JsonClient.open(port, "sam")
        watcher.send({"cmd": "watch", "table": code})
        await watcher.wait_for("state", table=code)
        recorder = Recorder(coordinator, code)
        recorder.install()
        tui_a = await RawPty.connect(port, "tv", command=f"watch {code}", size=(90, 28))
        tui_b = await RawPty.connect(port, "wide", size=(116, 36))
        tuis: dict[str, PtyClient] = {"tv": tui_a, "wide": tui_b}
        try:
            await tui_a.wait_for_text("you are watching", TIMEOUT)
            await tui_b.wait_for_text(code, TIMEOUT)  # the lobby lists the table: watch it with its key
            tui_b.send("w")
            await tui_b.wait_for_text("you are watching", TIMEOUT)
            recorder.tuis.update(tuis)
            game = Game(coordinator, code, players, watcher, tuis, server.apps, recorder)
            yield game
        finally:
            for client in [*players, watcher]:
                await client.close()
            for tui in tuis.values():
                with suppress(Exception):
                    await tui.close(timeout=2.0)


async def nothing_hidden_reaches_anyone(tmp_path: Path, mode: Mode, serve: Serve = dixit_server) -> None:
    async with game_for(tmp_path, mode, serve) as game:
        game.players[0].send({"cmd": "start"})
        await wait_for(lambda: game.table.game is not None, TIMEOUT, "the start")
        await game.play(random.Random(mode.id))
        everyone = [*game.players, game.watcher]
        for client in everyone:
            await client.wait_for(lambda m: m["type"] == "over")
            await client.wait_for(lambda m: m["type"] == "state" and m["phase"] == "over")
        for name, tui in game.tuis.items():
            await all_drawn(game.driver(name), tui)
            assert not tui.closed

        reveals = [s.reveal for s in game.recorder.snaps if s.reveal is not None]
        assert reveals == list(range(1, len(reveals) + 1)) and len(reveals) >= 2, reveals
        for seat, player in enumerate(game.players):
            assert not player.of_type("error"), player.of_type("error")
            assert len(player.of_type("reveal")) == len(reveals)
            game.check_json(player, seat)
        game.check_json(game.watcher, None)
        for name, tui in game.tuis.items():
            game.check_tui(name, tui)
        if mode.create["mode"] == "party":
            assert game.figures.get("blind_states", 0) >= len(reveals)  # each storyteller told blind
        if mode.create.get("profile") == "odyssey":
            assert game.players[1].of_type("state")[-1]["votes_allowed"] == 2
        print(
            f"\n{mode.id}: {len(reveals)} turns, {len(everyone)} headless + {len(game.tuis)} TUI clients, "
            f"{game.figures.get('json_bytes', 0)} JSON bytes and {game.figures.get('tui_bytes', 0)} TUI bytes checked "
            f"in {game.figures.get('tui_windows', 0)} TUI windows"
        )
