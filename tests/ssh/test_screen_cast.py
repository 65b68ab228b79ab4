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
        self.moved_to: screen_cast.ScreenCast | None = None

    def receive_cast(self, data: bytes) -> None:
        self.got.append(data)

    def cast_role(self, role: CastRole) -> None:
        self.told.append(role)

    def cast_moved(self, cast: screen_cast.ScreenCast) -> None:
        self.moved_to = cast


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


def test_a_cast_re_filed_under_another_key_is_found_there_and_becomes_one_with_a_cast_filed_there() -> None:
    cast, (a, b, c) = three_in_a_cast()
    assert screen_cast.rekey(cast, "k2") is cast  # what its members show moved on: found under the new key only
    assert cast.key == "k2" and screen_cast.casts() == [cast]
    d = Member("d")
    assert screen_cast.join("k2", d) is cast and cast.followers == [b, c, d]
    e, f = Member("e"), Member("f")
    other = screen_cast.join("k3", e)
    screen_cast.join("k3", f)
    told = (list(a.told), list(b.told), list(e.told))
    assert screen_cast.rekey(other, "k2") is cast  # the same picture as cast's: one cast, cast's source draws
    assert screen_cast.casts() == [cast] and other.members == []
    assert cast.source is a and cast.followers == [b, c, d, e, f]
    assert (e.moved_to, f.moved_to, a.moved_to) == (cast, cast, None)
    assert e.told == [*told[2], "follower"]  # its source follows
    assert a.told == [*told[0], "source"]  # the new followers' terminals show its picture, not its rows: sent whole
    assert b.told == told[1] and f.told == ["follower"]  # (followers follow on)
    assert cast.send(b"frame") == 5 * len(b"frame")
    assert f.got == [b"frame"]
