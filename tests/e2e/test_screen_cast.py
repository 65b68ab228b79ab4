"""Spectators of one table at the same size share one drawing (a cast: `ssh/screen_cast.py`, `tui/watch_cast.py`):
one app draws, its frames go to every member's terminal, the others' apps draw nothing while they follow.

Real SSH, pyte screens; a bots-only table plays while four spectators watch (three at 100x30, one at 120x34).
Bounded waits on screen contents and counters, no timing.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Iterable
from pathlib import Path

import pytest

from dixit_tui.bots.player import BotPlayer
from dixit_tui.coordinator import Coordinator, Identity
from dixit_tui.coordinator.models import REVEAL_SECONDS
from dixit_tui.ssh import screen_cast
from dixit_tui.ssh.driver import SSHDriver
from dixit_tui.tui import watch_cast
from dixit_tui.tui.app import DixitApp
from tests.e2e.bots import quick
from tests.e2e.harness import PtyClient, wait_for
from tests.e2e.servers import dixit_server
from tests.e2e.tui_driver import (
    RECAP_NEXT,
    TIMEOUT,
    add_bot,
    create_table,
    find,
    give_clue,
    key_of,
    open_lobby,
    press,
    start_game,
    submit_cards,
    text,
    wait_gone,
    wait_status,
    wait_text,
)
from tests.e2e.watched import all_drawn, driver_of
from tests.tui.fixtures import options

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

SIZE = (100, 30)
OTHER = (120, 34)


def shown(client: PtyClient) -> list[str]:
    return list(client.screen.display)


def app_of(driver: SSHDriver) -> DixitApp:
    app = driver._app
    assert isinstance(app, DixitApp)
    return app


def cast_of(driver: SSHDriver) -> screen_cast.ScreenCast | None:
    return next((c for c in screen_cast.casts() if driver in c.members), None)


async def bots_table(coord: Coordinator, names: tuple[str, ...] = ("Ada", "Bo", "Cy"), **table: object) -> str:
    """A table of bots playing (three unless told; its host, gone for good): its code."""
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options(target=100, **table))
    for name in names:
        await BotPlayer.join(coord, view.code, name, leave_when_alone=False)
    await host.start()
    await host.remove(view.you if view.you is not None else 0)
    return view.code


async def same_screens(source: PtyClient, followers: list[PtyClient], what: str) -> list[str]:
    """Until every follower's screen is the source's (bounded): the source's screen then."""
    await source.wait_until(lambda: all(shown(f) == shown(source) for f in followers), TIMEOUT, what)
    return shown(source)


async def next_update(client: PtyClient, before: list[str]) -> None:
    await client.wait_until(lambda: shown(client) != before, TIMEOUT, "a table update")


async def test_spectators_of_one_size_share_one_drawing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(watch_cast, "QUIET_SECONDS", 0.5)
    async with dixit_server(tmp_path) as (server, coord):
        code = await bots_table(coord)
        names = ["sam", "sue", "syd"]
        clients: dict[str, PtyClient] = {}
        for name in [*names, "oz"]:
            clients[name] = await PtyClient.connect(
                server.port,
                name,
                client_key=key_of(name),
                command=f"watch {code}",
                size=OTHER if name == "oz" else SIZE,
            )
        for client in clients.values():
            await wait_text(client, f"Dixit · table {code}")
        drivers = {name: driver_of(coord, name) for name in clients}

        # the three of one size land in one cast (the table's updates, taken quietly, make them join)
        await clients["sam"].wait_until(lambda: in_one(drivers[n] for n in names), TIMEOUT, "one cast of three")
        cast = cast_of(drivers["sam"])
        assert cast is not None
        assert cast_of(drivers["oz"]) is not cast  # another size: another drawing
        name_of = {driver: name for name, driver in drivers.items()}
        source = clients[name_of[cast.source]]  # type: ignore[index]
        follower_drivers = [drivers[name_of[f]] for f in cast.followers]  # type: ignore[index]
        followers = [clients[name_of[d]] for d in follower_drivers]
        screen = await same_screens(source, followers, "the followers' screens to be the source's after joining")
        # (what was due as it joined, at most: it joins once its table screen drew what it had due, but the screen
        # under it may repaint once more, which repaints the table screen: a frame)
        dropped = [d.writes_while_following for d in follower_drivers]
        assert all(count <= 1 for count in dropped), dropped
        updates_held = [app_of(d).cast_updates_held for d in follower_drivers]

        for _ in range(3):  # the bots play: each update reaches every member, drawn once
            await next_update(source, screen)
            screen = await same_screens(source, followers, "the followers' screens to be the source's")
        assert all(d.following for d in follower_drivers)
        assert screen_cast.following() == 2  # (`dixit_sessions_following`: oz's cast has no follower)
        assert [d.writes_while_following for d in follower_drivers] == dropped  # their apps drew nothing...
        assert [app_of(d).taken_while_following for d in follower_drivers] == [0, 0]  # ...took no update...
        assert all(app_of(d).cast_updates_held > n for d, n in zip(follower_drivers, updates_held, strict=True))
        assert all(d.cast_received > 0 for d in follower_drivers)
        assert drivers[name_of[cast.source]].cast_sent > 0  # type: ignore[index]

        # the source leaves: a follower is promoted, and every screen is right after the next update
        await source.close()
        remaining = [drivers[name_of[d]] for d in follower_drivers]
        await told_casts(
            followers[0].wait_until(
                lambda: in_one(remaining) and cast_of(remaining[0]).source in remaining,  # type: ignore[union-attr, operator]
                TIMEOUT,
                "the two left in one cast, one of them its source",
            )
        )
        lead = next(c for c, d in zip(followers, remaining, strict=True) if not d.following)
        other = next(c for c in followers if c is not lead)
        await next_update(lead, shown(lead))
        await same_screens(lead, [other], "every remaining screen right after the source left")

        # a follower presses a key: its own help at once (not the source's table), then its table again, right
        asker_driver = next(d for d in remaining if d.following)
        asker = clients[name_of[asker_driver]]
        await press(asker, "?")
        await wait_text(asker, "Help: ")
        assert not asker_driver.following
        await press(asker, "escape")
        await wait_text(asker, f"Dixit · table {code}")
        await next_update(lead, shown(lead))
        await same_screens(lead, [asker], "the screen of the one who pressed a key to be right")
        # (and, quiet again, it shares the lead's drawing: found under what the lead shows now, not when it formed)
        await told_casts(asker.wait_until(lambda: in_one(remaining), TIMEOUT, "the two in one cast again"))

        # a member resized to oz's size leaves and draws at its size: as oz's screen
        moved_driver = next(d for d in remaining if d is not asker_driver)
        moved = clients[name_of[moved_driver]]
        moved.resize(*OTHER)
        oz_cast = cast_of(drivers["oz"])
        await moved.wait_until(
            lambda: not moved_driver.in_cast or cast_of(moved_driver) is oz_cast, TIMEOUT, "the resized member to leave"
        )
        oz = clients["oz"]
        await next_update(oz, shown(oz))
        await same_screens(oz, [moved], "the resized spectator's screen drawn at its size")
        for client in clients.values():
            if not client.closed:
                await client.close()


async def told_casts(waiting: Awaitable[None]) -> None:
    """`waiting`, and if it fails, which sessions were in which cast then (the source first)."""
    try:
        await waiting
    except AssertionError as failed:
        raise AssertionError(f"{failed}\ncasts: {casts_told()}") from None


def casts_told() -> str:
    """The casts of the process, for a failure's message: each member's name, the source first."""
    return "; ".join(
        "[" + ", ".join(f"{m._app.identity.name}" for m in c.members) + "]"  # type: ignore[attr-defined]
        for c in screen_cast.casts()
    )


def in_one(drivers: Iterable[SSHDriver]) -> bool:
    """Whether `drivers` are all members of one cast."""
    members = list(drivers)
    found = cast_of(members[0])
    return found is not None and all(d in found.members for d in members)


async def test_with_screen_casts_off_spectators_of_one_size_each_draw_for_themselves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`serve --no-screen-cast`: two spectators of one size sitting still join no cast; each app draws its own."""
    monkeypatch.setattr(watch_cast, "QUIET_SECONDS", 0.2)
    async with dixit_server(tmp_path, no_screen_cast=True) as (server, coord):
        code = await bots_table(coord)
        clients = [
            await PtyClient.connect(server.port, name, client_key=key_of(name), command=f"watch {code}", size=SIZE)
            for name in ("sam", "sue")
        ]
        for client in clients:
            await wait_text(client, f"Dixit · table {code}")
        drivers = [driver_of(coord, name) for name in ("sam", "sue")]
        quiet = watch_cast.QUIET_SECONDS
        await wait_for(
            lambda: all(time.monotonic() - d.last_input > quiet for d in drivers), TIMEOUT, "both sitting still"
        )
        writes = [d.writes for d in drivers]
        for _ in range(3):  # the bots play: with casts on, the first frame drawn now would make them join one
            for client in clients:
                await next_update(client, shown(client))
        assert not any(d.in_cast for d in drivers)
        assert not any(cast_of(d) for d in drivers)
        assert [d.cast_received for d in drivers] == [0, 0]
        assert all(d.writes > n for d, n in zip(drivers, writes, strict=True))  # each app drew its own frames
        for client in clients:
            await client.close()


async def test_a_spectator_with_text_in_a_box_keeps_drawing_its_own_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(watch_cast, "QUIET_SECONDS", 0.2)
    async with dixit_server(tmp_path) as (server, coord):
        code = await bots_table(coord)
        clients = {
            name: await PtyClient.connect(server.port, name, client_key=key_of(name), command=f"watch {code}")
            for name in ("tess", "tom")
        }
        for client in clients.values():
            await wait_text(client, f"Dixit · table {code}")
        tess, tom = clients["tess"], clients["tom"]
        typist, other = driver_of(coord, "tess"), driver_of(coord, "tom")
        await press(tess, "c", *"half a thought")
        await wait_text(tess, "half a thought")
        for _ in range(3):  # the bots play on; tess sits still with her words in the box
            await next_update(tom, shown(tom))
            await next_update(tess, shown(tess))
        assert not typist.in_cast  # her screen is her own: the box and what she typed in it
        assert "half a thought" in "\n".join(shown(tess))
        await tom.wait_until(lambda: other.in_cast, TIMEOUT, "tom, sitting still, in a cast (of one)")
        for client in clients.values():
            await client.close()


async def ana_and_two_bots_watched(
    port: int, coord: Coordinator
) -> tuple[PtyClient, str, list[PtyClient], list[SSHDriver]]:
    """ana's table with two bots, its game started, watched by vic and val: ana, its code, the two spectators and
    their drivers."""
    ana = await open_lobby(port, "ana", key_of("ana"), size=(120, 50))
    code = await create_table(ana, target=30)
    await add_bot(ana)
    await add_bot(ana)
    await wait_text(ana, "3 seated")
    await wait_for(lambda: len(quick(coord, code)) == 2, TIMEOUT, "the two bots")
    pair = [
        await PtyClient.connect(port, name, client_key=key_of(name), command=f"watch {code}") for name in ("vic", "val")
    ]
    for client in pair:
        await wait_text(client, f"Dixit · table {code}")
    drivers = [driver_of(coord, name) for name in ("vic", "val")]
    await start_game(ana)
    return ana, code, pair, drivers


async def test_a_held_reveal_opens_each_spectators_own_recap_and_the_cast_forms_again_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table holds the reveal for its player: every spectator's screen opens the recap (a screen over the table:
    the cast breaks up, each draws its own), and once the hold ends they share one drawing again."""
    monkeypatch.setattr(watch_cast, "QUIET_SECONDS", 0.2)
    now = [1000.0]
    async with dixit_server(tmp_path, first_clue_grace=3600.0) as (server, coord):
        workers = list(getattr(coord, "workers", [coord]))
        for worker in workers:
            worker.timers.clock = lambda: now[0]  # the hold's clock is the test's
        ana, code, pair, drivers = await ana_and_two_bots_watched(server.port, coord)
        await pair[0].wait_until(lambda: in_one(drivers), TIMEOUT, "the two spectators in one cast")
        await give_clue(ana, 1, "tide")

        for client in pair:  # the reveal, held: each spectator's own recap over the table
            await wait_text(client, "Turn 1 revealed", RECAP_NEXT)
        assert not any(d.in_cast for d in drivers)
        now[0] += REVEAL_SECONDS  # the hold's time is up: the recaps close by themselves
        for worker in workers:
            table = worker.tables.get(code)
            if table is not None:
                await worker.reveal_over(table)
        for client in pair:
            await wait_gone(client, RECAP_NEXT)
        await pair[0].wait_until(lambda: in_one(drivers), TIMEOUT, "the two spectators in one cast again")
        await same_screens(pair[0], pair[1:], "both screens the same after the recap")  # (sent whole as it joined)
        for client in [*pair, ana]:
            await client.close()


async def test_a_spectator_who_moved_the_cursor_does_not_share_a_drawing_whose_cursor_is_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key leaves the cast, but the session joins one again once quiet: a spectator who moved the board's cursor
    keeps seeing it where she put it (her next arrow moves it from there), and does not join the others' drawing, whose
    cursor is on the first card (found playing over OpenSSH: ↓ on a follower, 3 s of quiet, its terminal showed ▶ 1
    again, and its next ↓ jumped to ▶ 3)."""
    monkeypatch.setattr(watch_cast, "QUIET_SECONDS", 0.0)  # (joins at the frame right after the key: no time counted)
    async with dixit_server(tmp_path, first_clue_grace=0.0) as (server, coord):
        ana, _, pair, drivers = await ana_and_two_bots_watched(server.port, coord)
        await submit_cards(ana, [1, 2])  # (a bot tells the first clue; two cards each at 3 seats; ana votes last)
        vic, val = pair
        for client in pair:
            await wait_status(client, "You are watching. Waiting for votes from ana.")
        await vic.wait_until(lambda: in_one(drivers), TIMEOUT, "the two spectators in one cast")
        await same_screens(vic, [val], "both boards with the cursor on the first card")
        assert "▶ 1" in text(vic)

        await press(vic, "down")
        await vic.wait_until(lambda: drivers[0].in_cast, TIMEOUT, "vic, quiet again, in a cast")
        await all_drawn(drivers[1], val)
        await all_drawn(drivers[0], vic)
        assert not in_one(drivers)  # her cursor is on the second card, val's on the first
        assert "▶ 2" in text(vic) and "▶ 1" in text(val)
        await press(vic, "down")
        await wait_text(vic, "▶ 3")
        for client in [*pair, ana]:
            await client.close()


async def test_a_spectator_who_scrolled_a_region_does_not_share_a_drawing_where_it_is_not_scrolled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twelve seats and the score track (an odyssey game) do not fit the side panel at 80x24: it scrolls. A spectator
    who scrolled it with the wheel keeps it scrolled once quiet again, and does not join the others' drawing, where it
    is not."""
    monkeypatch.setattr(watch_cast, "QUIET_SECONDS", 0.0)  # (joins at the frame right after the wheel: no time counted)
    async with dixit_server(tmp_path, first_clue_grace=3600.0) as (server, coord):  # (the bots wait: a still table)
        names = ("Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit")
        code = await bots_table(coord, names, profile="odyssey")
        pair = [
            await PtyClient.connect(server.port, name, client_key=key_of(name), command=f"watch {code}", size=(80, 24))
            for name in ("vic", "val")
        ]
        for client in pair:
            await wait_text(client, f"table {code}", "Score track")
        drivers = [driver_of(coord, name) for name in ("vic", "val")]
        vic, val = pair
        await vic.wait_until(lambda: in_one(drivers), TIMEOUT, "the two spectators in one cast")
        await same_screens(vic, [val], "both side panels at their top")
        seats = find(vic, "Seats")
        assert seats is not None
        for _ in range(3):
            vic.send(f"\x1b[<65;{seats[0] + 1};{seats[1] + 3}M")  # the wheel, down, over the side panel
        await vic.wait_until(lambda: find(vic, "Seats") is None, TIMEOUT, "vic's side panel scrolled")
        await vic.wait_until(lambda: drivers[0].in_cast, TIMEOUT, "vic, quiet again, in a cast")
        await all_drawn(drivers[1], val)
        await all_drawn(drivers[0], vic)
        assert not in_one(drivers)  # her side panel is scrolled, val's is not
        assert find(vic, "Seats") is None and find(val, "Seats") is not None
        for client in pair:
            await client.close()


async def test_a_spectator_joins_no_drawing_while_its_new_size_waits_for_its_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A window change reaches the app at most once per `resize_interval` (the sizes asked for meanwhile coalesced):
    until then its app draws at the old size. A spectator quiet again meanwhile joins no cast (it would get the frames
    of a size its terminal no longer has, and keep them once its app has the new one: it follows, its app draws
    nothing); once its app has the size, it joins the cast of that size (found by reading, after resizing followers
    over OpenSSH)."""
    monkeypatch.setattr(watch_cast, "QUIET_SECONDS", 0.0)  # (joins at the frame right after the window change)
    async with dixit_server(tmp_path, limit=["resize_interval=3600"]) as (server, coord):
        code = await bots_table(coord)
        clients = {
            name: await PtyClient.connect(
                server.port, name, client_key=key_of(name), command=f"watch {code}", size=size
            )
            for name, size in (("vic", SIZE), ("val", SIZE), ("oz", OTHER))
        }
        for client in clients.values():
            await wait_text(client, f"Dixit · table {code}")
        drivers = {name: driver_of(coord, name) for name in clients}
        pair = [drivers["vic"], drivers["val"]]
        await clients["vic"].wait_until(lambda: in_one(pair), TIMEOUT, "vic and val in one cast")
        # the follower resizes (told it left, it draws its screen whole: a frame, after which it may join again)
        mover = next(name for name in ("vic", "val") if drivers[name].following)
        moved, driver, oz = clients[mover], drivers[mover], clients["oz"]

        moved.resize(*OTHER)  # (the first size was handed on at the start: this one waits for the interval)
        await moved.wait_until(lambda: driver.resizes_asked == 2, TIMEOUT, "the window change at the server")
        await all_drawn(driver, moved)  # (its own screen again, drawn whole)
        assert driver.resizes_posted == 1  # (the first size, at the start)
        assert not in_one(pair)  # its app still draws 100x30, its terminal is not that size
        assert not driver.in_cast

        handle = driver._resize_handle  # the interval is over
        assert handle is not None
        handle.cancel()
        driver._apply_resize()
        await moved.wait_until(lambda: in_one([driver, drivers["oz"]]), TIMEOUT, "in oz's cast, of its size")
        await same_screens(oz, [moved], "its screen drawn at its size")
        for client in clients.values():
            await client.close()


async def test_a_spectator_quiet_later_joins_the_cast_whose_picture_moved_on_with_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cast is found under the key of what its members show, and the table moves that on for every member alike (the
    vote focuses each spectator's board): a spectator that may join later, whose key is of its screen now, joins the
    cast formed before (found looping the cast test on two workers: one run in five, a spectator who opened and closed
    help during a vote made a cast of its own beside the one formed before the vote, and the two never became one)."""
    monkeypatch.setattr(watch_cast, "QUIET_SECONDS", 0.0)  # (joins at its first frames)
    async with dixit_server(tmp_path, first_clue_grace=0.0) as (server, coord):
        ana, code, pair, drivers = await ana_and_two_bots_watched(server.port, coord)
        for client in pair:  # (a bot told the first clue; the bots' cards are in)
            await wait_status(client, "You are watching. Waiting for two cards from ana.")
        await pair[0].wait_until(lambda: in_one(drivers), TIMEOUT, "vic and val in one cast")
        await submit_cards(ana, [1, 2])
        for client in pair:  # the vote (ana votes last): each spectator's board has the keyboard
            await wait_status(client, "You are watching. Waiting for votes from ana.")
        await all_drawn(drivers[0], pair[0])
        await all_drawn(drivers[1], pair[1])

        wes = await PtyClient.connect(server.port, "wes", client_key=key_of("wes"), command=f"watch {code}")
        await wait_status(wes, "You are watching. Waiting for votes from ana.")
        trio = [*drivers, driver_of(coord, "wes")]
        await told_casts(wes.wait_until(lambda: trio[2].in_cast, TIMEOUT, "wes in a cast"))
        assert in_one(trio), casts_told()  # the picture vic and val share is wes's
        await same_screens(pair[0], [pair[1], wes], "the three screens the same")
        for client in [*pair, wes, ana]:
            await client.close()


async def test_a_spectator_back_from_help_after_the_vote_began_joins_the_others_drawing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Help opened before the vote and closed during it: the table comes back with the vote's focus (the board), as at
    every other spectator's screen, and the session joins their drawing again (it kept the focus of before the vote, and
    the cast was found under what it showed before the vote: a cast of its own, for good)."""
    monkeypatch.setattr(watch_cast, "QUIET_SECONDS", 0.0)  # (joins at the frame right after the key)
    async with dixit_server(tmp_path, first_clue_grace=0.0) as (server, coord):
        ana, _, pair, drivers = await ana_and_two_bots_watched(server.port, coord)
        vic, val = pair
        for client in pair:
            await wait_status(client, "You are watching. Waiting for two cards from ana.")
        await vic.wait_until(lambda: in_one(drivers), TIMEOUT, "vic and val in one cast")
        await press(vic, "?")
        await wait_text(vic, "Help: ")
        await submit_cards(ana, [1, 2])
        await wait_status(val, "You are watching. Waiting for votes from ana.")
        await all_drawn(drivers[1], val)
        await press(vic, "escape")
        await wait_status(vic, "You are watching. Waiting for votes from ana.")
        await told_casts(vic.wait_until(lambda: in_one(drivers), TIMEOUT, "vic and val in one cast again"))
        await same_screens(val if not drivers[1].following else vic, pair, "both screens the same")
        for client in [*pair, ana]:
            await client.close()


async def test_a_spectator_joins_again_once_quiet_at_a_still_table_drawing_nothing_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session quiet again joins a cast once its quiet time is over, not at the table's next frame: at a still table
    none comes. A follower who opened and closed help, and the source, who pressed a key that does nothing (its terminal
    showed its own frames: none comes to join at), each join the other's drawing, their apps drawing nothing for it."""
    monkeypatch.setattr(watch_cast, "QUIET_SECONDS", 0.3)
    async with dixit_server(tmp_path, first_clue_grace=3600.0) as (server, coord):
        ana, _, spectators, pair = await ana_and_two_bots_watched(server.port, coord)
        for client in spectators:  # (the table waits for ana's clue: it draws nothing)
            await wait_status(client, "You are watching. Waiting for the first clue.")
        clients = dict(zip(("vic", "val"), spectators, strict=True))
        drivers = dict(zip(("vic", "val"), pair, strict=True))
        await clients["vic"].wait_until(lambda: in_one(pair), TIMEOUT, "vic and val in one cast")

        name = next(n for n, d in drivers.items() if d.following)  # a follower: its own help, then its table
        asker, driver = clients[name], drivers[name]
        await press(asker, "?")
        await wait_text(asker, "Help: ")
        await press(asker, "escape")
        await wait_gone(asker, "Help: ")
        await all_drawn(driver, asker)
        writes = driver.writes
        await told_casts(asker.wait_until(lambda: in_one(pair), TIMEOUT, "the one back from help in the cast again"))
        assert driver.following and driver.writes == writes

        name = next(n for n, d in drivers.items() if not d.following)  # the source: a key that draws nothing
        client, driver = clients[name], drivers[name]
        received = driver.cast_received
        await all_drawn(driver, client)
        writes = driver.writes
        await press(client, "z")  # (it leaves, the follower draws for itself: then it follows that one)
        await told_casts(client.wait_until(lambda: driver.following, TIMEOUT, "the one who pressed z following"))
        assert in_one(pair) and driver.writes == writes
        await client.wait_until(lambda: driver.cast_received > received, TIMEOUT, "the new source's screen, sent whole")
        await same_screens(asker, [client], "both screens the same")
        for client in [*spectators, ana]:
            await client.close()


async def test_a_focus_report_is_not_a_key_a_spectator_stays_in_its_cast(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The terminal reports it lost the focus, or has it back (?1004: another window, a tmux pane): nobody pressed
    anything. It counted as a key: the session left its cast (its app drew for itself again) and its quiet time
    started over. Both spectators, the source and its follower, stay in their cast, their quiet time running on."""
    monkeypatch.setattr(watch_cast, "QUIET_SECONDS", 0.3)
    async with dixit_server(tmp_path, first_clue_grace=3600.0) as (server, coord):
        ana, _, spectators, pair = await ana_and_two_bots_watched(server.port, coord)
        for client in spectators:  # (the table waits for ana's clue: it draws nothing)
            await wait_status(client, "You are watching. Waiting for the first clue.")
        await told_casts(spectators[0].wait_until(lambda: in_one(pair), TIMEOUT, "vic and val in one cast"))
        monkeypatch.setattr(watch_cast, "QUIET_SECONDS", 3600.0)  # one that left now would stay out
        for report, focused in (("\x1b[O", False), ("\x1b[I", True)):
            for client, driver in zip(spectators, pair, strict=True):
                app, quiet_since = app_of(driver), driver.last_input
                client.send(report)
                read = lambda app=app, focused=focused: app.app_focus is focused  # noqa: E731
                await client.wait_until(read, TIMEOUT, f"the report {report!r} read")
                assert driver.last_input == quiet_since, "a focus report counted as the person's input"
                assert in_one(pair), f"a focus report took a spectator out of the cast: {casts_told()}"
        for client in [*spectators, ana]:
            await client.close()
