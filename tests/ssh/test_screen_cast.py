"""The casts' registry (`dixit_tui.ssh.screen_cast`): who draws, who follows, who is told what, and when a cast goes.
(The whole path, real SSH and pyte screens: tests/e2e/test_screen_cast.py.)"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dixit_tui.ssh import screen_cast
from dixit_tui.ssh.screen_cast import CastRole


class Member:
    def __init__(self, name: str) -> None:
        self.name = name
        self.got: list[bytes] = []
        self.told: list[CastRole] = []

    def receive_cast(self, data: bytes) -> None:
        self.got.append(data)

    def cast_role(self, role: CastRole) -> None:
        self.told.append(role)


@pytest.fixture(autouse=True)
def no_casts() -> Iterator[None]:
    yield
    for cast in screen_cast.casts():
        screen_cast.disband(cast)


def three_in_a_cast() -> tuple[screen_cast.ScreenCast, tuple[Member, Member, Member]]:
    """a, b and c, joined in that order to one cast (a draws, b and c follow): the cast and them."""
    a, b, c = Member("a"), Member("b"), Member("c")
    cast = screen_cast.join("k", a)
    screen_cast.join("k", b)
    screen_cast.join("k", c)
    return cast, (a, b, c)


def test_the_first_draws_and_the_others_follow_and_get_its_frames() -> None:
    a, b, c, other = Member("a"), Member("b"), Member("c"), Member("other")
    cast = screen_cast.join("k", a)
    assert a.told == []  # (alone: nothing changes for it)
    assert screen_cast.join("k", b) is cast
    assert (a.told, b.told) == (["source"], ["follower"])  # the source sends its whole screen again
    screen_cast.join("k", c)
    assert (a.told, c.told) == (["source", "source"], ["follower"])
    assert screen_cast.join("k2", other) is not cast
    assert cast.send(b"frame") == 2 * len(b"frame")
    assert (a.got, b.got, c.got, other.got) == ([], [b"frame"], [b"frame"], [])


def test_a_follower_that_leaves_is_told_and_gets_no_more_frames() -> None:
    cast, (a, b, c) = three_in_a_cast()
    screen_cast.leave(cast, b)
    assert b.told == ["follower", "left"]
    cast.send(b"frame")
    assert (b.got, c.got) == ([], [b"frame"])
    assert cast.source is a


def test_the_source_leaving_promotes_the_first_follower() -> None:
    cast, (a, b, c) = three_in_a_cast()
    screen_cast.leave(cast, a)
    assert a.told == ["source", "source"]  # (nothing more: its terminal shows its own frames already)
    assert b.told == ["follower", "source"]  # it takes what it held and sends its whole screen to all
    assert cast.source is b and cast.followers == [c]
    cast.send(b"frame")
    assert (a.got, c.got) == ([], [b"frame"])


def test_a_cast_left_empty_is_gone_and_a_disbanded_one_tells_every_follower() -> None:
    a, b, c = Member("a"), Member("b"), Member("c")
    cast = screen_cast.join("k", a)
    screen_cast.leave(cast, a)
    assert screen_cast.casts() == []
    cast = screen_cast.join("k", a)
    screen_cast.join("k", b)
    screen_cast.join("k", c)
    screen_cast.disband(cast)
    assert screen_cast.casts() == []
    assert (b.told[-1], c.told[-1]) == ("left", "left")
    assert cast.send(b"frame") == 0
