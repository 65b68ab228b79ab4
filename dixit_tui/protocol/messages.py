"""Coordinator updates as protocol v1 messages. Everything here is built from views, never from game state."""

from __future__ import annotations

from typing import Any

from dixit_tui.coordinator import (
    ChatUpdate,
    LobbyUpdate,
    NoticeUpdate,
    OverUpdate,
    QueueUpdate,
    RevealUpdate,
    StateUpdate,
    TableSummary,
    TableView,
    Update,
    VoidedUpdate,
)
from dixit_tui.coordinator.models import LeaderboardUpdate
from dixit_tui.engine import ErrorCode, Mode, PlayerView, Profile, Reveal
from dixit_tui.engine.config import profile_for
from dixit_tui.protocol.views import game_fields

PROTOCOL_VERSION = 1


def hello(name: str, motd: str = "") -> dict[str, Any]:
    message: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": name}
    if motd:
        message["motd"] = motd  # added to v1: the message of the day, when the server's admins set one
    return message


def error(code: ErrorCode, message: str, ref: Any = None) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, "ref": ref}


def summary(t: TableSummary) -> dict[str, Any]:
    return {
        "table": t.code,
        "mode": t.label,
        "status": t.status,
        "players": t.players,
        "seats": t.seats,
        "host": t.host,
        "spectators": t.spectators,
        "decks": list(t.decks),
        "turn_seconds": t.turn_seconds,
        "bots_only": t.bots_only,
    }


def no_game(you: int | None, host: int | None) -> dict[str, Any]:
    """The game fields of a state message while there is no game (the lobby, or a table not started yet)."""
    return {
        "phase": "lobby",
        "turn": 0,
        "you": you,
        "host": host,
        "players": [],
        "storyteller": None,
        "clue": None,
        "hand": [],
        "board": [],
        "votes_allowed": 1,
        "forbidden_slots": [],
        "your_cards": [],
        "your_votes": [],
        "your_red": None,
        "waiting_for": [],
    }


def lobby_state(tables: tuple[TableSummary, ...]) -> dict[str, Any]:
    return {
        "type": "state",
        "table": None,
        "mode": None,
        "profile": None,
        **no_game(None, None),
        "tables": [summary(t) for t in tables],
    }


def table_state(view: TableView) -> dict[str, Any]:
    players = [
        {
            "seat": s.seat,
            "name": s.name,
            "score": 0,
            "team": None,
            "connected": s.connected,
            "bot": s.bot,
            "removed": s.removed,
            "builtin": s.builtin,
        }
        for s in view.seats
    ]
    base: dict[str, Any]
    if view.game is None:
        mode = view.options.mode
        profile = profile_for(Mode(mode), Profile(view.options.profile)).value
        base = {"mode": mode, "profile": profile, **no_game(view.you, view.host)}
    else:
        base = game_fields(view.game)
        for entry, seat in zip(base["players"], players, strict=True):
            seat.update(score=entry["score"], team=entry["team"], removed=entry["removed"])
    held = {"reveal_until": view.reveal_until} if view.reveal_until is not None else {}
    return {
        "type": "state",
        "table": view.code,
        **base,
        "players": players,
        "chat_paused": view.chat_paused,
        "reconnect_code": view.reconnect_code,
        "start_problem": view.start_problem,
        "deadline": view.deadline,
        "phase_deadline": view.phase_deadline,
        "decks": list(view.options.decks),
        "typing": list(view.typing),
        "stand_ins": [{"seat": seat, "at": at} for seat, at in view.stand_ins],
        "version": view.version,
        "lock": view.lock,
        "invited": list(view.invited),
        **held,  # only while a reveal is held for the people at the table
    }


def reveal_message(reveal: Reveal) -> dict[str, Any]:
    """The `reveal` message: a scored turn's public record (who gave which card, the votes, the points)."""
    return {
        "type": "reveal",
        "turn": reveal.turn,
        "storyteller": reveal.storyteller,
        "clue": reveal.clue,
        "slots": [
            {"slot": s.slot, "card": s.card, "text": s.text, "owner": s.owner, "votes": list(s.votes), "red": s.red}
            for s in reveal.slots
        ],
        "points": [{"seat": p.seat, "delta": p.delta, "score": p.score} for p in reveal.points],
        "practice": reveal.turn == 0,
    }


def replay_json(code: str, view: PlayerView) -> dict[str, Any]:
    """A game's public record (what the transcript says), for scripts: nothing in it was ever hidden once shown."""
    return {
        "table": code,
        "mode": view.mode.value,
        "profile": view.profile.value,
        "phase": view.phase.value,
        "players": [{"seat": p.seat, "name": p.name, "team": p.team, "score": p.score} for p in view.players],
        "turns": [reveal_message(r) for r in view.history],
        "winners": list(view.winners),
    }


def encode_update(update: Update, lobby: tuple[TableSummary, ...]) -> dict[str, Any] | None:
    """One protocol message for one coordinator update, or None if headless clients do not get it."""
    match update:
        case StateUpdate(view=None):
            return lobby_state(lobby)
        case StateUpdate(view=view):
            assert view is not None
            return table_state(view)
        case LobbyUpdate(tables=tables):
            return lobby_state(tables)
        case RevealUpdate(reveal=reveal):
            return reveal_message(reveal)
        case VoidedUpdate(turn=turn):
            return {"type": "voided", "turn": turn}
        case OverUpdate(scores=scores, winners=winners):
            return {"type": "over", "scores": [{"seat": s, "score": v} for s, v in scores], "winners": list(winners)}
        case ChatUpdate(line=line):
            chat: dict[str, Any] = {"type": "chat", "seat": line.seat, "name": line.name, "text": line.text}
            if line.team is not None:
                chat["team"] = True  # added to v1: a line only the sender's team sees
            return chat
        case LeaderboardUpdate(board=board):
            rows = [
                {"rank": i, "name": name, "rating": round(rating, 3), "mu": round(mu, 3), "sigma": round(sigma, 3),
                 "games": games}
                for i, (name, rating, mu, sigma, games) in enumerate(board, 1)
            ]  # fmt: skip
            return {"type": "leaderboard", "players": rows}
        case QueueUpdate(queued=queued, waiting=waiting, text=text, table=table):
            return {"type": "queue", "queued": queued, "waiting": waiting, "text": text, "table": table}
        case NoticeUpdate(text=text, reason=reason):
            notice: dict[str, Any] = {"type": "notice", "text": text}
            if reason is not None:
                notice["reason"] = reason  # added to v1: you were sent to the lobby because your table closed
            return notice
    return None
