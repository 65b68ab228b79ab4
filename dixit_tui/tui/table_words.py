"""What the table says (the status line, the top bar, the clue line, the notes, the end, the questions, the notices,
the practice turn's help), as pure functions of its view and the screen's own choices (`Choices`). No Textual here:
the screen puts the `Words` into its widgets. Player text is carried as plain text in `Words`, never as markup.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

from rich.cells import cell_len

from dixit_tui.coordinator import OverUpdate, TableView
from dixit_tui.coordinator.models import ENDED_BEFORE_SCORING, StandInReason, TableLock, TableStatus
from dixit_tui.engine import Mode, Phase, PlayerView, Reveal
from dixit_tui.engine.reveal import Outcome

# --- words with styled stretches ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Words:
    """Text with styled stretches as plain data: (text, style) pairs, style "" for none (shown as `Content`)."""

    parts: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, *parts: str | tuple[str, str] | Words) -> Words:
        """Like `Content.assemble`: plain strings, (text, style) pairs and other Words, one after another."""
        out: list[tuple[str, str]] = []
        for part in parts:
            if isinstance(part, Words):
                out.extend(part.parts)
            elif isinstance(part, str):
                if part:
                    out.append((part, ""))
            elif part[0]:
                out.append(part)
        return cls(tuple(out))

    @classmethod
    def styled(cls, text: str, style: str) -> Words:
        return cls.of((text, style))

    @property
    def plain(self) -> str:
        return "".join(text for text, _ in self.parts)

    @property
    def cell_length(self) -> int:
        return cell_len(self.plain)

    def join(self, items: Iterable[Words]) -> Words:
        """`items` with these words between them (like `str.join`)."""
        out: list[str | tuple[str, str] | Words] = []
        for i, item in enumerate(items):
            if i:
                out.append(self)
            out.append(item)
        return Words.of(*out)


def _w(*parts: str | tuple[str, str] | Words) -> Words:
    return Words.of(*parts)


LINES = Words.of("\n")


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def times(n: int) -> str:
    """How often: "once", "twice", "3 times" (not "1 time": seen playing a party game)."""
    return {1: "once", 2: "twice"}.get(n, plural(n, "time"))


def name_list(names: Sequence[str], limit: int = 4) -> Words:
    """`ana`, `ana and ben`, `ana, ben and cara`, `ana, ben, cara and 3 others`; names in bold, as plain text."""
    names = list(names)
    if not names:
        return _w("nobody")
    shown = names if len(names) <= limit else names[: limit - 1]
    rest = len(names) - len(shown)
    parts: list[str | tuple[str, str] | Words] = []
    for i, name in enumerate(shown):
        if i:
            last = i == len(shown) - 1 and not rest
            parts.append(" and " if last else ", ")
        parts.append((name, "bold"))
    if rest:
        parts.append(f" and {rest} other{'s' if rest > 1 else ''}")
    return _w(*parts)


# --- who is who ---------------------------------------------------------------------------------------------------


def seat_name(view: TableView, seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(view.seats):
        return "?"
    return view.seats[seat].name


def host_name(view: TableView) -> str | None:
    """The host's name, or None when the table has nobody who could be (its seats are empty): never "?"."""
    if not 0 <= view.host < len(view.seats) or view.seats[view.host].removed:
        return None
    return view.seats[view.host].name


def names(view: TableView, seats: Sequence[int], *, skip_you: bool = True) -> list[str]:
    return [seat_name(view, s) for s in seats if not (skip_you and s == view.you)]


def teammate(game: PlayerView | None, seat: int | None) -> int | None:
    """The other active player of `seat`'s team, None outside team mode."""
    if game is None or seat is None or seat >= len(game.players):
        return None
    team = game.players[seat].team
    if team is None:
        return None
    return next((p.seat for p in game.players if p.team == team and p.seat != seat and p.active), None)


def team_cards(view: TableView, seats: Sequence[int]) -> Words:
    """Team mode, the cards still to come (each team gives one, whichever of its players gives it first): `a card
    from dee`, `team 1's card (ana or dee)`, `team 1's card (ana or dee) and a card from cy`."""
    game = view.game
    groups: dict[int, list[int]] = {}
    for seat in seats:
        team = game.players[seat].team if game is not None and seat < len(game.players) else None
        groups.setdefault(team if team is not None else -1 - seat, []).append(seat)
    if all(len(members) == 1 for members in groups.values()):
        return _w("a card each from " if len(seats) > 1 else "a card from ", name_list(names(view, seats)))
    parts: list[str | tuple[str, str] | Words] = []
    for i, (team, members) in enumerate(groups.items()):
        if i:
            parts.append(" and " if i == len(groups) - 1 else ", ")
        if len(members) == 1:
            parts.extend(("a card from ", (seat_name(view, members[0]), "bold")))
            continue
        parts.append("your team's card (" if view.you in members else f"team {team + 1}'s card (")
        for j, seat in enumerate(members):
            parts.extend(((" or " if j else ""), (seat_name(view, seat), "bold")))
        parts.append(")")
    return _w(*parts)


def team_chat_mate(view: TableView) -> str | None:
    """Team mode, once the game runs: your teammate's name (team chat is open with them), else None."""
    game, you = view.game, view.you
    if game is None or you is None or not 0 <= you < len(game.players) or not game.players[you].active:
        return None
    if game.players[you].team is None:
        return None
    mate = teammate(game, you)
    return seat_name(view, mate) if mate is not None else "your team"


def hand_number(game: PlayerView, card: str) -> int:
    """A card's number in your hand (1 for the first), 0 if it is not there."""
    return next((i for i, c in enumerate(game.hand, start=1) if c.card == card), 0)


def can_clue_now(view: TableView) -> bool:
    game = view.game
    return bool(view.status == TableStatus.PLAYING and game is not None and game.phase == Phase.CLUE and game.can_clue)


def game_over(view: TableView) -> bool:
    return view.status == TableStatus.OVER or (view.game is not None and view.game.phase == Phase.OVER)


# --- the screen's own choices -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Choices:
    """What the screen knows that the view does not: your choices so far and where the keyboard is."""

    chosen: str | None = None  # the card chosen for your clue
    marked: tuple[str, ...] = ()  # the cards marked to give (two at three players)
    in_clue_box: bool = False  # the keyboard is in the clue box
    writing_clue: bool = False  # ... and it holds text you typed (a box on screen)
    placing_red: bool = False  # the dial's second step: the red marker
    over: OverUpdate | None = None  # the end of the game, once announced


# --- the top bar --------------------------------------------------------------------------------------------------


def clock(seconds_left: float) -> str:
    left = max(0, int(seconds_left))
    return f"{left // 60}:{left % 60:02d}"


def phase_clock(view: TableView, now: float) -> str | None:
    """The time left on the phase's own clock ("1:20"), while the phase has a time limit and the game is not over;
    None otherwise (a stand-in's time for a player who dropped out is `away`'s)."""
    game = view.game
    if view.phase_deadline is None or game is None or game.phase == Phase.OVER:
        return None
    return clock(view.phase_deadline - now)


_Piece = tuple[str | tuple[str, str], str | tuple[str, str] | None]  # a part of the top bar: (full, short or None)


def topbar_key(view: TableView, width: int, now: float) -> tuple[object, ...]:
    """Everything `topbar` reads (equal keys: the same line): a cheap test that the top bar did not change."""
    game = view.game
    left = clock(view.phase_deadline - now) if view.phase_deadline is not None else None
    shown = (width, view.code, view.options, left, view.you, view.spectators)
    if game is None:
        return (*shown, view.seats)
    return (*shown, game.mode, game.target, game.storytells, game.practice, game.draw_pile, game.phase, game.turn)


def topbar(view: TableView, width: int, now: float) -> Words:
    """One line; when it does not fit `width`, the less useful parts get shorter or go first (never the code, the
    timer or who is watching)."""
    game = view.game
    # (full text, short text or None to drop it), in the order they are given up
    brand: _Piece = (("Dixit", "bold"), None)
    code: _Piece = (f"table {view.code}", (view.code, "bold"))
    parts: list[_Piece] = [brand, code, (view.options.label(), view.options.label())]
    pile = -1
    if game is None:
        seated = sum(not s.removed for s in view.seats)
        parts.append(("lobby", "lobby"))
        parts.append((f"{seated} seated", f"{seated} seated"))
    else:
        if game.mode == Mode.STANDARD:
            parts.append((f"to {game.target} points", f"to {game.target}"))
        else:
            tells = game.storytells
            parts.append((f"each tells {times(tells)}", f"{plural(tells, 'tell')} each"))
        if game.practice or game.phase != Phase.OVER:
            parts.append(("practice turn", "practice") if game.practice else (f"turn {game.turn}", f"turn {game.turn}"))
            pile = len(parts)
            parts.append((f"pile {game.draw_pile}", None))
        else:
            parts.append(("game over", "game over"))
    if (left := phase_clock(view, now)) is not None:  # the phase's own time (a stand-in's is the status line's)
        parts.append(((f"⏱ {left} left", "bold"), (f"⏱ {left}", "bold")))
    if view.you is None:
        parts.append(("you are watching", "you are watching"))
    if view.spectators:
        parts.append((f"{view.spectators} watching", f"{view.spectators} watching"))
    short: set[int] = set()
    line = Words()
    # first the pile, then shorter words, then the name of the game, last "table" before the code
    for step in [-1, pile, *range(2, len(parts)), 0, 1]:
        short.add(step)
        shown = [(p[1] if i in short else p[0]) for i, p in enumerate(parts)]
        line = _w(" · ").join(_w(part) for part in shown if part is not None)
        if width <= 0 or line.cell_length <= width:
            break
    return line


# --- the clue line ------------------------------------------------------------------------------------------------


def reveal_line(reveal: Reveal, name_of: Callable[[int], str], you: int | None) -> Words:
    """A turn's outcome in one line: whose card it was, who found it, and how to see the whole recap."""
    what = "Practice turn" if reveal.turn == 0 else f"Turn {reveal.turn}"
    teller = reveal.storyteller
    whose = _w("your card") if teller == you else _w((name_of(teller), "bold"), "'s card")
    slot = next((s for s in reveal.slots if s.owner == teller), None)
    parts: list[str | tuple[str, str] | Words] = [(what, "bold"), (" (r: recap)", "dim"), ": ", whose]
    if slot is not None:
        parts.append(f" was {slot.slot}")
        if reveal.outcome == Outcome.PARTY:  # matching votes score, not finding the storyteller's card
            pass
        elif reveal.outcome == Outcome.ALL:
            parts.append(", everyone found it")
        elif not slot.votes:
            parts.append(", nobody found it")
        else:
            finders = ["you" if seat == you else name_of(seat) for seat in slot.votes]
            parts.extend([", found by ", name_list(finders, 3)])
    parts.append(".")
    return _w(*parts)


def clue_line_key(view: TableView, last_reveal: Reveal | None = None) -> tuple[object, ...]:
    """Everything `clue_line` reads (equal keys: the same line): a cheap test that the clue line did not change."""
    game = view.game
    if game is None:
        return ()
    names = tuple([seat.name for seat in view.seats])
    at = (game.phase, game.turn, game.clue, game.storyteller, game.last_reveal, last_reveal)
    return (*at, view.you, view.typing, names)


def clue_line(view: TableView, last_reveal: Reveal | None = None) -> Words | None:
    """The clue and who told it (or who is writing one), and until the vote how the last turn went (in the clue and
    the submit phases, which show the same pane: the line keeps its height when the clue comes, so the screen is
    not laid out again for it). None when there is no clue line (the lobby, the end). `last_reveal`: the last
    reveal announced, if the game has lost it (the practice turn's)."""
    game = view.game
    if game is None or game.phase == Phase.OVER:
        return None
    if game.clue is not None:
        teller = seat_name(view, game.storyteller)
        you = " (you)" if game.storyteller == view.you else ""
        by = ", given by a stand-in" if view.stand_in_clue is not None else ""  # (time ran out, or they were away)
        content = _w(("Clue: ", "bold"), (f"“{game.clue}”", "bold italic"), f" — told by {teller}{you}{by}")
    elif game.storyteller is None:
        content = _w("No clue yet: anyone may give the first clue.")
    elif game.storyteller == view.you:
        content = _w("No clue yet: ", ("you", "bold"), " are the storyteller.")
    else:
        content = _w("No clue yet: ", (seat_name(view, game.storyteller), "bold"), " is the storyteller.")
    writers = names(view, view.typing) if game.clue is None else []
    if writers:  # in one line, also at 80 columns
        verb = " is" if len(writers) == 1 else " are"
        content = _w("No clue yet: ", name_list(writers), (f"{verb} writing a clue…", "italic"))
    # until the vote: how the last turn went (the practice turn's too, though its reveal is gone from the game)
    last = game.last_reveal or last_reveal
    if game.phase in (Phase.CLUE, Phase.SUBMIT) and last is not None and last.turn == game.turn - 1:
        content = _w(content, "\n", reveal_line(last, lambda seat: seat_name(view, seat), view.you))
    return content


# --- the panes ----------------------------------------------------------------------------------------------------


def time_limit(seconds: int) -> str:
    """A phase's time limit in words: "90 seconds", "1 minute", "2 hours"."""
    if seconds % 3600 == 0:
        return plural(seconds // 3600, "hour")
    if seconds % 60 == 0:
        return plural(seconds // 60, "minute")
    return plural(seconds, "second")


def seats_free(view: TableView) -> int:
    """How many more players can sit at the table before its game starts."""
    seated = sum(not s.removed for s in view.seats)
    return max(0, (view.options.seats or view.options.max_seats()) - seated)


ALL_SEATS_TAKEN = "All seats are taken: more people can watch, not play."


def lobby_info(view: TableView) -> Words:
    """The table's lobby: its code and rules, how to come back, and what the host (or you) waits for."""
    seated = sum(not s.removed for s in view.seats)
    options = view.options
    lines: list[Words] = [
        _w(
            ("Table ", "bold"),
            (view.code, "bold"),
            f" · {options.label()} · {seated} of {options.seats or options.max_seats()} seats taken",
        ),
        _w(f"Friends join with the code {view.code}." if seats_free(view) else ALL_SEATS_TAKEN),
    ]
    if options.mode == Mode.STANDARD:
        lines.append(_w(f"The first player to reach {options.target} points wins."))
    else:
        lines.append(_w(f"The game ends when everyone has told {times(options.storytells)}."))
    if options.turn_seconds:
        limit = time_limit(options.turn_seconds)
        lines.append(_w(f"Time limit: {limit} for each clue, card and vote; then a stand-in plays for the late."))
    if options.reveal_seconds:
        lines.append(_w(f"Each reveal stays on screen up to {options.reveal_seconds} s; Enter moves you on."))
    if options.chat_pause:
        lines.append(_w("Chat pauses from the clue until the reveal, so nobody can hint at a card."))
    if view.reconnect_code:
        lines.append(_w(f"Your reconnect code: {view.reconnect_code} (it gets your seat back; F1 shows it)."))
    elif view.you is not None:  # a seat taken with an SSH key has no code: the key is what brings you back
        lines.append(_w("Your SSH key gets your seat back if you drop out: connect with it again."))
    lines.append(_w(""))
    if view.is_host:
        if view.start_problem is None:
            lines.append(Words.styled("You are the host: press s to start the game.", "bold"))
        else:
            lines.append(_w(("Not ready to start. ", "bold"), view.start_problem))
        lines.append(_w("Press p to start with a practice turn: one turn played that does not count."))
    elif view.you is None:
        lines.append(_w("You are watching this table."))
    elif view.start_problem is not None:
        lines.append(_w(("Not ready to start. ", "bold"), view.start_problem))
    elif (host := host_name(view)) is not None:
        lines.append(_w("Waiting for the host, ", (host, "bold"), ", to start."))
    return LINES.join(lines)


def clue_label(view: TableView) -> str:
    """The clue box's label: "Kept:" for a clue typed when the turn moved on (it stays, not sent)."""
    return "Clue:" if can_clue_now(view) else "Kept:"


def hand_tags(game: PlayerView, card: str, chosen: str | None, marked: Sequence[str]) -> tuple[str, ...]:
    """What a card of your hand is marked with: chosen for your clue, marked to give, or out of this clue (the
    card of a voided turn)."""
    if card == game.voided_card and game.can_clue:
        return (VOIDED_TAG,)
    if card == chosen:
        return ("✓ chosen",)
    if card in marked:
        return (f"✓ marked {list(marked).index(card) + 1}/{game.submit_count}",)
    return ()


VOIDED_TAG = "voided: not this turn"
VOIDED_CARD = "That card was in the voided turn: choose another for your new clue."


def hand_note(view: TableView, choices: Choices) -> Words | None:
    """The line under your hand: what Enter does on it now (None: nothing to say)."""
    game = view.game
    assert game is not None
    if game.hand_hidden:
        if game.can_clue:
            return _w(
                "Party rule: you give the clue before you see your hand. It refers to no card: press Enter, "
                "type it, press Enter."
            )
        return _w("Your hand is hidden until the clue is given (party rule).")
    if view.you is None:
        return _w("You are watching: hands stay hidden.")
    if game.phase == Phase.CLUE and game.can_clue and game.clue_needs_card:
        if choices.chosen is None:
            return _w(f"Choose the card for your clue: ↑↓ or 1-{len(game.hand)}, then Enter.")
        number = hand_number(game, choices.chosen)
        if not choices.in_clue_box:  # (after Esc: letters typed now go nowhere)
            return _w(f"Card {number} chosen: press Enter to type your clue.")
        return _w(f"Card {number} chosen: type your clue below and press Enter (Esc: back to the table).")
    if game.phase == Phase.SUBMIT and game.submit_count:
        count = game.submit_count
        if count == 1:
            return _w("Enter gives a card; you confirm, then it's final.")
        # which cards you marked, said as such ("marked: 2" read as a count of marks)
        numbers = [str(hand_number(game, c)) for c in choices.marked]
        if not numbers:
            marked = "none marked yet"
        elif len(numbers) == 1:
            marked = f"card {numbers[0]} is marked"
        else:
            marked = f"cards {', '.join(numbers[:-1])} and {numbers[-1]} are marked"
        return _w(
            f"Enter marks or unmarks a card to give ({marked}); once {count} cards are marked you confirm, "
            "then they are final."
        )
    return None


def board_tags(game: PlayerView, slot: int, marked: Collection[int] = (), green: int | None = None) -> tuple[str, ...]:
    """What a card on the board is marked with: yours, your vote, the red marker; and on the dial, the cards marked
    now (`marked`) and the green vote chosen before the red marker (`green`)."""
    tags: list[str] = []
    if slot in game.forbidden_slots:
        tags.append("yours")
    if slot in game.your_votes:
        tags.append("your vote")
    if game.your_red == slot:
        tags.append("● red")
    if slot in marked:
        tags.append("✓ marked")
    if green is not None and slot == green:
        tags.append("✓ green")
    return tuple(tags)


def vote_note(view: TableView) -> Words | None:
    """The line under the board for whoever does not vote (None for a voter: the dial and the status line say it)."""
    game = view.game
    assert game is not None
    if game.can_vote:
        return None
    if view.you is None:
        return _w("You are watching the vote.")
    if game.storyteller == view.you:
        return _w("You are the storyteller: you do not vote. Your card is on the board.")
    if game.mode == Mode.TEAM:
        return _w("You do not vote this turn: your team's card is on the board.")
    return _w("You do not vote this turn.")


def ranked(game: PlayerView, scores: Sequence[tuple[int, int]]) -> list[tuple[int, int, int | None]]:
    """The final scores, highest first, each with its rank: equal scores share one (1, 1, 3); in team mode a team
    has one rank, on its first line (None on its teammates' lines)."""

    def team_of(seat: int) -> int | None:
        return game.players[seat].team if game.mode == Mode.TEAM and seat < len(game.players) else None

    order = sorted(scores, key=lambda p: (-p[1], team_of(p[0]) if team_of(p[0]) is not None else -1, p[0]))
    out: list[tuple[int, int, int | None]] = []
    ranked_teams: set[int] = set()
    for seat, score in order:
        team = team_of(seat)
        if team is None:
            out.append((seat, score, 1 + sum(1 for _, other in scores if other > score)))
            continue
        if team in ranked_teams:
            out.append((seat, score, None))
            continue
        ranked_teams.add(team)
        higher = {t for s, other in scores if other > score and (t := team_of(s)) is not None}
        out.append((seat, score, 1 + len(higher)))
    return out


def over_text(view: TableView, over: OverUpdate | None) -> Words:
    """The end of the game: who won, the final scores, and what now."""
    game = view.game
    assert game is not None
    if over is not None:
        scores = list(over.scores)
        winners = over.winners
    else:
        scores = [(p.seat, p.score) for p in game.players if p.active]
        winners = game.winners
    lines: list[Words] = []
    won = [seat_name(view, w) + (" (you)" if w == view.you else "") for w in winners]
    if winners and all(score == 0 for _, score in scores):  # ended by a removal: no winner to name
        lines.append(_w(("★ Game over: ", "bold"), f"{ENDED_BEFORE_SCORING}."))
        winners = ()
    elif game.mode == Mode.TEAM and winners:
        teams = sorted({t for w in winners if w < len(game.players) and (t := game.players[w].team) is not None})
        label = " and ".join(f"team {t + 1}" for t in teams)
        lines.append(_w(("★ Game over: ", "bold"), (label, "bold"), " (", name_list(won), ") won."))
    elif len(winners) > 1:
        lines.append(_w(("★ Game over: ", "bold"), name_list(won, 12), " share the win."))
    elif winners:
        lines.append(_w(("★ Game over: ", "bold"), name_list(won), " won."))
    elif game.turn == 0:
        lines.append(Words.styled("The practice ended: too few players are left to play, so nobody won.", "bold"))
    else:
        lines.append(Words.styled("Game over: too few players are left to play, so nobody won.", "bold"))
    lines.append(_w(""))
    lines.append(Words.styled("Final scores", "bold underline"))
    for seat, score, rank in ranked(game, scores):
        star = "★" if seat in winners else " "
        notes = ["you"] if seat == view.you else []
        if game.mode == Mode.TEAM and seat < len(game.players) and (t := game.players[seat].team) is not None:
            notes.append(f"team {t + 1}")
        about = f" ({', '.join(notes)})" if notes else ""  # "ana (you, team 1)"
        lines.append(
            _w(
                f"{rank:>2}. {star} " if rank else f"    {star} ",
                (f"{score:>3}", "bold"),
                "  ",
                (seat_name(view, seat), "bold" if seat == view.you else ""),
                about,
            )
        )
    if winners:
        lines.append(Words.styled("★ winner", "dim"))
    lines.append(_w(""))
    if view.is_host:
        lines.append(_w("Press m for a rematch: same seats and options, everyone moves to its lobby."))
    elif view.status == TableStatus.OVER and (host := host_name(view)) is not None:
        lines.append(_w("The host, ", (host, "bold"), ", can start a rematch: you would move there."))
    if game.last_reveal is not None:
        lines.append(_w("Press r to see the last turn's recap, l to leave the table."))
    else:  # no turn was played (the game ended at its first turn): there is no recap
        lines.append(_w("Press l to leave the table."))
    return LINES.join(lines)


# --- the status line ----------------------------------------------------------------------------------------------


def status_line(view: TableView, choices: Choices, now: float) -> Words:
    """The status line: what you should do now, and who the table waits for although they are offline."""
    content = status(view, choices)
    away_now = away(view, now)
    if away_now is not None:
        game, you = view.game, view.you
        others = [] if game is None else [s for s in game.waiting_for if s != you]
        only_away = all(seat in dict(view.stand_ins) for seat in others)
        idle = game is not None and you not in game.waiting_for
        # Nothing for you to do and only offline players awaited: say who and when, in a line that fits.
        content = away_now if idle and only_away else _w(content, " ", away_now)
    return _w(("▶ ", "bold"), content)


def away(view: TableView, now: float) -> Words | None:
    """Who the table waits for although they are offline, and when a stand-in plays for each: "A stand-in plays for
    cy in 0:45.", "Stand-ins play for cy in 0:45 and dan in 1:52." (the phase's own time is the top bar's)."""
    if not view.stand_ins or view.status != TableStatus.PLAYING:
        return None
    count = len(view.stand_ins)
    parts: list[str | tuple[str, str] | Words] = ["A stand-in plays for " if count == 1 else "Stand-ins play for "]
    for i, (seat, at) in enumerate(view.stand_ins):
        if i:
            parts.append(" and " if i == count - 1 else ", ")
        parts.append(_w((seat_name(view, seat), "bold"), f" in {clock(at - now)}"))
    return _w(*parts, ".")


def status(view: TableView, choices: Choices) -> Words:
    """What you should do now, in one sentence (player names as plain text)."""
    game = view.game
    if view.status == TableStatus.LOBBY or game is None:
        if view.you is None:
            host = host_name(view)
            if host is None:
                return _w("You are watching. Nobody sits at this table yet.")
            if view.start_problem is not None:  # (not the host's to start yet: more players, seen playing)
                return _w("You are watching. Waiting for players. ", view.start_problem)
            return _w("You are watching. Waiting for ", (host, "bold"), " to start.")
        if view.start_problem is not None:
            return _w("Waiting for players. ", view.start_problem)
        if view.is_host:
            return _w("Press s to start the game (p: practice turn first).")
        return _w("Waiting for ", (seat_name(view, view.host), "bold"), " (host) to start the game.")
    if game.phase == Phase.OVER or view.status == TableStatus.OVER:
        winners = choices.over.winners if choices.over is not None else game.winners
        won = [seat_name(view, w) for w in winners]
        active = [(p.seat, p.score) for p in game.players if p.active]
        scores = choices.over.scores if choices.over is not None else active
        recap = game.last_reveal is not None  # none when the game ended before a turn was played
        if view.is_host:
            keys = "m: rematch · r: recap · l: leave." if recap else "m: rematch · l: leave."
        else:
            keys = "r: last recap · l: leave the table." if recap else "l: leave the table."
        if not won:
            over = "The practice ended, nobody won. " if game.turn == 0 else "Game over, nobody won. "
            return _w(over, keys)
        if all(score == 0 for _, score in scores):  # ended by a removal: no winner to name
            return _w(f"Game over: {ENDED_BEFORE_SCORING}. ", keys)
        return _w("Game over: ", name_list(won, 12), " won. ", keys)
    waiting = names(view, game.waiting_for)
    you = view.you
    watching = "You are watching. " if you is None else ""
    if choices.writing_clue and not can_clue_now(view):
        return _w(f"{why_no_clue(view)}: your text is kept, not sent. Esc: your hand.")
    if game.phase == Phase.CLUE:
        if game.can_clue and (game.hand_hidden or not game.clue_needs_card):
            if choices.in_clue_box:
                return _w("Type your clue and press Enter (your hand stays hidden until then).")
            if game.storyteller is None:
                return _w("Anyone may give the first clue: press Enter to type it (hands stay hidden).")
            return _w("You are the storyteller: press Enter to type your clue (your hand is hidden).")
        if game.can_clue:
            first = "Anyone may give the first clue: " if game.storyteller is None else ""
            if choices.chosen is None:
                todo = "choose a card (↑↓, Enter), then type your clue."
            else:
                number = hand_number(game, choices.chosen)
                if choices.in_clue_box:
                    todo = f"type your clue for card {number} and press Enter."
                else:  # (after Esc: letters typed now go nowhere)
                    todo = f"card {number} chosen: press Enter to type your clue."
            return _w(first + todo if first else todo[0].upper() + todo[1:])
        if game.storyteller is None:
            return _w(watching + "Waiting for the first clue.")
        return _w(watching, "Waiting for ", (seat_name(view, game.storyteller), "bold"), " to give the clue.")
    if game.phase == Phase.SUBMIT:
        if game.submit_count:
            count = game.submit_count
            cards = "a card" if count == 1 else f"{count} cards"
            if game.mode == Mode.TEAM:
                mate = teammate(game, you)
                if mate is not None and mate == game.storyteller:
                    return _w(
                        "Your teammate ", (seat_name(view, mate), "bold"), " is telling: give the card that best fits."
                    )
                if mate is not None:
                    return _w(
                        "Your team gives one card: you or ",
                        (seat_name(view, mate), "bold"),
                        ". The first to give it submits; the other votes.",
                    )
            if game.mode == Mode.PARTY:
                return _w("Everyone gives a card, the storyteller too: choose one that fits the clue.")
            fit = "fits" if count == 1 else "fit"
            return _w(f"Choose {cards} that {fit} the clue (Enter), then confirm.")
        lead = watching
        if you is not None and you == game.storyteller:
            lead = "Your card is in. "
        elif you is not None and game.your_cards:
            lead = "Your card is in. " if len(game.your_cards) == 1 else "Your cards are in. "
        elif you is not None and game.mode == Mode.TEAM:
            lead = "You vote this turn. "
        if game.mode == Mode.TEAM:  # one card a team: a team's two players are "ana or dee", not a card each
            return _w(lead, "Waiting for ", team_cards(view, game.waiting_for), ".")
        # the rules are set at the start: two cards each only in a game that began with three (a removal that
        # leaves three keeps one each, as docs/rules.md says)
        per = 2 if game.mode == Mode.STANDARD and len(game.players) == 3 else 1
        # as short as the vote's line: at 80 columns it keeps to the one row the clue's line had (a second row laid
        # the screen out as the clue came, for every spectator and every player waiting)
        if per == 1:
            cards = "a card" if len(waiting) == 1 else "a card each"
        else:
            cards = "two cards" if len(waiting) == 1 else "two cards each"
        return _w(lead, f"Waiting for {cards} from ", name_list(waiting), ".")
    # vote
    if game.can_vote:
        if game.your_votes:
            votes = " and ".join(map(str, game.your_votes))
            red = f", red marker on {game.your_red}" if game.your_red is not None else ""
            return _w(
                f"Your vote: {votes}{red} (you can change it until everyone has voted). Waiting for ",
                name_list(waiting),
                ".",
            )
        if game.places_red:
            if choices.placing_red:
                return _w("Place the red marker: turn the dial, Enter sends both votes (Esc: back).")
            return _w("Vote: turn the dial to your green vote and press Enter; then place the red marker.")
        if game.votes_allowed > 1:
            return _w("Vote: turn the dial, Space marks one or two cards, Enter votes.")
        return _w("Vote: turn the dial and press Enter.")
    if you is not None and you == game.storyteller:
        return _w("You are the storyteller. Waiting for votes from ", name_list(waiting), ".")
    return _w(watching, "Waiting for votes from ", name_list(waiting), ".")


# --- refusals and notices -----------------------------------------------------------------------------------------


def why_no_clue(view: TableView) -> str:
    """Why the clue box cannot send now, in a few words (the notice adds "your text is kept")."""
    game = view.game
    if game_over(view):
        return "The game is over"
    if game is None or view.status != TableStatus.PLAYING:
        return "The game has not started"
    if game.phase == Phase.CLUE:
        return "" if game.can_clue else "It is not your turn to tell"
    teller = seat_name(view, game.storyteller)
    if view.stand_in_clue is not None and game.storyteller is not None:  # not a player's own clue: say whose
        why = "Time ran out" if view.stand_in_clue == StandInReason.TIME else f"{teller} was away"
        if game.storyteller == view.you:
            mine = "Time ran out" if view.stand_in_clue == StandInReason.TIME else "You were away"
            return f"{mine}: a stand-in gave your clue"
        return f"{why}: a stand-in gave the clue for {teller}"
    if game.storyteller == view.you:
        return "Your clue is already given"
    if game.turn == 1 and game.storyteller is not None:
        return f"{teller} gave the first clue"
    return f"{teller} gave the clue" if game.storyteller is not None else "The clue is given"


def clue_kept(view: TableView) -> str:
    """The notice when a clue typed cannot be sent (the turn moved on): the text stays in the box."""
    return f"{why_no_clue(view)}; your text is kept, not sent."


CLUE_EMPTY = "Type a clue first: a word, a sound, a line of a song..."
CLUE_NEEDS_CARD = "Choose the card for your clue first: ↑↓ then Enter."
CHAT_PAUSED = "Chat is paused until the reveal, so nobody can hint at a card."
NOTHING_TO_CHOOSE = "Nothing to choose now"  # the title of a notice that repeats the status line


def role_key(view: TableView) -> tuple[object, ...]:
    """What a key at the hand or the dial acts on: the phase and what you may do in it. A key typed for one of these
    never acts in the next (an Enter meant as "give this card", typed as the teammate gave the team's, voted)."""
    game = view.game
    if game is None:
        return (view.status,)
    return (view.status, game.turn, game.phase, game.can_clue, game.submit_count, game.can_vote, game.places_red)


BOX_KEYS_DROPPED = "The table moved on as you typed: your text is kept in its box; the keys after it did nothing."


def key_dropped(key: str) -> str:
    """The notice when a key typed for a step that just ended is dropped."""
    name = {"enter": "Enter", "space": "Space", "escape": "Esc", "tab": "Tab"}.get(key, key)
    return f"{name} did nothing: the table moved on as you pressed it. Look, then press it again."


def voided_notice(turn: int) -> str:
    what = "The practice turn" if turn == 0 else f"Turn {turn}"
    return f"{what} was voided: every card went back to its owner."


def moved_on(view: TableView, turn: int, phases: Collection[str]) -> str | None:
    """None while the table is still in `turn`, in one of `phases`; else what happened, in a few words."""
    game = view.game
    if game_over(view):
        return "the game is over"
    if view.status != TableStatus.PLAYING or game is None:
        return "the game has ended"
    if game.turn == turn and game.phase in phases:
        return None
    if game.turn == turn and game.phase == Phase.CLUE:
        return "the turn was voided"
    if game.turn != turn:
        return "the turn is over"
    return "the vote has begun" if game.phase == Phase.VOTE else "the turn moved on"


# --- questions ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Question:
    """A confirmation: its title, what it means, and the two answers."""

    title: str
    body: Words
    yes: str
    no: str


def seated(view: TableView) -> int:
    return len([s for s in view.seats if not s.removed])


def start_question(view: TableView, *, practice: bool) -> Question:
    n = seated(view)
    if practice:
        return Question(
            f"Start with a practice turn, {n} players?",
            _w(
                "You tell the practice turn's clue. It is played like any turn but counts for nothing; then every "
                "card is dealt again and the game begins.\n\nNobody can join as a player once it has started."
            ),
            "Start",
            "Not yet",
        )
    return Question(
        f"Start the game with {n} players?", _w("Nobody can join as a player once it has started."), "Start", "Not yet"
    )


def start_stale(view: TableView, players: int) -> str | None:
    """Why a "Start the game with `players` players?" asked earlier no longer stands (None: it does)."""
    if view.status != TableStatus.LOBBY:
        return "the game has started"
    if not (view.is_host and view.start_problem is None):
        return "the table cannot start now"
    now = seated(view)
    return None if now == players else f"the table now has {now} players"


ADD_BOT = Question(
    "Add a bot?",
    _w("A bot takes a free seat and plays its own cards. You can remove it with x before the start."),
    "Add",
    "Cancel",
)


def add_bot_stale(view: TableView, seats: int) -> str | None:
    """Why an "Add a bot?" asked with `seats` seats no longer stands (None: it does)."""
    if view.status != TableStatus.LOBBY or view.game is not None:
        return "the game has started"
    if not view.is_host or len(view.seats) >= view.options.max_seats():
        return "no seat is free now"
    return None if len(view.seats) == seats else "the seats changed"


REMATCH = Question(
    "Start a rematch?", _w("Everyone here moves to a new table with the same seats."), "Rematch", "Not now"
)


def rematch_stale(view: TableView) -> str | None:
    return None if view.status == TableStatus.OVER and view.is_host else "the table has moved on"


def void_question(view: TableView) -> Question:
    game = view.game
    assert game is not None
    teller = seat_name(view, game.storyteller)
    body = _w(
        f"Void {'the practice turn' if game.turn == 0 else f'turn {game.turn}'}? Every card given this turn goes "
        "back to its owner, scores stay as they are, and ",
        (teller, "bold"),
        " gives a new card and clue.\n\nEveryone at the table sees the void in the log and as a notice.",
    )
    return Question("Void this turn?", body, "Void the turn", "Keep playing")


VOID_PHASES = (Phase.SUBMIT, Phase.VOTE)  # a turn may be voided once its clue is given, until the reveal

REMOVE_TITLE = "Remove which player?"
LOCK_TITLE = "Who may join this table?"
LOCKS = (TableLock.OPEN, TableLock.CODE, TableLock.INVITED)
INVITE_TEXT = "Who may join? Type their name as they will use it (with the table locked to those invited)."
_LOCK_LABELS = {
    TableLock.OPEN: "Anyone (the lobby lists it)",
    TableLock.CODE: "Only people who have its code",
    TableLock.INVITED: "Only people you invite",
}


def lock_choices(view: TableView) -> list[Words]:
    """The host's choices for the table's lock (the current one marked), then "Invite a player"."""
    out = [_w("✓ " if view.lock is lock else "  ", _LOCK_LABELS[lock]) for lock in LOCKS]
    invited = f" ({', '.join(view.invited)})" if view.invited else ""
    out.append(_w("  Invite a player…", invited))
    return out


def remove_choices(view: TableView, marker: Callable[[int], str]) -> list[tuple[int, Words]]:
    """The players the host may remove, each as (seat, label): its marker, name, and whether it is offline; during
    a game, last, yourself (anyone may leave the game for good)."""
    seats = [
        (info.seat, _w((marker(info.seat), "bold"), "  ", info.name, "" if info.connected else " (offline)"))
        for info in view.seats
        if view.is_host and not info.removed and info.seat != view.you
    ]
    you = view.you
    if view.status == TableStatus.PLAYING and you is not None and not view.seats[you].removed:
        seats.append((you, _w((marker(you), "bold"), "  ", view.seats[you].name, " (you: leave the game for good)")))
    return seats


def remove_question(view: TableView, seat: int) -> Question:
    name = seat_name(view, seat)
    if seat == view.you and view.status == TableStatus.PLAYING:
        body = _w(
            "Leave the game for good? You cannot come back, and you go back to the lobby (you may watch the game). "
            "If a turn is under way it is voided first: every card returns to its owner."
        )
        return Question("Leave for good?", body, "Leave for good", "Stay")
    if view.status == TableStatus.LOBBY:
        body = _w("Remove ", (name, "bold"), " from the table? Their seat is freed.")
    else:
        body = _w(
            "Remove ",
            (name, "bold"),
            " from the game for good? They cannot come back. If a turn is under way it is voided first: "
            "every card returns to its owner.",
        )
    return Question("Remove a player?", body, "Remove", "Cancel")


def remove_stale(view: TableView, seat: int, name: str) -> str | None:
    """Why "Remove `name`?" no longer stands (None: it does)."""
    if view.status == TableStatus.OVER:
        return "the game is over"
    if seat >= len(view.seats) or view.seats[seat].removed:
        return f"{name} has already left"
    return None


def come_back(view: TableView, *, with_key: bool) -> str:
    """How to get your seat back after leaving a game, as it really works: with your SSH key (`with_key`), join the
    table again; without one, join it under your name and type your reconnect code (or type the code after r)."""
    code, rc = view.code, view.reconnect_code
    if with_key:
        also = f", or use your reconnect code {rc}" if rc else ""
        return f"Your seat is kept: join {code} again with the same SSH key{also}."
    if rc is None:
        return f"Your seat is kept: join {code} again to get it back."
    name = seat_name(view, view.you)
    return (
        f"Your seat is kept. Your reconnect code is {rc}: write it down. To come back, join {code} as {name} "
        "and type the code, or press r in the lobby and type it."
    )


def leave_question(view: TableView, *, with_key: bool) -> Question:
    if view.status == TableStatus.PLAYING and view.you is not None:
        # stepping away (the seat is kept) is not leaving for good (x, then yourself): the dialog says which it is
        host = " You are the host: if you stay away, another player takes over." if view.is_host else ""
        how = "press x at the table and pick yourself" if view.is_host else "press x at the table"
        body = _w(
            come_back(view, with_key=with_key) + " While you are away, the game may wait for you." + host,
            f"\n\nTo leave the game for good instead, {how}.",
        )
        return Question(f"Leave table {view.code}?", body, "Step away", "Stay")
    elif view.status == TableStatus.LOBBY and view.you is not None:
        body = _w("Your seat is freed.")
    else:
        body = _w("Back to the lobby.")
    return Question(f"Leave table {view.code}?", body, "Leave", "Stay")


def submit_question(game: PlayerView, cards: Sequence[str]) -> Question:
    """ "Give this card?" with the clue and the cards' texts."""
    texts = {c.card: c.text for c in game.hand}
    parts: list[str | tuple[str, str] | Words] = ["Clue: ", (f"“{game.clue or ''}”", "bold"), "\n\n"]
    for card in cards:
        parts.extend([(f"{hand_number(game, card)}. ", "bold"), texts.get(card, ""), "\n"])
    parts.append("\nOnce given, a card cannot be taken back.")
    if len(cards) > 1:
        return Question("Give these cards?", _w(*parts), "Give them", "Not yet")
    return Question("Give this card?", _w(*parts), "Give it", "Not yet")


def submit_stale(view: TableView, turn: int, *, many: bool) -> str | None:
    """Why a "Give this card?" asked in `turn` no longer stands (None: it does)."""
    moved = moved_on(view, turn, (Phase.SUBMIT,))
    if moved is None and view.game is not None and not view.game.submit_count:
        if view.game.mode == Mode.TEAM:
            return "your team's card is in"
        return "your cards are already in" if many else "your card is already in"
    return moved


# --- the practice turn --------------------------------------------------------------------------------------------

HEADLINE = "Practice turn: this does not count."


def practice_help(view: TableView) -> Words | None:
    """The practice turn's help beside the table: for the phase in progress and the reader's role, what happens
    now. None when no practice turn (turn 0, unscored, told by the host) is under way."""
    game = view.game
    if game is None or not game.practice:
        return None
    you = view.you
    teller = game.name_of(game.storyteller) or "The storyteller"
    party = game.mode == Mode.PARTY
    team = game.mode == Mode.TEAM
    telling = you is not None and you == game.storyteller
    if game.phase == Phase.CLUE:
        if telling and party:
            text = (
                "You are the storyteller. Give a clue: a word, a sound, a line of a song. There is no card of yours "
                "to describe: everyone, you too, then gives a card that fits it."
            )
        elif telling:
            text = (
                "You are the storyteller. Choose a card from your hand and give a clue about it. Not too obvious, "
                "not too vague: if everyone or nobody finds your card, you score nothing."
            )
        elif party:
            text = f"{teller} is the storyteller and gives a clue. Then everyone gives a card that fits it."
        else:
            text = (
                f"{teller} is the storyteller: they choose a card and give a clue about it. Then you add a card of "
                "your own that fits the clue, to draw votes."
            )
    elif game.phase == Phase.SUBMIT:
        if game.submit_count:
            text = (
                "Choose the card of your hand that fits the clue best. The others vote without knowing whose card "
                "is whose: each vote on your card scores you a point."
            )
            if team:
                text += " In team mode one of you gives your team's card: agree in team chat (T) first."
        elif telling:
            text = "Your card is in. The others now add cards that fit your clue."
        else:
            text = "The cards are coming in. Once all are in, they are shuffled and laid out, numbered."
    elif game.phase == Phase.VOTE:
        if game.places_red:
            text = (
                "Give your green vote, and put the red marker on any card: whoever voted for the red card scores "
                "nothing."
            )
        elif party and you is not None:
            text = (
                "Vote for the card you think most others pick: you score one point for each player on the same "
                "card (at most 5). Your own card is allowed."
            )
        elif telling:
            text = "The others now look for your card. You score 3 if some of them find it, but not all."
        elif you is not None and you not in game.waiting_for and not game.your_votes:
            text = "Your team's card is on the board: this turn you watch the vote."
        else:
            text = (
                f"Find {teller}'s card: turn the dial and vote. Finding it scores 3 when some but not all find it. "
                "You cannot vote for your own card."
            )
    else:
        text = "The practice is over: every card is dealt again, and the game begins."
    if you is None:
        text = "You are watching the table play a practice turn. " + text
    return _w((HEADLINE, "bold"), " ", text)
