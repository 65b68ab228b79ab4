"""The wall at the end of the game (a team on a video call shares a spectator's screen), as data.

The winners in big letters, the final standings with a bar for each score, and what happens next (a rematch, or
the table closes). Player text only ever plain text in a segment.
"""

from __future__ import annotations

from dixit_tui.coordinator import TableView
from dixit_tui.coordinator.models import ENDED_BEFORE_SCORING
from dixit_tui.engine import Mode, PlayerView
from dixit_tui.tui import table_words as words
from dixit_tui.tui.table_words import Words
from dixit_tui.tui.wall_drawing import Line, Pen, centred, clue_banner, fit, wrap

BAR_MOST = 90  # the longest score bar, in cells
NAME_ROOM = 24


def winners_of(view: TableView) -> tuple[str, Words]:
    """What the banner says (the winners' names, a team, or "game over" when nobody won) and the line under it."""
    game = view.game
    assert game is not None
    scores = [p.score for p in game.players if p.active]
    winners = [w for w in game.winners if w < len(game.players)]
    names = [words.seat_name(view, w) for w in winners]
    top = max(scores, default=0)
    if not winners or all(score == 0 for score in scores):
        why = ENDED_BEFORE_SCORING if winners else "too few players are left to play, so nobody won"
        return "Game over", Words.of(f"{why[:1].upper()}{why[1:]}.")
    if game.mode == Mode.TEAM:
        teams = sorted({t for w in winners if (t := game.players[w].team) is not None})
        label = " and ".join(f"team {t + 1}" for t in teams)
        return label, Words.of(
            (label.capitalize(), "bold"), " (", words.name_list(names, 12), f") won with {words.plural(top, 'point')}."
        )
    if len(names) > 1:  # (more than two names in big letters would fill the wall)
        banner = f"{len(names)} winners" if len(names) > 2 else " and ".join(names)
        return banner, Words.of(words.name_list(names, 12), f" share the win with {words.plural(top, 'point')}.")
    return names[0], Words.of((names[0], "bold"), f" won with {words.plural(top, 'point')}.")


def standings(pen: Pen, view: TableView, width: int) -> list[Line]:
    """The final standings: rank, the winners starred, name (and team), score and a bar as long as the score."""
    game = view.game
    assert game is not None
    scores = [(p.seat, p.score) for p in game.players if p.active]
    top = max([score for _, score in scores] + [game.target if game.mode == Mode.STANDARD else 1, 1])
    most = min(BAR_MOST, width - NAME_ROOM - 20)
    star = "*" if pen.marks.ink == "#" else "★"
    rows: list[Line] = [pen.line(("Final standings", "bold underline"))]
    for seat, score, rank in words.ranked(game, scores):
        won = seat in game.winners and any(s for _, s in scores)
        team = game.players[seat].team if game.mode == Mode.TEAM else None
        name = words.seat_name(view, seat) + (f" (team {team + 1})" if team is not None else "")
        bar = pen.marks.ink * max(1 if score else 0, round(most * score / top))
        head = f"{rank:>2}. " if rank else "    "
        named = fit(pen.line((f"{head}{star if won else ' '} ", "bold"), (name, "bold" if won else "")), NAME_ROOM)
        rows.append([*named, *pen.line((f"{score:>4}  ", "bold"), (bar, "bold yellow" if won else "cyan"))])
    goal = _goal(game)
    if goal:
        rows.append([])
        rows.append(pen.line((goal, "italic")))
    inner = NAME_ROOM + 6 + most
    return [centred(fit(row, inner), width) for row in rows]


def _goal(game: PlayerView) -> str:
    if game.mode == Mode.STANDARD:
        return f"The first to {game.target} points was to win."
    return f"The game ended when everyone had told {words.times(game.storytells)}."


def next_words(view: TableView) -> Words:
    """What happens next at a table whose game is over."""
    host = words.host_name(view)
    first = (
        Words.of("Next: the host, ", (host, "bold"), ", can start a rematch: everyone here moves to its lobby.")
        if host is not None
        else Words.of("Next: nobody here can start a rematch.")
    )
    return Words.of(*first.parts, " Once everyone has left, the table closes.")


def over_lines(view: TableView, width: int, pen: Pen, *, big: bool) -> tuple[list[Line], list[Line]]:
    """The game over picture: its head (the keys, the winners big and how they won) and its body (the standings,
    what happens next, the last turn)."""
    game = view.game
    assert game is not None
    dot = pen.marks.dot
    keys = pen.line(
        ("You are watching", "bold"), f" {dot} l: leave the table {dot} c: chat {dot} r: the last turn {dot} F1: help"
    )
    played = "the practice turn" if game.turn == 0 else words.plural(game.turn, "turn")
    head: list[Line] = [centred(keys, width), []]
    head.append(centred(pen.line(("Game over", "bold"), f" {dot} {played} played"), width))
    head.append([])
    banner, under = winners_of(view)
    head.extend(clue_banner(pen, banner, width, big=big))
    head.append([])
    head.extend(centred(line, width) for line in wrap(pen.words(under, "bold"), width))
    head.append([])
    body = standings(pen, view, width)
    body.append([])
    body.extend(centred(line, width) for line in wrap(pen.words(next_words(view)), width))
    if (last := game.last_reveal) is not None:
        what = "The practice turn" if last.turn == 0 else f"Turn {last.turn}"
        quoted = f"{pen.marks.open_quote}{last.clue}{pen.marks.close_quote}"
        teller = words.seat_name(view, last.storyteller)
        line = Words.of(f"{what} was the last: the clue ", (quoted, "bold"), ", told by ", (teller, "bold"))
        body.append([])
        body.extend(centred(x, width) for x in wrap(pen.words(Words.of(*line.parts, " (r: its recap).")), width))
    return [fit(line, width) for line in head], [fit(line, width) for line in body]
