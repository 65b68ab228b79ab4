"""The wall before the game (a team on a video call shares a spectator's screen while people join), as data.

The table's code in big letters and the shell command that joins it, the game's options, the seats taken and free,
and what the table waits for. Player text only ever plain text in a segment.
"""

from __future__ import annotations

from dixit_tui.coordinator import TableView
from dixit_tui.coordinator.models import TableLock
from dixit_tui.engine import Mode, Profile, player_range, profile_for
from dixit_tui.engine.config import players_wanted
from dixit_tui.tui import table_words as words
from dixit_tui.tui.seat_rows import seat_marker
from dixit_tui.tui.table_words import Words
from dixit_tui.tui.wall_drawing import Line, Pen, box, centred, clue_banner, fit, side_by_side, width_of, wrap

SEATS_WIDTH = 44  # a column of seats


def options_line(view: TableView, pen: Pen) -> Words:
    """The game's kind and its options, in one line."""
    options = view.options
    mode = Mode(options.mode)
    low, high = player_range(mode, profile_for(mode, Profile(options.profile)))
    dot = f" {pen.marks.dot} "
    parts = [f"{str(options.label()).capitalize()} game", players_wanted(low, options.seats or high)]
    if mode == Mode.STANDARD:
        parts.append(f"first to {options.target} points")
    else:
        parts.append(f"everyone tells {words.times(options.storytells)}")
    if options.turn_seconds:
        parts.append(f"{words.time_limit(options.turn_seconds)} per step")
    if options.reveal_seconds:
        parts.append(f"reveals held {options.reveal_seconds} s")
    if options.chat_pause:
        parts.append("chat pauses during each turn")
    return Words.of(dot.join(parts))


def seat_rows(view: TableView, pen: Pen, width: int) -> list[Line]:
    """The seats, one a line (the free ones too, up to a dozen), in columns of `SEATS_WIDTH` across `width`."""
    taken = [s for s in view.seats if not s.removed]
    total = view.options.seats or view.options.max_seats()
    rows: list[Line] = []
    for info in taken:
        about = [w for w, on in (("host", info.host), ("bot", info.bot), ("offline", not info.connected)) if on]
        tail = f" ({', '.join(about)})" if about else ""
        rows.append(pen.line((f" {seat_marker(info.seat)}  ", "bold"), (info.name, "bold"), (tail, "italic")))
    for n in range(len(taken), min(total, 12)):
        rows.append(pen.line((f" {seat_marker(n)}  ", "dim"), (f"{pen.marks.dot} free {pen.marks.dot}", "dim")))
    columns = max(1, min(3, width // (SEATS_WIDTH + 2)))
    height = -(-len(rows) // columns)
    blocks = [([fit(r, SEATS_WIDTH) for r in rows[c * height : (c + 1) * height]], SEATS_WIDTH) for c in range(columns)]
    blocks = [b for b in blocks if b[0]]
    inner = len(blocks) * SEATS_WIDTH + 2 * max(0, len(blocks) - 1)
    return [centred(line, width) for line in side_by_side(blocks)] if inner <= width else rows


def _fewest(view: TableView) -> int:
    """The fewest players the table's game can start with."""
    mode = Mode(view.options.mode)
    return player_range(mode, profile_for(mode, Profile(view.options.profile)))[0]


def heading(view: TableView) -> str:
    """The head line's few words on what the table waits for (`waits_for` says it in full, under the seats)."""
    more = _fewest(view) - sum(not s.removed for s in view.seats)
    if more > 0:
        return f"waiting for {words.plural(more, 'more player')}"
    if view.start_problem is not None or words.host_name(view) is None:
        return "not ready to start"
    return "waiting for the host to start"


def waits_for(view: TableView) -> Words:
    """What the table waits for before its game can start."""
    taken = sum(not s.removed for s in view.seats)
    low = _fewest(view)
    if taken < low:
        more = low - taken
        return Words.of("Waiting for ", (words.plural(more, "more player"), "bold"), f": {low} are needed to start.")
    host = words.host_name(view)
    if view.start_problem is not None or host is None:
        return Words.of("Waiting: ", view.start_problem or "the table has no host.")
    return Words.of("Ready: waiting for the host, ", (host, "bold"), ", to start the game.")


def lobby_lines(view: TableView, join: str, width: int, pen: Pen, *, big: bool) -> tuple[list[Line], list[Line]]:
    """The lobby's picture: its head (the keys, the code big, how to join) and its body (the options, the seats, what
    the table waits for)."""
    dot = pen.marks.dot
    keys = pen.line(("You are watching", "bold"), f" {dot} l: leave the table {dot} c: chat {dot} F1: help")
    taken = sum(not s.removed for s in view.seats)
    total = view.options.seats or view.options.max_seats()
    head: list[Line] = [centred(keys, width), []]
    head.append(centred(pen.line(("Table", "bold"), " ", dot, f" {heading(view)}"), width))
    head.append([])
    head.extend(clue_banner(pen, view.code, width, big=big))
    head.append([])
    if not words.seats_free(view):  # nobody more can join: say so, not how to join
        how = [pen.line((words.ALL_SEATS_TAKEN, "bold"))]
    elif view.lock == TableLock.INVITED:
        how = [pen.line(("Only the people the host invited can sit at this table.", "bold"))]
    else:
        how = [
            pen.line("Join from your shell (", ("NAME", "bold"), ": the name you play under):"),
            [],
            pen.line((join, "bold")),
        ]
        if view.lock == TableLock.OPEN:
            how.append([])
            how.append(pen.line(f"or pick table {view.code} in the lobby's list."))
    inner = min(width, max(width_of(line) for line in how) + 8)
    framed = box(pen, [[], *[centred(line, inner - 4) for line in how], []], inner, [])
    head.extend(centred(line, width) for line in framed)
    head.append([])
    body: list[Line] = [centred(line, width) for line in wrap(pen.words(options_line(view, pen), "italic"), width)]
    body.append([])
    free = max(0, total - taken)
    seats = Words.of(
        ("Seats", "bold underline"), f": {taken} of {total} taken", f", {free} more can sit" if free else ", all taken"
    )
    body.append(centred(pen.words(seats), width))
    body.append([])
    body.extend(seat_rows(view, pen, width))
    body.append([])
    body.extend(centred(line, width) for line in wrap(pen.words(waits_for(view), "bold"), width))
    return [fit(line, width) for line in head], [fit(line, width) for line in body]
