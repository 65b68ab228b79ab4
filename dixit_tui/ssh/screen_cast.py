"""Terminals that show the same frames share one drawing: a cast, one source and its followers.

Sessions whose apps would draw the very same frames (spectators of one table, same size and terminal; the app
decides when, `HostedDriver.join_cast`) join one cast under a key. Its first member, the source, draws as always and
each frame's bytes go to every follower's channel too (`SSHDriver.flush`); a follower's app does no work per update
(it holds what changes). A member is anything that takes bytes and is told its role (`Role`); when the source
leaves, the first follower is promoted.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Literal, Protocol

CastRole = Literal["source", "follower", "left"]
"""What a member is told: `source` (it draws for every member: send the whole screen again), `follower` (it draws
nothing), `left` (it left while following: draw the whole screen again for itself)."""


class CastMember(Protocol):
    def receive_cast(self, data: bytes) -> None:
        """A frame of the source's, as sent to its own channel: written to this member's."""

    def cast_role(self, role: CastRole) -> None:
        """This member's role changed (see `CastRole`); called from any member's context: it must only note it."""


class ScreenCast:
    """The members sharing one drawing: `members[0]` is the source, the rest follow, in the order they joined."""

    def __init__(self, key: Hashable) -> None:
        self.key = key
        self.members: list[CastMember] = []
        self.frames = 0
        """Frames the source wrote to followers."""

    @property
    def source(self) -> CastMember:
        return self.members[0]

    @property
    def followers(self) -> list[CastMember]:
        return self.members[1:]

    def send(self, data: bytes) -> int:
        """The source's frame to every follower; returns the bytes written (to all of them)."""
        followers = self.members[1:]  # (a copy: a follower whose channel closed leaves meanwhile)
        if not followers:
            return 0
        self.frames += 1
        for follower in followers:
            follower.receive_cast(data)
        return len(data) * len(followers)


_casts: dict[Hashable, ScreenCast] = {}


def casts() -> list[ScreenCast]:
    """The casts of this process (for tests and counters)."""
    return list(_casts.values())


def following() -> int:
    """Members of this process's casts that follow (their apps idle): the metric `dixit_sessions_following`."""
    return sum(len(cast.members) - 1 for cast in _casts.values())


def join(key: Hashable, member: CastMember) -> ScreenCast:
    """`member` joins the cast under `key` (made if none): its source if it is the first (nothing changes for it),
    else a follower (it is told, and the source is told to send its whole screen again)."""
    cast = _casts.get(key)
    if cast is None:
        cast = _casts[key] = ScreenCast(key)
    cast.members.append(member)
    if len(cast.members) > 1:
        member.cast_role("follower")
        cast.source.cast_role("source")
    return cast


def leave(cast: ScreenCast, member: CastMember) -> None:
    """`member` leaves `cast`: a follower is told (`left`); the source's first follower is promoted (told `source`);
    a cast left empty is gone."""
    if member not in cast.members:
        return
    was_source = cast.members[0] is member
    cast.members.remove(member)
    if not cast.members:
        if _casts.get(cast.key) is cast:
            del _casts[cast.key]
        return
    if was_source:
        cast.source.cast_role("source")
    else:
        member.cast_role("left")


def disband(cast: ScreenCast) -> None:
    """Every member leaves `cast` (its source's screen changed as every member's will, e.g. the table closed): each
    follower is told (`left`) and draws its own screen."""
    members, cast.members = cast.members, []
    if _casts.get(cast.key) is cast:
        del _casts[cast.key]
    for member in members[1:]:
        member.cast_role("left")
