"""Terminals that show the same frames share one drawing: a cast, one source and its followers.

Sessions whose apps would draw the very same frames (spectators of one table, same size and terminal; the app
decides when, `HostedDriver.join_cast`) join one cast under a key. Its first member, the source, draws as always and
each frame's bytes go to every follower's channel too (`SSHDriver.flush`); a follower's app does no work per update
(it holds what changes). A member is anything that takes bytes and is told its role (`CastRole`); when the source
leaves, the first follower is promoted. The source files its cast under the key of what it shows now, after each frame
(`rekey`: the table moves every member's picture alike); a cast filed there already and it become one.
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

    def cast_moved(self, cast: ScreenCast) -> None:
        """This member's cast became one with `cast` (`rekey`): it is a member of `cast` now (its role: told apart)."""


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


def rekey(cast: ScreenCast, key: Hashable) -> ScreenCast:
    """What `cast`'s members show is now the picture under `key` (its source's screen changed, as every member's own
    would): the cast is filed under `key`, where a session that may join looks for it. If a cast is filed there
    already, the two are one: `cast`'s members follow that cast's source from now on (each is moved, its source is told
    `follower`, and that cast's source `source`: the new followers' terminals show its picture, but not its rows).
    Returns the cast they are members of."""
    if key == cast.key or not cast.members:
        return cast
    if _casts.get(cast.key) is cast:
        del _casts[cast.key]
    other = _casts.get(key)
    if other is None:
        cast.key = key
        _casts[key] = cast
        return cast
    members, cast.members = cast.members, []
    other.members.extend(members)
    for member in members:
        member.cast_moved(other)
    members[0].cast_role("follower")
    other.source.cast_role("source")
    return other


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
