"""The wall: a spectator's table as one picture for a big screen (a team on a video call shares it), as data.

From `WALL_SIZE` (160x48) a spectator's table screen shows instead of its panes: the clue in big letters, every card
in full, the seats with scores and who the table waits for, and the turn's reveal in full until the next clue.
A picture is kept per (what it shows, size, capabilities): one more spectator of a size costs a lookup (`counts`).
Player text is only ever plain text in a segment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dixit_tui.coordinator import TableView
from dixit_tui.coordinator.models import TableStatus
from dixit_tui.engine import Mode, Phase, Reveal
from dixit_tui.engine.reveal import Outcome, SlotResult
from dixit_tui.tui import table_words as words
from dixit_tui.tui.capabilities import Capabilities
from dixit_tui.tui.picture import Picture, PictureCache
from dixit_tui.tui.seat_rows import SeatLine, seat_lines
from dixit_tui.tui.table_words import Words
from dixit_tui.tui.wall_drawing import (
    GAP,
    Line,
    Pen,
    box,
    centred,
    clue_banner,
    fit,
    from_text,
    side_by_side,
    width_of,
    wrap,
)
from dixit_tui.tui.wall_lobby import lobby_lines
from dixit_tui.tui.wall_over import over_lines
from dixit_tui.tui.widgets.recap import outcome_sentence

WALL_SIZE = (160, 48)
"""The smallest terminal (columns, rows) whose spectator gets the wall."""

SIDE = 38  # the seats column's width
CARD_MIN = 30  # a card's narrowest box
PICTURES_MAX = 256
LINES_MAX = 8192


@dataclass(frozen=True, slots=True)
class Local:
    """What the wall shows beyond the view: the screen's own choices and what the server says of itself."""

    join: str = ""  # the shell command that joins the table (the lobby's "From your shell" words, for NAME)
    final_reveal: bool = False  # the game is over and its last turn's reveal is still held on the wall


NOTHING_LOCAL = Local()


def wall_wanted(view: TableView | None, width: int, height: int) -> bool:
    """Whether a table screen of `width` x `height` shows `view` as the wall."""
    return view is not None and width >= WALL_SIZE[0] and height >= WALL_SIZE[1] and wall_shows(view)


def wall_shows(view: TableView) -> bool:
    """Whether the wall has a picture of `view`: a spectator's, in the lobby, while a game is played and at its end."""
    if view.you is not None:
        return False
    return view.status == TableStatus.LOBBY or view.game is not None


def final_reveal_due(view: TableView) -> bool:
    """Whether `view` is a game just over whose last turn's reveal the wall holds before the final standings (as
    long as the table holds its reveals: `reveal_seconds`)."""
    game = view.game
    return (
        game is not None
        and game.phase == Phase.OVER
        and game.last_reveal is not None
        and game.last_reveal.turn == game.turn
        and view.options.reveal_seconds > 0
    )


def heading(pen: Pen, view: TableView, reveal: Reveal | None, width: int) -> list[Line]:
    """The line above the clue: which turn, which step, who told it."""
    game = view.game
    assert game is not None
    dot = f" {pen.marks.dot} "
    if reveal is not None:
        what = "The practice turn, revealed" if reveal.turn == 0 else f"Turn {reveal.turn}, revealed"
        teller = (words.seat_name(view, reveal.storyteller), "bold")
        return [centred(pen.line((what, "bold"), dot, "the clue, told by ", teller, ", was:"), width)]
    what = "The practice turn" if game.practice else f"Turn {game.turn}"
    step = "the vote" if game.phase == Phase.VOTE else "the cards come in"
    teller = (words.seat_name(view, game.storyteller), "bold")
    by = " (a stand-in's)" if view.stand_in_clue is not None else ""
    return [centred(pen.line((what, "bold"), dot, step, dot, "the clue, told by ", teller, by, ":"), width)]


def waiting_words(view: TableView, pen: Pen) -> Words:
    """What the table waits for, as the wall says it."""
    game = view.game
    assert game is not None
    waiting = words.names(view, game.waiting_for)
    if game.phase == Phase.CLUE:
        writers = words.names(view, view.typing)
        if writers:
            verb = "is" if len(writers) == 1 else "are"
            return Words.of(words.name_list(writers), f" {verb} writing a clue{pen.marks.more}")
        if game.storyteller is None:
            return Words.of("Waiting for the first clue: anyone may give it.")
        return Words.of("Waiting for ", (words.seat_name(view, game.storyteller), "bold"), " to give the clue.")
    if game.phase == Phase.SUBMIT and game.mode == Mode.TEAM:  # one card a team, from either of its players
        return Words.of("The cards come in: waiting for ", words.team_cards(view, game.waiting_for), ".")
    if game.phase == Phase.SUBMIT:
        return Words.of("The cards come in: waiting for ", words.name_list(waiting, 12), ".")
    return Words.of("The vote: waiting for ", words.name_list(waiting, 12), ".")


def card_grid(
    pen: Pen,
    cards: Sequence[list[Line]],
    titles: Sequence[tuple[Line, bool]],
    width: int,
    footers: Sequence[list[Line]] = (),
) -> list[Line]:
    """Cards (their text's lines, and their footers' at the bottom of each box, made for `card_inner`) in rows of
    boxes across `width`."""
    count = len(cards)
    if not count:
        return []
    columns = grid_columns(count, width)
    card_width = (width - GAP * (columns - 1)) // columns
    out: list[Line] = []
    for first in range(0, count, columns):
        row = range(first, min(count, first + columns))
        foot = [footers[i] if i < len(footers) else [] for i in range(count)]
        tallest = max(len(cards[i]) + len(foot[i]) for i in row)
        blocks = []
        for i in row:
            body = cards[i] + [[]] * (tallest - len(cards[i]) - len(foot[i])) + foot[i]
            title, heavy = titles[i]
            blocks.append((box(pen, body, card_width, title, heavy=heavy, spec="bold" if heavy else ""), card_width))
        if out:
            out.append([])
        out.extend(side_by_side(blocks))
    return out


def grid_columns(count: int, width: int) -> int:
    """How many cards side by side: as many as fit at `CARD_MIN` cells, in rows as even as can be."""
    most = max(1, min(count, (width + GAP) // (CARD_MIN + GAP)))
    rows = -(-count // most)
    return -(-count // rows)


def card_inner(count: int, width: int) -> int:
    columns = grid_columns(count, width)
    return (width - GAP * (columns - 1)) // columns - 4


def board_cards(pen: Pen, view: TableView, width: int) -> list[Line]:
    game = view.game
    assert game is not None
    inner = card_inner(len(game.board), width)
    bodies = [wrap(pen.line(slot.text), inner) for slot in game.board]
    titles = [(pen.line((f" {slot.slot} ", "bold")), False) for slot in game.board]
    return card_grid(pen, bodies, titles, width)


def reveal_cards(pen: Pen, view: TableView, reveal: Reveal, width: int) -> list[Line]:
    inner = card_inner(len(reveal.slots), width)
    game = view.game
    teams = {p.seat: p.team for p in game.players} if game is not None else {}
    bodies: list[list[Line]] = []
    footers: list[list[Line]] = []
    titles: list[tuple[Line, bool]] = []
    for slot in reveal.slots:
        teller = slot.owner == reveal.storyteller
        bodies.append(wrap(pen.line(slot.text or "(card text not available)"), inner))
        foot: list[Line] = [[]]
        foot.extend(wrap(pen.words(whose(view, reveal, slot, teams, pen)), inner))
        foot.extend(wrap(pen.words(voters(view, slot)), inner))
        if slot.red:
            foot.append(pen.line((f"{pen.marks.red} red marker: its votes score 0", "bold red")))
        footers.append(foot)
        name = words.seat_name(view, slot.owner)
        if teller:
            title = pen.line((f" {slot.slot} {pen.marks.teller} ", "bold"), (name, "bold"), ("'s card ", "bold"))
        else:
            title = pen.line((f" {slot.slot} ", "bold"))
        titles.append((title, teller))
    return card_grid(pen, bodies, titles, width, footers)


def whose(view: TableView, reveal: Reveal, slot: SlotResult, teams: dict[int, int | None], pen: Pen) -> Words:
    name = words.seat_name(view, slot.owner)
    team = teams.get(slot.owner)
    of_team = f", team {team + 1}" if team is not None else ""
    if slot.owner == reveal.storyteller:
        return Words.of((f"{pen.marks.teller} storyteller: ", "bold"), (name, "bold"), of_team)
    return Words.of("given by ", (name, "bold"), of_team)


def voters(view: TableView, slot: SlotResult) -> Words:
    if not slot.votes:
        return Words.of(("no votes", "italic"))
    names = [words.seat_name(view, seat) for seat in slot.votes]
    return Words.of(f"{len(names)} vote{'s' if len(names) != 1 else ''}: ", words.name_list(names, 12))


def seats_column(pen: Pen, view: TableView, reveal: Reveal | None, width: int) -> list[Line]:
    """The seats: each with its score (and the points gained, during a reveal), and what the table waits for."""
    game = view.game
    assert game is not None
    out: list[Line] = [pen.line(("Players", "bold underline"))]
    lines = seat_lines(view)
    if reveal is not None:  # the storyteller of the turn revealed, not of the next one
        lines = tuple(_as_in(line, reveal) for line in lines)
    for line in lines:
        gained = ""
        if reveal is not None and (points := next((p for p in reveal.points if p.seat == line.seat), None)):
            gained = f"+{points.delta}" if points.delta >= 0 else str(points.delta)
        score = "" if line.score is None else str(line.score)
        tail = f"{score:>4} {gained:>3}" if reveal is not None else f"{score:>4}"
        mark = pen.marks.teller if line.storyteller else " "
        name_room = width - 4 - len(tail)
        name = words.Words.of((line.name, "dim strike" if line.removed else "bold"))
        head = fit([pen.seg(f"{line.marker} {mark} ", "bold"), *pen.words(name)], name_room)
        out.append([*head, pen.seg(" "), pen.seg(tail, "bold")])
        about = [w.replace("…", pen.marks.more) for w in line.words() if w != "storyteller" or reveal is None]
        if line.storyteller:
            about = [
                "told this turn" if reveal is not None else "storyteller",
                *[a for a in about if a != "storyteller"],
            ]
        if about:
            spec = "italic yellow" if line.waiting or line.typing else "italic"
            out.append(fit([pen.seg("     " + f" {pen.marks.dot} ".join(about), spec)], width))
    if reveal is not None:
        out.append([])
        out.extend(wrap(pen.words(Words.of(("+n", "bold"), ": the points each gained this turn.")), width))
    return out


def _as_in(line: SeatLine, reveal: Reveal) -> SeatLine:
    return line._replace(storyteller=line.seat == reveal.storyteller, waiting=False, typing=False)


def reveal_shown(view: TableView) -> Reveal | None:
    """The reveal the wall shows: the last turn's, from its scoring until the next clue (held by the table or not)."""
    game = view.game
    if game is None or game.last_reveal is None:
        return None
    last = game.last_reveal
    if game.phase == Phase.CLUE and last.turn == game.turn - 1:
        return last
    if game.phase == Phase.CLUE and game.practice is False and last.turn == 0 and game.turn == 1:
        return last
    return None


def last_turn(pen: Pen, view: TableView, reveal: Reveal, width: int) -> list[Line]:
    """The heading of the last turn's cards, shown while this turn's cards come in."""
    what = "The practice turn" if reveal.turn == 0 else f"Turn {reveal.turn}"
    quoted = f"{pen.marks.open_quote}{reveal.clue}{pen.marks.close_quote}"
    teller = words.seat_name(view, reveal.storyteller)
    line = Words.of((f"{what}, as it ended: ", "bold"), "the clue ", (quoted, "bold"), ", told by ", (teller, "bold"))
    return wrap(pen.words(line), width)


def outcome(pen: Pen, view: TableView, reveal: Reveal, width: int) -> list[Line]:
    game = view.game
    assert game is not None
    names = [s.name for s in view.seats]
    teller = words.seat_name(view, reveal.storyteller)
    slot = next((s for s in reveal.slots if s.owner == reveal.storyteller), None)
    red = next((s for s in reveal.slots if s.red), None)
    if reveal.outcome == Outcome.PARTY or slot is None:
        on = f" and put the red marker on card {red.slot}" if red is not None else ""
        first = Words.of((teller, "bold"), f" told it{on}.")
    elif reveal.outcome == Outcome.ALL:
        first = Words.of((teller, "bold"), f"'s card was {slot.slot}: everyone found it.")
    elif reveal.outcome == Outcome.NONE:
        first = Words.of((teller, "bold"), f"'s card was {slot.slot}: nobody found it.")
    else:
        finders = [words.seat_name(view, s) for s in slot.votes]
        first = Words.of((teller, "bold"), f"'s card was {slot.slot}: found by ", words.name_list(finders, 12), ".")
    sentence = from_text(outcome_sentence(reveal, names, str(game.mode), None))
    out = [centred(line, width) for line in wrap(pen.words(first), width)]
    out.extend(centred(line, width) for line in wrap(pen.words(sentence, "italic"), min(width, 150)))
    return out


def wall_lines(
    view: TableView, width: int, height: int, caps: Capabilities, local: Local = NOTHING_LOCAL
) -> list[Line]:
    """The lobby, the game or its end, `width` cells wide: the big letters smaller when the picture would be taller
    than `height` with them at their biggest (then as tall as it needs: the wall scrolls)."""
    head, body = _scene(view, width, caps, local, big=True)
    if len(head) + len(body) > height:
        head, body = _scene(view, width, caps, local, big=False)
    space = min(3, max(0, height - len(head) - len(body)) // 3)  # some of the room left, above and below the clue
    blank: list[Line] = [fit([], width)]
    return [*head[:1], *blank * space, *head[1:], *blank * space, *body]


def _scene(
    view: TableView, width: int, caps: Capabilities, local: Local, *, big: bool
) -> tuple[list[Line], list[Line]]:
    pen = Pen(caps)
    game = view.game
    if view.status == TableStatus.LOBBY or game is None:
        return lobby_lines(view, local.join, width, pen, big=big)
    if game.phase == Phase.OVER and not (local.final_reveal and final_reveal_due(view)):
        return over_lines(view, width, pen, big=big)
    return _wall_lines(view, width, pen, big=big)


def _wall_lines(view: TableView, width: int, pen: Pen, *, big: bool) -> tuple[list[Line], list[Line]]:
    """The picture's head (the keys, the clue and how the turn went) and its body (the cards, the seats); at the
    end of the game, its last turn's reveal."""
    game = view.game
    assert game is not None
    final = game.phase == Phase.OVER
    reveal = game.last_reveal if final else reveal_shown(view)
    out: list[Line] = [
        centred(
            pen.line(
                ("You are watching", "bold"),
                " ",
                pen.marks.dot,
                " l: leave the table ",
                pen.marks.dot,
                " c: chat ",
                pen.marks.dot,
                " F1: help",
            ),
            width,
        ),
        [],
    ]
    clue = reveal.clue if reveal is not None else game.clue
    if clue is not None:
        out.extend(heading(pen, view, reveal, width))
        out.append([])
        out.extend(clue_banner(pen, clue, width, big=big))
        out.append([])
        if reveal is not None:
            out.extend(outcome(pen, view, reveal, width))
            out.append([])
        now = waiting_words(view, pen) if not final else Words.of("That was the last turn: the final standings next.")
        if reveal is not None and not final:  # (the clue above is the last turn's)
            first, *rest = now.parts
            now = Words.of("Now: ", (first[0][:1].lower() + first[0][1:], first[1]), *rest)
        out.extend(centred(line, width) for line in wrap(pen.words(now, "bold"), width))
    else:
        message = [pen.line(("Turn " + str(game.turn) if not game.practice else "The practice turn", "bold"))]
        message.extend(wrap(pen.words(waiting_words(view, pen)), width - 8))
        inner = max(width_of(line) for line in message) + 4
        out.extend(centred(line, width) for line in box(pen, [centred(m, inner - 4) for m in message], inner, []))
    out.append([])
    head = [fit(line, width) for line in out]
    main = width - SIDE - GAP
    if reveal is not None:
        cards = reveal_cards(pen, view, reveal, main)
    elif game.phase == Phase.VOTE:
        cards = board_cards(pen, view, main)
    elif game.phase == Phase.SUBMIT and (last := game.last_reveal) is not None and last.turn == game.turn - 1:
        cards = [*last_turn(pen, view, last, main), [], *reveal_cards(pen, view, last, main)]
    else:
        cards = []
    body = side_by_side([(cards, main), (seats_column(pen, view, reveal, SIDE), SIDE)])
    return head, [fit(line, width) for line in body]


# --- the pictures kept ----------------------------------------------------------------------------------------------


_cache = PictureCache(pictures=PICTURES_MAX, lines=LINES_MAX)
counts = _cache.counts


def picture_key(view: TableView) -> tuple[object, ...]:
    """Everything the picture reads of `view` (equal keys: the same picture)."""
    game = view.game
    held = view.reveal_until is not None
    shown = (view.code, view.version, view.status, view.seats, view.typing, view.stand_in_clue, held)
    if game is None:  # the lobby
        return (*shown, view.options, view.lock, view.start_problem, view.host)
    return (
        *shown,
        view.host,
        view.options,
        game.mode,
        game.practice,
        game.phase,
        game.turn,
        game.storyteller,
        game.clue,
        game.board,
        game.players,
        game.waiting_for,
        game.last_reveal,
    )


def wall_picture(view: TableView, width: int, height: int, caps: Capabilities, local: Local = NOTHING_LOCAL) -> Picture:
    """The wall for `view` at `width` x `height`: one picture object for every spectator of that size and caps."""
    key = (picture_key(view), width, height, caps, local)
    return _cache.picture(key, width, lambda: wall_lines(view, width, height, caps, local))
