"""The crash test's checks of the views around a kill: before it, each view is the model's (or already shows the
action in flight); after it, each rejoined client's first view is its last one before (plus, perhaps, the action in
flight, which every view must agree on); a `create` nobody saw is told by the lobby. A breach raises
KillTestFailure and is counted as a loss or a differing view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dixit_tui.bench.killtest_client import Client
from dixit_tui.bench.killtest_failure import KillTestFailure
from dixit_tui.bench.killtest_moves import Action
from dixit_tui.bench.killtest_report import KillReport
from dixit_tui.bench.killtest_views import diff, model_message, project
from dixit_tui.coordinator.models import TableStatus


def expected(client: Client) -> dict[str, Any] | None:
    """What the client's view of its table must be now, as far as `project` looks."""
    game = client.game
    assert game is not None
    return project(model_message(game.code, game.model, client.seat))


def either_side(action: Action, seat: int) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """What `seat` sees of the action's table without the action, and with it."""
    code = action.game.code
    return project(model_message(code, action.before, seat)), project(model_message(code, action.after, seat))


class ViewChecks:
    """The checks of one run: they count what they find in its report; `known_codes` are the tables it created."""

    def __init__(self, report: KillReport, clients: Sequence[Client], known_codes: set[str]) -> None:
        self.report = report
        self.clients = clients
        self.known_codes = known_codes

    def check_pre(self, pre: dict[Client, dict[str, Any] | None], inflight: Action | None) -> bool:
        """Each view before the kill is the model's (or already shows the in-flight action). True if one does."""
        seen = False
        for client in self.clients:
            game = client.game
            if game is None:
                continue
            if inflight is not None and client is inflight.actor and inflight.kind in ("create", "join"):
                continue  # its last view may be of the new table (then it was acknowledged) or of its old one
            got = project(pre[client])
            if inflight is not None and game is inflight.game:
                before, after = either_side(inflight, client.seat)
                if got == after and got != before:
                    seen = True
                    continue
                want = before
            else:
                want = expected(client)
            if got != want:
                raise KillTestFailure(
                    f"before kill #{self.report.kills}, {client}'s view was not the model's (harness or broadcast "
                    f"problem, not durability): {diff(got, want)}"
                )
        return seen

    def check_post(
        self,
        rejoin: Sequence[Client],
        pre: dict[Client, dict[str, Any] | None],
        inflight: Action | None,
        seen: bool,
        *,
        partial: bool,
    ) -> set[str]:
        """Compare each rejoined client's first view with its last view before the kill. Returns the outcomes of
        the in-flight action that every view allows ("before": absent, "after": present)."""
        possible = {"before", "after"}
        for client in rejoin:
            game = client.game
            assert game is not None and game.code is not None
            post = client.rejoined_view()
            if post is None:
                if partial:
                    continue
                raise KillTestFailure(f"{client} has no view after rejoining")
            self.report.views_checked += 1
            got, had = project(post), project(pre[client])
            if inflight is not None and game is inflight.game and inflight.kind != "create":
                before, after = either_side(inflight, client.seat)
                allowed = {name for name, view in (("before", before), ("after", after)) if got == view}
                note = f"(in flight at the kill: {inflight})"
                # Equal to the view before the kill, or that view plus the in-flight action; if anyone saw the
                # action before the kill, it must be there.
                if not allowed or (got != had and not (got == after and had == before)):
                    self.differs(client, had, got, note)
                if seen and "after" not in allowed:
                    self.differs(client, had, got, note + " -- it was seen before the kill", loss=True)
                possible &= allowed
            elif got != had or got != expected(client):
                self.differs(client, had, got, "")
            for key in ("mode", "profile", "reconnect_code"):  # not in the model, but must not change either
                if post.get(key) != (pre[client] or {}).get(key):
                    self.report.mismatches += 1
                    raise KillTestFailure(
                        f"VIEW DIFFERS after kill #{self.report.kills}: {client}'s {key} was "
                        f"{(pre[client] or {}).get(key)!r} before, {post.get(key)!r} after"
                    )
        return possible

    def differs(
        self, client: Client, had: dict[str, Any] | None, got: dict[str, Any] | None, note: str, *, loss: bool = False
    ) -> None:
        kind = "LOSS" if loss or (had is not None and got is not None and older(got, had)) else "VIEW DIFFERS"
        if kind == "LOSS":
            self.report.losses += 1
        else:
            self.report.mismatches += 1
        raise KillTestFailure(
            f"{kind} after kill #{self.report.kills}: {client} at table {got and got['table']} {note}\n"
            f"  before the kill: {had}\n  after restart:   {got}\n  differences: {diff(got, had)}"
        )

    def create_outcome(self, action: Action) -> str:
        """A `create` nobody saw: committed iff the lobby now lists an unknown table hosted by its actor."""
        lobby = action.actor.lobby_state()
        assert lobby is not None
        fresh = [t for t in lobby.get("tables", ()) if t["table"] not in self.known_codes]
        mine = [
            t
            for t in fresh
            if t["host"] == action.actor.name and t["players"] == 1 and t["status"] == TableStatus.LOBBY
        ]
        if len(fresh) != len(mine) or len(mine) > 1:
            raise KillTestFailure(f"after kill #{self.report.kills} the lobby lists unexpected tables: {fresh}")
        if mine:
            self.known_codes.add(mine[0]["table"])
            self.report.orphan_tables += 1
            return "after"
        return "before"


def older(got: dict[str, Any], had: dict[str, Any]) -> bool:
    """Heuristic for the report: the view after the restart is behind the one before (something was undone)."""
    order = {"lobby": 0, "clue": 1, "submit": 2, "vote": 3, "over": 4}
    g = (got.get("turn") or 0, order.get(got.get("phase") or "", 0))
    h = (had.get("turn") or 0, order.get(had.get("phase") or "", 0))
    if g != h:
        return g < h
    return (
        len(got["your_cards"]) < len(had["your_cards"])
        or got["your_votes"] != had["your_votes"]
        or (len(got["waiting_for"]) > len(had["waiting_for"]))
    )
